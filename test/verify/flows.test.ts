/**
 * The flows of section 3 against the sandbox: every rule passes with its control plane; behind a proxy that
 * hides the control plane, the moves only the platform makes are `needs-platform`, never a pass or a fail.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definitions, findDefinition } from '../../src/interfaces.js';
import { sandboxClientOf, sandboxPrefixOf, sandboxSecret } from '../../src/runtime/definition.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { handWrittenModules } from '../../src/sandbox/modules.js';
import { flowsOf } from '../../src/verify/flows/registry.js';
import type { CheckResult } from '../../src/verify/model.js';
import { verify } from '../../src/verify/run.js';

let sandbox: Sandbox;
let proxy: Server;
let proxyUrl: string;

/** Forwards everything to the sandbox but its control plane (404 at /_sandbox): a target without one. */
function startProxy(target: string): Promise<Server> {
  const to = new URL(target);
  const self = (): string => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const server = createServer((incoming, outgoing) => {
    if ((incoming.url ?? '').startsWith('/_sandbox')) {
      outgoing.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
      return;
    }
    const forwarded = httpRequest(
      { host: to.hostname, port: to.port, path: incoming.url, method: incoming.method, headers: incoming.headers },
      (answer) => {
        // The sandbox names its own address in what it answers (problem types, locations): the proxy's instead.
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.from(Buffer.concat(chunks).toString('utf8').replaceAll(to.origin, self()));
          const { 'content-length': _length, 'transfer-encoding': _encoding, ...headers } = answer.headers;
          outgoing.writeHead(answer.statusCode ?? 502, { ...headers, 'content-length': body.length }).end(body);
        });
      },
    );
    forwarded.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(forwarded);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, strict: true });
  proxy = await startProxy(sandbox.url);
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => proxy?.close(() => resolve()));
  // The strict sandbox judged every answer the flows read: none may have left the contract.
  const drifts = sandbox?.drifts() ?? [];
  await sandbox?.close();
  expect(drifts).toEqual([]);
});

async function flowResults(interfaceName: string, origin: string, seed: string): Promise<CheckResult[]> {
  const definition = findDefinition(interfaceName)!;
  const client = sandboxClientOf(definition);
  // The child account the interface's samples operate, when its credential names one.
  const accountId = client.options?.accountId;
  const only = [...new Set(flowsOf(interfaceName).flatMap((flow) => flow.operations))];
  const report = await verify({
    interfaceName,
    baseUrl: origin + sandboxPrefixOf(definition.documents[0]!),
    credential: { clientId: client.clientId, clientSecret: sandboxSecret },
    allowWrites: true,
    ...(accountId === undefined ? {} : { accountId: String(accountId) }),
    seed,
    only,
  });
  return report.results.filter((each) => each.kind === 'flow');
}

const lines = (results: readonly CheckResult[]): string =>
  results.map((each) => `${each.verdict} ${each.operationId} ${each.rule}: ${each.reason}`).join('\n');

const interfaces = definitions.map((definition) => definition.name);

// An interface whose sandbox holds state (a hand-written module) has flows over its state machines of section 3;
// one served by the generic module (added by following the docs) has none, and runs none.
const statefulInterfaces = definitions
  .filter((definition) => definition.documents.some((document) => handWrittenModules.some((module) => module.document === document.name)))
  .map((definition) => definition.name);

/** The rules only the platform decides, by interface: needs-platform without a control plane. */
const platformMoves: Readonly<Record<string, readonly string[]>> = {
  pix: [
    'cob: a paid charge is CONCLUIDA',
    'cobv: a paid charge is CONCLUIDA',
    'rec: the payer accepting the request approves the recurrence',
  ],
  'core-banking': ['invoice: a registered invoice is cancelled'],
  accounts: ['invoice: a registered invoice is cancelled', 'CaaS order: a settled order is SETTLED'],
};

describe('flows against the sandbox', () => {
  for (const interfaceName of interfaces)
    it(`${interfaceName}: every rule of every flow passes with the control plane`, { timeout: 60_000 }, async () => {
      if (statefulInterfaces.includes(interfaceName)) expect(flowsOf(interfaceName).length).toBeGreaterThan(0);
      const results = await flowResults(interfaceName, sandbox.url, 'flows');
      const names = new Set(results.map((each) => each.rule.split(':')[0]));
      expect([...names].sort()).toEqual(
        flowsOf(interfaceName)
          .map((flow) => flow.name)
          .sort(),
      );
      const failed = results.filter((each) => each.verdict !== 'pass');
      expect(failed, lines(failed)).toEqual([]);
    });

  for (const interfaceName of interfaces)
    it(`${interfaceName}: without a control plane the platform's moves are needs-platform`, { timeout: 60_000 }, async () => {
      const results = await flowResults(interfaceName, proxyUrl, 'flows without a control plane');
      const wrong = results.filter((each) => each.verdict !== 'pass' && each.verdict !== 'needs-platform');
      expect(wrong, lines(wrong)).toEqual([]);
      const waiting = results.filter((each) => each.verdict === 'needs-platform');
      expect(waiting.map((each) => each.rule).sort(), lines(results)).toEqual([...(platformMoves[interfaceName] ?? [])].sort());
      // A rule the platform decides is never passed or failed behind the proxy: only asked.
      for (const each of waiting)
        expect(results.filter((other) => other.rule === each.rule && other.verdict !== 'needs-platform')).toEqual([]);
    });
});

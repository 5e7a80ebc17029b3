/**
 * `contrato verify` against servers that cannot be judged fairly: one that never answers, one that resets every
 * connection, ones that answer garbage (a body that is not JSON, a content-length the body never reaches, a
 * content-length that is not a number). The token request fails first against each. Whatever the server does,
 * verify returns a report (it never throws, never hangs): every operation has a result, nothing that needed an
 * answer passes, each failure says why, and the run ends within a bound computed from its requests.
 */
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { findDefinition } from '../../src/interfaces.js';
import { invalidPerOperation } from '../../src/verify/checks/invalid.js';
import type { VerifyReport } from '../../src/verify/model.js';
import { loadRequests } from '../../src/verify/requests.js';
import { verify } from '../../src/verify/run.js';

interface Broken {
  readonly name: string;
  /** Starts the server on 127.0.0.1 (a free port). */
  readonly start: () => Server;
  /** What every failure's reason must say (a failure for want of a token says that instead). */
  readonly why: RegExp;
}

/** A raw TCP server writing `answer` to every connection once a request arrives, then closing it. */
const raw = (answer: string) => (): Server =>
  createTcpServer((socket) => {
    socket.once('data', () => socket.end(answer));
    socket.on('error', () => undefined);
  });

const brokenServers: readonly Broken[] = [
  {
    name: 'never answers',
    start: () => createHttpServer(() => undefined),
    why: /timeout|time limit/,
  },
  {
    name: 'resets every connection',
    start: () => createHttpServer((request) => request.socket.destroy()),
    why: /closed|reset/,
  },
  {
    name: 'answers 200 <<not json>>',
    start: () =>
      createHttpServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('<<not json>>');
      }),
    why: /not JSON/,
  },
  {
    name: 'answers 200 with a body shorter than its content-length',
    start: raw('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\nconnection: close\r\n\r\n{"trunc'),
    why: /content-length|closed|reset/i,
  },
  {
    name: 'answers 200 with a content-length that is not a number',
    start: raw('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: lots\r\nconnection: close\r\n\r\n{}'),
    why: /content-length|closed|reset|not JSON/i,
  },
];

const timeoutMs = 300;
/** What the run may spend asking for the sandbox's control plane (src/verify/control.ts). */
const controlPlaneMs = 3000;

let running: { server: Server; sockets: Set<Socket> } | undefined;

afterEach(async () => {
  if (!running) return;
  const { server, sockets } = running;
  running = undefined;
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function listen(broken: Broken): Promise<string> {
  const server = broken.start();
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  running = { server, sockets };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * The longest a run may take: the control plane's question, then for every operation its valid request and
 * its variants, each with a token request before it (the token is asked again while it cannot be had), each
 * at most the time limit; and a margin for the run's own work.
 */
const boundOf = (operations: number): number => controlPlaneMs + operations * (1 + invalidPerOperation) * 2 * timeoutMs + 5000;

/** The number of operations of an interface with a request to send (its report lists them all, run or not). */
const operationCounts: Record<string, number> = Object.fromEntries(
  (['core-banking', 'pix'] as const).map((name) => [
    name,
    findDefinition(name)!.documents.reduce((count, document) => count + Object.keys(loadRequests(document.name)).length, 0),
  ]),
);

const runs = brokenServers.flatMap((broken) =>
  (['core-banking', 'pix'] as const).flatMap((interfaceName) =>
    [false, true].flatMap((allowWrites) =>
      // A server that never answers costs the time limit per request: core-banking is enough to show it ends.
      broken.name === 'never answers' && interfaceName === 'pix' ? [] : [{ broken, interfaceName, allowWrites }],
    ),
  ),
);

describe('verify against a broken server returns a report that says why', () => {
  for (const { broken, interfaceName, allowWrites } of runs) {
    const bound = boundOf(operationCounts[interfaceName]!);
    it(`${broken.name}: ${interfaceName}, ${allowWrites ? 'writes allowed' : 'read-only'}`, { timeout: bound + 10_000 }, async () => {
      const origin = await listen(broken);
      const started = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const report = await Promise.race([
        verify({
          interfaceName,
          baseUrl: `${origin}/api`,
          credential: { clientId: 'verify-broken', clientSecret: 'not-a-secret-of-anyone' },
          allowWrites,
          seed: 'broken',
          ratePerSecond: 0,
          timeoutMs,
        }),
        new Promise<'late'>((resolve) => {
          timer = setTimeout(() => resolve('late'), bound);
        }),
      ]).finally(() => clearTimeout(timer));
      const elapsed = Date.now() - started;
      expect(
        report,
        `verify returned within ${bound} ms (${operationCounts[interfaceName]} operations × time limit ${timeoutMs} ms)`,
      ).not.toBe('late');
      const { operations, results, controlPlane } = report as VerifyReport;
      console.log(
        `verify vs a server that ${broken.name} (${interfaceName}, writes ${allowWrites}): ${results.length} results in ${elapsed} ms`,
      );
      expect(elapsed).toBeLessThanOrEqual(bound);
      expect(controlPlane).toBe(false);
      expect(operations.length).toBe(operationCounts[interfaceName]);

      // Every operation has a result; nothing that needed an answer passes.
      for (const operationId of operations)
        expect(
          results.some((each) => each.operationId === operationId),
          `a result for ${operationId}`,
        ).toBe(true);
      expect(results.filter((each) => each.verdict === 'pass').map((each) => `${each.operationId} ${each.rule}`)).toEqual([]);

      // Each failure says why: the server's fault, or a token that could not be had because of it.
      const failed = results.filter((each) => each.verdict === 'fail');
      expect(failed.length).toBeGreaterThan(0);
      for (const each of failed) {
        expect(each.reason, `${each.operationId} [${each.kind}] ${each.rule}`).toMatch(
          new RegExp(`${broken.why.source}|no token could be had`, broken.why.flags),
        );
        // A plain-HTTP target has no TLS to blame.
        expect(each.reason, `${each.operationId} [${each.kind}] ${each.rule}`).not.toMatch(/\(tls\)/);
      }
      const secured = failed.filter((each) => /no token could be had/.test(each.reason));
      expect(secured.length, 'the secured operations fail for want of a token').toBeGreaterThan(0);
      // What is skipped says why it was not run.
      for (const each of results.filter((result) => result.verdict === 'skipped')) expect(each.reason).not.toBe('');
    });
  }
});

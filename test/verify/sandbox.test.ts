/**
 * The first proof that `contrato verify` judges: against a fresh strict sandbox with --allow-writes, every
 * operation of every interface is checked (its valid request accepted, then its variants, replays, pages,
 * tokens and flows) with 0 failures, and the sandbox's own strict check saw no answer leave the contract.
 * Operations only another kind of caller may make (the definition's `clientByOperation`) get a run with that
 * caller's credential. Read-only, nothing but reads and the token request is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definitions } from '../../src/interfaces.js';
import { sandboxClientOf, sandboxPrefixOf, sandboxSecret } from '../../src/runtime/definition.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import type { CheckResult } from '../../src/verify/model.js';
import { verify, type VerifyOptions } from '../../src/verify/run.js';

const seed = `verify-${Date.now()}`;
let sandbox: Sandbox;
const checked = new Map<string, Set<string>>();
const failures: CheckResult[] = [];
let checks = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, strict: true });
  console.log(`verify against the sandbox: seed ${seed}`);
});
afterAll(async () => {
  const total = definitions.reduce((sum, definition) => sum + (checked.get(`${definition.name}:all`)?.size ?? 0), 0);
  const operations = [...checked.entries()].filter(([key]) => !key.endsWith(':all')).reduce((sum, [, ids]) => sum + ids.size, 0);
  console.log(`verify against the sandbox: ${operations}/${total} operations checked, ${checks} checks, ${failures.length} failures`);
  await sandbox?.close();
});

function optionsOf(definition: (typeof definitions)[number], operationId?: string): VerifyOptions {
  const client = sandboxClientOf(definition, operationId);
  const accountId = client.options?.accountId;
  return {
    interfaceName: definition.name,
    baseUrl: `${sandbox.url}${sandboxPrefixOf(definition.documents[0])}`,
    credential: { clientId: client.clientId, clientSecret: sandboxSecret },
    allowWrites: true,
    seed,
    ...(accountId === undefined ? {} : { accountId: String(accountId) }),
    ...(operationId ? { only: [operationId] } : {}),
  };
}

describe.each(definitions.map((definition) => [definition.name, definition] as const))(
  'verify %s against a fresh sandbox',
  (name, definition) => {
    it('checks every operation with --allow-writes: 0 failures', { timeout: 240_000 }, async () => {
      const byOperation = Object.keys(definition.sandbox?.clientByOperation ?? {});
      const report = await verify({ ...optionsOf(definition), skip: byOperation });
      const results = [...report.results];
      for (const operationId of byOperation)
        results.push(...(await verify(optionsOf(definition, operationId))).results.filter((each) => each.operationId === operationId));
      checks += results.length;
      const failed = results.filter((each) => each.verdict === 'fail');
      failures.push(...failed);
      expect(failed.map((each) => `${each.operationId} [${each.kind}] ${each.rule}: ${each.reason}`)).toEqual([]);
      const accepted = new Set(results.filter((each) => each.kind === 'valid' && each.verdict === 'pass').map((each) => each.operationId));
      checked.set(name, accepted);
      checked.set(`${name}:all`, new Set(report.operations));
      expect(report.operations.filter((id) => !accepted.has(id))).toEqual([]);
      expect(results.filter((each) => each.verdict === 'needs-platform')).toEqual([]);
      // Each kind of check ran somewhere in the interface.
      const kinds = new Set(results.filter((each) => each.verdict === 'pass').map((each) => each.kind));
      expect([...kinds].sort()).toEqual(expect.arrayContaining(['invalid', 'token', 'valid']));
      expect(sandbox.drifts()).toEqual([]);
    });

    it('read-only by default: only reads and the token request are sent', { timeout: 120_000 }, async () => {
      // The operations only another kind of caller may make are that caller's (checked above with its credential).
      const report = await verify({
        ...optionsOf(definition),
        allowWrites: false,
        skip: Object.keys(definition.sandbox?.clientByOperation ?? {}),
      });
      const sent = report.results.flatMap((each) =>
        each.exchanges.map((exchange) => ({ id: each.operationId, method: exchange.request.method })),
      );
      const writes = sent.filter(({ method }) => !['GET', 'HEAD'].includes(method));
      // The only non-read a read-only run may send is the token request (unsecured: it authenticates the caller).
      expect(writes.filter(({ id }) => !/^auth\./.test(id))).toEqual([]);
      expect(report.results.filter((each) => each.verdict === 'fail')).toEqual([]);
      expect(report.results.some((each) => each.verdict === 'skipped' && /--allow-writes/.test(each.reason))).toBe(true);
    });
  },
);

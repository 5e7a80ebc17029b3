/**
 * `contrato verify` judges, it does not just run: the sandbox behind a loopback proxy that plants one drift at a
 * time (an undeclared status, a body off its schema, a refusal turned into a success, a token accepted that
 * must not be, an idempotent replay that answers otherwise, a page that lies, a connection reset or late).
 * Each drift is run twice with the same options: passing through, verify finds nothing; with the drift, it
 * fails the check of the kind and rule the drift breaks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDefinition } from '../../src/interfaces.js';
import { sandboxClientOf, sandboxPrefixOf, sandboxSecret } from '../../src/runtime/definition.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { verify } from '../../src/verify/run.js';
import type { CheckResult, VerifyReport } from '../../src/verify/model.js';
import { type Case, cases } from './drift-cases.js';
import { type DriftProxy, startDriftProxy } from './drift-proxy.js';

let sandbox: Sandbox;
let proxy: DriftProxy;
const detected = new Map<string, boolean>();

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  proxy = await startDriftProxy(sandbox.url);
});

afterAll(async () => {
  const found = [...detected.values()].filter(Boolean).length;
  console.log(`verify drifts: ${cases.length} planted, ${found} detected`);
  for (const [drift, seen] of detected) if (!seen) console.log(`  not detected: ${drift}`);
  await proxy?.close();
  await sandbox?.close();
  expect(found).toBe(cases.length);
});

let runs = 0;

function run(given: Case): Promise<VerifyReport> {
  runs += 1;
  const definition = findDefinition(given.interface);
  if (!definition) throw new Error(`drift ${given.drift}: ${given.interface} is no interface of the definitions`);
  const { clientId, options } = sandboxClientOf(definition);
  // The child account the interface's samples operate, when its credential names one.
  const accountId = options?.accountId;
  return verify({
    interfaceName: given.interface,
    baseUrl: `${proxy.url}${sandboxPrefixOf(definition.documents[0]!)}`,
    credential: { clientId, clientSecret: sandboxSecret },
    allowWrites: true,
    ...(accountId === undefined ? {} : { accountId: String(accountId) }),
    only: given.only,
    // A seed of its own: the ids the caller chooses (a txid) are new at the sandbox on every run.
    seed: `drifts-${runs}`,
    ratePerSecond: 0,
    ...(given.timeoutMs === undefined ? {} : { timeoutMs: given.timeoutMs }),
  });
}

const failures = (report: VerifyReport): CheckResult[] => report.results.filter((each) => each.verdict === 'fail');
const line = (each: CheckResult): string => `${each.operationId} [${each.kind}] ${each.rule}: ${each.reason}`;

describe('verify finds each planted drift', () => {
  for (const given of cases)
    it(`${given.interface}: ${given.drift}`, { timeout: 30_000 }, async () => {
      detected.set(given.drift, false);
      proxy.plant(null);
      const control = await run(given);
      expect(failures(control).map(line), 'passing through, nothing fails').toEqual([]);
      expect(
        control.results.some((each) => each.kind === given.wantKind && each.verdict === 'pass' && given.wantRule.test(each.rule)),
        'passing through, the check the drift breaks passes',
      ).toBe(true);

      proxy.plant(given.make());
      let touched = 0;
      const drifted = await run(given).finally(() => {
        touched = proxy.touched();
        proxy.plant(null);
      });
      expect(touched, 'the drift acted on some request').toBeGreaterThan(0);
      const wanted = failures(drifted).filter(
        (each) => each.kind === given.wantKind && given.wantRule.test(each.rule) && (given.wantReason?.test(each.reason) ?? true),
      );
      expect(
        wanted.map(line),
        `with the drift, a failure of [${given.wantKind}] ${given.wantRule}; failures: ${failures(drifted).map(line).join(' | ')}`,
      ).not.toEqual([]);
      detected.set(given.drift, true);
    });
});

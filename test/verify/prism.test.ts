/**
 * `contrato verify` against the Prism mock of an interface (`contrato mock`: the request-checking front with
 * Prism behind it). Prism answers from the examples and keeps no state, so a run against it must go to the end
 * and judge every operation, and the checks that need a stateful implementation — an idempotent replay, a
 * second payload under a key, a walk over pages, a flow, a consumer acting on what its producer made — are
 * free to fail there: this test prints what it found, it does not ask for zero failures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startMock } from '../../src/cli/servers.js';
import { findDefinition } from '../../src/interfaces.js';
import { sandboxClientOf, sandboxSecret } from '../../src/runtime/definition.js';
import { countsOf, type VerifyReport } from '../../src/verify/model.js';
import { verify } from '../../src/verify/run.js';

const interfaceName = 'core-banking';
let mock: RunningServer | undefined;

beforeAll(async () => {
  mock = await startMock(interfaceName, 0);
}, 60_000);

afterAll(async () => {
  await mock?.stop();
});

describe(`verify against the Prism mock of ${interfaceName}`, () => {
  it('runs to the end and judges every operation', { timeout: 120_000 }, async () => {
    const definition = findDefinition(interfaceName)!;
    const started = Date.now();
    let report: VerifyReport | undefined;
    let thrown: unknown;
    try {
      report = await verify({
        interfaceName,
        baseUrl: mock!.url,
        credential: { clientId: sandboxClientOf(definition).clientId, clientSecret: sandboxSecret },
        allowWrites: true,
        seed: 'prism',
        ratePerSecond: 0,
        timeoutMs: 5000,
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown, 'verify never throws').toBeUndefined();
    const { operations, results, controlPlane } = report!;
    const counts = countsOf(results);
    console.log(
      `verify against Prism (${interfaceName}): ${results.length} checks, ${counts.fail} failed, ${counts.pass} passed (${counts.skipped} skipped, ${counts['needs-platform']} need the platform) in ${Date.now() - started} ms`,
    );
    const failedByKind = new Map<string, number>();
    for (const each of results.filter((result) => result.verdict === 'fail'))
      failedByKind.set(each.kind, (failedByKind.get(each.kind) ?? 0) + 1);
    console.log(`  failed by kind: ${[...failedByKind].map(([kind, count]) => `${kind} ${count}`).join(', ') || 'none'}`);

    // Prism is not the sandbox: no control plane, so nothing the platform does is asked of it.
    expect(controlPlane).toBe(false);
    expect(operations.length).toBeGreaterThan(0);
    for (const operationId of operations)
      expect(
        results.some((each) => each.operationId === operationId),
        `a result for ${operationId}`,
      ).toBe(true);
    // Every operation was run (nothing left out: writes allowed, no --only), and each verdict is explained.
    expect(results.filter((each) => each.reason === '')).toEqual([]);
    expect(results.filter((each) => each.verdict === 'skipped' && /--only|--skip|--allow-writes/.test(each.reason))).toEqual([]);
    // Something was judged a pass: the examples Prism answers with are the contract's own.
    expect(counts.pass).toBeGreaterThan(0);
  });
});

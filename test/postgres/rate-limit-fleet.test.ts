/**
 * THE property of the shared rate limiter: 4 processes (test/postgres/fixtures/rate-limit-client.ts), each a
 * real core banking client with the PostgreSQL limiter on one bucket, send as fast as they can against one
 * counting server on 127.0.0.1; the server notes each request's arrival on its own monotonic clock. In ANY
 * interval of a window's length — sliding over all arrivals, not per calendar second — the server sees at
 * most that window's limit, for both windows; every arrival was admitted by the limiter; and the fleet used
 * the limit: at least 80 % of what the windows allow in the time every process was sending, so a limiter
 * that admits nothing, or one process at a time, fails. The limiter's safety margin (500 ms) covers how much
 * the time from admission to arrival varies on a busy machine (tens of ms here; with no margin the server
 * saw 12 in a second). Seeded: the processes' start delays and pacing (CONTRATO_SEED repeats a run).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { migrate } from '../../src/postgres/index.js';
import type { RateLimit } from '../../src/runtime/rate-limiter.js';
import { useTestDatabase } from '../helpers/postgres.js';
import { closeServer } from '../helpers/servers.js';

const database = useTestDatabase();

const processes = 4;
const workersPerProcess = 3;
// Between two bursts the windows allow (at 6.0 s and 7.5 s), so a late start does not change what was allowed.
const runMs = 6_700;
const marginMs = 500;
const windows: readonly RateLimit[] = [
  { limit: 10, intervalMs: 1_000 },
  { limit: 25, intervalMs: 4_000 },
];

/** The most arrivals in any half-open interval [t, t + intervalMs): the busiest one starts at an arrival. */
function busiestInterval(arrivals: readonly number[], intervalMs: number): number {
  let most = 0;
  let end = 0;
  for (let start = 0; start < arrivals.length; start += 1) {
    while (end < arrivals.length && arrivals[end]! < arrivals[start]! + intervalMs) end += 1;
    most = Math.max(most, end - start);
  }
  return most;
}

/** The shortest time spanned by limit + 1 consecutive arrivals (at least the window when the limit held). */
function tightestSpan(arrivals: readonly number[], limit: number): number {
  let tightest = Number.POSITIVE_INFINITY;
  for (let index = limit; index < arrivals.length; index += 1) tightest = Math.min(tightest, arrivals[index]! - arrivals[index - limit]!);
  return tightest;
}

/** How many requests the windows (each widened by the margin) admit at most in `durationMs`: greedily, each as early as allowed. */
function mostAdmitted(limits: readonly RateLimit[], margin: number, durationMs: number): number {
  const admitted: number[] = [];
  for (let now = 0; now <= durationMs; ) {
    let wait = 0;
    for (const { limit, intervalMs } of limits) {
      const inside = admitted.filter((at) => at > now - intervalMs - margin);
      if (inside.length >= limit) wait = Math.max(wait, inside[inside.length - limit]! + intervalMs + margin - now);
    }
    if (wait === 0) admitted.push(now);
    else now += wait;
  }
  return admitted.length;
}

interface CountingServer {
  readonly url: string;
  readonly arrivals: number[];
  close(): Promise<void>;
}

/** Answers the token and every balance; notes the arrival of each balance request (not the token's, nor the warm-up's). */
async function startCountingServer(): Promise<CountingServer> {
  const arrivals: number[] = [];
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    if (!path.startsWith('/warmup/') && !path.endsWith('/auth/token')) arrivals.push(performance.now());
    const body = path.endsWith('/auth/token')
      ? { access_token: 'fleet-token', token_type: 'Bearer', expires_in: 3600 }
      : { accountId: '7', balance: 1, currency: 'BRL', lastUpdated: '2026-11-24T10:00:00Z' };
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    close: () => closeServer(server),
  };
}

interface Replica {
  readonly child: ChildProcess;
  /** Resolves on `ready`; rejects when the process ends first. */
  readonly ready: Promise<void>;
  /** The JSON line it ends with. */
  readonly tally: Promise<{ answered: number; cancelled: number; failed: number; firstFailure: string }>;
}

function startReplica(environment: Record<string, string>): Replica {
  const child = spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'test/postgres/fixtures/rate-limit-client.ts')], {
    cwd: projectRoot,
    env: { ...process.env, ...environment },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const lines = createInterface({ input: child.stdout! });
  const ended = new Promise<never>((_, reject) =>
    child.once('exit', (code, signal) => reject(new Error(`replica ended (${code ?? signal}) before its tally: ${stderr.slice(0, 2000)}`))),
  );
  ended.catch(() => {});
  const ready = Promise.race([new Promise<void>((resolve) => lines.on('line', (line) => line === 'ready' && resolve())), ended]);
  const tally = Promise.race([
    new Promise<Awaited<Replica['tally']>>((resolve) => lines.on('line', (line) => line.startsWith('{') && resolve(JSON.parse(line)))),
    ended,
  ]);
  return { child, ready, tally };
}

/** Rejects after `ms`, so every wait on the replicas is bounded. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took more than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

describe('the shared rate limit across 4 processes', () => {
  it('the server never sees more than a window’s limit in any interval of its length, and the fleet uses the limit', async () => {
    const seed = process.env.CONTRATO_SEED ? Number(process.env.CONTRATO_SEED) : Date.now() % 2 ** 31;
    console.log(`seed ${seed}`);
    const schema = database().freshSchema();
    await migrate(database().pool, { schema });
    const server = await startCountingServer();
    const bucket = 'core-banking:fleet-client';
    const replicas: Replica[] = [];
    try {
      for (let index = 0; index < processes; index += 1)
        replicas.push(
          startReplica({
            CONTRATO_PG_URL: database().url,
            CONTRATO_PG_SCHEMA: schema,
            RATE_LIMIT_BASE_URL: server.url,
            RATE_LIMIT_BUCKET: bucket,
            RATE_LIMIT_WINDOWS: JSON.stringify(windows),
            RATE_LIMIT_MARGIN_MS: String(marginMs),
            RATE_LIMIT_RUN_MS: String(runMs),
            RATE_LIMIT_WORKERS: String(workersPerProcess),
            RATE_LIMIT_SEED: String(seed + index),
          }),
        );
      await within(Promise.all(replicas.map((replica) => replica.ready)), 60_000, 'starting the replicas');
      for (const replica of replicas) replica.child.stdin!.write('go\n');
      const tallies = await within(Promise.all(replicas.map((replica) => replica.tally)), runMs + 20_000, 'the run');

      const arrivals = [...server.arrivals].sort((a, b) => a - b);
      const { rows } = await database().pool.query<{ n: number }>(
        `select count(*)::int as n from "${schema}".rate_limit_sends where bucket = $1`,
        [bucket],
      );
      const allowed = mostAdmitted(windows, marginMs, runMs);
      const report = windows.map(({ limit, intervalMs }) => ({
        window: `${limit} per ${intervalMs} ms`,
        busiest: busiestInterval(arrivals, intervalMs),
        tightestSpanMs: Math.round(tightestSpan(arrivals, limit)),
      }));
      console.log(
        JSON.stringify({ seed, arrivals: arrivals.length, admitted: rows[0]!.n, allowedIn: { runMs, allowed }, windows: report, tallies }),
      );

      expect(tallies.map((tally) => tally.firstFailure)).toEqual(tallies.map(() => ''));
      for (const [index, { limit }] of windows.entries()) expect(report[index]!.busiest).toBeLessThanOrEqual(limit);
      expect(arrivals.length).toBeLessThanOrEqual(rows[0]!.n);
      expect(arrivals.length).toBeGreaterThanOrEqual(Math.ceil(0.8 * allowed));
      // Every process took part: the limit is the fleet's, not one process's.
      for (const tally of tallies) expect(tally.answered).toBeGreaterThan(0);
    } finally {
      for (const replica of replicas) replica.child.kill('SIGKILL');
      await server.close();
    }
  }, 120_000);
});

/**
 * THE property of leased polling (issue 20): three poller processes on one cursor name against one message
 * exchange, the active one SIGKILLed at seeded random instants and replaced each time so three stay alive.
 * The exchange records every poll's start and end (its answer, or its socket closing) on one clock; at the
 * end no two pollers' polls overlapped — exactly one polled at a time — every message 1..M was handled
 * (each poller records a message in PostgreSQL before its cursor is stored), and after each kill another
 * poller took over within the lease time. Replay a run with CONTRATO_SEED.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { migrate } from '../../src/postgres/index.js';
import { createTestPki, type TestPki } from '../helpers/certificates.js';
import { startTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { seededRandom, testSeed } from '../helpers/seeded.js';
import { type CursorsExchange, type RecordedPoll, startCursorsExchange } from './fixtures/cursors-exchange.js';

/**
 * Six messages are published every second until the last kill: a poll is mostly held open, and a batch takes
 * a while to handle, so kills land in both; M is the number published by then.
 */
const publishEveryMs = 1_000;
const workMs = 40;
const leaseMs = 1_000;
/** Kills aim alternately at the active poller's open poll and inside a batch it handles. */
const kills = 6;
/**
 * How much two pollers' polls may overlap: none. A SIGKILLed poller's socket is closed by the kernel as it
 * dies and the exchange records the end on its next turn, while the next holder cannot poll before the dead
 * one's lease ran out in the database, at least two thirds of leaseMs after its last renewal; a live poller
 * whose renewals stop answering gives up at 90 % of leaseMs, before its lease can be taken. Both leave
 * hundreds of milliseconds where a tolerance would cover a few.
 */
const toleranceMs = 0;

let database: TestDatabase;
let pki: TestPki;
const scratch = mkdtempSync(join(tmpdir(), 'contrato-cursors-'));

beforeAll(async () => {
  database = await startTestDatabase();
  pki = createTestPki();
}, 60_000);

afterAll(async () => {
  pki?.dispose();
  rmSync(scratch, { recursive: true, force: true });
  await database?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

interface Poller {
  readonly name: string;
  readonly process: ChildProcess;
  readonly exited: Promise<void>;
  readonly output: string[];
}

/** The largest overlap in time between two polls of different pollers (negative: the smallest gap). */
function largestOverlap(polls: readonly RecordedPoll[]): { ms: number; between?: [RecordedPoll, RecordedPoll] } {
  let largest: { ms: number; between?: [RecordedPoll, RecordedPoll] } = { ms: Number.NEGATIVE_INFINITY };
  for (const [index, a] of polls.entries()) {
    for (const b of polls.slice(index + 1)) {
      if (a.poller === b.poller) continue;
      const overlap = Math.min(a.end!, b.end!) - Math.max(a.start, b.start);
      if (overlap > largest.ms) largest = { ms: overlap, between: [a, b] };
    }
  }
  return largest;
}

describe('three leased pollers on one cursor, the active one killed at random instants', () => {
  it('poll one at a time and lose no message', async () => {
    const seed = testSeed('cursors-pollers', 'CONTRATO_SEED');
    console.log(`seed ${seed}`);
    const random = seededRandom(seed);
    const schema = database.freshSchema();
    await migrate(database.pool, { schema });
    await database.pool.query(`create table "${schema}".handled (seq int not null, poller text not null)`);
    const exchange: CursorsExchange = await startCursorsExchange({ pki, batchSize: 4, holdMs: 1_000 });
    const pkiFile = join(scratch, 'pki.json');
    writeFileSync(pkiFile, JSON.stringify({ ca: pki.ca, pfx: pki.clientPfx.toString('base64'), passphrase: pki.pfxPassphrase }));

    const alive = new Map<string, Poller>();
    const crashed: string[] = [];
    let started = 0;
    const startPoller = (): Poller => {
      started += 1;
      const name = `poller-${started}`;
      const child = spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'test/postgres/fixtures/cursors-poller.ts')], {
        cwd: projectRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          CURSORS_DATABASE_URL: database.url,
          CURSORS_SCHEMA: schema,
          CURSORS_EXCHANGE: exchange.url,
          CURSORS_PKI: pkiFile,
          CURSORS_POLLER: name,
          CURSORS_LEASE_MS: String(leaseMs),
          CURSORS_WORK_MS: String(workMs),
        },
      });
      const output: string[] = [];
      child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
      child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
      const exited = new Promise<void>((resolve) =>
        child.once('exit', (_code, signal) => {
          // Only the test ends a poller, with SIGKILL: any other end is a failure, told with what it printed.
          if (signal !== 'SIGKILL') crashed.push(`${name}: ${output.join('')}`);
          resolve();
        }),
      );
      const poller = { name, process: child, output, exited };
      alive.set(name, poller);
      return poller;
    };
    const publisher = setInterval(() => exchange.publish(6), publishEveryMs);
    const takeovers: number[] = [];
    let messages = 0;
    const killedWhile = { polling: 0, handling: 0 };
    try {
      for (let index = 0; index < 3; index += 1) startPoller();
      await until(() => (exchange.polls.some((poll) => poll.answered > 0) ? true : undefined), 20_000, 'a first batch');
      for (let kill = 0; kill < kills; kill += 1) {
        await sleep(300 + Math.floor(random() * 1_200));
        // The active poller is the one that polled last; wait for the moment this kill is meant for.
        const moment = kill % 2 === 0 ? 'polling' : 'handling';
        const last = await until(
          () => {
            const poll = exchange.polls.at(-1);
            if (!poll) return undefined;
            if (moment === 'polling') return poll.end === undefined ? poll : undefined;
            return poll.end !== undefined && poll.answered > 0 ? poll : undefined;
          },
          10_000,
          `the active poller ${moment}`,
        );
        // Inside the batch: before its first message was recorded, or after some (handled again by the next).
        if (moment === 'handling') await sleep(Math.max(0, last.end! + random() * last.answered * workMs - performance.now()));
        const victim = alive.get(last.poller)!;
        killedWhile[exchange.polls.at(-1) === last && last.end !== undefined ? 'handling' : 'polling'] += 1;
        victim.process.kill('SIGKILL');
        const at = performance.now();
        alive.delete(victim.name);
        await victim.exited;
        startPoller();
        const next = await until(
          () => exchange.polls.find((poll) => poll.start > at && poll.poller !== victim.name),
          10_000,
          `a poller to take over from ${victim.name}`,
        );
        takeovers.push(Math.round(next.start - at));
      }
      clearInterval(publisher);
      messages = exchange.published();
      // Consumed to the end once the stored cursor is past message M; what was handled is checked below.
      const storedCursor = async () =>
        (await database.pool.query<{ cursor: string }>(`select cursor from "${schema}".poll_cursors where name = 'spi-inbox'`)).rows[0]
          ?.cursor;
      await until(async () => ((await storedCursor()) === `c${messages}` ? true : undefined), 30_000, `the cursor to reach c${messages}`);
    } finally {
      clearInterval(publisher);
      for (const poller of alive.values()) poller.process.kill('SIGKILL');
      await Promise.all([...alive.values()].map((poller) => poller.exited));
    }
    await until(() => (exchange.polls.every((poll) => poll.end !== undefined) ? true : undefined), 5_000, 'every poll to end');
    await exchange.close();

    const { rows } = await database.pool.query<{ seq: number }>(`select seq from "${schema}".handled order by seq`);
    const distinct = [...new Set(rows.map((row) => row.seq))];
    const overlap = largestOverlap(exchange.polls);
    console.log(
      `seed ${seed}: ${takeovers.length} kills (${killedWhile.polling} with a poll open, ${killedWhile.handling} handling a batch), ${started} pollers, ${exchange.polls.length} polls, ${messages} messages, ${rows.length} handled (${rows.length - distinct.length} again after a kill), ` +
        `largest overlap between two pollers ${overlap.ms.toFixed(1)} ms (negative: the smallest gap), takeovers after a kill ${takeovers.join(', ')} ms`,
    );

    expect(crashed).toEqual([]);
    expect(takeovers).toHaveLength(kills);
    // Aimed at alternately; a kill aimed inside a batch lands in the next poll when the batch was over already.
    expect(killedWhile.polling).toBeGreaterThan(0);
    expect(killedWhile.handling).toBeGreaterThan(0);
    expect(distinct).toEqual(Array.from({ length: messages }, (_, index) => index + 1));
    expect(new Set(exchange.polls.map((poll) => poll.poller)).size).toBeGreaterThan(kills);
    expect(overlap.ms, JSON.stringify(overlap.between)).toBeLessThanOrEqual(toleranceMs);
    // The lease runs out at most leaseMs after the kill, a waiting poller asks every quarter of it; the rest is
    // a database round trip and a poll on loopback.
    for (const takeover of takeovers) expect(takeover).toBeLessThan(leaseMs + leaseMs / 4 + 1_000);
  }, 120_000);
});

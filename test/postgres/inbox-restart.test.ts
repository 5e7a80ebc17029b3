/**
 * The PostgreSQL inbox through database restarts: three receiver processes (fixtures/inbox-receiver.ts) with
 * createPostgresWebhookHandler, each callback holding its transaction's connection a seeded while before its
 * write, get a stream of webhook deliveries while the embedded server is stopped (a fast shutdown, which ends
 * every session: "terminating connection due to administrator command") and started again, twice, on the same
 * data and port. A sender resends whatever was not acknowledged (any other status, or no answer) to the next
 * receiver, a bounded number of times. No receiver may exit; the deliveries in flight and those that come
 * while the database is down are answered 503; every event is handled exactly once. The seed is printed;
 * CONTRATO_SEED repeats a run.
 */
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../src/postgres/index.js';
import { useRestartableDatabase } from '../helpers/postgres.js';
import { seededRandom, testSeed } from '../helpers/seeded.js';
import { createBusinessTables, invoicePaid, post } from './fixtures/inbox-http.js';
import { startReceivers } from './fixtures/inbox-receivers.js';

const database = useRestartableDatabase();
let children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children = [];
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const events = 150;
const receiverCount = 3;
const restarts = 2;
/** Attempts per event, the pause between them growing to a second: about a minute in all, far beyond a restart. */
const maxAttempts = 60;
/** The claim of a delivery cut by a restart holds this long: its resends are asked to come back meanwhile. */
const leaseMs = 1_500;

describe('the PostgreSQL inbox while the database restarts', () => {
  it('3 webhook receivers, the server stopped and started twice mid-stream: no receiver exits, each event handled once', async () => {
    const seed = testSeed('inbox through restarts', 'CONTRATO_SEED');
    const random = seededRandom(seed);
    const schema = database().freshSchema();
    await migrate(database().pool, { schema });
    await createBusinessTables(database().pool, schema);
    const receivers = await startReceivers(
      receiverCount,
      (index) => ({
        CONTRATO_PG_URL: database().url,
        CONTRATO_PG_SCHEMA: schema,
        INBOX_KIND: 'webhook',
        INBOX_FAIL_FIRST: '',
        INBOX_LEASE_MS: String(leaseMs),
        INBOX_WORK_MS: '40',
        INBOX_SEED: String(seed + index),
      }),
      children,
    );
    const exits: string[] = [];
    for (const { child } of receivers) child.once('exit', (code, signal) => exits.push(`pid ${child.pid}: ${signal ?? code}`));

    const statuses = new Map<string, number>();
    const count = (what: string) => statuses.set(what, (statuses.get(what) ?? 0) + 1);
    let acknowledged = 0;
    const ids = Array.from({ length: events }, (_, index) => 9000 + index);
    const pauses = ids.map(() => Math.floor(random() * 60));
    const firstReceiver = ids.map(() => Math.floor(random() * receiverCount));

    /** Sends one event until it is acknowledged, to the next receiver each time; at most maxAttempts. */
    const deliver = async (index: number): Promise<number> => {
      for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
        if (exits.length > 0) throw new Error(`receivers exited: ${exits.join('; ')} (seed ${seed})`);
        const { url } = receivers[(firstReceiver[index]! + attempt) % receiverCount]!;
        const status = await post(`${url}/hooks`, invoicePaid(ids[index]!), 10_000).then(
          (answer) => (answer.status === 200 && answer.body.duplicate === true ? 'duplicate' : String(answer.status)),
          () => 'no answer',
        );
        count(status);
        if (status === '200' || status === 'duplicate') {
          acknowledged += 1;
          return attempt + 1;
        }
        await sleep(Math.min(1_000, 50 * (attempt + 1)));
      }
      throw new Error(`event ${ids[index]} was not acknowledged after ${maxAttempts} attempts (seed ${seed})`);
    };

    // Six senders at once over the stream, each pausing a seeded while between its events.
    let next = 0;
    const senders = Array.from({ length: 6 }, async () => {
      const attempts: number[] = [];
      for (let index = next++; index < events; index = next++) {
        await sleep(pauses[index]!);
        attempts.push(await deliver(index));
      }
      return attempts;
    });
    // Each restart once a further third of the stream was acknowledged, the server down a seeded 0.3–1 s.
    const restarter = (async () => {
      const downtimes: number[] = [];
      for (let restart = 1; restart <= restarts; restart += 1) {
        for (let waited = 0; acknowledged < (events * restart) / (restarts + 1); waited += 10) {
          if (waited > 120_000) throw new Error(`the stream stalled before restart ${restart} (seed ${seed})`);
          await sleep(10);
        }
        await database().stopServer();
        const downMs = 300 + Math.floor(random() * 700);
        await sleep(downMs);
        await database().startServer();
        downtimes.push(downMs);
      }
      return downtimes;
    })();
    const [attempts, downtimes] = await Promise.all([Promise.all(senders).then((all) => all.flat()), restarter]);

    const { rows } = await database().pool.query<{ id: string; times: number }>(
      `select id, count(*)::int as times from "${schema}".effects group by id order by id`,
    );
    const deliveries = attempts.reduce((sum, each) => sum + each, 0);
    console.log(
      `seed ${seed}: ${events} events, ${deliveries} deliveries (${deliveries - events} resends) to ${receiverCount} receivers, ` +
        `${downtimes.length} restarts (down ${downtimes.join(', ')} ms); answers: ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    expect(exits).toEqual([]);
    expect(rows).toEqual(ids.map((id) => ({ id: String(id), times: 1 })));
    expect(downtimes).toHaveLength(restarts);
    // A delivery the restart caught, or that came while the database was down, is asked to come back: 503, never 500.
    expect(statuses.get('503') ?? 0).toBeGreaterThan(0);
    expect([...statuses.keys()].filter((status) => !['200', 'duplicate', '503'].includes(status))).toEqual([]);
    for (const { child } of receivers) expect(child.exitCode === null && child.signalCode === null).toBe(true);
  }, 240_000);
});

/**
 * The inbox across processes: receiver processes (test/postgres/fixtures/inbox-receiver.ts), each its own
 * HTTP server and pool on one schema, get every delivery 2–4 times at once, on different processes, in a
 * seeded order; the first attempt of some ids fails on purpose, and whatever is not acknowledged is sent
 * again as the platform would. At the end each id's business row exists exactly once, no failed attempt
 * left a row, each failed attempt was answered 500, and the copies were answered as duplicates (200) or
 * asked to come back (503) and then acknowledged. The seed is printed; CONTRATO_SEED repeats a run.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/postgres/index.js';
import { startTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { seededRandom, testSeed } from '../helpers/seeded.js';
import { type Answer, createBusinessTables, endToEndId, invoicePaid, pixReceived, post } from './fixtures/inbox-http.js';
import { startReceivers as startReceiverProcesses } from './fixtures/inbox-receivers.js';

let database: TestDatabase;
let children: ChildProcess[] = [];

beforeAll(async () => {
  database = await startTestDatabase();
}, 60_000);

afterEach(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children = [];
});

afterAll(async () => {
  await database?.stop();
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Starts `count` receiver processes on `schema`; answers their base URLs once each listens (30 s at most). */
async function startReceivers(count: number, schema: string, kind: 'webhook' | 'pix', failFirst: readonly string[]): Promise<string[]> {
  const environment = {
    CONTRATO_PG_URL: database.url,
    CONTRATO_PG_SCHEMA: schema,
    INBOX_KIND: kind,
    INBOX_FAIL_FIRST: failFirst.join(','),
  };
  return (await startReceiverProcesses(count, () => environment, children)).map((receiver) => receiver.url);
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

interface Delivery {
  readonly id: string;
  readonly body: unknown;
  /** The receiver it reaches first; a resend goes to the next one. */
  readonly receiver: number;
  readonly delayMs: number;
}

/** Sends a delivery, then resends it (to the next receiver, after a pause) until it is answered 200; at most 10 times. */
async function deliverUntilAcknowledged(urls: readonly string[], path: string, delivery: Delivery): Promise<Answer[]> {
  await sleep(delivery.delayMs);
  const answers: Answer[] = [];
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const answer = await post(`${urls[(delivery.receiver + attempt) % urls.length]}${path}`, delivery.body);
    answers.push(answer);
    if (answer.status === 200) return answers;
    await sleep(30 * (attempt + 1));
  }
  throw new Error(`${delivery.id} was not acknowledged after 10 attempts: ${JSON.stringify(answers)}`);
}

/** The deliveries of `ids`: each sent `copies()` times to distinct receivers, in a seeded order with seeded delays. */
function plan(
  groups: readonly { readonly id: string; readonly body: unknown }[],
  receivers: number,
  copies: () => number,
  random: () => number,
): Delivery[] {
  const deliveries = groups.flatMap(({ id, body }) => {
    const targets = shuffled(
      Array.from({ length: receivers }, (_, index) => index),
      random,
    );
    return Array.from({ length: copies() }, (_, copy) => ({ id, body, receiver: targets[copy % receivers]!, delayMs: 0 }));
  });
  return shuffled(deliveries, random).map((delivery) => ({ ...delivery, delayMs: Math.floor(random() * 40) }));
}

async function businessRows(schema: string) {
  const { rows } = await database.pool.query<{ id: string; times: number; doomed: number }>(
    `select id, count(*)::int as times, count(*) filter (where doomed)::int as doomed from "${schema}".effects group by id order by id`,
  );
  const firstAttempts = await database.pool.query<{ id: string }>(`select id from "${schema}".first_attempts order by id`);
  return { rows, failedOnPurpose: firstAttempts.rows.map((row) => row.id) };
}

const describeAnswer = (answer: Answer): string =>
  answer.status === 200 ? (answer.body.duplicate === true ? 'duplicate' : 'handled') : String(answer.status);

describe('the PostgreSQL inbox across receiver processes', () => {
  it('4 webhook receivers: each event has its effect exactly once; failed attempts leave none and are resent', async () => {
    const seed = testSeed('inbox, 4 webhook receiver processes', 'CONTRATO_SEED');
    const random = seededRandom(seed);
    const schema = database.freshSchema();
    await migrate(database.pool, { schema });
    await createBusinessTables(database.pool, schema);

    const events = Array.from({ length: 40 }, (_, index) => 5000 + index);
    const failing = events.filter((_, index) => index === 0 || random() < 0.25).map(String);
    const urls = await startReceivers(4, schema, 'webhook', failing);
    const deliveries = plan(
      events.map((id) => ({ id: String(id), body: invoicePaid(id) })),
      urls.length,
      () => 2 + Math.floor(random() * 3),
      random,
    );
    const answers = await Promise.all(
      deliveries.map(async (delivery) => ({ id: delivery.id, answers: await deliverUntilAcknowledged(urls, '/hooks', delivery) })),
    );

    const { rows, failedOnPurpose } = await businessRows(schema);
    expect(rows).toEqual(events.map((id) => ({ id: String(id), times: 1, doomed: 0 })).sort((a, b) => a.id.localeCompare(b.id)));
    expect(failedOnPurpose).toEqual([...failing].sort());
    const outcomes = answers.flatMap(({ id, answers: list }) => list.map((answer) => ({ id, outcome: describeAnswer(answer) })));
    // One 500 per failed attempt, nothing else failed; exactly one delivery of each event handled it.
    expect(
      outcomes
        .filter((o) => o.outcome === '500')
        .map((o) => o.id)
        .sort(),
    ).toEqual([...failing].sort());
    expect(outcomes.filter((o) => !['handled', 'duplicate', '503', '500'].includes(o.outcome))).toEqual([]);
    for (const id of events.map(String)) expect(outcomes.filter((o) => o.id === id && o.outcome === 'handled')).toHaveLength(1);
    const handledKeys = await database.pool.query(`select count(*)::int as n from "${schema}".deliveries where handled_at is not null`);
    expect(handledKeys.rows[0].n).toBe(events.length);

    const count = (outcome: string) => outcomes.filter((o) => o.outcome === outcome).length;
    console.log(
      `seed ${seed}: ${deliveries.length} deliveries of ${events.length} events, ${failing.length} failed once on purpose; answers: ` +
        `${count('handled')} handled, ${count('duplicate')} duplicate, ${count('503')} asked to come back, ${count('500')} failed`,
    );
  }, 180_000);

  it('2 Pix notification receivers: each Pix has its effect exactly once across notifications of 1–3 items', async () => {
    const seed = testSeed('inbox, 2 Pix receiver processes', 'CONTRATO_SEED');
    const random = seededRandom(seed);
    const schema = database.freshSchema();
    await migrate(database.pool, { schema });
    await createBusinessTables(database.pool, schema);

    let next = 0;
    const notifications = Array.from({ length: 20 }, (_, index) => {
      const ids = Array.from({ length: 1 + Math.floor(random() * 3) }, () => endToEndId((next += 1)));
      return { id: `notification ${index}`, ids, body: { pix: ids.map(pixReceived) } };
    });
    const allIds = notifications.flatMap((notification) => notification.ids);
    const failing = allIds.filter((_, index) => index === 0 || random() < 0.25);
    const urls = await startReceivers(2, schema, 'pix', failing);
    const deliveries = plan(notifications, urls.length, () => 2 + Math.floor(random() * 2), random);
    const answers = await Promise.all(
      deliveries.map(async (delivery) => ({
        id: delivery.id,
        answers: await deliverUntilAcknowledged(urls, '/hooks/loja42/pix', delivery),
      })),
    );

    const { rows, failedOnPurpose } = await businessRows(schema);
    expect(rows).toEqual([...allIds].sort().map((id) => ({ id, times: 1, doomed: 0 })));
    expect(failedOnPurpose).toEqual([...failing].sort());
    const statuses = answers.flatMap(({ answers: list }) => list.map((answer) => answer.status));
    expect(statuses.filter((status) => status === 500)).toHaveLength(failing.length);
    expect(statuses.filter((status) => ![200, 500, 503].includes(status))).toEqual([]);
    // Every item of an acknowledged notification was handled by some delivery: the last answer counts all.
    for (const { id, answers: list } of answers) {
      const last = list.at(-1)!;
      expect(last.body.received, id).toBe(notifications.find((notification) => notification.id === id)!.ids.length);
    }
    console.log(
      `seed ${seed}: ${deliveries.length} deliveries of ${notifications.length} notifications (${allIds.length} Pix), ` +
        `${failing.length} failed once on purpose; ${statuses.filter((s) => s === 503).length} asked to come back`,
    );
  }, 180_000);
});

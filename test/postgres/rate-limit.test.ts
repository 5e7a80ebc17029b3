/**
 * The shared rate limiter against a real PostgreSQL (test/helpers/postgres.ts). The bucket's past sends
 * are written with ages on the database's clock; the limiter's sleep is replaced by one that records the
 * wait asked and moves every send of the bucket that much into the past, so a wait of a minute costs no
 * minute and the next attempt sees the windows as they would be then. A wait is known up to the time the
 * test took between writing the sends and the limiter's reading of the clock, measured, never guessed.
 */
import { describe, expect, it } from 'vitest';
import { migrate, postgresRateLimiter, rateLimitBucket, SharedRateLimitError } from '../../src/postgres/index.js';
import { ConfigurationError, ContratoError } from '../../src/runtime/errors.js';
import type { RateLimit } from '../../src/runtime/rate-limiter.js';
import { useTestDatabase } from '../helpers/postgres.js';

const database = useTestDatabase();

async function migratedSchema(): Promise<string> {
  const schema = database().freshSchema();
  await migrate(database().pool, { schema });
  return schema;
}

/** Sends of `bucket` aged `ages` milliseconds on the database's clock. */
async function seedSends(schema: string, bucket: string, ages: readonly number[]): Promise<void> {
  for (const age of ages)
    await database().pool.query(
      `insert into "${schema}".rate_limit_sends (bucket, sent_at) values ($1, clock_timestamp() - $2 * interval '1 millisecond')`,
      [bucket, age],
    );
}

async function sendsOf(schema: string, bucket: string): Promise<number> {
  const { rows } = await database().pool.query<{ n: number }>(
    `select count(*)::int as n from "${schema}".rate_limit_sends where bucket = $1`,
    [bucket],
  );
  return rows[0]!.n;
}

/** A sleep that records the wait and ages the bucket's sends by it instead of waiting. */
function timeTravel(schema: string, bucket: string) {
  const waits: number[] = [];
  const sleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
    signal?.throwIfAborted();
    waits.push(ms);
    await database().pool.query(
      `update "${schema}".rate_limit_sends set sent_at = sent_at - $2 * interval '1 millisecond' where bucket = $1`,
      [bucket, ms],
    );
  };
  return { waits, sleep };
}

const perSecond = (limit: number): RateLimit => ({ limit, intervalMs: 1_000 });

describe('postgresRateLimiter: one acquire against the sends already in the bucket', () => {
  it.each([
    { given: 'room in the only window', limits: [perSecond(3)], margin: 0, ages: [100, 200], wantWait: undefined },
    { given: 'an empty bucket, a limit of one', limits: [perSecond(1)], margin: 0, ages: [], wantWait: undefined },
    { given: 'a full window', limits: [perSecond(2)], margin: 0, ages: [300, 100], wantWait: 700 },
    { given: 'sends that left the window', limits: [perSecond(2)], margin: 0, ages: [1_500, 1_200], wantWait: undefined },
    {
      given: 'the same sends inside a window widened by the margin',
      limits: [perSecond(2)],
      margin: 600,
      ages: [1_500, 1_200],
      wantWait: 100,
    },
    { given: 'more sends than the limit (limits lowered since)', limits: [perSecond(2)], margin: 0, ages: [600, 400, 200], wantWait: 600 },
    {
      given: 'two windows, the short one full',
      limits: [perSecond(2), { limit: 5, intervalMs: 10_000 }],
      margin: 0,
      ages: [500, 200],
      wantWait: 500,
    },
    {
      given: 'two windows, the long one full',
      limits: [perSecond(2), { limit: 3, intervalMs: 10_000 }],
      margin: 0,
      ages: [5_000, 4_000, 3_000],
      wantWait: 5_000,
    },
    {
      given: 'two windows, room in both',
      limits: [perSecond(2), { limit: 4, intervalMs: 10_000 }],
      margin: 0,
      ages: [5_000, 4_000, 300],
      wantWait: undefined,
    },
  ])('$given: waits $wantWait ms, then is admitted', async ({ limits, margin, ages, wantWait }) => {
    const schema = await migratedSchema();
    const bucket = rateLimitBucket('core-banking', 'client-a');
    const travel = timeTravel(schema, bucket);
    const limiter = postgresRateLimiter(database().pool, { schema, bucket, limits, safetyMarginMs: margin, sleep: travel.sleep });
    const seeded = performance.now();
    await seedSends(schema, bucket, ages);
    await limiter.acquire();
    const slack = performance.now() - seeded;
    if (wantWait === undefined) expect(travel.waits).toEqual([]);
    else {
      // The limiter read the clock up to `slack` ms after the sends were written: the wait is shorter by that.
      expect(travel.waits).toHaveLength(1);
      expect(travel.waits[0]).toBeLessThanOrEqual(wantWait + 1);
      expect(travel.waits[0]).toBeGreaterThanOrEqual(wantWait - slack - 1);
    }
    expect(await sendsOf(schema, bucket)).toBe(ages.length + 1);
  });

  it('counts only its own bucket: another credential’s full window lets it through', async () => {
    const schema = await migratedSchema();
    await seedSends(schema, 'core-banking:client-b', [10, 20, 30]);
    const travel = timeTravel(schema, 'core-banking:client-a');
    const limiter = postgresRateLimiter(database().pool, {
      schema,
      bucket: 'core-banking:client-a',
      limits: [perSecond(3)],
      sleep: travel.sleep,
    });
    await limiter.acquire();
    expect(travel.waits).toEqual([]);
    expect(await sendsOf(schema, 'core-banking:client-a')).toBe(1);
  });

  it('admits `limit` at once and makes the next wait for the oldest, across limiters of one bucket', async () => {
    const schema = await migratedSchema();
    const bucket = 'core-banking:client-a';
    const travel = timeTravel(schema, bucket);
    const options = { schema, bucket, limits: [perSecond(3)], safetyMarginMs: 0, sleep: travel.sleep };
    const [first, second] = [postgresRateLimiter(database().pool, options), postgresRateLimiter(database().pool, options)];
    await Promise.all([first.acquire(), second.acquire(), first.acquire()]);
    expect(travel.waits).toEqual([]);
    await second.acquire();
    expect(travel.waits).toHaveLength(1);
    expect(travel.waits[0]).toBeGreaterThan(0);
    expect(travel.waits[0]).toBeLessThanOrEqual(1_000);
    expect(await sendsOf(schema, bucket)).toBe(4);
  });
});

describe('postgresRateLimiter: cancelled waits, failures, pruning', () => {
  it('a signal aborted during the wait ends the acquire with its reason, and records nothing', async () => {
    const schema = await migratedSchema();
    const bucket = 'core-banking:client-a';
    await seedSends(schema, bucket, [10]);
    const limiter = postgresRateLimiter(database().pool, { schema, bucket, limits: [{ limit: 1, intervalMs: 60_000 }] });
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    setTimeout(() => controller.abort(reason), 50);
    await expect(limiter.acquire(controller.signal)).rejects.toBe(reason);
    expect(await sendsOf(schema, bucket)).toBe(1);
  });

  it('a signal aborted before the acquire ends it at once, even with room', async () => {
    const schema = await migratedSchema();
    const limiter = postgresRateLimiter(database().pool, { schema, bucket: 'core-banking:client-a', limits: [perSecond(5)] });
    const reason = new Error('already cancelled');
    await expect(limiter.acquire(AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(await sendsOf(schema, 'core-banking:client-a')).toBe(0);
  });

  it('a database without the tables fails the acquire with a SharedRateLimitError naming the bucket, then recovers once migrated', async () => {
    const schema = database().freshSchema();
    const limiter = postgresRateLimiter(database().pool, { schema, bucket: 'core-banking:client-a', limits: [perSecond(5)] });
    const error = await limiter.acquire().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SharedRateLimitError);
    expect(error).toBeInstanceOf(ContratoError);
    expect(error).toMatchObject({ unavailable: false, code: '42P01', bucket: 'core-banking:client-a' });
    expect((error as Error).message).toBe(
      `the shared rate limit's database failed (relation "${schema}.rate_limit_sends" does not exist), so the request was not sent ` +
        '(bucket core-banking:client-a): apply the migrations first (migrate(pool) or contrato db migrate)',
    );
    await migrate(database().pool, { schema });
    await expect(limiter.acquire()).resolves.toBeUndefined();
  });

  it('prunes the sends that left the longest window (margin included), and keeps the ones inside it', async () => {
    const schema = await migratedSchema();
    const bucket = 'core-banking:client-a';
    await seedSends(schema, bucket, [9_000, 6_500, 5_500, 100]);
    await seedSends(schema, 'core-banking:client-b', [9_000]);
    const limits = [perSecond(10), { limit: 100, intervalMs: 5_000 }];
    const limiter = postgresRateLimiter(database().pool, { schema, bucket, limits, safetyMarginMs: 1_000, pruneEvery: 2 });
    await limiter.acquire();
    expect(await sendsOf(schema, bucket)).toBe(5);
    await limiter.acquire();
    // Left: 5 500 (beyond the window, inside the margin) and 100 ms old, and the two just admitted; 9 000 and 6 500 are beyond 5 000 + 1 000.
    expect(await sendsOf(schema, bucket)).toBe(4);
    expect(await sendsOf(schema, 'core-banking:client-b')).toBe(1);
  });
});

describe('postgresRateLimiter options', () => {
  const limits = [perSecond(5)];
  it.each([
    { given: 'a bucket and windows', options: { bucket: 'core-banking:c', limits }, want: undefined },
    {
      given: 'a margin of 0 and pruning every admission',
      options: { bucket: 'b', limits, safetyMarginMs: 0, pruneEvery: 1 },
      want: undefined,
    },
    { given: 'an empty bucket', options: { bucket: '', limits }, want: /bucket must be a non-empty string/ },
    { given: 'a bucket of 201 characters', options: { bucket: 'x'.repeat(201), limits }, want: /at most 200 characters/ },
    { given: 'no windows', options: { bucket: 'b', limits: [] }, want: /limits must list at least one window/ },
    {
      given: 'a window of limit 0',
      options: { bucket: 'b', limits: [{ limit: 0, intervalMs: 1_000 }] },
      want: /limits\[0\]\.limit must be/,
    },
    { given: 'a negative margin', options: { bucket: 'b', limits, safetyMarginMs: -1 }, want: /safetyMarginMs must be/ },
    { given: 'pruning every 0 admissions', options: { bucket: 'b', limits, pruneEvery: 0 }, want: /pruneEvery must be/ },
    { given: 'a schema that is no plain identifier', options: { bucket: 'b', limits, schema: 'Bad-Name' }, want: /schema must be/ },
  ])('$given', ({ options, want }) => {
    const create = () => postgresRateLimiter(database().pool, options);
    if (want === undefined) expect(create).not.toThrow();
    else expect(create).toThrow(want);
  });

  it('refuses with a ConfigurationError', () => {
    expect(() => postgresRateLimiter(database().pool, { bucket: '', limits })).toThrow(ConfigurationError);
  });
});

/**
 * The rate limit of one credential shared by every process using the same database (section 8: 1000
 * requests per minute and 10000 per hour on the administrative API). Each admitted request is a row of
 * `rate_limit_sends`; an acquire takes the bucket's advisory lock for one short transaction, counts the
 * rows of each window with the database's clock (one clock for the whole fleet, whatever the hosts'
 * clocks say), and either records the request or learns how long until the send that fills a window
 * leaves it, sleeps that long (the caller's signal ends the sleep) and tries again.
 *
 * Admission is not arrival: a request admitted at t reaches the server at t + d, and d varies (the commit's
 * round trip, the event loop, a new connection, the network). Two requests admitted a window apart may
 * arrive less than a window apart when the first is slower than the second, so each window is counted
 * `safetyMarginMs` longer than its interval: the server then never sees more than the limit in any window
 * as long as d varies by less than the margin. The cost is throughput: at most `limit` per
 * `intervalMs + safetyMarginMs` (the default second takes 1.6 % of the per-minute budget and 0.03 % of the
 * per-hour one).
 */
import { ConfigurationError } from '../runtime/errors.js';
import { checkRateLimits, defaultSleep, type RateLimit, type RequestLimiter } from '../runtime/rate-limiter.js';
import { type ConnectionPool, type SchemaOptions, schemaOf, tableName, transaction, withConnection } from './database.js';
import { PostgresStoreError } from './failures.js';

export interface PostgresRateLimiterOptions extends SchemaOptions {
  /**
   * Whose limit: one credential, the same string in every process that spends it, e.g.
   * `rateLimitBucket('core-banking', clientId)`. It is stored and may appear in errors: never put a secret in it.
   */
  readonly bucket: string;
  /** The windows, e.g. `coreBankingRateLimits` of contrato/core-banking; every process of a bucket must use the same. */
  readonly limits: readonly RateLimit[];
  /**
   * Milliseconds added to every window when counting (default 1000), to cover how much the time from
   * admission to arrival at the server varies; 0 trusts it not to vary at all.
   */
  readonly safetyMarginMs?: number;
  /** Rows that left the longest window are deleted after every `pruneEvery` admissions of this process (default 100). */
  readonly pruneEvery?: number;
  /** The wait between attempts (tests replace it); it must reject with the signal's reason when the signal aborts. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** The database failed while the limiter counted: the request was not sent. */
export class SharedRateLimitError extends PostgresStoreError {
  override readonly name = 'SharedRateLimitError';
  constructor(
    readonly bucket: string,
    cause: unknown,
  ) {
    super('the shared rate limit', cause, `the request was not sent (bucket ${bucket})`);
  }
}

/** A bucket for one credential of one interface: `core-banking:<clientId>`. A client id is no secret; a client secret never goes here. */
export function rateLimitBucket(interfaceName: string, clientId: string): string {
  return `${interfaceName}:${clientId}`;
}

const maxBucketLength = 200;

function checkOptions(options: PostgresRateLimiterOptions): void {
  const { bucket, limits, safetyMarginMs, pruneEvery } = options;
  if (typeof bucket !== 'string' || bucket.length === 0 || bucket.length > maxBucketLength)
    throw new ConfigurationError(`bucket must be a non-empty string of at most ${maxBucketLength} characters naming the credential`);
  if (!Array.isArray(limits) || limits.length === 0)
    throw new ConfigurationError('limits must list at least one window, e.g. [{ limit: 1000, intervalMs: 60_000 }]');
  checkRateLimits(limits, 'limits');
  if (safetyMarginMs !== undefined && !(Number.isFinite(safetyMarginMs) && safetyMarginMs >= 0))
    throw new ConfigurationError(`safetyMarginMs must be a number of milliseconds of at least 0, not ${safetyMarginMs}`);
  if (pruneEvery !== undefined && !(Number.isSafeInteger(pruneEvery) && pruneEvery >= 1))
    throw new ConfigurationError(`pruneEvery must be a whole number of at least 1, not ${pruneEvery}`);
}

/**
 * One attempt, under the bucket's lock: the wait of each window is how long until the send that fills it
 * (the `limit`-th newest one inside it) leaves it; none full means room, and the request is recorded at the
 * same instant of the database's clock. The clock is read after the lock is held, so the sends of a bucket
 * are recorded in the order they were admitted.
 */
function attemptStatement(table: string): string {
  return `with clock as materialized (select clock_timestamp() as now),
  waits as (
    select max((
      select extract(epoch from sent.sent_at - clock.now) * 1000 + window_.interval_ms
        from ${table} sent
       where sent.bucket = $1 and sent.sent_at > clock.now - window_.interval_ms * interval '1 millisecond'
       order by sent.sent_at desc
      offset window_.max_sends - 1 limit 1
    )) as wait_ms
    from unnest($2::int[], $3::float8[]) as window_(max_sends, interval_ms), clock
  ),
  admitted as (
    insert into ${table} (bucket, sent_at)
    select $1, clock.now from clock, waits where waits.wait_ms is null
    returning sent_at
  )
  select waits.wait_ms::float8 as wait_ms from waits`;
}

export interface PostgresRateLimiter extends RequestLimiter {
  readonly bucket: string;
}

/**
 * A limiter for the `rateLimiter` client option whose windows count the requests of every process using
 * `pool`'s database under the same bucket: `createCoreBankingClient({ ..., rateLimiter: postgresRateLimiter(pool,
 * { bucket: rateLimitBucket('core-banking', clientId), limits: coreBankingRateLimits }) })`. Apply the tables first
 * (`migrate(pool)`). Waiting requests of one process try one at a time, so they hold at most one connection of
 * the pool while they count; a database failure rejects the acquire with a SharedRateLimitError, a
 * PostgresStoreError (the request is not sent: failing closed keeps the fleet inside the limit).
 */
export function postgresRateLimiter(pool: ConnectionPool, options: PostgresRateLimiterOptions): PostgresRateLimiter {
  checkOptions(options);
  const table = tableName(schemaOf(options), 'rate_limit_sends');
  const lockKey = `contrato:rate-limit:${schemaOf(options)}:${options.bucket}`;
  const margin = options.safetyMarginMs ?? 1000;
  const maxSends = options.limits.map((window) => window.limit);
  const intervals = options.limits.map((window) => window.intervalMs + margin);
  const retentionMs = Math.max(...intervals);
  const pruneEvery = options.pruneEvery ?? 100;
  const sleep = options.sleep ?? defaultSleep;
  const statement = attemptStatement(table);
  let admissions = 0;
  // The attempts of this process, one at a time: a queue here instead of one connection per waiter at the lock.
  let turn: Promise<unknown> = Promise.resolve();

  /** Undefined when admitted, else the milliseconds to wait. */
  const attempt = (): Promise<number | undefined> =>
    withConnection(pool, (connection) =>
      transaction(connection, async () => {
        await connection.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [lockKey]);
        const { rows } = await connection.query<{ wait_ms: number | null }>(statement, [options.bucket, maxSends, intervals]);
        const waitMs = rows[0]?.wait_ms;
        if (waitMs !== null && waitMs !== undefined) return Math.max(1, Math.ceil(waitMs));
        admissions += 1;
        if (admissions % pruneEvery === 0)
          await connection.query(
            `delete from ${table} where bucket = $1 and sent_at <= clock_timestamp() - $2 * interval '1 millisecond'`,
            [options.bucket, retentionMs],
          );
        return undefined;
      }),
    );

  const inTurn = (signal: AbortSignal | undefined): Promise<number | undefined> => {
    const mine = turn.then(() => {
      signal?.throwIfAborted();
      return attempt().catch((error: unknown) => {
        throw new SharedRateLimitError(options.bucket, error);
      });
    });
    turn = mine.catch(() => undefined);
    return mine;
  };

  return {
    bucket: options.bucket,
    async acquire(signal) {
      // Bounded by the windows: each turn either admits or sleeps until a send leaves a window (or the signal ends it).
      for (;;) {
        signal?.throwIfAborted();
        const waitMs = await inTurn(signal);
        if (waitMs === undefined) return;
        await sleep(waitMs, signal);
      }
    },
  };
}

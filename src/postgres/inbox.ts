/**
 * The inbox of received deliveries in PostgreSQL: the DeliveryStore of the webhook and Pix notification
 * handlers over the `deliveries` table (migrations/001_webhook_inbox.sql), shared by every process using the
 * same database and schema. A claim is one statement, atomic in the database; its lease is measured by the
 * database's clock, so the processes' clocks may disagree. `runClaimed` runs the caller's work in a
 * transaction that also records the key as handled, so the work's writes and the mark commit together.
 * A failure of the database rejects with a PostgresStoreError naming the inbox; one that could not be reached
 * (`unavailable`) is answered 503 by the handlers, so the delivery is resent once the database is back.
 */
import type { ClaimedRunOutcome, ClaimOutcome, TransactionalDeliveryStore } from '../events/store.js';
import { type ConnectionPool, type Queryable, type SchemaOptions, schemaOf, tableName, transaction, withConnection } from './database.js';
import { asStore, PostgresStoreError } from './failures.js';

const store = 'the delivery inbox';

/** The statements of one schema's inbox, its name checked and quoted once. */
function statements(schema: string) {
  const deliveries = tableName(schema, 'deliveries');
  return {
    // A row comes back only when the key is claimed now: new, or its last claim expired and it was never handled.
    claim: `insert into ${deliveries} as d (key, token, lease_until, claimed_at)
              values ($1, $2, clock_timestamp() + $3 * interval '1 millisecond', clock_timestamp())
            on conflict (key) do update
              set token = excluded.token, lease_until = excluded.lease_until, claimed_at = excluded.claimed_at
              where d.handled_at is null and d.lease_until <= clock_timestamp()
            returning key`,
    // Read after a claim found the key taken: a statement of its own sees what committed while it waited.
    state: `select handled_at is not null as handled from ${deliveries} where key = $1`,
    // Whoever holds the claim now, the work was done: the key is handled for good.
    complete: `insert into ${deliveries} as d (key, handled_at) values ($1, clock_timestamp())
               on conflict (key) do update
                 set handled_at = coalesce(d.handled_at, excluded.handled_at), token = null, lease_until = null`,
    release: `delete from ${deliveries} where key = $1 and token = $2 and handled_at is null`,
    lock: `select token, handled_at is not null as handled from ${deliveries} where key = $1 for update`,
    markHandled: `update ${deliveries} set handled_at = clock_timestamp(), token = null, lease_until = null where key = $1`,
    prune: `delete from ${deliveries}
             where handled_at < clock_timestamp() - $1 * interval '1 millisecond'
                or (handled_at is null and lease_until < clock_timestamp() - $1 * interval '1 millisecond')`,
  };
}

/**
 * The connection of the transaction as the work sees it: statements only, so the work can neither give the
 * connection back to the pool nor keep it after the transaction.
 */
function statementsOnly(connection: Queryable): Queryable {
  return { query: (text, values) => connection.query(text, values) };
}

/**
 * A DeliveryStore in the `deliveries` table of `schema` (default `contrato`; apply the tables first with
 * `migrate(pool, { schema })`). Pass it as the `store` of createWebhookHandler or createPixNotificationHandler,
 * or use createPostgresWebhookHandler to have `onEvent` run in the transaction that marks the key handled.
 */
export function postgresDeliveryStore(pool: ConnectionPool, options: SchemaOptions = {}): TransactionalDeliveryStore<Queryable> {
  const sql = statements(schemaOf(options));
  return {
    claim: (key, { token, leaseMs }): Promise<ClaimOutcome> =>
      asStore(store, async () => {
        const claimed = await pool.query(sql.claim, [key, token, leaseMs]);
        if (claimed.rows.length > 0) return 'claimed';
        const { rows } = await pool.query<{ handled: boolean }>(sql.state, [key]);
        // No row: the holder released it just now; the resend will claim it.
        return rows[0]?.handled ? 'handled' : 'in-progress';
      }),
    complete: (key) => asStore(store, async () => void (await pool.query(sql.complete, [key]))),
    release: (key, token) => asStore(store, async () => void (await pool.query(sql.release, [key, token]))),
    async runClaimed(key, token, work): Promise<ClaimedRunOutcome> {
      let workFailure: { readonly error: unknown } | undefined;
      try {
        return await withConnection(pool, (connection) =>
          transaction(connection, async () => {
            // Locked until the commit: a claim of this key now waits, then finds it handled (or released).
            const { rows } = await connection.query<{ token: string | null; handled: boolean }>(sql.lock, [key]);
            const row = rows[0];
            if (row?.handled) return 'handled';
            // Our lease expired before the lock and another delivery claimed the key: it handles it.
            if (row?.token !== token) return 'in-progress';
            try {
              await work(statementsOnly(connection));
            } catch (error) {
              workFailure = { error };
              throw error;
            }
            await connection.query(sql.markHandled, [key]);
            return 'completed';
          }),
        );
      } catch (error) {
        // The work's own failure on a connection that held is the caller's to judge (rolled back, answered 500);
        // anything else is the inbox's, a connection lost under the work included.
        if (workFailure && error === workFailure.error) throw error;
        throw new PostgresStoreError(store, error);
      }
    },
  };
}

export interface PruneOptions extends SchemaOptions {
  /**
   * Handled keys older than this are forgotten, and so are claims whose lease ended that long ago (their
   * holder died and no resend came). Default a day: the platform resends for about six and a half hours (6.1),
   * and a key forgotten earlier would let a late resend be handled again.
   */
  readonly olderThanMs?: number;
}

/** Deletes what the inbox no longer needs (see PruneOptions); answers how many rows it removed. Run it periodically. */
export async function pruneHandledDeliveries(pool: Queryable, options: PruneOptions = {}): Promise<number> {
  const olderThanMs = options.olderThanMs ?? 24 * 60 * 60 * 1000;
  if (!Number.isFinite(olderThanMs) || olderThanMs < 0)
    throw new RangeError(`olderThanMs must be a number of milliseconds, zero or more, not ${olderThanMs}`);
  const { prune } = statements(schemaOf(options));
  const { rowCount } = await asStore(store, () => pool.query(prune, [olderThanMs]));
  return rowCount ?? 0;
}

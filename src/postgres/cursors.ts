/**
 * The leases of long-poll cursors in PostgreSQL (table `poll_cursors`, migration 002): one statement per
 * operation, timed by the database's clock only, so the replicas' clocks never have to agree. Acquiring
 * is one insert … on conflict do update, which PostgreSQL runs under the row's lock: of two replicas
 * asking at once, one gets the lease and the other sees it live.
 */
import { type AcquiredLease, type CursorLeases, checkLeaseMs, type HeldLease } from '../messages/cursor-lease.js';
import { type Queryable, type SchemaOptions, schemaOf, tableName } from './database.js';
import { asStore } from './failures.js';

const store = 'the cursor leases';

/** `clock_timestamp()` (not `now()`, frozen inside a caller's transaction) plus the parameter's milliseconds. */
const leaseEnd = (parameter: string): string => `clock_timestamp() + make_interval(secs => ${parameter}::double precision / 1000)`;

/**
 * `CursorLeases` shared by every process using the same database: `pollMessagesLeased(client, { leases:
 * postgresCursorLeases(pool), name })` in each replica, one of them polling at a time. Any `Queryable`
 * does (a `pg.Pool`); no operation needs a transaction of its own. A failure of the database rejects with a
 * PostgresStoreError naming the cursor leases.
 */
export function postgresCursorLeases(pool: Queryable, options: SchemaOptions = {}): CursorLeases {
  const table = tableName(schemaOf(options), 'poll_cursors');
  const changed = (text: string, values: unknown[]): Promise<boolean> =>
    asStore(store, async () => (await pool.query(text, values)).rowCount === 1);
  return {
    async acquire(name, holder, leaseMs) {
      checkLeaseMs(leaseMs);
      const query = () =>
        pool.query<{ fence: string; cursor: string | null }>(
          `insert into ${table} as held (name, holder, lease_until, fence, updated_at)
         values ($1, $2, ${leaseEnd('$3')}, 1, clock_timestamp())
         on conflict (name) do update
           set holder = excluded.holder, lease_until = excluded.lease_until, fence = held.fence + 1, updated_at = excluded.updated_at
           where held.holder is null or held.holder = excluded.holder or held.lease_until <= clock_timestamp()
         returning fence, cursor`,
          [name, holder, leaseMs],
        );
      const row = (await asStore(store, query)).rows[0];
      if (!row) return null;
      const lease: AcquiredLease = { name, holder, fence: Number(row.fence), cursor: row.cursor ?? undefined };
      return lease;
    },
    async renew(lease: HeldLease, leaseMs: number) {
      checkLeaseMs(leaseMs);
      return changed(
        `update ${table} set lease_until = ${leaseEnd('$4')}, updated_at = clock_timestamp()
          where name = $1 and holder = $2 and fence = $3 and lease_until > clock_timestamp()`,
        [lease.name, lease.holder, lease.fence, leaseMs],
      );
    },
    async save(lease, cursor) {
      return changed(`update ${table} set cursor = $4, updated_at = clock_timestamp() where name = $1 and holder = $2 and fence = $3`, [
        lease.name,
        lease.holder,
        lease.fence,
        cursor,
      ]);
    },
    async release(lease) {
      return changed(
        `update ${table} set holder = null, lease_until = null, updated_at = clock_timestamp()
          where name = $1 and holder = $2 and fence = $3`,
        [lease.name, lease.holder, lease.fence],
      );
    },
  };
}

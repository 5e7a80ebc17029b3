/**
 * The journal of outgoing keyed calls in `outgoing_calls`, shared by every process of an integration: a
 * payment sent by a replica that died before its answer is found in doubt by any other replica (or by the
 * same one restarted), which re-sends it with its original key. `begin` is one statement (an insert that,
 * on the reference's existing row, marks it in doubt again only when the payload is the same and it has not
 * succeeded), so two processes beginning the same reference at once both get the one key stored. A success
 * keeps its answer's parsed body in `result`, which answers the same reference again without sending it.
 */
import type { IdempotencyJournal, JournalEntry, JournalEntryId, JournaledArgs, JournalState } from '../runtime/journal.js';
import { type Queryable, type SchemaOptions, schemaOf, tableName } from './database.js';
import { asStore } from './failures.js';

interface OutgoingCallRow {
  readonly scope: string;
  readonly operation_id: string;
  readonly reference: string;
  readonly idempotency_key: string;
  readonly payload_hash: string;
  readonly args: JournaledArgs;
  readonly state: JournalState;
  readonly status: number | null;
  readonly result: unknown;
  readonly created_at: Date;
  readonly updated_at: Date;
}

const entryOf = (row: OutgoingCallRow): JournalEntry => ({
  scope: row.scope,
  operationId: row.operation_id,
  reference: row.reference,
  idempotencyKey: row.idempotency_key,
  payloadHash: row.payload_hash,
  args: row.args,
  state: row.state,
  ...(row.status === null ? {} : { status: row.status }),
  // A json null and no result read alike; a success without a body resolves with undefined either way.
  ...(row.result === null ? {} : { result: row.result }),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const defaultInDoubtLimit = 100;
const store = 'the call journal';

/**
 * The journal over `<schema>.outgoing_calls` (apply the migrations first: `migrate(pool, { schema })`). A
 * failure of its database rejects with a PostgresStoreError naming the call journal.
 */
export function postgresIdempotencyJournal(pool: Queryable, options: SchemaOptions = {}): IdempotencyJournal {
  const table = tableName(schemaOf(options), 'outgoing_calls');
  const columns = 'scope, operation_id, reference, idempotency_key, payload_hash, args, state, status, result, created_at, updated_at';
  const byId = 'scope = $1 and operation_id = $2 and reference = $3';
  const idValues = (id: JournalEntryId): unknown[] => [id.scope, id.operationId, id.reference];

  async function entry(id: JournalEntryId): Promise<JournalEntry | undefined> {
    const { rows } = await pool.query<OutgoingCallRow>(`select ${columns} from ${table} where ${byId}`, idValues(id));
    return rows[0] ? entryOf(rows[0]) : undefined;
  }

  const journal: IdempotencyJournal = {
    async begin(proposed) {
      const { rows } = await pool.query<OutgoingCallRow>(
        `insert into ${table} (scope, operation_id, reference, idempotency_key, payload_hash, args, state)
         values ($1, $2, $3, $4, $5, $6::json, 'in-doubt')
         on conflict (scope, operation_id, reference) do update
           set state = 'in-doubt', status = null, result = null, updated_at = clock_timestamp()
           where ${table}.payload_hash = excluded.payload_hash and ${table}.state <> 'succeeded'
         returning ${columns}`,
        [...idValues(proposed), proposed.idempotencyKey, proposed.payloadHash, JSON.stringify(proposed.args)],
      );
      if (rows[0]) return entryOf(rows[0]);
      // The reference's row stays as it is (another payload, or succeeded): the caller judges it.
      const existing = await entry(proposed);
      if (!existing) throw new Error(`idempotency journal: the entry of ${proposed.operationId} vanished while it was begun`);
      return existing;
    },
    async settle(id, outcome) {
      const result = outcome.state === 'succeeded' && outcome.result !== undefined ? JSON.stringify(outcome.result) : null;
      await pool.query(
        `update ${table} set state = $4, status = $5, result = $6::jsonb, updated_at = clock_timestamp()
          where ${byId} and state <> 'succeeded'`,
        [...idValues(id), outcome.state, outcome.status ?? null, result],
      );
    },
    async inDoubt(query = {}) {
      const { rows } = await pool.query<OutgoingCallRow>(
        `select ${columns} from ${table}
          where state = 'in-doubt' and ($1::text is null or scope = $1)
            and updated_at <= clock_timestamp() - make_interval(secs => $2::double precision / 1000)
          order by updated_at, operation_id, reference
          limit $3`,
        [query.scope ?? null, query.olderThanMs ?? 0, query.limit ?? defaultInDoubtLimit],
      );
      return rows.map(entryOf);
    },
    entry,
  };
  return {
    begin: (proposed) => asStore(store, () => journal.begin(proposed)),
    settle: (id, outcome) => asStore(store, () => journal.settle(id, outcome)),
    inDoubt: (query) => asStore(store, () => journal.inDoubt(query)),
    entry: (id) => asStore(store, () => journal.entry(id)),
  };
}

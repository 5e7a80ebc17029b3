/**
 * Schema management: plain SQL files in ./migrations (shipped in the package), applied in the order of
 * their names, each once and in a transaction of its own, recorded in `<schema>.migrations`. Each file is
 * written without a schema: it runs with `search_path` set to the chosen one, so the same files make the
 * tables of any schema. Processes that migrate at once take turns on an advisory lock; a second run finds
 * everything applied and changes nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type ConnectionPool, type SchemaOptions, schemaOf, tableName, transaction, withConnection } from './database.js';
import { asStore } from './failures.js';

export interface Migration {
  /** The file's name without `.sql`: `001_webhook_inbox`. */
  readonly id: string;
  readonly sql: string;
}

export interface MigrateResult {
  readonly schema: string;
  /** The migrations this run applied, in order (empty when all were applied before). */
  readonly applied: readonly string[];
  /** Those found applied already. */
  readonly skipped: readonly string[];
}

const migrationsFolder = fileURLToPath(new URL('./migrations/', import.meta.url));

/** The migrations shipped with this version of the package, in the order they apply. */
export function migrations(): Migration[] {
  return readdirSync(migrationsFolder)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => ({ id: file.slice(0, -'.sql'.length), sql: readFileSync(`${migrationsFolder}${file}`, 'utf8') }));
}

/**
 * Creates the schema and applies what is missing of `migrations()`. A failure of the database rejects with a
 * PostgresStoreError naming the migrations.
 */
export async function migrate(pool: ConnectionPool, options: SchemaOptions = {}): Promise<MigrateResult> {
  const schema = schemaOf(options);
  const ledger = tableName(schema, 'migrations');
  const lock = `contrato:migrate:${schema}`;
  const applied: string[] = [];
  const skipped: string[] = [];
  await asStore('the migrations', () =>
    withConnection(pool, async (connection) => {
      // One migrating process at a time, per schema; the lock ends with the session if this one dies.
      await connection.query('select pg_advisory_lock(hashtext($1))', [lock]);
      let failed = true;
      try {
        await connection.query(`create schema if not exists "${schema}"`);
        await connection.query(`create table if not exists ${ledger} (id text primary key, applied_at timestamptz not null default now())`);
        const done = new Set((await connection.query<{ id: string }>(`select id from ${ledger}`)).rows.map((row) => row.id));
        for (const migration of migrations()) {
          if (done.has(migration.id)) {
            skipped.push(migration.id);
            continue;
          }
          await transaction(connection, async (tx) => {
            await tx.query(`set local search_path to "${schema}"`);
            await tx.query(migration.sql);
            await tx.query(`insert into ${ledger} (id) values ($1)`, [migration.id]);
          });
          applied.push(migration.id);
        }
        failed = false;
      } finally {
        // After a failure the unlock may fail too (a lost connection): the failure is what to tell, and the
        // lock ends with the session, which the discarded connection closes.
        await connection.query('select pg_advisory_unlock(hashtext($1))', [lock]).catch((error: unknown) => {
          if (!failed) throw error;
        });
      }
    }),
  );
  return { schema, applied, skipped };
}

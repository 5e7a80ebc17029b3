/**
 * A real PostgreSQL for the tests, started by the tests themselves: `DATABASE_URL` when a developer sets
 * it (each test then works in a schema of its own there), else the embedded server of
 * scripts/embedded-postgres.ts on 127.0.0.1 and a free port, with durability off (a test database is
 * thrown away). One per test file: `useTestDatabase()` starts it before the file's tests and stops it after;
 * `useRestartableDatabase()` is the embedded server always, for the tests that restart it.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../../scripts/embedded-postgres.js';

export interface TestDatabase {
  /** A connection string for child processes; it names a throwaway password, never a real one. */
  readonly url: string;
  /** A pool of this process; ended by `stop`. */
  readonly pool: pg.Pool;
  /** A new schema name for one test: `t_` and random letters. */
  freshSchema(): string;
  stop(): Promise<void>;
}

const freshSchema = (): string => `t_${randomBytes(6).toString('hex')}`;

/** What the tests' embedded server is started with: durability off (a test database is thrown away). */
const testFlags = ['-c', 'max_connections=200', '-c', 'fsync=off'];

export async function startTestDatabase(): Promise<TestDatabase> {
  const given = process.env.DATABASE_URL;
  if (given) {
    const pool = new pg.Pool({ connectionString: given, max: 10 });
    pool.on('error', () => {});
    return { url: given, pool, freshSchema, stop: () => pool.end() };
  }
  const embedded = await startEmbeddedPostgres({ flags: testFlags });
  return { ...embedded, freshSchema };
}

/** A test database whose server the test stops and starts again (`stopServer`, `startServer`: same data, same port). */
export type RestartableDatabase = TestDatabase & EmbeddedDatabase;

/** A database started before the file's tests and stopped after them; the getter is called inside a test. */
function useDatabase<Database extends TestDatabase>(start: () => Promise<Database>, hook: string): () => Database {
  let database: Database | undefined;
  beforeAll(async () => {
    database = await start();
  }, 60_000);
  afterAll(async () => {
    await database?.stop();
  });
  return () => {
    if (!database) throw new Error(`the test database is not started: call ${hook}() at the top of the file`);
    return database;
  };
}

/**
 * The embedded server always, DATABASE_URL or not: a developer's own server is not a test's to restart. Started
 * before the file's tests, stopped after them.
 */
export function useRestartableDatabase(): () => RestartableDatabase {
  return useDatabase(async () => ({ ...(await startEmbeddedPostgres({ flags: testFlags })), freshSchema }), 'useRestartableDatabase');
}

/** The test file's database, started before its tests and stopped after them: call the getter inside a test. */
export function useTestDatabase(): () => TestDatabase {
  return useDatabase(startTestDatabase, 'useTestDatabase');
}

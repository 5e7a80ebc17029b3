/**
 * Every PostgreSQL-backed part through a stopped database: while it is down each fails with a ContratoError
 * that names its store and says the database could not be reached, without the connection string's password
 * at any depth, and works again once it is back; a process holding a connection when the database stops
 * (a fast shutdown, which ends every session) sees its operation fail and lives on — an 'error' event nobody
 * listens for would end it; the webhook and Pix notification handlers answer 503 meanwhile; and resumeInDoubt
 * reports a journal it cannot read as a normal call does.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { createCoreBankingClient } from '../../src/core-banking/index.js';
import {
  createPostgresPixNotificationHandler,
  createPostgresWebhookHandler,
  migrate,
  postgresCursorLeases,
  postgresDeliveryStore,
  postgresIdempotencyJournal,
  postgresRateLimiter,
  PostgresStoreError,
  SharedRateLimitError,
} from '../../src/postgres/index.js';
import { ContratoError } from '../../src/runtime/errors.js';
import type { IdempotencyJournal } from '../../src/runtime/journal.js';
import { freePort } from '../helpers/ports.js';
import { useRestartableDatabase } from '../helpers/postgres.js';
import { endToEndId, invoicePaid, pixReceived, post, serve } from './fixtures/inbox-http.js';
import { invoiceBody } from './fixtures/journal-payment-server.js';

const database = useRestartableDatabase();

async function migratedSchema(): Promise<string> {
  const schema = database().freshSchema();
  await migrate(database().pool, { schema });
  return schema;
}

/** Runs `operation` with the server stopped, then started again; the operation's rejection. */
async function whileDown(operation: () => Promise<unknown>): Promise<unknown> {
  await database().stopServer();
  try {
    return await operation().then(
      () => expect.unreachable('the operation must fail while the database is down'),
      (error: unknown) => error,
    );
  } finally {
    await database().startServer();
  }
}

const unreachable = String.raw`\(connect ECONNREFUSED 127\.0\.0\.1:\d+\)`;
const proposal = {
  scope: 'core-banking',
  operationId: 'invoices.create',
  reference: 'order-1',
  idempotencyKey: 'KeyOne',
  payloadHash: 'h',
};

describe('each store while the database is down, and once it is back', () => {
  it.each([
    {
      given: 'the call journal',
      run: (schema: string) => postgresIdempotencyJournal(database().pool, { schema }).begin({ ...proposal, args: {} }),
      want: new RegExp(`^the call journal's database could not be reached ${unreachable}: try again once PostgreSQL accepts connections$`),
    },
    {
      given: 'the cursor leases',
      run: (schema: string) => postgresCursorLeases(database().pool, { schema }).acquire('spi-inbox', 'replica-1', 1_000),
      want: new RegExp(`^the cursor leases' database could not be reached ${unreachable}: try again`),
    },
    {
      given: 'the shared rate limit',
      run: (schema: string) =>
        postgresRateLimiter(database().pool, { schema, bucket: 'core-banking:a', limits: [{ limit: 5, intervalMs: 1_000 }] }).acquire(),
      want: new RegExp(
        `^the shared rate limit's database could not be reached ${unreachable}, so the request was not sent \\(bucket core-banking:a\\): try again`,
      ),
    },
    {
      given: 'the delivery inbox',
      run: (schema: string) => postgresDeliveryStore(database().pool, { schema }).claim('invoice-1', { token: 't', leaseMs: 1_000 }),
      want: new RegExp(`^the delivery inbox's database could not be reached ${unreachable}: try again`),
    },
    {
      given: 'the migrations',
      run: (schema: string) => migrate(database().pool, { schema: `${schema}_next` }),
      want: new RegExp(`^the migrations' database could not be reached ${unreachable}: try again`),
    },
  ])('$given: a ContratoError naming it, then served again', async ({ given, run, want }) => {
    const schema = await migratedSchema();
    const error = await whileDown(async () => run(schema));
    expect(error).toBeInstanceOf(ContratoError);
    expect(error).toBeInstanceOf(PostgresStoreError);
    if (given === 'the shared rate limit') expect(error).toBeInstanceOf(SharedRateLimitError);
    expect(error).toMatchObject({ store: given, unavailable: true, code: 'ECONNREFUSED' });
    expect((error as Error).message).toMatch(want);
    expect(inspect(error, { depth: 20 })).not.toContain(new URL(database().url).password);
    await expect(run(schema)).resolves.not.toBeInstanceOf(Error);
  });
});

describe('the webhook and Pix notification handlers while the database is down', () => {
  it.each([
    {
      given: 'createPostgresWebhookHandler',
      path: '/hooks',
      body: invoicePaid(77),
      handler: (schema: string) => createPostgresWebhookHandler({ pool: database().pool, schema, onEvent: () => {}, onError: () => {} }),
    },
    {
      given: 'createPostgresPixNotificationHandler',
      path: '/hooks/pix',
      body: { pix: [pixReceived(endToEndId(77))] },
      handler: (schema: string) =>
        createPostgresPixNotificationHandler({ pool: database().pool, schema, onPix: () => {}, onError: () => {} }),
    },
  ])('$given: 503 while it is down, 200 once it is back', async ({ path, body, handler }) => {
    const served = await serve(handler(await migratedSchema()));
    try {
      await database().stopServer();
      let refused: Awaited<ReturnType<typeof post>>;
      try {
        refused = await post(`${served.url}${path}`, body);
      } finally {
        await database().startServer();
      }
      expect(refused.status).toBe(503);
      expect(refused.body.error).toMatch(/^the delivery store cannot be reached now; resend the (event|notification) later$/);
      expect((await post(`${served.url}${path}`, body)).status).toBe(200);
    } finally {
      await served.close();
    }
  });
});

interface HeldResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
  readonly ended: Record<string, unknown>;
}

/** Polls `found` every 20 ms until it answers true, 10 s at most. */
async function until(what: string, found: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 10_000; !(await found()); await new Promise((resolve) => setTimeout(resolve, 20)))
    if (Date.now() > deadline) throw new Error(`${what} did not happen within 10 s`);
}

/**
 * A process of fixtures/held-connection.ts in `mode`, the database stopped while it holds its connection
 * (behind `lock`, an advisory lock this test holds, when given), then started again; how it ended.
 */
async function stoppedUnder(mode: string, schema: string, lock?: string): Promise<HeldResult> {
  const holder = lock ? await database().pool.connect() : undefined;
  // Held through the stop: its 'error' then is expected, and would end this worker unheard.
  holder?.on('error', () => {});
  if (lock) await holder?.query(`begin; select pg_advisory_xact_lock(${lock})`);
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'test/postgres/fixtures/held-connection.ts')], {
    cwd: projectRoot,
    env: { ...process.env, HELD_DATABASE_URL: database().url, HELD_SCHEMA: schema, HELD_MODE: mode },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('exit', (code, signal) => resolve([code, signal])),
  );
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  try {
    await until(`${mode}: holding`, async () => stdout.includes('holding\n') || child.exitCode !== null);
    if (lock)
      await until(`${mode}: waiting for the lock`, async () => {
        const { rows } = await database().pool.query<{ n: number }>(
          `select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`,
        );
        return rows[0]!.n > 0;
      });
    await database().stopServer();
    child.stdin?.end('go\n');
    const [code, signal] = await exited;
    const line = stdout.split('\n').find((each) => each.startsWith('{'));
    return { code, signal, stderr, ended: line ? (JSON.parse(line) as Record<string, unknown>) : {} };
  } finally {
    clearTimeout(killer);
    child.kill('SIGKILL');
    // Discarded: the stop ended its session, and its lock with it.
    holder?.release(true);
    await database().startServer();
  }
}

describe('a process holding a connection when the database stops', () => {
  it.each([
    {
      given: 'a delivery being handled (runClaimed)',
      mode: 'inbox',
      want: { name: 'PostgresStoreError', contrato: true, store: 'the delivery inbox', unavailable: true },
      message:
        /^the delivery inbox's database could not be reached \(the connection to the database was lost: terminating connection due to administrator command\): try again/,
    },
    {
      given: 'the work of inTransaction',
      mode: 'transaction',
      want: { contrato: false },
      // What the work saw: inTransaction hands back the work's own failure.
      message: /not queryable|terminating connection due to administrator command/,
    },
    {
      given: 'the shared rate limiter waiting for its lock',
      mode: 'rate-limit',
      lock: `hashtextextended('contrato:rate-limit:%s:held', 0)`,
      want: { name: 'SharedRateLimitError', contrato: true, store: 'the shared rate limit', unavailable: true },
      message:
        /^the shared rate limit's database could not be reached \(.*terminating connection due to administrator command.*\), so the request was not sent/,
    },
    {
      given: 'migrate waiting for the migration lock',
      mode: 'migrate',
      lock: `hashtext('contrato:migrate:%s')`,
      want: { name: 'PostgresStoreError', contrato: true, store: 'the migrations', unavailable: true },
      message: /^the migrations' database could not be reached \(.*terminating connection due to administrator command.*\)/,
    },
  ])('$given: the operation fails, the process lives on', async ({ mode, lock, want, message }) => {
    const schema = await migratedSchema();
    const { code, signal, stderr, ended } = await stoppedUnder(mode, schema, lock?.replace('%s', schema));
    expect({ code, signal, stderr }).toEqual({ code: 0, signal: null, stderr: '' });
    expect(ended).toMatchObject({ settled: 'rejected', ...want });
    expect(ended.message).toMatch(message);
  });
});

describe('resumeInDoubt when the journal cannot be read', () => {
  const clientWith = async (journal: IdempotencyJournal) =>
    createCoreBankingClient({
      baseUrl: `http://127.0.0.1:${await freePort()}`,
      clientId: 'journal-client',
      clientSecret: 'journal-secret',
      rateLimit: false,
      retry: { maxRetries: 0 },
      journal,
    });
  const ownJournal = (schema: string): IdempotencyJournal => ({
    ...postgresIdempotencyJournal(database().pool, { schema }),
    inDoubt: () => Promise.reject(new Error('the journal disk was unplugged')),
  });

  it.each([
    {
      given: 'resumeInDoubt, the PostgreSQL journal, its database down',
      journal: (schema: string) => postgresIdempotencyJournal(database().pool, { schema }),
      down: true,
      call: (client: Awaited<ReturnType<typeof clientWith>>) => client.resumeInDoubt(),
      want: new RegExp(
        `^core-banking client: resumeInDoubt could not read the journal, so nothing was re-sent \\(call it again once the journal answers\\): the call journal's database could not be reached ${unreachable}`,
      ),
    },
    {
      given: 'resumeInDoubt, a journal of your own whose inDoubt rejects',
      journal: ownJournal,
      down: false,
      call: (client: Awaited<ReturnType<typeof clientWith>>) => client.resumeInDoubt(),
      want: /^core-banking client: resumeInDoubt could not read the journal, so nothing was re-sent \(call it again once the journal answers\): the journal disk was unplugged$/,
    },
    {
      given: 'a keyed call, the PostgreSQL journal, its database down (as before)',
      journal: (schema: string) => postgresIdempotencyJournal(database().pool, { schema }),
      down: true,
      call: (client: Awaited<ReturnType<typeof clientWith>>) =>
        client.invoices.create({ path: { accountId: 1 }, body: invoiceBody(10) }, { reference: 'order-9' }),
      want: new RegExp(
        `^invoices\\.create: the journal could not record the call, so it was not sent: the call journal's database could not be reached ${unreachable}`,
      ),
    },
  ])('$given: a ContratoError naming the journal, its cause kept', async ({ journal, down, call, want }) => {
    const client = await clientWith(journal(await migratedSchema()));
    try {
      const error = down
        ? await whileDown(() => call(client))
        : await call(client).then(
            () => expect.unreachable(),
            (caught: unknown) => caught,
          );
      expect(error).toBeInstanceOf(ContratoError);
      expect((error as Error).message).toMatch(want);
      expect((error as Error).cause).toBeInstanceOf(Error);
      expect(inspect(error, { depth: 20 })).not.toContain(new URL(database().url).password);
    } finally {
      await client.close();
    }
  });
});

/**
 * The idempotency journal on a real PostgreSQL: every case of fixtures/journal-cases.ts and
 * fixtures/journal-replay-cases.ts with `postgresIdempotencyJournal`, concurrent begins of one reference agreeing on one key, and the property
 * the journal exists for — a client process SIGKILLed after the server received its keyed payment and
 * before the answer (the server executing it before the kill, after it, or never), then a new process
 * that resumes the in-doubt calls or repeats the call with the same reference: the payment completes with
 * the same key, the server executed it exactly once, and the journal says succeeded (seed printed).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { migrate, postgresIdempotencyJournal } from '../../src/postgres/index.js';
import { useTestDatabase } from '../helpers/postgres.js';
import { seededRandom, testSeed } from '../helpers/seeded.js';
import { describeJournalCases } from './fixtures/journal-cases.js';
import { describeJournalReplayCases } from './fixtures/journal-replay-cases.js';
import { invoiceBody, type KeyedPaymentServer, type PaymentBehaviour, startKeyedPaymentServer } from './fixtures/journal-payment-server.js';

const database = useTestDatabase();

async function freshJournal(): Promise<{ schema: string; journal: ReturnType<typeof postgresIdempotencyJournal> }> {
  const schema = database().freshSchema();
  await migrate(database().pool, { schema });
  return { schema, journal: postgresIdempotencyJournal(database().pool, { schema }) };
}

describeJournalCases('postgres', async () => (await freshJournal()).journal);
describeJournalReplayCases('postgres', async () => (await freshJournal()).journal);

describe('postgresIdempotencyJournal', () => {
  it('gives every one of 8 concurrent begins of one reference the one key stored', async () => {
    const { journal } = await freshJournal();
    const entries = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        journal.begin({
          scope: 'core-banking',
          operationId: 'invoices.create',
          reference: 'order-1',
          idempotencyKey: `Key${index}`,
          payloadHash: 'hash-a',
          args: { body: { amount: 1 } },
        }),
      ),
    );
    expect(new Set(entries.map((entry) => entry.idempotencyKey)).size).toBe(1);
  });

  it.each([
    { given: 'a schema with upper case', schema: 'Contrato' },
    { given: 'a schema with a statement', schema: 'x"; drop table y; --' },
  ])('refuses $given before writing it into a statement', ({ schema }) => {
    expect(() => postgresIdempotencyJournal(database().pool, { schema })).toThrow(/schema must be a lower-case PostgreSQL identifier/);
  });
});

interface ChildResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

const fixture = join(projectRoot, 'test/postgres/fixtures/journal-client.ts');

/** A client process of journal-client.ts; `ended` resolves when it exits, killed after `timeoutMs` at the latest. */
function startClient(env: Record<string, string>, timeoutMs: number): { child: ChildProcess; ended: Promise<ChildResult> } {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
    cwd: projectRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const ended = new Promise<ChildResult>((resolve) =>
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    }),
  );
  return { child, ended };
}

/** The server's three ways of going on after its client dies while the answer is held. */
const holds = ['execute-then-hold', 'execute-on-close', 'abandon-on-close'] as const;

describe('a client process SIGKILLed between sending a keyed payment and reading its answer', () => {
  let server: KeyedPaymentServer;
  beforeAll(async () => {
    server = await startKeyedPaymentServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each([
    { given: 'calls resumeInDoubt', mode: 'resume' },
    { given: 'repeats the call with the same business reference', mode: 'pay' },
  ])(
    'a new process that $given completes it with the same key, executed exactly once',
    async ({ mode }) => {
      const seed = testSeed(`journal crash (${mode})`, 'CONTRATO_SEED');
      const random = seededRandom(seed);
      for (let trial = 0; trial < 3; trial += 1) {
        const hold = holds[Math.floor(random() * holds.length)]!;
        const { schema, journal } = await freshJournal();
        const reference = `order-${seed}-${trial}`;
        const amount = 100 + Math.floor(random() * 10_000) / 100;
        const env = {
          JOURNAL_DATABASE_URL: database().url,
          JOURNAL_SCHEMA: schema,
          JOURNAL_BASE_URL: server.url,
          JOURNAL_REFERENCE: reference,
          JOURNAL_AMOUNT: String(amount),
          // One due date for both processes, also when midnight passes between them.
          JOURNAL_DUE_DATE: invoiceBody(amount).dueDate,
        };
        const trialWords = `seed ${seed}, trial ${trial}, server ${hold}`;
        console.log(trialWords);
        const id = { scope: 'core-banking', operationId: 'invoices.create', reference };

        const before = server.received.length;
        server.script = [{ hold } satisfies PaymentBehaviour];
        const first = startClient({ ...env, JOURNAL_MODE: 'pay' }, 30_000);
        await server.waitForPayments(before + 1, 25_000);
        // The server holds the payment: the journal wrote it down, in doubt, before it was sent.
        const sentKey = server.received[before]!.key;
        expect(await journal.entry(id), trialWords).toMatchObject({ state: 'in-doubt', idempotencyKey: sentKey });
        first.child.kill('SIGKILL');
        expect((await first.ended).signal, trialWords).toBe('SIGKILL');
        await server.waitUntilNoneHeld(5_000);
        expect(server.executions.get(sentKey) ?? 0, trialWords).toBe(hold === 'abandon-on-close' ? 0 : 1);

        const second = await startClient({ ...env, JOURNAL_MODE: mode }, 30_000).ended;
        expect({ code: second.code, stderr: second.stderr }, trialWords).toEqual({ code: 0, stderr: '' });
        const printed = JSON.parse(second.stdout) as unknown;
        expect(printed, trialWords).toEqual(
          mode === 'resume'
            ? [{ operationId: 'invoices.create', reference, idempotencyKey: sentKey, state: 'succeeded', status: 201 }]
            : { idempotencyKey: sentKey, status: 201 },
        );
        expect(
          server.received.slice(before).map((payment) => payment.key),
          trialWords,
        ).toEqual([sentKey, sentKey]);
        expect(server.executions.get(sentKey), trialWords).toBe(1);
        expect(await journal.entry(id), trialWords).toMatchObject({ state: 'succeeded', status: 201, idempotencyKey: sentKey });
        expect(await journal.inDoubt({ scope: 'core-banking' }), trialWords).toEqual([]);
      }
    },
    180_000,
  );
});

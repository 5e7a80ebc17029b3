/**
 * The optional snapshot file: what a sandbox created is there after a restart on the same file (a charge and
 * its payment), and a sandbox without one starts empty. Scheduled work survives too: each case stops a
 * sandbox with work pending (a webhook resend, a refund, a batch, a confirmation request's expiry, a recurring
 * attempt's scheduling, a liquidation, a registry confirmation),
 * starts a new sandbox on the same file, moves its clock, and finds the work done. The clocks are frozen
 * (speed 0), so nothing falls due before the test moves time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAccountsClient } from '../../src/accounts/index.js';
import { generateTxid } from '../../src/formats/pix.js';
import { createPixClient, type PixClient } from '../../src/pix/index.js';
import { ProblemError } from '../../src/runtime/errors.js';
import { todayInSaoPaulo } from '../../src/rules/cross-field.js';
import { accountsSandbox } from '../../src/sandbox/accounts/index.js';
import type { MountableModule } from '../../src/sandbox/contract.js';
import { pixSandbox } from '../../src/sandbox/pix/index.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';
import { control, deliveries, type Receiver, startReceiver, tedCreditor, waitFor, watchDrifts } from '../helpers/sandbox.js';

const dir = mkdtempSync(join(tmpdir(), 'contrato-snapshot-'));
const snapshotFile = join(dir, 'state.json');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The clients of one life of the sandbox, as the tests use them. */
interface Clients {
  readonly pix: PixClient;
  readonly accounts: ReturnType<typeof createAccountsClient>;
}

/** One life of a strict sandbox on `file`: started, handed to `run`, stopped (its state saved); its drifts fail the test. */
async function life<T>(
  options: { snapshotFile?: string; modules?: readonly MountableModule[] },
  run: (sandbox: RunningSandbox, clients: Clients) => Promise<T>,
): Promise<T> {
  const modules = options.modules ?? [pixSandbox];
  const sandbox = watchDrifts(
    await startSandbox({
      modules,
      strict: true,
      seed: 'snapshot',
      speed: 0,
      ...(options.snapshotFile ? { snapshotFile: options.snapshotFile } : {}),
    }),
  );
  const common = { clientSecret: 'sandbox-secret', responseValidation: 'strict', retry: { maxRetries: 0 } } as const;
  const clients: Clients = {
    pix: createPixClient({ ...common, baseUrl: sandbox.urlOf('pix'), clientId: 'sandbox-pix' }),
    accounts: createAccountsClient({ ...common, baseUrl: sandbox.urlOf('accounts'), clientId: 'sandbox-account' }),
  };
  try {
    return await run(sandbox, clients);
  } finally {
    await clients.pix.close();
    await clients.accounts.close();
    await sandbox.stop();
  }
}

/** A charge of the sandbox's own key, paid through the control plane: the Pix received. */
async function paidCharge(sandbox: RunningSandbox, pix: PixClient): Promise<{ txid: string; e2eid: string }> {
  const txid = generateTxid();
  const { keys } = await control(sandbox, '/pix/keys');
  await pix.cob.replace({ path: { txid }, body: { calendario: {}, valor: { original: '3.30' }, chave: keys[0] } });
  const paid = await control(sandbox, '/pix/pay', { txid });
  return { txid, e2eid: paid.pix.endToEndId };
}

/** A date of the São Paulo calendar `days` after the sandbox's today. */
const dayAfter = (sandbox: RunningSandbox, days: number): string =>
  todayInSaoPaulo(new Date(sandbox.env.clock.nowMs() + days * 86_400_000));

/** A recurrence (Pix Automático) awaiting the payer's confirmation. */
const recurrenceOf = (sandbox: RunningSandbox, pix: PixClient) =>
  pix.rec.create({
    body: {
      vinculo: { objeto: 'Plano academia', contrato: 'CT-2026-0001', devedor: { cpf: '12345678909', nome: 'Mariana Costa' } },
      calendario: { dataInicial: dayAfter(sandbox, 1), periodicidade: 'MENSAL' },
      valor: { valorRec: '49.90' },
      politicaRetentativa: 'PERMITE_3R_7D',
    } as never,
  });

describe('the snapshot file', () => {
  const txid = generateTxid();

  it('keeps a charge and its payment across a restart', async () => {
    await life({ snapshotFile }, async (sandbox, { pix }) => {
      await pix.cob.replace({
        path: { txid },
        body: { calendario: {}, valor: { original: '3.30' }, chave: (await control(sandbox, '/pix/keys')).keys[0] },
      });
      const paid = await fetch(`${sandbox.url}/_sandbox/pix/pay`, { method: 'POST', body: JSON.stringify({ txid }) });
      expect(paid.status).toBe(200);
    });
    await life({ snapshotFile }, async (_sandbox, { pix }) => {
      const read = await pix.cob.get({ path: { txid } });
      expect(read).toMatchObject({ txid, status: 'CONCLUIDA', valor: { original: '3.30' } });
      expect(read.pix).toHaveLength(1);
    });
  });

  it('without one, a restart starts empty', async () => {
    await life({}, async (_sandbox, { pix }) => {
      const error = await pix.cob.get({ path: { txid } }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProblemError);
      expect((error as ProblemError).status).toBe(404);
    });
  });
});

describe('scheduled work survives a restart', () => {
  let receiver: Receiver | undefined;
  afterAll(() => receiver?.close());

  it('a webhook resend pending at the stop is delivered after the restart, as the same delivery', async () => {
    const file = join(dir, 'resend.json');
    const bodies: string[] = [];
    let failing = true;
    receiver = await startReceiver((request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => void (text += chunk.toString('utf8')));
      request.on('end', () => {
        bodies.push(text);
        response.writeHead(failing ? 500 : 204).end();
      });
    });
    const url = `${receiver.url}/hooks`;
    const pending = await life({ snapshotFile: file }, async (sandbox, { pix }) => {
      const { keys } = await control(sandbox, '/pix/keys');
      await pix.webhook.configure({ path: { chave: keys[0] }, body: { webhookUrl: url } });
      await paidCharge(sandbox, pix);
      await waitFor(async () => (await deliveries(sandbox))[0]?.attempts.length === 1);
      return (await deliveries(sandbox))[0]!;
    });
    expect(pending).toMatchObject({ state: 'pending', attempts: [{ status: 500 }] });
    failing = false;
    await life({ snapshotFile: file }, async (sandbox) => {
      expect((await deliveries(sandbox)).map(({ id, state }) => ({ id, state }))).toEqual([{ id: pending.id, state: 'pending' }]);
      await control(sandbox, '/clock', { advanceSeconds: 120 });
      await waitFor(async () => (await deliveries(sandbox))[0]?.state === 'delivered');
      expect((await deliveries(sandbox))[0]!.attempts.map((attempt) => attempt.status)).toEqual([500, 204]);
    });
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toBe(bodies[0]);
  });

  /** Each case: work started in the first life, the clock moved in the second, and what shows it done. */
  const cases: {
    given: string;
    modules: readonly MountableModule[];
    start: (sandbox: RunningSandbox, clients: Clients) => Promise<Record<string, string>>;
    advanceSeconds: number;
    done: (sandbox: RunningSandbox, clients: Clients, started: Record<string, string>) => Promise<unknown>;
    want: unknown;
  }[] = [
    {
      given: 'a Pix refund EM_PROCESSAMENTO',
      modules: [pixSandbox],
      start: async (sandbox, { pix }) => {
        const { e2eid } = await paidCharge(sandbox, pix);
        const refund = await pix.pixRefund.request({ path: { e2eid, id: 'devolucao01' }, body: { valor: '1.00' } });
        expect(refund.status).toBe('EM_PROCESSAMENTO');
        return { e2eid };
      },
      advanceSeconds: 10,
      done: async (_sandbox, { pix }, { e2eid }) => (await pix.pixRefund.get({ path: { e2eid: e2eid!, id: 'devolucao01' } })).status,
      want: 'DEVOLVIDO',
    },
    {
      given: 'a batch of due-date charges EM_PROCESSAMENTO (read from the state, which no read settles)',
      modules: [pixSandbox],
      start: async (sandbox, { pix }) => {
        const txid = generateTxid();
        const { keys } = await control(sandbox, '/pix/keys');
        const dueDate = dayAfter(sandbox, 10);
        await pix.lotecobv.create({
          path: { id: '4001' },
          body: {
            descricao: 'Mensalidades',
            cobsv: [
              {
                txid,
                calendario: { dataDeVencimento: dueDate },
                devedor: { cpf: '12345678909', nome: 'Mariana' },
                valor: { original: '480.00' },
                chave: keys[0],
              },
            ],
          },
        });
        return { txid };
      },
      advanceSeconds: 60,
      done: async (sandbox) =>
        (await control(sandbox, '/pix/state')).batches['4001'].view.cobsv.map((entry: { status: string }) => entry.status),
      want: ['CRIADA'],
    },
    {
      given: 'a recurrence confirmation request awaiting its expiry (read from the state)',
      modules: [pixSandbox],
      start: async (sandbox, { pix }) => {
        const { idRec } = await recurrenceOf(sandbox, pix);
        const expiry = new Date(sandbox.env.clock.nowMs() + 60_000).toISOString();
        const request = await pix.solicrec.create({
          body: {
            idRec,
            calendario: { dataExpiracaoSolicitacao: expiry },
            destinatario: { conta: '998877', ispbParticipante: '99999020', cpf: '12345678909' },
          },
        });
        return { id: request.idSolicRec };
      },
      advanceSeconds: 120,
      done: async (sandbox, _clients, { id }) => (await control(sandbox, '/pix/state')).confirmations[id!].status,
      want: 'EXPIRADA',
    },
    {
      given: "a recurring charge's attempt sent to the payer's PSP (read from the state)",
      modules: [pixSandbox],
      start: async (sandbox, { pix }) => {
        const { idRec } = await recurrenceOf(sandbox, pix);
        await control(sandbox, '/pix/rec', { idRec, status: 'APROVADA' });
        const { recebedor } = await control(sandbox, '/pix/account');
        const charge = await pix.cobr.create({
          body: {
            idRec,
            calendario: { dataDeVencimento: dayAfter(sandbox, 5) },
            valor: { original: '49.90' },
            ajusteDiaUtil: true,
            recebedor,
          },
        });
        return { txid: charge.txid };
      },
      advanceSeconds: 60,
      done: async (sandbox, _clients, { txid }) =>
        (await control(sandbox, '/pix/state')).recurringCharges[txid!].current.tentativas.map(
          (attempt: { status: string }) => attempt.status,
        ),
      want: ['AGENDADA'],
    },
    {
      given: 'a TED PROCESSING',
      modules: [accountsSandbox],
      start: async (_sandbox, { accounts }) => {
        const ted = await accounts.ted.create(
          { body: { creditorAccount: tedCreditor, payment: { currency: 'BRL', amount: 12.5 } } },
          { idempotencyKey: 'tedrestart1' },
        );
        expect(ted.data.status).toBe('PROCESSING');
        return { id: String(ted.data.id) };
      },
      advanceSeconds: 10,
      done: async (_sandbox, { accounts }, { id }) => (await accounts.ted.getById({ path: { id: Number(id) } })).data.status,
      want: 'LIQUIDATED',
    },
    {
      given: 'a boleto invoice REGISTERING',
      modules: [accountsSandbox],
      start: async (sandbox, { accounts }) => {
        const state = await control(sandbox, '/accounts/state');
        const customer = state.customers.find((entry: { accountId: number }) => entry.accountId === state.ownAccountId);
        const dueDate = dayAfter(sandbox, 30);
        const invoice = await accounts.invoices.create(
          { body: { customerId: customer.id, dueDate, amount: 90, type: 'IMMEDIATE', paymentMethod: 'BOLETO' } },
          { idempotencyKey: 'inv-restart-1' },
        );
        expect(invoice.status).toBe('REGISTERING');
        return { id: String(invoice.id) };
      },
      advanceSeconds: 60,
      done: async (sandbox, _clients, { id }) =>
        (await control(sandbox, '/accounts/state')).invoices.find((entry: { record: { id: number } }) => String(entry.record.id) === id)
          .lifecycle,
      want: 'REGISTERED',
    },
  ];

  it.each(cases)('$given completes after the restart when the clock passes', async ({ modules, start, advanceSeconds, done, want }) => {
    const file = join(dir, `${generateTxid()}.json`);
    const started = await life({ snapshotFile: file, modules }, (sandbox, clients) => start(sandbox, clients));
    await life({ snapshotFile: file, modules }, async (sandbox, clients) => {
      await control(sandbox, '/clock', { advanceSeconds });
      expect(await done(sandbox, clients, started)).toEqual(want);
    });
  });
});

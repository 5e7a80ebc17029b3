/**
 * The sandbox behaves as one platform, through the real clients and the package's webhook handler: a Pix
 * received by the Pix sandbox's receiving user (interface B) credits that user's account in interface A —
 * balance, transactions, a RECEIVE event — and its refund debits it with a REFUND event; an infraction
 * opened through the control plane sends INFRACTION; an invoice paid sends invoice.settled once its
 * settlement completes, and one left unpaid sends invoice.overdue when the clock passes its due day.
 * Every event is checked against its schema with every object closed, and the strict sandbox judges them too.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AccountsClient } from '../../src/accounts/index.js';
import { createWebhookHandler, type ParsedEvent } from '../../src/events/index.js';
import { generateTxid } from '../../src/formats/pix.js';
import type { PixClient } from '../../src/pix/index.js';
import { todayInSaoPaulo } from '../../src/rules/cross-field.js';
import { accountsSandbox } from '../../src/sandbox/accounts/index.js';
import { settlementSeconds } from '../../src/sandbox/accounts/invoices.js';
import { pixSandbox } from '../../src/sandbox/pix/index.js';
import { refundSettlesAfterSeconds } from '../../src/sandbox/pix/payments.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import {
  accountsConnector,
  closeAll,
  control,
  pixClientOf,
  type Receiver,
  startReceiver,
  startSeeded,
  strictEventIssues,
  waitFor,
} from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let pix: PixClient;
/** A client of the account the Pix receiver is, and one of the sandbox's own account (invoices). */
let receiving: AccountsClient;
let own: AccountsClient;
let receivingAccountId: number;
let receiver: Receiver;
const clients: AccountsClient[] = [];
const connect = accountsConnector(() => sandbox, clients);
const events: ParsedEvent[] = [];

/** The events handled so far of `type`. */
const handled = (type: string): ParsedEvent[] => events.filter((event) => event.type === type);
const data = (event: ParsedEvent | undefined): Record<string, any> => (event?.data ?? {}) as Record<string, any>;

beforeAll(async () => {
  sandbox = await startSeeded('one-platform', [accountsSandbox, pixSandbox]);
  pix = pixClientOf(sandbox);
  // The Pix receiver is the account of A that holds its CNPJ: found from both states, never written here.
  const pixState = await control(sandbox, '/pix/state');
  const accountsState = await control(sandbox, '/accounts/state');
  const account = Object.values(accountsState.accounts as Record<string, { id: number; document: string; child: boolean }>).find(
    (candidate) => candidate.document === pixState.receiver.cnpj,
  );
  if (!account) throw new Error(`no account of the accounts sandbox holds the Pix receiver's CNPJ ${pixState.receiver.cnpj}`);
  receivingAccountId = account.id;
  receiving = account.id === accountsState.ownAccountId ? connect('sandbox-account') : connect('baas_sandbox', { accountId: account.id });
  own = connect('sandbox-account');
  const handler = createWebhookHandler({ onEvent: (event) => void events.push(event) });
  receiver = await startReceiver((request, response) => void handler(request, response));
  const uri = `${receiver.url}/hooks`;
  await receiving.webhooks.registerReceive({ body: { uri, enabled: true } });
  await receiving.webhooks.registerRefund({ body: { uri, enabled: true } });
  await receiving.webhooks.registerInfraction({ body: { uri, enabled: true } });
  await own.webhooks.registerInvoice({ body: { uri, enabled: true } });
});
afterAll(async () => {
  await closeAll(sandbox, [pix, ...clients]);
  await receiver?.close();
});
afterEach(() => {
  for (const event of events) expect(strictEventIssues(event.payload), event.type).toEqual([]);
});

const available = async (): Promise<number> => (await receiving.balance.get()).data![0]!.balanceAmount!.available!;

describe('a Pix received in B is a credit of the receiving account in A', () => {
  let e2eid: string;
  let credited: number;

  it('the Pix a fresh sandbox already received is in the receiving account’s transactions too', async () => {
    const { received } = await control(sandbox, '/pix/state');
    const seeded = Object.keys(received as Record<string, unknown>);
    expect(seeded.length).toBeGreaterThan(0);
    const now = sandbox.env.clock.nowMs();
    const listed = await receiving.transactions.list({
      query: { event_date_start: new Date(now - 86_400_000).toISOString(), event_date_end: new Date(now + 60_000).toISOString() },
    });
    const credits = (listed.data ?? []).filter((item) => item.transactionType === 'PIX' && item.creditDebitType === 'CREDIT');
    for (const endToEndId of seeded)
      expect(
        credits.map((item) => item.endToEndId),
        endToEndId,
      ).toContain(endToEndId);
  });

  it('pay a charge: the balance, the transactions and a RECEIVE event show the credit', async () => {
    const before = await available();
    const txid = generateTxid();
    const { keys } = await control(sandbox, '/pix/keys');
    await pix.cob.replace({
      path: { txid },
      body: { calendario: {}, valor: { original: '42.50' }, chave: keys[0], devedor: { cpf: '12345678909', nome: 'Mariana Costa' } },
    });
    const paid = await control(sandbox, '/pix/pay', { txid, infoPagador: 'pedido 77' });
    e2eid = paid.pix.endToEndId;
    credited = await available();
    expect(credited).toBeCloseTo(before + 42.5, 2);
    const now = sandbox.env.clock.nowMs();
    const listed = await receiving.transactions.list({
      query: { event_date_start: new Date(now - 60_000).toISOString(), event_date_end: new Date(now + 60_000).toISOString() },
    });
    expect(listed.data?.filter((item) => item.endToEndId === e2eid)).toEqual([
      expect.objectContaining({ creditDebitType: 'CREDIT', transactionType: 'PIX', status: 'LIQUIDATED', txId: txid }),
    ]);
    await waitFor(() => handled('RECEIVE').length === 1);
    expect(data(handled('RECEIVE')[0])).toMatchObject({
      endToEndId: e2eid,
      txId: txid,
      pixKey: keys[0],
      payment: { amount: '42.50', currency: 'BRL' },
      debtorAccount: { document: '12345678909', name: 'Mariana Costa' },
      creditorAccount: { document: (await control(sandbox, '/pix/state')).receiver.cnpj },
      remittanceInformation: 'pedido 77',
    });
  });

  it('refund it: EM_PROCESSAMENTO debits the account at once, DEVOLVIDO on the clock sends REFUND', async () => {
    const refund = await pix.pixRefund.request({ path: { e2eid, id: 'devolucao01' }, body: { valor: '42.50' } });
    expect(refund.status).toBe('EM_PROCESSAMENTO');
    expect(await available()).toBeCloseTo(credited - 42.5, 2);
    await control(sandbox, '/clock', { advanceSeconds: refundSettlesAfterSeconds + 1 });
    expect((await pix.pixRefund.get({ path: { e2eid, id: 'devolucao01' } })).status).toBe('DEVOLVIDO');
    await waitFor(() => handled('REFUND').length === 1);
    expect(data(handled('REFUND')[0])).toMatchObject({
      endToEndId: e2eid,
      status: 'REFUNDED',
      refunds: [{ status: 'LIQUIDATED', payment: { amount: 42.5, currency: 'BRL' }, endToEndId: refund.rtrId }],
    });
    expect((await receiving.balance.get()).data![0]!.balanceAmount).toMatchObject({ available: credited - 42.5, blocked: 0 });
  });

  it('an infraction opened against it sends INFRACTION; a transaction that is no Pix received is refused', async () => {
    const transactionId = data(handled('RECEIVE')[0]).id;
    const opened = await control(sandbox, '/accounts/infraction', {
      transactionId,
      accountId: receivingAccountId,
      reportDetails: 'golpe do falso vendedor',
    });
    await waitFor(() => handled('INFRACTION').length === 1);
    expect(data(handled('INFRACTION')[0])).toEqual(opened.data);
    expect(opened.data).toMatchObject({ transactionId, status: 'OPEN', type: 'FRAUD', transactionAmount: 42.5 });
    await expect(control(sandbox, '/accounts/infraction', { transactionId: 1, accountId: receivingAccountId })).rejects.toThrow(
      /400.*transactionId 1 is not a Pix received/,
    );
  });
});

describe('invoice events on the clock', () => {
  const invoiceOf = async (key: string, idempotencyKey: string, dueInDays: number) => {
    const state = await control(sandbox, '/accounts/state');
    const customer = state.customers.find((entry: { accountId: number }) => entry.accountId === state.ownAccountId);
    const dueDate = todayInSaoPaulo(new Date(sandbox.env.clock.nowMs() + dueInDays * 86_400_000));
    return own.invoices.create(
      { body: { customerId: customer.id, pixKey: key, dueDate, amount: 99.9, type: 'IMMEDIATE' } },
      { idempotencyKey },
    );
  };
  const invoiceEvent = (type: string, invoiceId: number | undefined) => handled(type).find((event) => data(event).invoiceId === invoiceId);

  it('paid: invoice.paid at once, invoice.settled when its settlement completes; overdue: invoice.overdue after its due day', async () => {
    const key = (await own.keys.create({ body: { keyType: 'EVP' } })).key!;
    const paid = await invoiceOf(key, 'inv-platform-1', 1);
    const unpaid = await invoiceOf(key, 'inv-platform-2', 1);
    await control(sandbox, '/accounts/payInvoice', { invoiceId: paid.id });
    await waitFor(() => invoiceEvent('invoice.paid', paid.id) !== undefined);
    expect(invoiceEvent('invoice.settled', paid.id)).toBeUndefined();
    await control(sandbox, '/clock', { advanceSeconds: settlementSeconds + 1 });
    await waitFor(() => invoiceEvent('invoice.settled', paid.id) !== undefined);
    expect(data(invoiceEvent('invoice.settled', paid.id))).toMatchObject({ status: 'COMPLETED', amount: 99.9 });
    expect(invoiceEvent('invoice.overdue', unpaid.id)).toBeUndefined();
    await control(sandbox, '/clock', { advanceSeconds: 2 * 86_400 });
    await waitFor(() => invoiceEvent('invoice.overdue', unpaid.id) !== undefined);
    expect(data(invoiceEvent('invoice.overdue', unpaid.id))).toMatchObject({ invoiceId: unpaid.id, txId: unpaid.txId });
    expect(invoiceEvent('invoice.overdue', paid.id)).toBeUndefined();
  });
});

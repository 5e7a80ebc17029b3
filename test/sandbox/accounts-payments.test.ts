/**
 * Outgoing payments of the accounts sandbox with the package's client, strict on both sides: TED, internal
 * transfers and billet payments with their x-idempotency-key (a replay answers the original, another
 * payload 409), each a ledger entry that moves the balance, liquidated when the sandbox clock moves and
 * notified to a receiver built with the package's webhook handler (TRANSFER with the registered method
 * and headers, CASHOUT for a rejection), every delivered body strictly valid against its event schema.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AccountsClient } from '../../src/accounts/index.js';
import { createWebhookHandler } from '../../src/events/index.js';
import { accountsSandbox } from '../../src/sandbox/accounts/index.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import {
  accountsConnector,
  closeAll,
  control,
  expectNoNewDrifts,
  problemOf,
  type Receiver,
  startReceiver,
  startSeeded,
  strictEventIssues,
  tedCreditor as creditor,
  waitFor,
} from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let client: AccountsClient;
const clients: AccountsClient[] = [];
const connect = accountsConnector(() => sandbox, clients);

interface Received {
  readonly type: string;
  readonly data: Record<string, any>;
  readonly payload: Record<string, any>;
  readonly method: string;
  readonly headers: IncomingHttpHeaders;
}
const received: Received[] = [];
let receiver: Receiver | undefined;

beforeAll(async () => {
  sandbox = await startSeeded('accounts-payments', [accountsSandbox]);
  client = connect('sandbox-account');
  const handler = createWebhookHandler({
    onEvent: (event, { request }) => {
      received.push({
        type: event.type,
        data: event.data as Record<string, any>,
        payload: event.payload as Record<string, any>,
        method: request.method ?? '',
        headers: request.headers,
      });
    },
  });
  receiver = await startReceiver((request, response) => void handler(request, response));
  const receiverUrl = `${receiver.url}/hooks`;
  await client.webhooks.registerTransfer({
    body: { uri: receiverUrl, enabled: true, method: 'PUT', headers: { 'x-receiver-secret': 'abc123' } },
  });
  await client.webhooks.registerCashout({ body: { uri: receiverUrl, enabled: true } });
  await client.webhooks.registerReceive({ body: { uri: receiverUrl, enabled: true } });
});
afterAll(async () => {
  await closeAll(sandbox, clients);
  await receiver?.close();
});
expectNoNewDrifts(() => sandbox);
afterEach(() => {
  for (const event of received) expect(strictEventIssues(event.payload), event.type).toEqual([]);
});

const available = async (account: AccountsClient) => (await account.balance.get()).data![0]!.balanceAmount!;

describe('TED (section 4.4)', () => {
  it('a TED replayed is one TED and one transaction; another payload with its key is 409; liquidated, TRANSFER is delivered', async () => {
    const before = await available(client);
    const body = { creditorAccount: creditor, payment: { currency: 'BRL' as const, amount: 150.25 }, remittanceInformation: 'Aluguel' };
    const first = await client.ted.create({ body }, { idempotencyKey: 'ted0001' });
    expect(first.data).toMatchObject({ status: 'PROCESSING', transactionType: 'TED', idempotencyKey: 'ted0001', numCtrlStr: null });
    const again = await client.ted.create({ body }, { idempotencyKey: 'ted0001' });
    expect(again.data.id).toBe(first.data.id);
    const during = await available(client);
    expect(during.available).toBeCloseTo(before.available! - 150.25, 2);
    expect(during.blocked).toBe(150.25);
    const now = sandbox.env.clock.nowMs();
    const window = { event_date_start: new Date(now - 60_000).toISOString(), event_date_end: new Date(now + 60_000).toISOString() };
    const listed = await client.transactions.list({ query: window });
    expect(listed.data?.filter((item) => item.transactionType === 'TED')).toHaveLength(1);

    const conflict = await problemOf(client.ted.create({ body: { ...body, payment: { amount: 99 } } }, { idempotencyKey: 'ted0001' }));
    expect(conflict.status).toBe(409);
    expect(conflict.errorType).toBe('idempotency-conflict');

    await control(sandbox, '/clock', { advanceSeconds: 3 });
    const liquidated = await client.ted.getById({ path: { id: first.data.id! } });
    expect(liquidated.data).toMatchObject({ status: 'LIQUIDATED', numCtrlStr: expect.any(String) });
    expect((await available(client)).blocked).toBe(0);
    await waitFor(() => received.some((event) => event.type === 'TRANSFER' && event.data.idempotencyKey === 'ted0001'));
    const event = received.find((entry) => entry.data.idempotencyKey === 'ted0001')!;
    expect(event).toMatchObject({ method: 'PUT', data: { status: 'LIQUIDATED', transactionType: 'TED', payment: { amount: '150.25' } } });
    expect(event.headers['x-receiver-secret']).toBe('abc123');
    expect((await client.ted.getByIdempotencyKey({ path: { idempotencyKey: 'ted0001' } })).data.id).toBe(first.data.id);
  });

  it('a TED to this institution is 400; unknown ids are 404; a TED the balance does not cover is REJECTED with CASHOUT', async () => {
    const inside = await problemOf(
      client.ted.create(
        { body: { creditorAccount: { ...creditor, ispb: '99999010' }, payment: { amount: 1 } } },
        { idempotencyKey: 'ted0002' },
      ),
    );
    expect(inside.status).toBe(400);
    expect((await problemOf(client.ted.getById({ path: { id: 1 } }))).status).toBe(404);
    expect((await problemOf(client.ted.getByIdempotencyKey({ path: { idempotencyKey: 'none' } }))).status).toBe(404);
    const before = await available(client);
    const rejected = await client.ted.create(
      { body: { creditorAccount: creditor, payment: { amount: 5_000_000 } } },
      { idempotencyKey: 'ted0003' },
    );
    expect(rejected.data.status).toBe('REJECTED');
    expect((await available(client)).available).toBe(before.available);
    await waitFor(() => received.some((event) => event.type === 'CASHOUT' && event.data.idempotencyKey === 'ted0003'));
  });
});

describe('internal transfers (section 4.4)', () => {
  it('credits the other account of the platform when liquidated; read back by end-to-end id and key', async () => {
    const mariana = connect('baas_sandbox', { accountId: 2001 });
    const before = (await available(mariana)).available!;
    const target = {
      ispb: '99999010',
      issuer: '0001',
      number: '20016',
      accountType: 'CACC' as const,
      document: '52998224725',
      name: 'Mariana Costa Ribeiro',
    };
    const body = { creditorAccount: target, payment: { amount: 80 }, remittanceInformation: 'Reembolso' };
    const created = await client.internalTransfers.create({ body }, { idempotencyKey: 'int0001' });
    expect(created.data).toMatchObject({ status: 'PROCESSING', transactionType: 'INTERNAL' });
    expect((await client.internalTransfers.create({ body }, { idempotencyKey: 'int0001' })).data.id).toBe(created.data.id);
    await control(sandbox, '/clock', { advanceSeconds: 3 });
    const read = await client.internalTransfers.getByEndToEndId({ path: { endToEndId: created.data.endToEndId! } });
    expect(read.data.status).toBe('LIQUIDATED');
    expect((await available(mariana)).available).toBeCloseTo(before + 80, 2);
    expect((await client.internalTransfers.getByIdempotencyKey({ path: { idempotencyKey: 'int0001' } })).data.id).toBe(created.data.id);
    const unknown = await problemOf(
      client.internalTransfers.create({ body: { ...body, creditorAccount: { ...target, number: '1' } } }, { idempotencyKey: 'int0002' }),
    );
    expect(unknown.status).toBe(400);
  });

  it('APPROVAL_REQUIRED waits for the approver; refused, it is REJECTED, the funds come back and CASHOUT is sent', async () => {
    const before = (await available(client)).available!;
    const target = {
      ispb: '99999010',
      issuer: '0001',
      number: '20020',
      accountType: 'CACC' as const,
      document: '11222333000181',
      name: 'Oficina Horizonte Ltda',
    };
    const created = await client.internalTransfers.create(
      { body: { creditorAccount: target, payment: { amount: 42 }, paymentFlow: 'APPROVAL_REQUIRED' } },
      { idempotencyKey: 'int0003' },
    );
    await control(sandbox, '/clock', { advanceSeconds: 5 });
    expect((await client.internalTransfers.getByIdempotencyKey({ path: { idempotencyKey: 'int0003' } })).data.status).toBe('PROCESSING');
    expect((await available(client)).blocked).toBe(42);
    expect(await control(sandbox, '/accounts/payment', { idempotencyKey: 'int0003', approve: false })).toMatchObject({
      status: 'REJECTED',
    });
    expect((await available(client)).available).toBeCloseTo(before, 2);
    await waitFor(() => received.some((event) => event.type === 'CASHOUT' && event.data.idempotencyKey === 'int0003'));
    expect(created.data.idempotencyKey).toBe('int0003');
    await expect(control(sandbox, '/accounts/payment', { idempotencyKey: 'int0003', approve: true })).rejects.toThrow(
      /no APPROVAL_REQUIRED/,
    );
  });
});

describe('billets (sections 2.5 and 4.4)', () => {
  it('queried then paid at the updated value, replayed, 409 on another payload, liquidated with a receipt', async () => {
    const billet = await control(sandbox, '/accounts/billet', { amount: 123.45 });
    const info = await client.billets.info({ body: { billetCode: billet.digitableCode } });
    expect(info).toMatchObject({
      totalUpdated: 123.45,
      originalValue: 123.45,
      allowChangeValue: false,
      digitableCode: billet.digitableCode,
    });
    const body = { billetCode: billet.barcode, description: 'Fornecedor', payment: { amount: 123.45 } };
    const paid = await client.billets.payQueried({ body }, { idempotencyKey: 'bol0001' });
    expect(paid).toMatchObject({ status: 'PROCESSING', transactionType: 'BILLET', payment: { amount: 123.45 } });
    expect((await client.billets.payQueried({ body }, { idempotencyKey: 'bol0001' })).id).toBe(paid.id);
    expect(
      (await problemOf(client.billets.payQueried({ body: { ...body, description: 'x' } }, { idempotencyKey: 'bol0001' }))).status,
    ).toBe(409);
    await control(sandbox, '/clock', { advanceSeconds: 3 });
    const detail = await client.billets.detail({ path: { id: String(paid.id) } });
    expect(detail.data).toMatchObject({ status: 'LIQUIDATED', billetInfo: { barCode: billet.barcode } });
    expect((await client.billets.getById({ path: { id: String(paid.id) } })).data.id).toBe(paid.id);
    expect((await client.billets.list()).data.map((item) => item.id)).toContain(paid.id);
    const receipt = await client.billets.receipt({ path: { id: String(paid.id) } });
    expect(Buffer.from(receipt.data.pdf!, 'base64').toString('latin1')).toMatch(/^%PDF-1\.4/);
    await waitFor(() => received.some((event) => event.type === 'TRANSFER' && event.data.idempotencyKey === 'bol0001'));
  });

  it.each([
    { given: 'a billet whose value the payer changes', amount: 0, paid: 0, queried: false, want: 'billet-value-changeable' },
    { given: 'an amount other than the updated value', amount: 50, paid: 49.9, queried: false, want: 'billet-amount-mismatch' },
    { given: 'a billet never queried, paid as queried', amount: 60, paid: 60, queried: true, want: 'billet-not-queried' },
  ])('refuses $given with 422', async ({ amount, paid, queried, want }) => {
    const billet = await control(sandbox, '/accounts/billet', { amount });
    const call = queried
      ? client.billets.payQueried({ body: { billetCode: billet.barcode, description: 'x', payment: { amount: paid || 1 } } })
      : client.billets.payByDigitableLine({
          body: { digitableCode: billet.digitableCode, description: 'x', ...(paid ? { payment: { amount: paid } } : {}) },
        });
    const problem = await problemOf(call);
    expect(problem.status).toBe(422);
    expect(problem.errorType).toBe(want);
  });

  it('an overdue billet is paid with its fine and interest; a code with a wrong check digit is 400', async () => {
    const billet = await control(sandbox, '/accounts/billet', { amount: 100, dueInDays: -10 });
    const info = await client.billets.info({ body: { billetCode: billet.barcode } });
    expect(info.totalUpdated).toBeGreaterThan(100);
    const paid = await client.billets.payByDigitableLine({ body: { digitableCode: billet.digitableCode, description: 'Atrasado' } });
    expect(paid.payment?.amount).toBe(info.totalUpdated);
    const broken = `${billet.barcode.slice(0, 4)}${(Number(billet.barcode[4]) + 1) % 10}${billet.barcode.slice(5)}`;
    expect((await problemOf(client.billets.info({ body: { billetCode: broken } }))).status).toBe(400);
  });
});

describe('credits and resets', () => {
  it('a Pix received is a CREDIT with its RECEIVE event', async () => {
    const { endToEndId } = await control(sandbox, '/accounts/receive', { amount: 33.1, payerName: 'Loja Azul' });
    await waitFor(() => received.some((event) => event.type === 'RECEIVE' && event.data.endToEndId === endToEndId));
    const event = received.find((entry) => entry.type === 'RECEIVE' && entry.data.endToEndId === endToEndId)!;
    expect(event.data).toMatchObject({
      creditDebitType: 'CREDIT',
      transactionType: 'PIX',
      status: 'LIQUIDATED',
      payment: { amount: '33.10' },
    });
  });

  it('a payment pending at a reset never liquidates into, nor notifies from, the new state', async () => {
    await client.ted.create({ body: { creditorAccount: creditor, payment: { amount: 9 } } }, { idempotencyKey: 'ted0009' });
    await control(sandbox, '/reset', { seed: sandbox.env.random.seed });
    await control(sandbox, '/clock', { advanceSeconds: 5 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received.some((event) => event.data.idempotencyKey === 'ted0009')).toBe(false);
    const fresh = connect('sandbox-account');
    expect((await problemOf(fresh.ted.getByIdempotencyKey({ path: { idempotencyKey: 'ted0009' } }))).status).toBe(404);
    expect((await available(fresh)).available).toBe(100000);
  });
});

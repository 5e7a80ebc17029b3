/**
 * Invoices and webhooks of the accounts sandbox with the package's client and webhook handler, strict on
 * both sides: IMMEDIATE invoices registered at once, SCHEDULED ones DRAFT then emitted, BOLETO through
 * REGISTERING (cancel refused with 422 until the registry confirms), paid through the control plane;
 * invoice.* events delivered to the INVOICE webhook (a forced resend acknowledged without a second
 * handling; a failing receiver gets the resends of section 6.1 when the clock advances); registrations
 * listed, read, replaced and removed.
 */
import type { RequestListener } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AccountsClient } from '../../src/accounts/index.js';
import { createWebhookHandler } from '../../src/events/index.js';
import { parseBrCode } from '../../src/formats/brcode.js';
import { accountsSandbox } from '../../src/sandbox/accounts/index.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import {
  accountsConnector,
  accountsToken,
  closeAll,
  control,
  deliveries,
  expectNoNewDrifts,
  problemOf,
  type Receiver,
  startReceiver,
  startSeeded,
  strictEventIssues,
  waitFor,
} from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let client: AccountsClient;
let pixKey: string;
const clients: AccountsClient[] = [];
const receivers: Receiver[] = [];
const connect = accountsConnector(() => sandbox, clients);

/** A receiver on loopback, closed when the file ends: the URI to register. */
async function listen(handler: RequestListener): Promise<string> {
  const receiver = await startReceiver(handler);
  receivers.push(receiver);
  return `${receiver.url}/hooks`;
}

/** Every invoice event handled by the package's webhook handler: `<type>:<invoiceId>`. */
const handled: string[] = [];
const payloads: Record<string, unknown>[] = [];

beforeAll(async () => {
  sandbox = await startSeeded('accounts-invoices', [accountsSandbox]);
  client = connect('sandbox-account');
  const handler = createWebhookHandler({
    onEvent: (event) => {
      handled.push(`${event.type}:${String((event.data as { invoiceId?: unknown }).invoiceId)}`);
      payloads.push(event.payload);
    },
  });
  const uri = await listen((request, response) => void handler(request, response));
  await client.webhooks.registerInvoice({ body: { uri, enabled: true } });
  pixKey = (await client.keys.create({ body: { keyType: 'EVP' } })).key!;
});
afterAll(async () => {
  await closeAll(sandbox, clients);
  for (const receiver of receivers) await receiver.close();
});
expectNoNewDrifts(() => sandbox);
afterEach(() => {
  for (const payload of payloads) expect(strictEventIssues(payload)).toEqual([]);
});

const invoice = (overrides: Record<string, unknown> = {}) => ({
  customerId: 10011,
  pixKey,
  dueDate: '2030-04-20',
  amount: 249.9,
  type: 'IMMEDIATE' as const,
  description: 'Pedido 10482',
  ...overrides,
});

describe('invoices (sections 3, 4.4 and 6.3)', () => {
  it('IMMEDIATE Pix: registered at once with a BR Code; invoice.registered delivered once, a forced resend not handled twice', async () => {
    const created = await client.invoices.create({ body: invoice() }, { idempotencyKey: 'inv-0001' });
    expect(created).toMatchObject({ type: 'IMMEDIATE', paymentMethod: 'PIX', pixKey, amount: 249.9 });
    expect(created.status).toBeUndefined();
    expect(parseBrCode(created.brCode!).valid).toBe(true);
    const id = `invoice.registered:${created.id}`;
    await waitFor(() => handled.includes(id));
    const delivery = (await deliveries(sandbox)).find((entry) => entry.label === 'invoice.registered' && entry.state === 'delivered')!;
    await control(sandbox, `/deliveries/${delivery.id}/resend`);
    await waitFor(async () => (await deliveries(sandbox)).find((entry) => entry.id === delivery.id)?.attempts.length === 2);
    expect(handled.filter((entry) => entry === id)).toHaveLength(1);
  });

  it('the same idempotency key and payload answer the original; another payload is 409', async () => {
    const first = await client.invoices.create({ body: invoice({ amount: 10 }) }, { idempotencyKey: 'inv-0002' });
    const again = await client.invoices.create({ body: invoice({ amount: 10 }) }, { idempotencyKey: 'inv-0002' });
    expect(again.id).toBe(first.id);
    const conflict = await problemOf(client.invoices.create({ body: invoice({ amount: 11 }) }, { idempotencyKey: 'inv-0002' }));
    expect(conflict.status).toBe(409);
    expect((await client.invoices.list({ query: { filter: 'pedido' } })).data.filter((entry) => entry.amount === 10)).toHaveLength(1);
  });

  it('SCHEDULED starts DRAFT and is emitted; a Pix invoice emitted twice is 422', async () => {
    const draft = await client.invoices.create({ body: invoice({ type: 'SCHEDULED' }) }, { idempotencyKey: 'inv-0003' });
    expect(draft).toMatchObject({ status: 'DRAFT', txId: null, brCode: null });
    const emitted = await client.invoices.emit({ path: { invoiceId: draft.id! } });
    expect(emitted.status).toBeUndefined();
    expect(emitted.txId).toEqual(expect.any(String));
    await waitFor(() => handled.includes(`invoice.registered:${draft.id}`));
    expect((await problemOf(client.invoices.emit({ path: { invoiceId: draft.id! } }))).errorType).toBe('invoice-not-draft');
  });

  it('BOLETO: REGISTERING with its codes, cancel 422; confirmed after the registry, emit idempotent, cancelled with its event', async () => {
    const boleto = await client.invoices.create(
      { body: invoice({ paymentMethod: 'BOLETO', pixKey: undefined, amount: 2200 }) },
      { idempotencyKey: 'inv-0004' },
    );
    expect(boleto).toMatchObject({ status: 'REGISTERING', boletoBarcode: expect.stringMatching(/^\d{44}$/) });
    const refused = await problemOf(client.invoices.cancel({ path: { invoiceId: boleto.id! } }));
    expect(refused.status).toBe(422);
    expect(refused.errorType).toBe('invoice-registering');
    await control(sandbox, '/clock', { advanceSeconds: 31 });
    await waitFor(() => handled.includes(`invoice.registered:${boleto.id}`));
    expect((await client.invoices.get({ path: { invoiceId: boleto.id! } })).status).toBeUndefined();
    expect((await client.invoices.emit({ path: { invoiceId: boleto.id! } })).boletoBarcode).toBe(boleto.boletoBarcode);
    expect((await client.invoices.cancel({ path: { invoiceId: boleto.id! } })).id).toBe(boleto.id);
    await waitFor(() => handled.includes(`invoice.cancelled:${boleto.id}`));
    expect((await problemOf(client.invoices.cancel({ path: { invoiceId: boleto.id! } }))).status).toBe(422);
  });

  it('paid through the control plane: COMPLETED, the account credited, invoice.paid; its key is held until then', async () => {
    const created = await client.invoices.create({ body: invoice({ amount: 75.5 }) }, { idempotencyKey: 'inv-0005' });
    const key = await problemOf(client.keys.delete({ path: { key: pixKey } }));
    expect(key.status).toBe(409);
    const before = (await client.balance.get()).data![0]!.balanceAmount!.available!;
    const paid = await control(sandbox, '/accounts/payInvoice', { invoiceId: created.id });
    expect(paid.status).toBe('COMPLETED');
    const read = await client.invoices.get({ path: { invoiceId: created.id! } });
    expect(read).toMatchObject({ status: 'COMPLETED', transactionId: expect.any(String) });
    expect((await client.balance.get()).data![0]!.balanceAmount!.available).toBeCloseTo(before + 75.5, 2);
    const [detail] = await client.transactions.details({ path: { transactionId: Number(read.transactionId) } });
    expect(detail).toMatchObject({ creditDebitType: 'CREDIT', txId: created.txId });
    await waitFor(() => handled.includes(`invoice.paid:${created.id}`));
    await expect(control(sandbox, '/accounts/payInvoice', { invoiceId: created.id })).rejects.toThrow(/COMPLETED/);
  });

  it('an unknown customer or key is 422, an unknown invoice 404', async () => {
    expect((await problemOf(client.invoices.create({ body: invoice({ customerId: 1 }) }))).errorType).toBe('invoice-rejected');
    expect((await problemOf(client.invoices.create({ body: invoice({ pixKey: 'outra@example.com' }) }))).errorType).toBe(
      'invoice-rejected',
    );
    expect((await problemOf(client.invoices.get({ path: { invoiceId: 1 } }))).status).toBe(404);
  });
});

describe('webhooks (sections 4.5 and 6.1)', () => {
  it('a failing receiver gets the resends when the clock advances 2 minutes, and the delivery ends delivered', async () => {
    const account = connect('baas_sandbox', { accountId: 2002 });
    let failing = true;
    const attempts: string[] = [];
    const uri = await listen((request, response) => {
      request.resume();
      request.on('end', () => {
        attempts.push(request.method ?? '');
        response.writeHead(failing ? 500 : 200).end();
      });
    });
    await account.webhooks.registerInvoice({ body: { uri, enabled: true } });
    const key = (await account.keys.create({ body: { keyType: 'EVP' } })).key!;
    await account.invoices.create({ body: { ...invoice(), customerId: 20021, pixKey: key } });
    await waitFor(() => attempts.length === 1);
    await control(sandbox, '/clock', { advanceSeconds: 120 });
    await waitFor(() => attempts.length === 2);
    failing = false;
    await control(sandbox, '/clock', { advanceSeconds: 120 });
    await waitFor(() => attempts.length === 3);
    const log = (await deliveries(sandbox)).find((entry) => entry.url === uri)!;
    await waitFor(async () => (await deliveries(sandbox)).find((entry) => entry.id === log.id)?.state === 'delivered');
    expect((await deliveries(sandbox)).find((entry) => entry.id === log.id)!.attempts.map((attempt) => attempt.status)).toEqual([
      500, 500, 200,
    ]);
  });

  it('registrations are listed, read, replaced under the same id and removed', async () => {
    const account = connect('baas_sandbox', { accountId: 2001 });
    const first = await account.webhooks.registerCrypto({ body: { uri: 'http://127.0.0.1:9/one', enabled: true } });
    const second = await account.webhooks.registerCrypto({ body: { uri: 'http://127.0.0.1:9/two', enabled: false, method: 'GET' } });
    expect(second).toMatchObject({ id: first.id, uri: 'http://127.0.0.1:9/two', enabled: false, method: 'GET', pauseOnFail: true });
    expect((await account.webhooks.list()).data.map((entry) => entry.type)).toEqual(['CRYPTO']);
    expect(await account.webhooks.get({ path: { webhookId: first.id! } })).toMatchObject({ type: 'CRYPTO' });
    const removed = await account.webhooks.delete({ path: { webhookId: first.id! } });
    expect(removed.title).toBe('Webhook removed');
    expect((await problemOf(account.webhooks.get({ path: { webhookId: first.id! } }))).status).toBe(404);
    expect((await client.webhooks.list()).data.map((entry) => entry.type)).toEqual(['INVOICE']);
  });
});

describe('registration of the other types (section 4.5)', () => {
  it('REFUND and INFRACTION register like the others; the type segment is case-insensitive', async () => {
    const account = connect('baas_sandbox', { accountId: 2003 });
    const refund = await account.webhooks.registerRefund({
      body: { uri: 'http://127.0.0.1:9/refund', enabled: true, email: 'ti@example.com' },
    });
    expect(refund).toMatchObject({ type: 'REFUND', email: 'ti@example.com', headers: null });
    await account.webhooks.registerInfraction({
      body: { uri: 'http://127.0.0.1:9/infraction', enabled: true, headers: { authorization: 'Basic eDp5' } },
    });
    const accessToken = await accountsToken(sandbox, 'baas_sandbox');
    const mixed = await fetch(`${sandbox.urlOf('accounts')}/webhooks/Infraction`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', 'x-account-id': '2003' },
      body: JSON.stringify({ uri: 'http://127.0.0.1:9/infraction2', enabled: true }),
    });
    expect(mixed.status).toBe(200);
    const types = (await account.webhooks.list()).data.map((entry) => `${entry.type} ${entry.uri}`);
    expect(types).toEqual(['REFUND http://127.0.0.1:9/refund', 'INFRACTION http://127.0.0.1:9/infraction2']);
  });
});

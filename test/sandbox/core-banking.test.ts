/**
 * The core banking sandbox (interface D) as a BaaS partner and an account holder use it, with the package's
 * own client, every answer checked strictly against the contract on both sides: seeded accounts with valid
 * documents and balances that follow paid invoices; fee rules with their assigned weights, 409 on a duplicate
 * weight and immutable requirements/effectiveDate; invoices replayed under their Idempotency-Key, 409 for
 * another payload, 422 when cancelling a REGISTERING one; bankarization applications; credentials; 401 for a
 * wrong secret and a token renewed after the sandbox clock expired it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthError, type CoreBankingClient, type LogEvent, RequestValidationError } from '../../src/core-banking/index.js';
import { checkBoletoBarcode, checkBoletoLine } from '../../src/formats/boleto.js';
import { parseBrCode } from '../../src/formats/brcode.js';
import { checkCnpj, checkCpf } from '../../src/formats/documents.js';
import { coreBankingSandbox, type CoreBankingState } from '../../src/sandbox/core-banking/index.js';
import { registrySeconds } from '../../src/sandbox/core-banking/invoices.js';
import { operationTable } from '../../generated/core-banking/operations.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { closeAll, control, coreBankingClientOf, expectNoNewDrifts, problemOf, startSeeded } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
/** sandbox-core: every scope of D, a BaaS caller (it holds the BaaS-only fee-rules scopes). */
let bank: CoreBankingClient;
/** sandbox-account: an account credential, bound to one child account. */
let holder: CoreBankingClient;
const clients: CoreBankingClient[] = [];
const events: LogEvent[] = [];

const clientFor = (clientId: string, clientSecret = 'sandbox-secret', logger?: (event: LogEvent) => void): CoreBankingClient => {
  const client = coreBankingClientOf(sandbox, clientId, { clientSecret, ...(logger ? { logger } : {}) });
  clients.push(client);
  return client;
};

const state = (): CoreBankingState => sandbox.stateOf<CoreBankingState>('core-banking');

/** A token asked for with the client, for a request sent past the client's own validation. */
const tokenOf = async (clientId: string): Promise<string> =>
  (await bank.auth.token({ body: { client_id: clientId, client_secret: 'sandbox-secret', grant_type: 'client_credentials' } }))
    .access_token;

beforeAll(async () => {
  sandbox = await startSeeded('core-banking', [coreBankingSandbox]);
  bank = clientFor('sandbox-core', 'sandbox-secret', (event) => events.push(event));
  holder = clientFor('sandbox-account');
});
afterAll(() => closeAll(sandbox, clients));
// Every answer of every test is checked against the contract: a drift fails the test that caused it.
expectNoNewDrifts(() => sandbox);

it('every operation of the core banking bundle has a handler (none answers 501)', () => {
  expect(Object.keys(operationTable).filter((operationId) => !(operationId in coreBankingSandbox.handlers))).toEqual([]);
});

describe('accounts, balances and BaaS partners', () => {
  it('lists the seeded accounts, page after page, each holder with a document whose check digits are valid', async () => {
    const first = await bank.accounts.list({ query: { perPage: 3 } });
    expect(first.meta).toMatchObject({ page: 1, perPage: 3 });
    const total = first.meta!.total!;
    expect(total).toBeGreaterThanOrEqual(6);
    const all = [];
    for await (const account of bank.accounts.listItems({ query: { perPage: 3, sortOrder: 'asc' } })) all.push(account);
    expect(all).toHaveLength(total);
    expect(new Set(all.map((account) => account.id)).size).toBe(total);
    for (const account of all) {
      const person = account.person as unknown as { name: string; document: string };
      expect(person.name).not.toBe('');
      expect(person.document.length === 11 ? checkCpf(person.document) : checkCnpj(person.document)).toEqual({ valid: true });
    }
    const created = all.map((account) => account.createdAt!);
    expect(created).toEqual([...created].sort());
    expect(all.filter((account) => account.status === 'INACTIVE' && account.closedAt)).toHaveLength(1);
  });

  it('GET /baas gives each partner with its main account (a company, no direct baasId); baasId filters the accounts', async () => {
    const partners = await bank.baas.list();
    expect(partners.data).toHaveLength(2);
    for (const partner of partners.data) {
      expect(partner.mainAccount).toMatchObject({ baasId: null, status: 'ACTIVE' });
      expect(checkCnpj((partner.mainAccount!.person as unknown as { document: string }).document)).toEqual({ valid: true });
      const children = await bank.accounts.list({ query: { baasId: partner.id!, perPage: 100 } });
      expect(children.data.length).toBeGreaterThan(0);
      expect(children.data.every((account) => account.baasId === partner.id)).toBe(true);
    }
  });

  it.each([
    { given: 'an account', path: 'get', want: 200 },
    { given: 'the balance of an account', path: 'balance', want: 200 },
    { given: 'an account that does not exist', path: 'missing', want: 404 },
  ])('reads $given', async ({ path, want }) => {
    const id = Number(state().callerAccountId);
    if (path === 'get') expect(await bank.accounts.get({ path: { id } })).toMatchObject({ id: String(id) });
    if (path === 'balance')
      expect(await bank.accounts.balance({ path: { id } })).toMatchObject({
        accountId: String(id),
        currency: 'BRL',
        balance: expect.any(Number),
      });
    if (path === 'missing') expect((await problemOf(bank.accounts.get({ path: { id: 1 } }))).status).toBe(want);
  });

  it('an account credential has no institution scope: 403', async () => {
    const problem = await problemOf(holder.accounts.list());
    expect(problem).toMatchObject({ status: 403, errorType: 'forbidden' });
  });
});

describe('fee rules', () => {
  const rule = { name: 'Tarifa Pix recebido', percent: 0.99, minAmount: 0.5, maxAmount: 15 };

  it('creation assigns the weight (highest plus 1) and the rule reads back as created; the filter matches the name in any case', async () => {
    const first = await bank.feeRules.create({ body: rule }).withResponse();
    expect(first.response.status).toBe(201);
    expect(first.data).toMatchObject({ ...rule, fixedAmount: 0, effectiveDate: null, requirements: [], baasId: state().callerPartnerId });
    const second = await bank.feeRules.create({
      body: {
        name: 'Tarifa boleto clientes PJ',
        percent: 0,
        fixedAmount: 2.49,
        minAmount: 2.49,
        maxAmount: 2.49,
        requirements: [{ kind: 'ACCOUNT_NUMBER', values: ['10048213'] }],
        effectiveDate: '2030-04-01T00:00:00-03:00',
      },
    });
    expect(second.weight).toBe(first.data.weight! + 1);
    expect(second.effectiveDate).toBe('2030-04-01T03:00:00.000Z');
    expect(await bank.feeRules.get({ path: { id: second.id } })).toEqual(second);
    const found = await bank.feeRules.list({ query: { filter: 'BOLETO CLIENTES' } });
    expect(found.data.map((entry) => entry.id)).toEqual([second.id]);
  });

  it('PUT moves a rule to a free weight, and refuses a weight another rule of the BaaS holds with 409', async () => {
    const a = await bank.feeRules.create({ body: { ...rule, name: 'Regra A' } });
    const b = await bank.feeRules.create({ body: { ...rule, name: 'Regra B' } });
    const free = b.weight! + 10;
    const moved = await bank.feeRules.update({ path: { id: a.id }, body: { weight: free, percent: 1.2, minAmount: 0.5, maxAmount: 20 } });
    expect(moved).toMatchObject({ weight: free, percent: 1.2, maxAmount: 20, name: 'Regra A' });
    const problem = await problemOf(
      bank.feeRules.update({ path: { id: b.id }, body: { weight: free, percent: 1, minAmount: 0.5, maxAmount: 15 } }),
    );
    expect(problem).toMatchObject({ status: 409, errorType: 'duplicate-weight' });
    expect(await bank.feeRules.get({ path: { id: b.id } })).toMatchObject({ weight: b.weight, percent: rule.percent });
  });

  it.each([
    { member: 'requirements', value: [{ kind: 'ACCOUNT_NUMBER', values: ['1'] }] },
    { member: 'effectiveDate', value: '2031-01-01T00:00:00Z' },
  ])(
    '$member is not mutable: the client refuses it before sending, and the sandbox answers 400 to one sent past it',
    async ({ member, value }) => {
      const created = await bank.feeRules.create({ body: { ...rule, name: `Imutavel ${member}` } });
      const body = { percent: 1, minAmount: 1, maxAmount: 2, [member]: value };
      const error = await bank.feeRules.update({ path: { id: created.id }, body: body as never }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RequestValidationError);
      const answer = await fetch(`${sandbox.urlOf('core-banking')}/fee-rules/${created.id}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${await tokenOf('sandbox-core')}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { type: string }).type).toMatch(/\/errors\/invalid-parameters$/);
      expect(await bank.feeRules.get({ path: { id: created.id } })).toEqual(created);
    },
  );

  it('DELETE removes the rule for good (404 afterwards); an account credential gets 403', async () => {
    const created = await bank.feeRules.create({ body: { ...rule, name: 'Temporaria' } });
    expect((await bank.feeRules.delete({ path: { id: created.id } }).withResponse()).response.status).toBe(204);
    expect((await problemOf(bank.feeRules.get({ path: { id: created.id } }))).status).toBe(404);
    expect((await problemOf(holder.feeRules.list())).status).toBe(403);
    expect((await problemOf(bank.feeRules.delete({ path: { id: created.id } }))).status).toBe(404);
  });

  it('a weight in a creation body is refused (the platform assigns it): by the client, and with 400 by the sandbox', async () => {
    const body = { ...rule, weight: 7 };
    expect(await bank.feeRules.create({ body: body as never }).catch((caught: unknown) => caught)).toBeInstanceOf(RequestValidationError);
    const answer = await fetch(`${sandbox.urlOf('core-banking')}/fee-rules`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await tokenOf('sandbox-core')}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(400);
  });
});

describe('invoices', () => {
  const pixKey = 'a4cc548d-286b-4c49-934c-bc3a0ab605a6';
  let accountId: number;
  let customerId: number;
  beforeAll(async () => {
    accountId = Number(state().callerAccountId);
    const { customers } = await control(sandbox, '/core-banking/customers', { accountId });
    customerId = customers[0].id;
  });
  const pix = () => ({ customerId, pixKey, dueDate: '2030-04-10', amount: 249.9, type: 'IMMEDIATE' as const, description: 'Pedido 10482' });
  const boleto = () => ({ customerId, paymentMethod: 'BOLETO' as const, dueDate: '2030-04-10', amount: 1500, type: 'IMMEDIATE' as const });
  const total = async () => (await bank.invoices.list({ path: { accountId }, query: { perPage: 1 } })).meta!.total!;

  it('the same Idempotency-Key and payload replay the first invoice, and the sandbox holds one; another payload is 409', async () => {
    const before = await total();
    const key = `pedido-10482-${Date.now()}`;
    const created = await bank.invoices.create({ path: { accountId }, body: pix() }, { idempotencyKey: key }).withResponse();
    expect(created.response.status).toBe(201);
    expect(parseBrCode(created.data.brCode!).valid).toBe(true);
    expect(created.data).toMatchObject({ paymentMethod: 'PIX', pixKey, txId: expect.any(String), boletoBarcode: null });
    // Registered at once, awaiting payment: a state of section 3 whose status value the contract does not know.
    expect(created.data.status).toBeUndefined();
    expect(state().invoices[String(created.data.id)]!.stage).toBe('registered');
    const replay = await bank.invoices.create({ path: { accountId }, body: pix() }, { idempotencyKey: key }).withResponse();
    expect(replay.response.status).toBe(201);
    expect(replay.data).toEqual(created.data);
    expect(await total()).toBe(before + 1);
    const problem = await problemOf(
      bank.invoices.create({ path: { accountId }, body: { ...pix(), amount: 300 } }, { idempotencyKey: key }),
    );
    expect(problem).toMatchObject({ status: 409, errorType: 'idempotency-conflict' });
    expect(await total()).toBe(before + 1);
  });

  it('a BOLETO invoice is REGISTERING with a valid barcode and line; its cancel is 422 until the registry confirms, then it succeeds', async () => {
    const invoice = await bank.invoices.create({ path: { accountId }, body: boleto() });
    expect(invoice).toMatchObject({ status: 'REGISTERING', pixKey: null, brCode: null });
    expect(checkBoletoBarcode(invoice.boletoBarcode!)).toEqual({ valid: true });
    expect(checkBoletoLine(invoice.boletoDigitableLine!)).toEqual({ valid: true });
    const path = { accountId, invoiceId: invoice.id! };
    expect(await problemOf(bank.invoices.cancel({ path }))).toMatchObject({ status: 422, errorType: 'invoice-registering' });
    await control(sandbox, '/core-banking/register', { invoiceId: invoice.id });
    expect(await bank.invoices.cancel({ path })).toEqual({ success: true });
    expect(state().invoices[String(invoice.id)]!.stage).toBe('cancelled');
    expect(await problemOf(bank.invoices.emit({ path }))).toMatchObject({ status: 400 });
    await expect(control(sandbox, '/core-banking/register', { invoiceId: invoice.id })).rejects.toThrow(/409.*not REGISTERING/);
  });

  it(`the registry confirms a boleto on its own after ${registrySeconds} sandbox seconds; a DRAFT takes no payment`, async () => {
    const invoice = await bank.invoices.create({ path: { accountId }, body: boleto() });
    const path = { accountId, invoiceId: invoice.id! };
    await expect(control(sandbox, '/core-banking/payInvoice', { invoiceId: invoice.id })).rejects.toThrow(/409.*REGISTERING/);
    await control(sandbox, '/clock', { advanceSeconds: registrySeconds + 1 });
    const registered = await bank.invoices.get({ path });
    expect(registered.status).toBeUndefined();
    expect(registered.boletoBarcode).toBe(invoice.boletoBarcode);
    await control(sandbox, '/core-banking/payInvoice', { invoiceId: invoice.id });
    expect(await bank.invoices.get({ path })).toMatchObject({ status: 'COMPLETED' });
    const draft = await bank.invoices.create({ path: { accountId }, body: { ...boleto(), type: 'SCHEDULED' } });
    await expect(control(sandbox, '/core-banking/payInvoice', { invoiceId: draft.id })).rejects.toThrow(/409.*draft/);
    expect(await bank.invoices.cancel({ path: { accountId, invoiceId: draft.id! } })).toEqual({ success: true });
  });

  it('a SCHEDULED invoice is DRAFT until emitted; emitting again changes nothing', async () => {
    const draft = await bank.invoices.create({
      path: { accountId },
      body: { ...pix(), paymentMethod: 'PIX_BOLETO', type: 'SCHEDULED', description: 'Parcela 2/6' },
    });
    expect(draft).toMatchObject({ status: 'DRAFT', txId: null, brCode: null, boletoBarcode: null });
    const path = { accountId, invoiceId: draft.id! };
    const emitted = await bank.invoices.emit({ path });
    expect(emitted).toMatchObject({ status: 'REGISTERING', txId: expect.any(String) });
    expect(checkBoletoBarcode(emitted.boletoBarcode!)).toEqual({ valid: true });
    expect(await bank.invoices.emit({ path })).toEqual(emitted);
    expect(await bank.invoices.get({ path })).toEqual(emitted);
  });

  it('paid through the control plane it is COMPLETED and the balance grows by its amount; it cannot be paid twice or cancelled', async () => {
    const before = (await bank.accounts.balance({ path: { id: accountId } })).balance!;
    const invoice = await bank.invoices.create({ path: { accountId }, body: { ...pix(), amount: 120.35 } });
    await control(sandbox, '/core-banking/payInvoice', { invoiceId: invoice.id });
    const path = { accountId, invoiceId: invoice.id! };
    expect(await bank.invoices.get({ path })).toMatchObject({ status: 'COMPLETED', transactionId: expect.any(String), appliedFee: 0 });
    const after = (await bank.accounts.balance({ path: { id: accountId } })).balance!;
    expect(Math.round((after - before) * 100)).toBe(12035);
    await expect(control(sandbox, '/core-banking/payInvoice', { invoiceId: invoice.id })).rejects.toThrow(/409.*only a registered invoice/);
    expect(await problemOf(bank.invoices.cancel({ path }))).toMatchObject({ status: 422, errorType: 'invoice-paid' });
  });

  it('lists page by page (nextPage until the last) and filters by description or payer name', async () => {
    const mark = `Lote ${Date.now()}`;
    for (let index = 0; index < 5; index += 1)
      await bank.invoices.create({ path: { accountId }, body: { ...pix(), amount: 10 + index, description: `${mark} ${index}` } });
    const first = await bank.invoices.list({ path: { accountId }, query: { filter: mark, perPage: 2 } });
    expect(first.meta).toMatchObject({ total: 5, currentPage: 1, lastPage: 3, nextPage: 2, prevPage: null });
    const walked = [];
    for await (const invoice of bank.invoices.listItems({ path: { accountId }, query: { filter: mark.toUpperCase(), perPage: 2 } }))
      walked.push(invoice.description);
    expect(walked.sort()).toEqual([0, 1, 2, 3, 4].map((index) => `${mark} ${index}`));
  });

  it.each([
    { given: 'a customer of another account', body: () => ({ ...pix(), customerId: 1 }), want: 404 },
    { given: 'a Pix key that is not one', body: () => ({ ...pix(), pixKey: 'not a key' }), want: 400 },
    { given: 'an amount under a centavo', body: () => ({ ...pix(), amount: 0.001 }), want: 400 },
    { given: 'an account that is closed', body: pix, closed: true, want: 400 },
    { given: 'an account that does not exist', body: pix, missing: true, want: 404 },
  ])('refuses $given', async ({ body, want, closed, missing }) => {
    const inactive = Object.values(state().accounts).find((account) => account.status === 'INACTIVE')!;
    const target = closed ? Number(inactive.id) : missing ? 1 : accountId;
    expect((await problemOf(bank.invoices.create({ path: { accountId: target }, body: body() }))).status).toBe(want);
  });

  it('an account caller sees only its own account: another one is 404', async () => {
    const other = Object.values(state().accounts).find((account) => account.id !== state().callerAccountId && !account.main)!;
    expect((await problemOf(holder.invoices.list({ path: { accountId: Number(other.id) } }))).status).toBe(404);
    expect((await holder.invoices.list({ path: { accountId } })).meta!.total).toBeGreaterThan(0);
  });
});

describe('bankarization', () => {
  // debtor, operation and assignment are objects whose members section 2.13 does not show: the generated
  // type is Record<string, never>, so members of the caller's own need a cast.
  const application = {
    externalRequestId: 'proposta-2025-114',
    creditProductId: 1,
    debtor: { document: '79803432559' } as never,
    operation: { amount: 5000 } as never,
  };

  it('products: BaaS callers see the assignees, account callers do not', async () => {
    const forBaas = await bank.bankarizationProducts.list();
    expect(forBaas.data.every((product) => Array.isArray(product.assignees))).toBe(true);
    const forHolder = await holder.bankarizationProducts.get({ path: { productId: 1 } });
    expect(forHolder).toMatchObject({ id: 1, personType: 'NATURAL_PERSON' });
    expect(forHolder.assignees).toBeUndefined();
  });

  it('a BaaS application is RECEIVED (202), replayed under its key, 409 for another payload; without assignment it is 400', async () => {
    const body = { ...application, assignment: { accountId: Number(state().callerAccountId) } as never };
    const created = await bank.bankarizationApplications.create({ body }, { idempotencyKey: 'app-1' }).withResponse();
    expect(created.response.status).toBe(202);
    expect(created.data).toMatchObject({
      status: 'RECEIVED',
      nextAction: 'INTERNAL_CREDIT_FLOW',
      externalRequestId: application.externalRequestId,
    });
    expect(await bank.bankarizationApplications.create({ body }, { idempotencyKey: 'app-1' })).toEqual(created.data);
    const conflict = await problemOf(
      bank.bankarizationApplications.create({ body: { ...body, externalRequestId: 'x' } }, { idempotencyKey: 'app-1' }),
    );
    expect(conflict.status).toBe(409);
    expect((await problemOf(bank.bankarizationApplications.create({ body: application }))).status).toBe(400);
    expect((await problemOf(bank.bankarizationApplications.list())).status).toBe(403);
  });

  it('an account application is listed for its account, read back, and cancelled (again: the same answer)', async () => {
    const created = await holder.bankarizationApplications.create({ body: application });
    const listed = await holder.bankarizationApplications.list();
    expect(listed.data.map((entry) => entry.requestId)).toContain(created.requestId);
    const path = { requestId: created.requestId! };
    expect(await holder.bankarizationApplications.get({ path })).toEqual(created);
    const cancelled = await holder.bankarizationApplications.cancel({ path });
    expect(cancelled).toMatchObject({ requestId: created.requestId, status: 'CANCELLED' });
    expect(await holder.bankarizationApplications.cancel({ path })).toEqual(cancelled);
    // The BaaS of the account reads it too.
    expect(await bank.bankarizationApplications.get({ path })).toEqual(cancelled);
    const unknown = { requestId: '0e3ec47e-2fc8-4c4c-bdee-0eb80eb91a50' };
    expect((await problemOf(holder.bankarizationApplications.get({ path: unknown }))).status).toBe(404);
  });
});

describe('credentials (provisional routes)', () => {
  it('an accounts API credential is issued for a child account, updated and deleted; not for the owner account; not by an account credential', async () => {
    const accountId = Number(state().callerAccountId);
    const issued = await bank.apiCredentials.create({
      body: { accountId, description: 'ERP', allowedIps: ['198.51.100.24'], scopes: ['pix.read'] },
    });
    expect(issued).toMatchObject({ description: 'ERP', allowedIps: ['198.51.100.24'], clientSecret: expect.any(String) });
    const path = { clientId: issued.clientId! };
    expect(await bank.apiCredentials.update({ path, body: { allowedIps: ['203.0.113.0/24'] } })).toMatchObject({
      message: expect.any(String),
    });
    expect(state().credentials[issued.clientId!]!.allowedIps).toEqual(['203.0.113.0/24']);
    expect(await bank.apiCredentials.delete({ path })).toMatchObject({ message: expect.any(String) });
    expect((await problemOf(bank.apiCredentials.delete({ path }))).status).toBe(404);
    const owner = state().partners[state().callerPartnerId]!.mainAccountId;
    expect((await problemOf(bank.apiCredentials.create({ body: { accountId: Number(owner) } }))).status).toBe(400);
    expect((await problemOf(holder.apiCredentials.create({ body: { accountId } }))).status).toBe(403);
  });

  it('a Pix manager credential creates the random key of the account once, and reuses it', async () => {
    const first = await holder.pixManagerCredentials.create({ body: { description: 'Checkout' } });
    const second = await holder.pixManagerCredentials.create({ body: { description: 'Checkout 2' } });
    expect(first).toMatchObject({ pixKeyCreated: true });
    expect(second).toMatchObject({ pixKeyCreated: false, pixKey: first.pixKey });
    expect(second.clientId).not.toBe(first.clientId);
  });
});

describe('tokens', () => {
  it('a wrong secret is refused with 401: AuthError invalid-credentials', async () => {
    const error = await clientFor('sandbox-core', 'wrong-secret')
      .baas.list()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ reason: 'invalid-credentials', status: 401 });
  });

  it('a token the sandbox clock expired is answered 401; the client renews it and the call succeeds', async () => {
    await bank.baas.list();
    await control(sandbox, '/clock', { advanceSeconds: 4000 });
    events.length = 0;
    expect((await bank.baas.list()).data).toHaveLength(2);
    expect(events.some((event) => event.event === 'token' && event.data.renewedAfter401 === true)).toBe(true);
  });
});

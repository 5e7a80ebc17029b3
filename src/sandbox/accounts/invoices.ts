/**
 * Invoices of interface A (sections 2.7, 3, 4.4 and 6.3): created with an x-idempotency-key (replayed on
 * the same payload, 409 on another). IMMEDIATE ones are issued at once — a Pix charge (txId and a BR Code
 * on the account's key) and/or a boleto, REGISTERING with its barcode and digitable line until the registry
 * confirms it `registrySeconds` of sandbox time later; SCHEDULED ones start DRAFT and are emitted later
 * (emit is idempotent on a boleto already issued). Cancel is 422 while REGISTERING; the control verb
 * `payInvoice` pays a registered invoice (COMPLETED, the account credited), and its settlement completes
 * `settlementSeconds` later (invoice.settled). An issued invoice still unpaid when its due day ends in São
 * Paulo is overdue (invoice.overdue). Each move sends its invoice.* event to the INVOICE webhook; the moves
 * on the clock are scheduled tasks, so a snapshot keeps them across a restart.
 *
 * Known status values are DRAFT, REGISTERING and COMPLETED (decision 19): a registered invoice awaiting
 * payment and a cancelled one are answered without `status`, as the spec's examples are.
 */
import type { ControlVerb, Handler, SandboxEnvironment, SandboxRequest, TaskRunner } from '../contract.js';
import { draftInvoice, invoiceBoleto, invoicePageMeta, invoicePixCharge } from '../invoices.js';
import { accountOf, notFound, refuse } from './access.js';
import { notifyEntry, record } from './ledger.js';
import { idempotencyKeyOf, remember, replayed } from './outgoing.js';
import {
  type Account,
  type AccountsState,
  centsOf,
  endToEndId,
  type Json,
  next,
  otherIspb,
  partyOf,
  type StoredInvoice,
  later,
} from './state.js';
import { deliver } from './webhooks.js';

/** Sandbox seconds the boleto registry takes to confirm a registration. */
export const registrySeconds = 30;
/** Sandbox seconds between a payment identified (invoice.paid) and its settlement completed (invoice.settled). */
export const settlementSeconds = 60;
const dayMs = 86_400_000;

const statusOf: Readonly<Record<StoredInvoice['lifecycle'], string | undefined>> = {
  DRAFT: 'DRAFT',
  REGISTERING: 'REGISTERING',
  REGISTERED: undefined,
  COMPLETED: 'COMPLETED',
  CANCELLED: undefined,
};

function view(invoice: StoredInvoice): Json {
  const status = statusOf[invoice.lifecycle];
  return { ...invoice.record, ...(status ? { status } : {}) };
}

const masked = (document: string): string =>
  document.length === 11 ? `***.${document.slice(3, 6)}.${document.slice(6, 9)}-**` : `${document.slice(0, 8)}****${document.slice(12)}`;

function notify(state: AccountsState, env: SandboxEnvironment, invoice: StoredInvoice, type: string): void {
  const { record: data } = invoice;
  const status = statusOf[invoice.lifecycle];
  const customer = data.customer as Json;
  deliver(state, env, invoice.accountId, {
    type,
    data: {
      invoiceId: data.id,
      txId: data.txId,
      ...(status ? { status } : {}),
      paymentMethod: data.paymentMethod,
      amount: data.amount,
      dueDate: data.dueDate,
      ...(typeof data.description === 'string' ? { description: data.description } : {}),
      customer: { name: customer.name, document: masked(String(customer.document)) },
    },
  });
}

/** Issues the Pix charge and/or registers the boleto: IMMEDIATE at creation, SCHEDULED on emit. */
function issue(state: AccountsState, env: SandboxEnvironment, account: Account, invoice: StoredInvoice): void {
  const { record: data } = invoice;
  const method = String(data.paymentMethod);
  if (method !== 'BOLETO')
    Object.assign(data, invoicePixCharge(env, String(data.pixKey), data.amount as number, account.tradeName ?? account.name));
  // The due date is a day in São Paulo (draftInvoice writes its midnight there): overdue once that day is over.
  later(env, Date.parse(String(data.dueDate)) + dayMs, 'invoiceOverdue', { invoiceId: data.id });
  if (method === 'PIX') {
    invoice.lifecycle = 'REGISTERED';
    notify(state, env, invoice, 'invoice.registered');
    return;
  }
  const { barcode, line } = invoiceBoleto(env, '001', {
    id: data.id,
    cents: centsOf(data.amount as number),
    dueDate: String(data.dueDate).slice(0, 10),
  });
  data.boletoBarcode = barcode;
  data.boletoDigitableLine = line;
  invoice.lifecycle = 'REGISTERING';
  later(env, env.clock.nowMs() + registrySeconds * 1000, 'confirmRegistry', { invoiceId: data.id });
}

const invoiceNamed = (state: AccountsState, args: Readonly<Json>): StoredInvoice | undefined =>
  state.invoices.find((entry) => entry.record.id === args.invoiceId);

/** Task `confirmRegistry { invoiceId }`: the registry confirmed the boleto (invoice.registered). */
export const confirmRegistry: TaskRunner<AccountsState> = (args, state, env) => {
  const invoice = invoiceNamed(state, args);
  if (invoice?.lifecycle !== 'REGISTERING') return;
  invoice.lifecycle = 'REGISTERED';
  notify(state, env, invoice, 'invoice.registered');
};

/** Task `invoiceOverdue { invoiceId }`: an invoice issued and still unpaid when its due day ended (invoice.overdue). */
export const invoiceOverdue: TaskRunner<AccountsState> = (args, state, env) => {
  const invoice = invoiceNamed(state, args);
  if (invoice?.lifecycle === 'REGISTERING' || invoice?.lifecycle === 'REGISTERED') notify(state, env, invoice, 'invoice.overdue');
};

/** Task `settleInvoice { invoiceId }`: the settlement of a paid invoice completed (invoice.settled). */
export const settleInvoice: TaskRunner<AccountsState> = (args, state, env) => {
  const invoice = invoiceNamed(state, args);
  if (invoice?.lifecycle === 'COMPLETED') notify(state, env, invoice, 'invoice.settled');
};

function invoiceOf(request: SandboxRequest, state: AccountsState, env: SandboxEnvironment): { account: Account; invoice: StoredInvoice } {
  const account = accountOf(request, state, env);
  const invoice = state.invoices.find((entry) => entry.accountId === account.id && String(entry.record.id) === request.path.invoiceId);
  return { account, invoice: invoice ?? notFound(`no invoice ${request.path.invoiceId} in this account`) };
}

function create(state: AccountsState, env: SandboxEnvironment, account: Account, body: Json): StoredInvoice {
  const customer = state.customers.find((entry) => entry.accountId === account.id && entry.id === body.customerId);
  if (!customer)
    refuse(
      422,
      'invoice-rejected',
      `customerId: no customer ${String(body.customerId)} of this account (the control verb state lists them)`,
    );
  const method = typeof body.paymentMethod === 'string' ? body.paymentMethod : 'PIX';
  if (method !== 'BOLETO' && !state.keys.some((entry) => entry.accountId === account.id && entry.record.key === body.pixKey))
    refuse(422, 'invoice-rejected', `pixKey: ${String(body.pixKey)} is not a key of this account (GET /accounts/keys lists them)`);
  const optional = (name: string): Json => (body[name] === undefined ? {} : { [name]: body[name] });
  // Interface A leaves out the interest, lateFee and discount the request did not give.
  const terms = { ...optional('interest'), ...optional('lateFee'), ...optional('discount') };
  const invoice: StoredInvoice = {
    accountId: account.id,
    lifecycle: 'DRAFT',
    record: draftInvoice(next(state, 'invoice', 71_001), body, method, terms, customer!),
  };
  state.invoices.push(invoice);
  if (body.type === 'IMMEDIATE') issue(state, env, account, invoice);
  return invoice;
}

export const invoiceHandlers: Record<string, Handler<AccountsState>> = {
  'invoices.create': (request, state, env) => {
    const account = accountOf(request, state, env);
    const key = idempotencyKeyOf(request);
    const body = request.body as Json;
    const original = replayed(state, 'invoice', account.id, key, body);
    if (original) return { status: 201, body: view(state.invoices.find((entry) => String(entry.record.id) === original)!) };
    const invoice = create(state, env, account, body);
    remember(state, 'invoice', account.id, key, body, String(invoice.record.id));
    return { status: 201, body: view(invoice) };
  },
  'invoices.list': (request, state, env) => {
    const account = accountOf(request, state, env);
    const { query } = request;
    const filter = typeof query.filter === 'string' ? query.filter.toLowerCase() : '';
    const matching = state.invoices.filter(
      (entry) =>
        entry.accountId === account.id &&
        (filter === '' ||
          [entry.record.description, (entry.record.customer as Json).name].some(
            (text) => typeof text === 'string' && text.toLowerCase().includes(filter),
          )),
    );
    const page = typeof query.page === 'number' ? query.page : 1;
    const perPage = typeof query.perPage === 'number' ? query.perPage : 20;
    return {
      status: 200,
      body: { meta: invoicePageMeta(matching.length, page, perPage), data: matching.slice((page - 1) * perPage, page * perPage).map(view) },
    };
  },
  'invoices.get': (request, state, env) => ({ status: 200, body: view(invoiceOf(request, state, env).invoice) }),
  'invoices.emit': (request, state, env) => {
    const { account, invoice } = invoiceOf(request, state, env);
    if (invoice.lifecycle === 'DRAFT') issue(state, env, account, invoice);
    else if (invoice.record.paymentMethod === 'PIX' || invoice.lifecycle === 'CANCELLED' || invoice.lifecycle === 'COMPLETED')
      refuse(
        422,
        'invoice-not-draft',
        `the invoice ${String(invoice.record.id)} is not a DRAFT; only a draft (or a boleto, idempotently) is emitted`,
      );
    return { status: 200, body: view(invoice) };
  },
  'invoices.cancel': (request, state, env) => {
    const { invoice } = invoiceOf(request, state, env);
    const id = String(invoice.record.id);
    if (invoice.lifecycle === 'REGISTERING')
      refuse(422, 'invoice-registering', `the invoice ${id} is REGISTERING: cancel it after the registry confirms it (invoice.registered)`);
    if (invoice.lifecycle === 'COMPLETED' || invoice.lifecycle === 'CANCELLED')
      refuse(422, 'invoice-not-cancellable', `the invoice ${id} is ${invoice.lifecycle === 'COMPLETED' ? 'paid' : 'already cancelled'}`);
    invoice.lifecycle = 'CANCELLED';
    notify(state, env, invoice, 'invoice.cancelled');
    return { status: 200, body: view(invoice) };
  },
};

/** Control verb `payInvoice { invoiceId, via? }`: a payer pays a registered invoice by Pix (default) or boleto. */
export const payInvoice: ControlVerb<AccountsState> = (body, state, env) => {
  const invoice = state.invoices.find((entry) => entry.record.id === body.invoiceId);
  if (!invoice) throw new Error(`invoiceId ${String(body.invoiceId)} names no invoice of the sandbox`);
  if (invoice.lifecycle !== 'REGISTERED')
    throw new Error(
      `the invoice ${String(body.invoiceId)} is ${invoice.lifecycle}: only a registered invoice awaiting payment can be paid`,
    );
  const method = String(invoice.record.paymentMethod);
  const via = body.via ?? (method === 'BOLETO' ? 'BOLETO' : 'PIX');
  if (via !== 'PIX' && via !== 'BOLETO') throw new Error('via must be PIX or BOLETO');
  if ((via === 'PIX' && method === 'BOLETO') || (via === 'BOLETO' && method === 'PIX'))
    throw new Error(`a ${method} invoice is not paid by ${via}`);
  const account = state.accounts[String(invoice.accountId)]!;
  const customer = invoice.record.customer as Json;
  const entry = record(state, env, {
    accountId: account.id,
    status: 'LIQUIDATED',
    transactionType: via === 'PIX' ? 'PIX' : null,
    direction: 'CREDIT',
    cents: centsOf(invoice.record.amount as number),
    endToEndId: via === 'PIX' ? endToEndId(env, otherIspb) : null,
    txId: via === 'PIX' ? (invoice.record.txId as string) : null,
    idempotencyKey: null,
    localInstrument: via === 'PIX' ? 'DICT' : null,
    debtor: { ispb: otherIspb, issuer: '0001', number: '88120', accountType: 'CACC', document: customer.document, name: customer.name },
    creditor: partyOf(account),
    remittanceInformation: typeof invoice.record.description === 'string' ? invoice.record.description : null,
    source: `invoice:${String(invoice.record.id)}`,
  });
  invoice.lifecycle = 'COMPLETED';
  invoice.record.transactionId = String(entry.id);
  notify(state, env, invoice, 'invoice.paid');
  notifyEntry(state, env, entry);
  later(env, env.clock.nowMs() + settlementSeconds * 1000, 'settleInvoice', { invoiceId: invoice.record.id });
  return view(invoice);
};

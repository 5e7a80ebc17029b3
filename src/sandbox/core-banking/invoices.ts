/**
 * Invoices of interface D (section 4.10, body as 4.4, states of section 3), under `/accounts/{accountId}`:
 *
 * - creation needs `Idempotency-Key` (1..160): the same key and payload replay the first answer, another
 *   payload is 409;
 * - SCHEDULED invoices start DRAFT and are emitted later; IMMEDIATE ones are issued at once: a Pix charge
 *   (txId and a BR Code) and/or a boleto, which stays REGISTERING with its barcode and digitable line until
 *   the registry confirms it (after `registrySeconds` of sandbox time, or the control verb `register`);
 * - emit issues a DRAFT and is idempotent on an invoice already issued; cancel gives `{ success }`, 422 for a
 *   REGISTERING or paid invoice; the control verb `payInvoice` pays a registered one (status COMPLETED, the
 *   account's balance credited).
 *
 * The contract knows three status values (DRAFT, REGISTERING, COMPLETED). A registered invoice awaiting
 * payment and a cancelled one are states of section 3 with no value shown, so their answers carry no
 * `status` rather than an invented one; the control verb `state` shows every invoice's stage.
 */
import { idempotencyKeyOf } from '../idempotency.js';
import { checkPixKey } from '../../formats/pix.js';
import { checkBrlAmount } from '../../formats/values.js';
import type { ControlVerb, Handler, SandboxEnvironment } from '../contract.js';
import { SandboxProblem } from '../contract.js';
import { draftInvoice, invoiceBoleto, invoicePageMeta, invoicePixCharge } from '../invoices.js';
import {
  type CoreBankingState,
  callerOf,
  idempotent,
  invalid,
  type InvoiceStage,
  type Json,
  notFound,
  numberOr,
  pageOf,
  type StoredAccount,
  type StoredInvoice,
  visibleAccount,
} from './state.js';

/** Sandbox seconds the boleto registry takes to confirm a registration. */
export const registrySeconds = 60;

const statusOf: Readonly<Record<InvoiceStage, string | undefined>> = {
  draft: 'DRAFT',
  registering: 'REGISTERING',
  registered: undefined,
  paid: 'COMPLETED',
  cancelled: undefined,
};

/** Registrations the registry has confirmed by now (sandbox time). */
export function confirmRegistrations(state: CoreBankingState, env: SandboxEnvironment): void {
  const now = env.clock.nowMs();
  for (const invoice of Object.values(state.invoices))
    if (invoice.stage === 'registering' && invoice.registersAtMs !== null && invoice.registersAtMs <= now) invoice.stage = 'registered';
}

/** The invoice as answered: its status where the contract has a value for its stage. */
export function invoiceView(invoice: StoredInvoice): Json {
  const status = statusOf[invoice.stage];
  const { id, txId, brCode, amount, description, ...rest } = invoice.view;
  return { id, txId, brCode, amount, description, ...(status === undefined ? {} : { status }), ...rest };
}

/** A boleto of bank 999 (none real), due date and amount in place, general check digit computed. */
function boletoOf(invoice: StoredInvoice, dueDate: string, env: SandboxEnvironment): { barcode: string; line: string } {
  const cents = Math.round((invoice.view.amount as number) * 100);
  if (cents > 9_999_999_999) throw invalid('/body/amount: a boleto carries at most 99999999.99');
  return invoiceBoleto(env, '999', { id: invoice.view.id, cents, dueDate });
}

/** Issues the Pix charge and/or registers the boleto: IMMEDIATE at creation, SCHEDULED on emit. */
function issue(invoice: StoredInvoice, account: StoredAccount, dueDate: string, env: SandboxEnvironment): void {
  const { view } = invoice;
  const method = view.paymentMethod as string;
  if (method !== 'BOLETO') Object.assign(view, invoicePixCharge(env, view.pixKey as string, view.amount as number, account.person.name));
  if (method === 'PIX') {
    invoice.stage = 'registered';
    return;
  }
  const { barcode, line } = boletoOf(invoice, dueDate, env);
  view.boletoBarcode = barcode;
  view.boletoDigitableLine = line;
  invoice.stage = 'registering';
  invoice.registersAtMs = env.clock.nowMs() + registrySeconds * 1000;
}

function create(state: CoreBankingState, account: StoredAccount, body: Json, env: SandboxEnvironment): StoredInvoice {
  if (account.status !== 'ACTIVE') throw invalid(`/path/accountId: the account ${account.id} is ${account.status}`);
  const customer = state.customers[String(body.customerId)];
  if (!customer || String(customer.accountId) !== account.id)
    throw notFound(
      `no customer ${String(body.customerId)} of the account ${account.id} (POST /_sandbox/core-banking/customers lists them)`,
    );
  const method = (body.paymentMethod as string | undefined) ?? 'PIX';
  // What a Pix charge or a boleto can carry: at least 0.01 and at most 10 integer digits (BR Code field 54).
  const amount = body.amount as number;
  if (amount < 0.01 || !checkBrlAmount(amount.toFixed(2)).valid) throw invalid('/body/amount: from 0.01 to 9999999999.99');
  if (method !== 'BOLETO') {
    const key = checkPixKey(String(body.pixKey));
    if (!key.valid) throw invalid(`/body/pixKey: ${key.reason}`);
  }
  const id = state.nextInvoiceId;
  state.nextInvoiceId += 1;
  // Interface D answers null for the interest, lateFee and discount the request did not give.
  const terms = { interest: body.interest ?? null, lateFee: body.lateFee ?? null, discount: body.discount ?? null };
  const invoice: StoredInvoice = {
    view: draftInvoice(id, body, method, terms, customer),
    stage: 'draft',
    accountId: Number(account.id),
    createdAtMs: env.clock.nowMs(),
    registersAtMs: null,
    paidAtMs: null,
    cancelledAtMs: null,
  };
  if (body.type === 'IMMEDIATE') issue(invoice, account, String(body.dueDate), env);
  state.invoices[String(id)] = invoice;
  return invoice;
}

function stored(state: CoreBankingState, account: StoredAccount, invoiceId: string | number): StoredInvoice {
  const invoice = state.invoices[String(invoiceId)];
  if (!invoice || String(invoice.accountId) !== account.id) throw notFound(`no invoice ${invoiceId} of the account ${account.id}`);
  return invoice;
}

/** The account of the path as the caller may see it, and time-driven moves applied. */
function accountFor(state: CoreBankingState, request: Parameters<Handler<CoreBankingState>>[0], env: SandboxEnvironment) {
  confirmRegistrations(state, env);
  return visibleAccount(state, callerOf(state, request.principal), request.path.accountId!);
}

const filtered = (invoice: StoredInvoice, filter: string): boolean => {
  const description = invoice.view.description;
  const payer = (invoice.view.customer as Json).name;
  return [description, payer].some((text) => typeof text === 'string' && text.toLowerCase().includes(filter));
};

export const invoiceHandlers: Record<string, Handler<CoreBankingState>> = {
  'invoices.create': (request, state, env) => {
    const account = accountFor(state, request, env);
    const scope = { clientId: request.principal!.clientId, operationId: request.operationId, key: idempotencyKeyOf(request) };
    // The replay is the first answer as it was (a copy), not the invoice as it is now.
    return idempotent(state, scope, { accountId: account.id, body: request.body }, () => ({
      status: 201,
      body: structuredClone(invoiceView(create(state, account, request.body as Json, env))),
    }));
  },
  'invoices.list': (request, state, env) => {
    const account = accountFor(state, request, env);
    const filter = typeof request.query.filter === 'string' ? request.query.filter.toLowerCase() : '';
    const matching = Object.values(state.invoices)
      .filter((invoice) => String(invoice.accountId) === account.id && (filter === '' || filtered(invoice, filter)))
      .sort((a, b) => (b.view.id as number) - (a.view.id as number));
    const page = numberOr(request.query.page, 1);
    const perPage = numberOr(request.query.perPage, 20);
    return {
      status: 200,
      body: { meta: invoicePageMeta(matching.length, page, perPage), data: pageOf(matching, page, perPage).map(invoiceView) },
    };
  },
  'invoices.get': (request, state, env) => {
    const account = accountFor(state, request, env);
    return { status: 200, body: invoiceView(stored(state, account, request.path.invoiceId!)) };
  },
  'invoices.emit': (request, state, env) => {
    const account = accountFor(state, request, env);
    const invoice = stored(state, account, request.path.invoiceId!);
    if (invoice.stage === 'cancelled') throw invalid(`/path/invoiceId: the invoice ${invoice.view.id} was cancelled`);
    // Emitting an invoice already issued changes nothing (section 3: the emit of a boleto is idempotent).
    if (invoice.stage === 'draft') issue(invoice, account, String(invoice.view.dueDate).slice(0, 10), env);
    return { status: 200, body: invoiceView(invoice) };
  },
  'invoices.cancel': (request, state, env) => {
    const account = accountFor(state, request, env);
    const invoice = stored(state, account, request.path.invoiceId!);
    if (invoice.stage === 'registering')
      throw new SandboxProblem(
        422,
        'invoice-registering',
        `the invoice ${invoice.view.id} is REGISTERING: it can be cancelled once the registry confirms the boleto`,
      );
    if (invoice.stage === 'paid') throw new SandboxProblem(422, 'invoice-paid', `the invoice ${invoice.view.id} is paid`);
    if (invoice.stage !== 'cancelled') {
      invoice.stage = 'cancelled';
      invoice.cancelledAtMs = env.clock.nowMs();
    }
    return { status: 200, body: { success: true } };
  },
};

function invoiceOf(state: CoreBankingState, body: Record<string, unknown>): StoredInvoice {
  const id = body.invoiceId;
  if (typeof id !== 'number' && typeof id !== 'string') throw new Error('invoiceId must name an invoice of the sandbox');
  const invoice = state.invoices[String(id)];
  if (!invoice) throw notFound(`no invoice ${String(id)} in the sandbox`);
  return invoice;
}

/** Control verb `register`: the registry confirms the boleto of a REGISTERING invoice now. */
export const register: ControlVerb<CoreBankingState> = (body, state, env) => {
  confirmRegistrations(state, env);
  const invoice = invoiceOf(state, body);
  if (invoice.stage !== 'registering')
    throw new SandboxProblem(409, 'conflict', `the invoice ${invoice.view.id} is not REGISTERING (stage ${invoice.stage})`);
  invoice.stage = 'registered';
  invoice.registersAtMs = env.clock.nowMs();
  return { stage: invoice.stage, invoice: invoiceView(invoice) };
};

/** Control verb `payInvoice`: the payer pays a registered invoice in full; it is COMPLETED and the account credited. */
export const payInvoice: ControlVerb<CoreBankingState> = (body, state, env) => {
  confirmRegistrations(state, env);
  const invoice = invoiceOf(state, body);
  if (invoice.stage !== 'registered')
    throw new SandboxProblem(
      409,
      'conflict',
      invoice.stage === 'registering'
        ? `the invoice ${invoice.view.id} is REGISTERING: confirm it first (POST /_sandbox/core-banking/register) or move the clock ${registrySeconds} s`
        : `the invoice ${invoice.view.id} is ${invoice.stage}: only a registered invoice takes a payment`,
    );
  invoice.stage = 'paid';
  invoice.paidAtMs = env.clock.nowMs();
  invoice.view.transactionId = env.random.uuid();
  invoice.view.appliedInterest = 0;
  invoice.view.appliedFee = 0;
  return { stage: invoice.stage, invoice: invoiceView(invoice) };
};

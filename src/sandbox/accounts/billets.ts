/**
 * Billets (sections 2.5 and 4.4): POST /billets/info reads any bank boleto from its 44-digit barcode or
 * 47-digit line (value and due date come from the code; overdue billets gain a 2 % fine and 0.033 % a day),
 * payments by digitable line or of a billet queried before, always at the updated value; a billet whose
 * value the payer can change (value field zero) is 422. Payments follow the outgoing life of
 * outgoing.ts. The control verb `billet { amount, dueInDays? }` issues a payable boleto's codes.
 */
import { checkBilletPayable, checkBilletPaymentAmount } from '../../accounts/read-checks.js';
import { barcodeOfDigitableLine, checkBoletoBarcode, checkBoletoLine, digitableLineOfBarcode, modulo11Bank } from '../../formats/boleto.js';
import type { ControlVerb, Handler, SandboxEnvironment, SandboxRequest } from '../contract.js';
import { declaredMembers } from '../spec-values.js';
import type { SchemaPlace } from '../verb-contract.js';
import { accountOf, invalid, notFound, refuse } from './access.js';
import { book, idempotencyKeyOf, replayedPayment } from './outgoing.js';
import { type Account, type AccountsState, amountOf, centsOf, instant, type Json, next, otherIspb, partyOf } from './state.js';

const dayMs = 86_400_000;
/** Due-date factor 1000 is 2025-02-22 (FEBRABAN restarted the factor after 9999). */
const factorBase = Date.UTC(2025, 1, 22);

/** The barcode of a billet code (44-digit barcode or 47-digit line), or a 400 naming what is wrong. */
function barcodeOf(code: string): string {
  if (code.length === 44) {
    const check = checkBoletoBarcode(code);
    return check.valid ? code : invalid(`billetCode: ${check.reason}`);
  }
  if (code.length === 47) {
    const check = checkBoletoLine(code);
    return check.valid ? barcodeOfDigitableLine(code) : invalid(`billetCode: ${check.reason}`);
  }
  return invalid('billetCode: a bank boleto is a 44-digit barcode or a 47-digit digitable line');
}

/** What the registry says of a billet, derived from its barcode and today's date. */
function infoOf(state: AccountsState, env: SandboxEnvironment, account: Account, code: string): Json {
  const barcode = barcodeOf(code);
  const factor = Number(barcode.slice(5, 9));
  const originalCents = Number(barcode.slice(9, 19));
  const due = new Date(factorBase + (factor - 1000) * dayMs);
  const dueDay = due.toISOString().slice(0, 10);
  const today = new Date(env.clock.nowMs() - 3 * 3_600_000).toISOString().slice(0, 10);
  const lateDays = Math.max(0, Math.round((Date.parse(today) - Date.parse(dueDay)) / dayMs));
  const fine = lateDays > 0 ? Math.round(originalCents * 0.02) : 0;
  const interest = Math.round(originalCents * 0.00033 * lateDays);
  const queries = state.billetQueries;
  const key = `${account.id}:${barcode}`;
  const paymentId = (queries[key]?.paymentId as number | undefined) ?? next(state, 'billet-query', 30_001);
  const info: Json = {
    paymentId,
    payDueDate: new Date(Date.parse(dueDay) + 59 * dayMs).toISOString().slice(0, 10),
    dueDateRegister: `${dueDay}T03:00:00.000Z`,
    digitableCode: digitableLineOfBarcode(barcode),
    maxValue: amountOf(originalCents + fine + interest),
    minValue: amountOf(originalCents === 0 ? 1 : originalCents + fine + interest),
    originalValue: amountOf(originalCents),
    discountValue: 0,
    interestValueCalculated: amountOf(fine + interest),
    totalUpdated: amountOf(originalCents + fine + interest),
    recipient: 'Distribuidora Exemplo Ltda',
    documentRecipient: '86288366000100',
    allowChangeValue: originalCents === 0,
  };
  queries[key] = { ...info, barcode, queriedAt: instant(env) };
  return info;
}

function pay(request: SandboxRequest, state: AccountsState, env: SandboxEnvironment, queried: boolean) {
  const account = accountOf(request, state, env);
  const key = idempotencyKeyOf(request);
  const body = request.body as Json;
  const original = replayedPayment(state, 'billet', account.id, key, body);
  if (original) return { status: 200, body: view(original) };
  const code = String(queried ? body.billetCode : body.digitableCode);
  if (queried && !state.billetQueries[`${account.id}:${barcodeOf(code)}`])
    refuse(422, 'billet-not-queried', 'billetCode: query the billet with POST /billets/info before paying it as queried');
  const info = infoOf(state, env, account, code);
  // The rules the client checks against the billet info it read, the same functions.
  const [changeable] = checkBilletPayable(info);
  if (changeable) refuse(422, 'billet-value-changeable', changeable.message);
  const [mismatch] = checkBilletPaymentAmount(info, body);
  if (mismatch) refuse(422, 'billet-amount-mismatch', mismatch.message);
  const total = info.totalUpdated as number;
  const id = next(state, 'billet', 40_001);
  const at = instant(env);
  const barcode = barcodeOf(code);
  const creditor = {
    ispb: otherIspb,
    issuer: '0001',
    number: '55012',
    accountType: 'CACC',
    document: info.documentRecipient,
    name: info.recipient,
  };
  const record: Json = {
    id,
    idempotencyKey: key,
    eventDate: at,
    createdAt: at,
    digitableCode: info.digitableCode,
    description: body.description,
    paymentFlow: body.paymentFlow ?? 'INSTANT',
    status: 'PROCESSING',
    transactionType: 'BILLET',
    creditDebitType: 'DEBIT',
    payment: { currency: 'BRL', amount: total },
    billetInfo: {
      digitableCode: info.digitableCode,
      barCode: barcode,
      settleDate: at.slice(0, 10),
      dueDate: String(info.dueDateRegister).slice(0, 10),
    },
    creditorAccount: creditor,
    debtorAccount: partyOf(account),
  };
  book(state, env, {
    kind: 'billet',
    account,
    record,
    cents: centsOf(total),
    entry: {
      transactionType: null,
      endToEndId: null,
      txId: null,
      localInstrument: null,
      debtor: partyOf(account),
      creditor,
      remittanceInformation: String(body.description),
    },
    key,
    body,
  });
  return { status: 200, body: view(record) };
}

/** The record as an answer shows it: the members the answer's schema (a place of the accounts spec) lists, when the record has them. */
const pick = (record: Json, place: SchemaPlace): Json =>
  Object.fromEntries(declaredMembers('accounts', place).flatMap((field) => (field in record ? [[field, record[field]]] : [])));
/** A payment as POST /billets/payments answers it. */
const view = (record: Json): Json => pick(record, 'BilletPayment');
/** A payment as GET /billets/payments/{id} and its details answer it. */
const detailView = (record: Json): Json => pick(record, 'BilletPaymentDetailResponse/data');

function paymentOf(request: SandboxRequest, state: AccountsState, env: SandboxEnvironment): Json {
  const account = accountOf(request, state, env);
  const found = state.billetPayments.find((entry) => entry.accountId === account.id && String(entry.record.id) === request.path.id);
  return (found ?? notFound(`no billet payment ${request.path.id} in this account`)).record;
}

/** A one-page PDF with the receipt's lines (enough for a viewer to open). */
function receiptPdf(record: Json): string {
  const payment = record.payment as Json;
  const lines = [
    `Comprovante de pagamento ${String(record.id)}`,
    `Linha digitavel ${String(record.digitableCode)}`,
    `Valor R$ ${String(payment.amount)}`,
    `Situacao ${String(record.status)}`,
  ];
  const text = lines.map((line, index) => `BT /F1 11 Tf 50 ${760 - index * 18} Td (${line}) Tj ET`).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(pdf.length);
    pdf += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1').toString('base64');
}

export const billetHandlers: Record<string, Handler<AccountsState>> = {
  'billets.info': (request, state, env) => {
    const account = accountOf(request, state, env);
    return { status: 200, body: infoOf(state, env, account, String((request.body as Json).billetCode)) };
  },
  'billets.payByDigitableLine': (request, state, env) => pay(request, state, env, false),
  'billets.payQueried': (request, state, env) => pay(request, state, env, true),
  'billets.list': (request, state, env) => {
    const account = accountOf(request, state, env);
    const data = state.billetPayments
      .filter((entry) => entry.accountId === account.id)
      .map(({ record }) => ({
        // The list shows the payment's amount as `transactionAmount`, which the record keeps as `payment`.
        ...pick(record, 'BilletPaymentList/data'),
        transactionAmount: record.payment,
      }));
    return { status: 200, body: { meta: { total: data.length, limit: data.length, offset: 0 }, data } };
  },
  'billets.getById': (request, state, env) => ({ status: 200, body: { data: detailView(paymentOf(request, state, env)) } }),
  'billets.detail': (request, state, env) => ({ status: 200, body: { data: detailView(paymentOf(request, state, env)) } }),
  'billets.receipt': (request, state, env) => ({ status: 200, body: { data: { pdf: receiptPdf(paymentOf(request, state, env)) } } }),
};

/** Control verb `billet { amount, dueInDays? }`: the barcode and digitable line of a payable boleto (amount 0: payer types it). */
export const issueBillet: ControlVerb<AccountsState> = (body, _state, env) => {
  const amount = body.amount ?? 0;
  if (typeof amount !== 'number' || amount < 0 || amount > 99_999_999.99)
    throw new Error('amount must be an amount in BRL from 0 to 99999999.99');
  const days = body.dueInDays ?? 10;
  if (typeof days !== 'number' || !Number.isInteger(days) || Math.abs(days) > 3000)
    throw new Error('dueInDays must be a whole number of days');
  const dueDay = Date.parse(new Date(env.clock.nowMs() - 3 * 3_600_000).toISOString().slice(0, 10)) + days * dayMs;
  const factor = String(1000 + Math.round((dueDay - factorBase) / dayMs)).padStart(4, '0');
  const free = env.random.text(25, '0123456789');
  const rest = `${factor}${String(centsOf(amount)).padStart(10, '0')}${free}`;
  const bank = '0019';
  const barcode = `${bank}${modulo11Bank(bank + rest)}${rest}`;
  return { barcode, digitableCode: digitableLineOfBarcode(barcode), amount, dueDate: new Date(dueDay).toISOString().slice(0, 10) };
};

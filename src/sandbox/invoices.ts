/**
 * What the invoices of interfaces A and D share: interface D takes the invoice body of section 4.4 as
 * interface A does, so both sandboxes make the same invoice of a request — the record before it is issued,
 * the payer as the invoice shows it, the Pix charge (a txId and a BR Code on the invoice's key) and the
 * boleto (a FEBRABAN barcode and its digitable line) it is issued with, and the meta of a page of the list.
 *
 * What differs stays with each interface: the bank of the boleto, how long the registry takes, the absent
 * interest, lateFee and discount (left out by A, null in D), the states and their refusals, and the events.
 */
import { digitableLineOfBarcode, modulo11Bank } from '../formats/boleto.js';
import { buildBrCode } from '../formats/brcode.js';
import type { SandboxEnvironment } from './contract.js';

type Json = Record<string, unknown>;

/** A payer (customer) of an account invoices are made out to, as both interfaces keep one. */
export interface Payer {
  readonly id: number;
  readonly accountId: number;
  readonly name: string;
  readonly email: string | null;
  readonly phone: string | null;
  readonly document: string;
  readonly address: Json;
}

/**
 * The invoice of a create request before it is issued: no charge, no boleto, nothing applied yet. `terms` are the
 * interface's interest, lateFee and discount; `customer` the payer it is made out to (`emailTo` replaces its e-mail).
 */
export function draftInvoice(id: number, body: Json, method: string, terms: Json, customer: Payer): Json {
  return {
    id,
    txId: null,
    brCode: null,
    amount: body.amount,
    description: typeof body.description === 'string' ? body.description : null,
    type: body.type,
    paymentMethod: method,
    pixKey: method === 'BOLETO' ? null : body.pixKey,
    boletoBarcode: null,
    boletoDigitableLine: null,
    // Section 4.4: the due date is a day in the America/Sao_Paulo zone (UTC-3, no daylight saving time since 2019).
    dueDate: `${String(body.dueDate)}T00:00:00-03:00`,
    daysToPay: body.daysToPay ?? 0,
    transactionId: null,
    appliedInterest: null,
    appliedFee: null,
    ...terms,
    customer: {
      id: customer.id,
      accountId: customer.accountId,
      name: customer.name,
      email: typeof body.emailTo === 'string' ? body.emailTo : customer.email,
      phone: customer.phone,
      document: customer.document,
      address: customer.address,
      addresses: [customer.address],
    },
  };
}

const plain = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .toUpperCase();

/** The Pix charge an invoice is issued with: a txId from the seeded random and the BR Code on `key` for `amount`. */
export function invoicePixCharge(env: SandboxEnvironment, key: string, amount: number, merchant: string): { txId: string; brCode: string } {
  const txId = env.random.text(25);
  const brCode = buildBrCode({
    key,
    txid: txId,
    amount: amount.toFixed(2),
    merchantName: plain(merchant).slice(0, 25).trim(),
    merchantCity: 'SAO PAULO',
  });
  return { txId, brCode };
}

/** FEBRABAN due-date factor: days since 1997-10-07, restarting at 1000 after 9999 (on 2025-02-22). */
function dueFactor(day: string): string {
  const days = Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse('1997-10-07T00:00:00Z')) / 86_400_000);
  return String(days <= 9999 ? Math.max(days, 0) : ((days - 10_000) % 9000) + 1000).padStart(4, '0');
}

/**
 * The boleto an invoice is issued with, of bank `bank` (three digits) in reais: due factor of `dueDate` (a day),
 * amount, the invoice id and 15 seeded digits in the free field, the general check digit computed.
 */
export function invoiceBoleto(
  env: SandboxEnvironment,
  bank: string,
  invoice: { readonly id: unknown; readonly cents: number; readonly dueDate: string },
): { barcode: string; line: string } {
  const bankAndCurrency = `${bank}9`;
  const rest = `${dueFactor(invoice.dueDate)}${String(invoice.cents).padStart(10, '0')}${String(invoice.id).padStart(10, '0')}${env.random.text(15, '0123456789')}`;
  const barcode = `${bankAndCurrency}${modulo11Bank(`${bankAndCurrency}${rest}`)}${rest}`;
  return { barcode, line: digitableLineOfBarcode(barcode) };
}

/** The meta of one page of the invoice list (pages from 1). */
export function invoicePageMeta(total: number, page: number, perPage: number): Json {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  return {
    total,
    perPage,
    currentPage: page,
    firstPage: 1,
    lastPage,
    nextPage: page < lastPage ? page + 1 : null,
    prevPage: page > 1 ? Math.min(page - 1, lastPage) : null,
  };
}

/**
 * TED (to another institution) and internal transfers (to another account of the platform), section
 * 4.4 and 2.6: created with an x-idempotency-key (replayed on the same payload, 409 on another), debited
 * at once, liquidated a few sandbox seconds later (or on the approver's decision for APPROVAL_REQUIRED),
 * read back by id, end-to-end id or idempotency key.
 */
import type { Handler } from '../contract.js';
import { accountOf, invalid, notFound } from './access.js';
import { book, idempotencyKeyOf, replayedPayment } from './outgoing.js';
import { type AccountsState, centsOf, endToEndId, instant, type Json, next, partyOf, platformIspb } from './state.js';

const money = (body: Json): { cents: number; payment: Json } => {
  const payment = body.payment as { amount: number };
  const cents = centsOf(payment.amount);
  if (cents / 100 !== payment.amount) invalid('payment.amount: at most two decimals (BRL cents)');
  return { cents, payment: { currency: 'BRL', amount: payment.amount } };
};

export const transferHandlers: Record<string, Handler<AccountsState>> = {
  'ted.create': (request, state, env) => {
    const account = accountOf(request, state, env);
    const key = idempotencyKeyOf(request);
    const body = request.body as Json;
    const original = replayedPayment(state, 'ted', account.id, key, body);
    if (original) return { status: 200, body: { data: original } };
    const creditor = body.creditorAccount as Json;
    if (creditor.ispb === platformIspb)
      invalid(`creditorAccount.ispb: ${platformIspb} is this institution; move money inside it with an internal transfer`);
    const { cents, payment } = money(body);
    const id = next(state, 'ted', 70_001);
    const at = instant(env);
    const record: Json = {
      numCtrlIf: `IF${String(id).padStart(12, '0')}`,
      numCtrlStr: null,
      eventDate: at,
      status: 'PROCESSING',
      id,
      createdAt: at,
      idempotencyKey: key,
      refunds: [],
      remittanceInformation: typeof body.remittanceInformation === 'string' ? body.remittanceInformation : null,
      transactionType: 'TED',
      payment,
      creditorAccount: creditor,
    };
    book(state, env, {
      kind: 'ted',
      account,
      record,
      cents,
      entry: {
        transactionType: 'TED',
        endToEndId: null,
        txId: null,
        localInstrument: null,
        debtor: partyOf(account),
        creditor,
        remittanceInformation: record.remittanceInformation as string | null,
      },
      key,
      body,
    });
    return { status: 200, body: { data: record } };
  },
  'ted.getById': (request, state, env) => {
    const account = accountOf(request, state, env);
    const found = state.teds.find((entry) => entry.accountId === account.id && String(entry.record.id) === request.path.id);
    return { status: 200, body: { data: (found ?? notFound(`no TED ${request.path.id} in this account`)).record } };
  },
  'ted.getByIdempotencyKey': (request, state, env) => {
    const account = accountOf(request, state, env);
    const key = request.path.idempotencyKey;
    const found = state.teds.find((entry) => entry.accountId === account.id && entry.record.idempotencyKey === key);
    return { status: 200, body: { data: (found ?? notFound(`no TED with the idempotency key ${key} in this account`)).record } };
  },
  'internalTransfers.create': (request, state, env) => {
    const account = accountOf(request, state, env);
    const key = idempotencyKeyOf(request);
    const body = request.body as Json;
    const original = replayedPayment(state, 'internal', account.id, key, body);
    if (original) return { status: 200, body: { data: original } };
    const named = body.creditorAccount as Json;
    if (named.ispb !== platformIspb)
      invalid(`creditorAccount.ispb: an internal transfer stays in this institution (${platformIspb}); send a TED to another one`);
    const creditor = Object.values(state.accounts).find((candidate) => candidate.number === named.number);
    if (!creditor)
      invalid(
        `creditorAccount.number: no account ${String(named.number)} here; the sandbox's accounts are ${Object.values(state.accounts)
          .map((candidate) => candidate.number)
          .join(', ')}`,
      );
    if (creditor!.id === account.id) invalid('creditorAccount: the transfer would go to the account it comes from');
    const { cents, payment } = money(body);
    const id = next(state, 'internal', 50_001);
    const at = instant(env);
    const e2e = endToEndId(env);
    const record: Json = {
      id,
      endToEndId: e2e,
      status: 'PROCESSING',
      transactionType: 'INTERNAL',
      createdAt: at,
      eventDate: at,
      idempotencyKey: key,
      payment,
      creditorAccount: partyOf(creditor!),
      debtorAccount: partyOf(account),
      remittanceInformation: typeof body.remittanceInformation === 'string' ? body.remittanceInformation : null,
      refunds: [],
    };
    book(state, env, {
      kind: 'internal',
      account,
      record,
      cents,
      entry: {
        transactionType: 'INTERNAL',
        endToEndId: e2e,
        txId: null,
        localInstrument: 'MANU',
        debtor: partyOf(account),
        creditor: partyOf(creditor!),
        remittanceInformation: record.remittanceInformation as string | null,
      },
      key,
      body,
    });
    return { status: 200, body: { data: record } };
  },
  'internalTransfers.getByEndToEndId': (request, state, env) => {
    const account = accountOf(request, state, env);
    const e2e = request.path.endToEndId;
    const found = state.transfers.find((entry) => entry.accountId === account.id && entry.record.endToEndId === e2e);
    return { status: 200, body: { data: (found ?? notFound(`no internal transfer ${e2e} in this account`)).record } };
  },
  'internalTransfers.getByIdempotencyKey': (request, state, env) => {
    const account = accountOf(request, state, env);
    const key = request.path.idempotencyKey;
    const found = state.transfers.find((entry) => entry.accountId === account.id && entry.record.idempotencyKey === key);
    return {
      status: 200,
      body: { data: (found ?? notFound(`no internal transfer with the idempotency key ${key} in this account`)).record },
    };
  },
};

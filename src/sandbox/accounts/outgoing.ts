/**
 * What TED, internal transfers and billet payments share: the x-idempotency-key (the same key and payload
 * answer the original; the same key with another payload is 409), and the life of an outgoing payment —
 * a DEBIT in the ledger, PROCESSING (its amount blocked), LIQUIDATED a few sandbox seconds later with a
 * TRANSFER event, or REJECTED (funds released, CASHOUT event) when the balance does not cover it or an
 * APPROVAL_REQUIRED payment is refused through the control verb `payment`.
 */
import type { ControlVerb, SandboxEnvironment } from '../contract.js';
import { idempotencyKeyOf, keep, keptFor } from '../idempotency.js';
import { refuse } from './access.js';
import { balanceOf, notifyEntry, record, settleEntries } from './ledger.js';
import { type Account, type AccountsState, instant, type Json, type LedgerEntry, type Owned, later } from './state.js';
import { deliver } from './webhooks.js';

export { idempotencyKeyOf };

/** Sandbox seconds between an INSTANT payment's creation and its liquidation. */
export const settlesAfterSeconds = 2;

export type Family = 'ted' | 'internal' | 'billet' | 'invoice' | 'caas';

/**
 * The reference a key already created, when the payload is the same; a different payload is 409
 * idempotency-conflict; undefined when the key is new.
 */
export function replayed(state: AccountsState, family: Family, accountId: number, key: string, payload: unknown): string | undefined {
  return keptFor(state.idempotency, `${family}:${accountId}:${key}`, payload, () =>
    refuse(
      409,
      'idempotency-conflict',
      `the idempotency key ${key} was already used with a different payload; use a new key for a new operation`,
    ),
  )?.ref;
}

export function remember(state: AccountsState, family: Family, accountId: number, key: string, payload: unknown, ref: string): void {
  keep(state.idempotency, `${family}:${accountId}:${key}`, payload, { ref });
}

export type OutgoingKind = 'ted' | 'internal' | 'billet';

export interface Outgoing {
  readonly kind: OutgoingKind;
  readonly account: Account;
  /** The payment's record (its `id` names it in the ledger: `ted:12`). */
  readonly stored: Owned;
  readonly cents: number;
  readonly idempotencyKey: string;
  readonly approvalRequired: boolean;
  readonly entry: Pick<
    LedgerEntry,
    'transactionType' | 'endToEndId' | 'txId' | 'localInstrument' | 'debtor' | 'creditor' | 'remittanceInformation'
  >;
}

const collections = { ted: 'teds', internal: 'transfers', billet: 'billetPayments' } as const;

/** Whether the account's available balance covers `cents`. */
export const covers = (state: AccountsState, account: Account, cents: number): boolean => balanceOf(state, account.id).available >= cents;

/** The record a key already created for the same payload (409 on another payload); undefined when the key is new. */
export function replayedPayment(
  state: AccountsState,
  kind: OutgoingKind,
  accountId: number,
  key: string,
  payload: unknown,
): Json | undefined {
  const original = replayed(state, kind, accountId, key, payload);
  return original ? state[collections[kind]].find((entry) => String(entry.record.id) === original)!.record : undefined;
}

/**
 * Keeps a new payment: its record in its collection, under the request's key and body (for replays), then its life
 * started (APPROVAL_REQUIRED when the body's paymentFlow says so).
 */
export function book(
  state: AccountsState,
  env: SandboxEnvironment,
  payment: Pick<Outgoing, 'kind' | 'account' | 'cents' | 'entry'> & { readonly record: Json; readonly key: string; readonly body: Json },
): void {
  const { kind, account, record, key, body } = payment;
  const stored = { accountId: account.id, record };
  state[collections[kind]].push(stored);
  remember(state, kind, account.id, key, body, String(record.id));
  start(state, env, {
    kind,
    account,
    stored,
    cents: payment.cents,
    idempotencyKey: key,
    approvalRequired: body.paymentFlow === 'APPROVAL_REQUIRED',
    entry: payment.entry,
  });
}

/** Books the payment and starts its life; the record's status follows the ledger's. */
function start(state: AccountsState, env: SandboxEnvironment, payment: Outgoing): void {
  const funded = covers(state, payment.account, payment.cents);
  const source = `${payment.kind}:${String(payment.stored.record.id)}`;
  const entry = record(state, env, {
    ...payment.entry,
    accountId: payment.account.id,
    status: funded ? 'PROCESSING' : 'REJECTED',
    direction: 'DEBIT',
    cents: payment.cents,
    idempotencyKey: payment.idempotencyKey,
    source,
    ...(funded ? {} : { errorCode: 'AM04' }),
  });
  payment.stored.record.status = entry.status;
  if (!funded) cashout(state, env, entry, 'insufficient balance');
  else if (payment.approvalRequired) state.awaitingApproval.push(source);
  else later(env, env.clock.nowMs() + settlesAfterSeconds * 1000, 'liquidate', { source });
}

function storedOf(state: AccountsState, source: string): Owned | undefined {
  const [kind, id] = source.split(':') as [OutgoingKind, string];
  return state[collections[kind]].find((entry) => String(entry.record.id) === id);
}

/** Liquidates a PROCESSING payment: its ledger entry, its record, the creditor of an internal transfer, TRANSFER event. */
export function liquidate(state: AccountsState, env: SandboxEnvironment, source: string): void {
  const stored = storedOf(state, source);
  if (stored?.record.status !== 'PROCESSING') return;
  const [entry] = settleEntries(state, env, source, 'LIQUIDATED');
  stored.record.status = 'LIQUIDATED';
  stored.record.eventDate = instant(env);
  if (source.startsWith('ted:'))
    stored.record.numCtrlStr = `STR${instant(env).replace(/\D/g, '').slice(0, 14)}${env.random.text(6, '0123456789')}`;
  if (!entry) return;
  if (source.startsWith('internal:')) creditInternal(state, env, entry);
  const ticketData = source.startsWith('billet:') ? { ticketData: stored.record.billetInfo ?? null } : {};
  notifyEntry(state, env, entry, ticketData);
}

/** The creditor side of an internal transfer: a credit in the creditor's account and its RECEIVE event. */
function creditInternal(state: AccountsState, env: SandboxEnvironment, debit: LedgerEntry): void {
  const creditor = Object.values(state.accounts).find((account) => account.number === debit.creditor.number);
  if (!creditor) return;
  const credit = record(state, env, {
    accountId: creditor.id,
    status: 'LIQUIDATED',
    transactionType: 'INTERNAL',
    direction: 'CREDIT',
    cents: debit.cents,
    endToEndId: debit.endToEndId,
    txId: null,
    idempotencyKey: null,
    localInstrument: debit.localInstrument,
    debtor: debit.debtor,
    creditor: debit.creditor,
    remittanceInformation: debit.remittanceInformation,
    source: `${debit.source}:credit`,
  });
  notifyEntry(state, env, credit);
}

function cashout(state: AccountsState, env: SandboxEnvironment, entry: LedgerEntry, message: string): void {
  deliver(state, env, entry.accountId, {
    type: 'CASHOUT',
    transaction: { reference: entry.idempotencyKey ?? '', status: 'REJECTED', message },
    data: {
      idempotencyKey: entry.idempotencyKey,
      webhookType: 'CASHOUT',
      status: 'REJECTED',
      endToEndId: entry.endToEndId,
      message,
      createdAt: entry.createdAt,
    },
  });
}

/** Control verb `payment { idempotencyKey, approve }`: the approver's decision on an APPROVAL_REQUIRED payment. */
export const decidePayment: ControlVerb<AccountsState> = (body, state, env) => {
  const { idempotencyKey, approve } = body;
  if (typeof idempotencyKey !== 'string' || typeof approve !== 'boolean')
    throw new Error('payment takes { idempotencyKey: the key of the payment, approve: true or false }');
  const source = state.awaitingApproval.find((candidate) => storedOf(state, candidate)?.record.idempotencyKey === idempotencyKey);
  const stored = source ? storedOf(state, source) : undefined;
  if (!source || !stored) throw new Error(`no APPROVAL_REQUIRED payment awaiting a decision has the key ${idempotencyKey}`);
  state.awaitingApproval = state.awaitingApproval.filter((candidate) => candidate !== source);
  if (approve) liquidate(state, env, source);
  else {
    const [entry] = settleEntries(state, env, source, 'REJECTED');
    stored.record.status = 'REJECTED';
    stored.record.eventDate = instant(env);
    if (entry) cashout(state, env, entry, 'refused by the approver');
  }
  return { source, status: stored.record.status };
};

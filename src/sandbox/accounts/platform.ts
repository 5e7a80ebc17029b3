/**
 * The accounts sandbox as part of one platform (platform-events.ts): a Pix received by the Pix sandbox's
 * receiving user credits the account whose document is the receiver's (a RECEIVE event), and its refund
 * debits it — PROCESSING while EM_PROCESSAMENTO, LIQUIDATED once DEVOLVIDO, with a REFUND event. When no
 * account holds the receiver's document, nothing is booked: that receiver banks elsewhere.
 *
 * Control verb `infraction { transactionId, accountId?, reportDetails? }`: the payer's institution opens a
 * fraud case against a Pix the account received (an INFRACTION event); nothing else on the platform does.
 */
import type { ControlVerb, PlatformListeners } from '../contract.js';
import type { PixReceiver } from '../platform-events.js';
import { controlAccount, notifyEntry, otherPayer, record, settleEntries } from './ledger.js';
import { type Account, type AccountsState, amountOf, instant, type Json, type LedgerEntry, partyOf } from './state.js';
import { deliver } from './webhooks.js';

/** The account the Pix receiver is: the one holding its document. */
const accountOfReceiver = (state: AccountsState, receiver: PixReceiver): Account | undefined =>
  Object.values(state.accounts).find((account) => account.document === receiver.document);

const receivedSource = (endToEndId: string): string => `pix:${endToEndId}`;
/** A refund's debit names the Pix it returns and its own id: `pix-refund:<endToEndId>:<rtrId>`. */
const refundSource = (endToEndId: string, returnId: string): string => `pix-refund:${endToEndId}:${returnId}`;

/** The refund elements of an entry's event: its refunds liquidated so far. */
function refundsOf(state: AccountsState, credit: LedgerEntry): { refunds: Json[]; cents: number } {
  const prefix = refundSource(String(credit.endToEndId), '');
  const settled = state.ledger.filter((entry) => entry.source.startsWith(prefix) && entry.status === 'LIQUIDATED');
  return {
    refunds: settled.map((entry) => ({
      status: entry.status,
      payment: { amount: amountOf(entry.cents), currency: 'BRL' },
      errorCode: null,
      eventDate: entry.eventDate,
      endToEndId: entry.endToEndId,
      information: entry.remittanceInformation,
    })),
    cents: settled.reduce((sum, entry) => sum + entry.cents, 0),
  };
}

export const accountsListeners: PlatformListeners<AccountsState> = {
  'pix.received': (event, state, env) => {
    const account = accountOfReceiver(state, event.receiver);
    if (!account || state.ledger.some((entry) => entry.source === receivedSource(event.endToEndId))) return;
    const payer = { ...otherPayer, ispb: event.payer.ispb };
    const entry = record(state, env, {
      accountId: account.id,
      status: 'LIQUIDATED',
      transactionType: 'PIX',
      direction: 'CREDIT',
      cents: event.cents,
      endToEndId: event.endToEndId,
      txId: event.txid,
      idempotencyKey: null,
      localInstrument: 'DICT',
      debtor: {
        ...payer,
        ...(event.payer.document ? { document: event.payer.document } : {}),
        ...(event.payer.name ? { name: event.payer.name } : {}),
      },
      creditor: partyOf(account),
      remittanceInformation: event.message,
      source: receivedSource(event.endToEndId),
    });
    notifyEntry(state, env, entry, { pixKey: event.key });
  },
  'pix.refund': (event, state, env) => {
    const credit = state.ledger.find((entry) => entry.source === receivedSource(event.endToEndId));
    if (!credit) return;
    const source = refundSource(event.endToEndId, event.returnId);
    if (event.status === 'EM_PROCESSAMENTO') {
      if (state.ledger.some((entry) => entry.source === source)) return;
      record(state, env, {
        accountId: credit.accountId,
        status: 'PROCESSING',
        transactionType: 'PIX',
        direction: 'DEBIT',
        cents: event.cents,
        endToEndId: event.returnId,
        txId: null,
        idempotencyKey: null,
        localInstrument: credit.localInstrument,
        debtor: credit.creditor,
        creditor: credit.debtor,
        remittanceInformation: event.description,
        source,
      });
      return;
    }
    const [debit] = settleEntries(state, env, source, 'LIQUIDATED');
    if (!debit) return;
    const { refunds, cents } = refundsOf(state, credit);
    notifyEntry(state, env, credit, { refunds, status: cents >= credit.cents ? 'REFUNDED' : credit.status }, 'REFUND');
  },
};

/** Control verb `infraction`: a fraud case opened against a Pix the account received; answers the INFRACTION event sent. */
export const openInfraction: ControlVerb<AccountsState> = (body, state, env) => {
  const account = controlAccount(state, body);
  const entry = state.ledger.find((candidate) => candidate.accountId === account.id && candidate.id === body.transactionId);
  if (entry?.transactionType !== 'PIX' || entry.direction !== 'CREDIT')
    throw new Error(
      `transactionId ${String(body.transactionId)} is not a Pix received by the account ${account.id}: name the id of a RECEIVE event or of GET /transactions/{id}`,
    );
  if (body.reportDetails !== undefined && typeof body.reportDetails !== 'string') throw new Error('reportDetails must be text');
  const at = instant(env);
  const event = {
    type: 'INFRACTION',
    data: {
      id: env.random.uuid(),
      transactionId: entry.id,
      status: 'OPEN',
      type: 'FRAUD',
      lastModificationDate: at,
      creationDate: at,
      reportedBy: 'DEBITED_PARTICIPANT',
      reportDetails: typeof body.reportDetails === 'string' ? body.reportDetails : null,
      analysisResult: null,
      analysisDetails: null,
      transactionAmount: amountOf(entry.cents),
    },
  };
  deliver(state, env, account.id, event);
  return event;
};

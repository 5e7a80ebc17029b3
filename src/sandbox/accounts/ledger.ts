/**
 * The ledger of each account and what is derived from it (section 4.2): the transaction list and
 * details, the balance (available: liquidated credits less debits not rejected; blocked: debits still
 * PROCESSING) and the statement summaries per day, month or hour in the America/Sao_Paulo zone. Also the
 * TRANSFER and RECEIVE events of section 6.2 built from a ledger entry.
 */
import type { ControlVerb, Handler, SandboxEnvironment } from '../contract.js';
import { accountOf, notFound } from './access.js';
import {
  type Account,
  type AccountsState,
  amountOf,
  amountText,
  centsOf,
  endToEndId,
  instant,
  type Json,
  type LedgerEntry,
  next,
  otherIspb,
  partyOf,
} from './state.js';
import { deliver } from './webhooks.js';

/** Records a movement; its ids come from the ledger's sequence and the seeded random. */
export function record(
  state: AccountsState,
  env: SandboxEnvironment,
  entry: Omit<LedgerEntry, 'id' | 'uuid' | 'createdAt' | 'eventDate' | 'errorCode'> & { errorCode?: string | null },
): LedgerEntry {
  const at = instant(env);
  const created: LedgerEntry = {
    errorCode: null,
    ...entry,
    id: next(state, 'transaction', 900_000),
    uuid: env.random.uuid(),
    createdAt: at,
    eventDate: at,
  };
  state.ledger.push(created);
  return created;
}

/** Whether the entry moves the available balance: credits once liquidated, debits unless they failed. */
const counts = (entry: LedgerEntry): boolean =>
  entry.direction === 'CREDIT' ? entry.status === 'LIQUIDATED' : entry.status === 'PROCESSING' || entry.status === 'LIQUIDATED';

const signed = (entry: LedgerEntry): number => (counts(entry) ? (entry.direction === 'CREDIT' ? entry.cents : -entry.cents) : 0);

export function balanceOf(state: AccountsState, accountId: number): { available: number; blocked: number } {
  let available = 0;
  let blocked = 0;
  for (const entry of state.ledger) {
    if (entry.accountId !== accountId) continue;
    available += signed(entry);
    if (entry.direction === 'DEBIT' && entry.status === 'PROCESSING') blocked += entry.cents;
  }
  return { available, blocked };
}

/** Changes the status of the ledger entries a payment produced. */
export function settleEntries(state: AccountsState, env: SandboxEnvironment, source: string, status: LedgerEntry['status']): LedgerEntry[] {
  const entries = state.ledger.filter((entry) => entry.source === source);
  for (const entry of entries) {
    entry.status = status;
    entry.eventDate = instant(env);
  }
  return entries;
}

const money = (cents: number): Json => ({ currency: 'BRL', amount: amountOf(cents) });

function listItem(entry: LedgerEntry): Json {
  return {
    eventDate: entry.eventDate,
    id: entry.uuid,
    status: entry.status,
    ...(entry.endToEndId ? { endToEndId: entry.endToEndId } : {}),
    ...(entry.txId ? { txId: entry.txId } : {}),
    creditDebitType: entry.direction,
    ...(entry.transactionType ? { transactionType: entry.transactionType } : {}),
    transactionAmount: { currency: 'BRL', available: amountOf(entry.cents) },
  };
}

function detail(entry: LedgerEntry): Json {
  return {
    eventDate: entry.eventDate,
    id: entry.id,
    idempotencyKey: entry.idempotencyKey,
    ...(entry.endToEndId ? { endToEndId: entry.endToEndId } : {}),
    txId: entry.txId,
    status: entry.status,
    ...(entry.transactionType ? { transactionType: entry.transactionType } : {}),
    ...(entry.localInstrument ? { localInstrument: entry.localInstrument } : {}),
    debtorAccount: entry.debtor,
    creditorAccount: entry.creditor,
    creditDebitType: entry.direction,
    payment: money(entry.cents),
    refunds: [],
    remittanceInformation: entry.remittanceInformation,
    errorCode: entry.errorCode,
    createdAt: entry.createdAt,
  };
}

/**
 * The TRANSFER (outgoing, liquidated) or RECEIVE (incoming) event of a ledger entry, sent to its account's
 * webhook; or, with `type` REFUND, the event of the entry refunded (its `refunds` in `extra`).
 */
export function notifyEntry(
  state: AccountsState,
  env: SandboxEnvironment,
  entry: LedgerEntry,
  extra: Json = {},
  type: 'RECEIVE' | 'TRANSFER' | 'REFUND' = entry.direction === 'CREDIT' ? 'RECEIVE' : 'TRANSFER',
): void {
  deliver(state, env, entry.accountId, {
    type,
    data: {
      id: entry.id,
      txId: entry.txId,
      pixKey: null,
      status: entry.status,
      payment: { amount: amountText(entry.cents), currency: 'BRL' },
      refunds: [],
      createdAt: entry.createdAt,
      errorCode: entry.errorCode,
      endToEndId: entry.endToEndId,
      ticketData: null,
      webhookType: type,
      debtorAccount: entry.debtor,
      idempotencyKey: entry.idempotencyKey,
      creditDebitType: entry.direction,
      creditorAccount: entry.creditor,
      localInstrument: entry.localInstrument,
      ...(entry.transactionType ? { transactionType: entry.transactionType } : {}),
      remittanceInformation: entry.remittanceInformation,
      ...extra,
    },
  });
}

/** Sao Paulo time (UTC-3, no daylight saving since 2019) of an instant, as `YYYY-MM-DD HH:MM:SS`. */
const localTime = (iso: string): string => new Date(Date.parse(iso) - 3 * 3_600_000).toISOString().replace('T', ' ').slice(0, 19);

interface Period {
  readonly label: string;
  /** Local-time text bounds, [from, to). */
  readonly from: string;
  readonly to: string;
}

function summary(state: AccountsState, accountId: number, periods: readonly Period[]): Json[] {
  const entries = state.ledger.filter((entry) => entry.accountId === accountId).map((entry) => ({ entry, at: localTime(entry.createdAt) }));
  return periods.map(({ label, from, to }) => {
    let credit = 0;
    let debit = 0;
    let count = 0;
    let before = 0;
    for (const { entry, at } of entries) {
      if (at < from) before += signed(entry);
      else if (at < to && counts(entry)) {
        count += 1;
        if (entry.direction === 'CREDIT') credit += entry.cents;
        else debit -= entry.cents;
      }
    }
    return {
      periodDate: label,
      movementCount: count,
      creditAmount: amountOf(credit),
      debitAmount: amountOf(debit),
      diffAmount: amountOf(credit + debit),
      initialBalance: amountOf(before),
      finalBalance: amountOf(before + credit + debit),
    };
  });
}

const dayAfter = (day: string): string => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
function monthAfter(month: string): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return number === 12 ? `${year + 1}-01` : `${year}-${String(number + 1).padStart(2, '0')}`;
}

function periodsOf(groupBy: string, initialDate: string, finalDate: string): Period[] {
  const periods: Period[] = [];
  if (groupBy === 'MONTH') {
    for (let month = initialDate.slice(0, 7); month <= finalDate.slice(0, 7); month = monthAfter(month))
      periods.push({ label: month, from: `${month}-01 00:00:00`, to: `${monthAfter(month)}-01 00:00:00` });
  } else {
    for (let day = initialDate; day <= finalDate; day = dayAfter(day))
      periods.push({ label: day, from: `${day} 00:00:00`, to: `${dayAfter(day)} 00:00:00` });
  }
  return periods;
}

export const ledgerHandlers: Record<string, Handler<AccountsState>> = {
  'transactions.list': (request, state, env) => {
    const account = accountOf(request, state, env);
    const { query } = request;
    const from = Date.parse(String(query.event_date_start));
    const to = Date.parse(String(query.event_date_end));
    const filter = typeof query.filter === 'string' ? query.filter.replace(/\D/g, '') : '';
    const matching = state.ledger.filter((entry) => {
      const at = Date.parse(entry.eventDate);
      const parties = [entry.debtor.document, entry.creditor.document];
      return entry.accountId === account.id && at >= from && at <= to && (filter === '' || parties.includes(filter));
    });
    const key = (entry: LedgerEntry): number => (query.sort_by === 'AMOUNT' ? entry.cents : Date.parse(entry.eventDate));
    const order = query.sort_order === 'DESC' ? -1 : 1;
    matching.sort((a, b) => (key(a) - key(b)) * order || (a.id - b.id) * order);
    const offset = typeof query.page_offset === 'number' ? query.page_offset : 0;
    const limit = typeof query.page_limit === 'number' ? query.page_limit : 10;
    return {
      status: 200,
      body: { meta: { total: matching.length, limit, offset }, data: matching.slice(offset, offset + limit).map(listItem) },
    };
  },
  'transactions.details': (request, state, env) => {
    const account = accountOf(request, state, env);
    const id = Number(request.path.transactionId);
    const entry =
      state.ledger.find((candidate) => candidate.accountId === account.id && candidate.id === id) ??
      notFound(`no transaction ${request.path.transactionId} in this account`);
    return { status: 200, body: [detail(entry)] };
  },
  'balance.get': (request, state, env) => {
    const account = accountOf(request, state, env);
    const { available, blocked } = balanceOf(state, account.id);
    return {
      status: 200,
      body: {
        data: [
          {
            eventDate: instant(env),
            balanceAmount: { currency: 'BRL', available: amountOf(available), blocked: amountOf(blocked), overdraft: 0 },
          },
        ],
      },
    };
  },
  'statements.summaryByPeriod': (request, state, env) => {
    const account = accountOf(request, state, env);
    const { groupBy, initialDate, finalDate } = request.body as Record<string, string>;
    return { status: 200, body: { data: summary(state, account.id, periodsOf(groupBy!, initialDate!, finalDate!)) } };
  },
  'statements.summaryByHour': (request, state, env) => {
    const account = accountOf(request, state, env);
    const { date } = request.body as Record<string, string>;
    const hours = Array.from({ length: 24 }, (_, hour) => {
      const from = `${date} ${String(hour).padStart(2, '0')}:00:00`;
      const to = hour === 23 ? `${dayAfter(date!)} 00:00:00` : `${date} ${String(hour + 1).padStart(2, '0')}:00:00`;
      return { label: from, from, to };
    });
    return { status: 200, body: { data: summary(state, account.id, hours) } };
  },
};

/** Picks the account a control verb names (`accountId`), the sandbox's own account by default. */
export function controlAccount(state: AccountsState, body: Json): Account {
  const id = body.accountId ?? state.ownAccountId;
  const account = state.accounts[String(id)];
  if (!account)
    throw new Error(`accountId ${String(id)} is not an account of the sandbox; known: ${Object.keys(state.accounts).join(', ')}`);
  return account;
}

/** The payer at another institution of a Pix that names none (the verb `receive`, a Pix of interface B without a debtor). */
export const otherPayer: Json = {
  ispb: otherIspb,
  issuer: '0001',
  number: '774411',
  accountType: 'CACC',
  document: '11144477735',
  name: 'Carlos Eduardo Lima',
};

/** Control verb `receive { amount, accountId? }`: a Pix from another institution credits the account (RECEIVE event). */
export const receive: ControlVerb<AccountsState> = (body, state, env) => {
  const account = controlAccount(state, body);
  const { amount } = body;
  if (typeof amount !== 'number' || !(amount > 0) || centsOf(amount) / 100 !== amount)
    throw new Error('amount must be a positive amount in BRL with at most two decimals');
  const entry = record(state, env, {
    accountId: account.id,
    status: 'LIQUIDATED',
    transactionType: 'PIX',
    direction: 'CREDIT',
    cents: centsOf(amount),
    endToEndId: endToEndId(env, otherIspb),
    txId: null,
    idempotencyKey: null,
    localInstrument: 'MANU',
    debtor: { ...otherPayer, ...(typeof body.payerName === 'string' ? { name: body.payerName } : {}) },
    creditor: partyOf(account),
    remittanceInformation: typeof body.remittanceInformation === 'string' ? body.remittanceInformation : null,
    source: 'credit',
  });
  notifyEntry(state, env, entry);
  return { transactionId: entry.id, endToEndId: entry.endToEndId, balance: amountOf(balanceOf(state, account.id).available) };
};

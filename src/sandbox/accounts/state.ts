/**
 * What the accounts sandbox holds: the accounts (the account credential's own, the BaaS partner's owner
 * and child accounts), and everything done on them — keys and their challenges, the ledger every balance
 * and statement is derived from, TEDs, internal transfers, billet payments, invoices, webhooks, CaaS
 * wallets, quotes and orders, risk ingests and analyses, onboardings and issued credentials. Plain JSON,
 * so a snapshot is its text. Money is kept in integer cents; the API's numbers are derived when answering.
 */
import type { SandboxEnvironment } from '../contract.js';
import type { Kept } from '../idempotency.js';
import type { Payer } from '../invoices.js';

export type Json = Record<string, unknown>;

/** ISPB of the sandbox institution (the platform of interface A) and of the made-up institutions around it. */
export const platformIspb = '99999010';
export const otherIspb = '99999020';

export type PersonType = 'NATURAL_PERSON' | 'LEGAL_PERSON';

export interface Account {
  readonly id: number;
  readonly number: string;
  readonly branch: string;
  readonly personType: PersonType;
  readonly name: string;
  readonly tradeName: string | null;
  readonly document: string;
  /** 1 active, 0 inactive (child-account `status`). */
  status: number;
  /** Whether the account may receive accounts-API credentials (section 4.3). */
  apiEnabled: boolean;
  /** A child account of the BaaS partner (listed by GET /accounts). */
  readonly child: boolean;
  readonly createdAt: string;
  updatedAt: string;
}

/** A movement of money, the source of balances, statements, transaction lists and details. */
export interface LedgerEntry {
  readonly accountId: number;
  readonly id: number;
  readonly uuid: string;
  readonly createdAt: string;
  eventDate: string;
  status: 'PROCESSING' | 'LIQUIDATED' | 'REJECTED' | 'CANCELED' | 'REFUNDED';
  /** null for movements whose transaction type has no known value (billets, invoices by boleto, crypto). */
  readonly transactionType: 'PIX' | 'TED' | 'INTERNAL' | null;
  readonly direction: 'CREDIT' | 'DEBIT';
  readonly cents: number;
  readonly endToEndId: string | null;
  readonly txId: string | null;
  readonly idempotencyKey: string | null;
  readonly localInstrument: 'MANU' | 'DICT' | null;
  readonly debtor: Json;
  readonly creditor: Json;
  readonly remittanceInformation: string | null;
  errorCode: string | null;
  /** What produced it: `ted:12`, `internal:E…`, `billet:3`, `invoice:7`, `caas:<uuid>`, `credit`, `opening`. */
  readonly source: string;
}

/** A record of one account, as the API shows it, with the account it belongs to. */
export interface Owned<T = Json> {
  readonly accountId: number;
  record: T;
  /** What the sandbox keeps beside the record and never answers (the wallets a quote was asked for). */
  extra?: Json;
}

/**
 * Where an invoice is: the known status values are DRAFT, REGISTERING and COMPLETED (decision 19); a
 * registered (issued, unpaid) or cancelled invoice is answered without `status`, as the spec's examples do.
 */
export type InvoiceLifecycle = 'DRAFT' | 'REGISTERING' | 'REGISTERED' | 'COMPLETED' | 'CANCELLED';

export interface StoredInvoice {
  readonly accountId: number;
  lifecycle: InvoiceLifecycle;
  record: Json;
}

export interface Challenge {
  readonly accountId: number;
  readonly validationHash: string;
  readonly keyType: 'EMAIL' | 'PHONE';
  readonly key: string;
  readonly code: string;
  readonly expiresAtMs: number;
  /** A later challenge of the same key replaced it, or it was used. */
  state: 'open' | 'replaced' | 'used';
}

/** A payer invoices are made out to (src/sandbox/invoices.ts). */
export type Customer = Payer;

export interface IssuedCredential {
  readonly id: number;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly accountId: number;
  readonly scopes: readonly string[];
  readonly description: string;
  readonly allowedIps: readonly string[];
}

export interface AccountsState {
  accounts: Record<string, Account>;
  /** The account a non-BaaS seeded credential (sandbox-account) operates. */
  readonly ownAccountId: number;
  /** The BaaS partner's own account: never listed, never operated through x-account-id. */
  readonly baasOwnerAccountId: number;
  ledger: LedgerEntry[];
  keys: Owned[];
  challenges: Challenge[];
  /** Keys held at other institutions, for GET /pix/keys/{key}. */
  directory: Json[];
  teds: Owned[];
  transfers: Owned[];
  billetPayments: Owned[];
  /** Ledger sources (`ted:12`) of APPROVAL_REQUIRED payments awaiting the control verb `payment`. */
  awaitingApproval: string[];
  /** Billets looked up with POST /billets/info, by account and code. */
  billetQueries: Record<string, Json>;
  invoices: StoredInvoice[];
  customers: Customer[];
  webhooks: Owned[];
  wallets: Owned[];
  quotes: Owned[];
  orders: Owned[];
  analyses: Owned[];
  /** Risk ingests by `accountId:network:address`. */
  ingests: Record<string, { status: 'IDLE' | 'RUNNING'; persisted: number | null }>;
  onboardings: Json[];
  credentials: IssuedCredential[];
  /** `family:accountId:key` → the payload's fingerprint and what it created (src/sandbox/idempotency.ts). */
  idempotency: Record<string, Kept<{ readonly ref: string }>>;
  /** Next number of each sequence (transactions, TEDs, invoices, …). */
  sequences: Record<string, number>;
  /** Mid prices of the CaaS assets in BRL cents, seeded. */
  readonly prices: Record<string, number>;
}

/** The scheduled work of the accounts sandbox, by kind (the runners are in tasks.ts). */
export type AccountsTaskKind = 'liquidate' | 'finishIngest' | 'confirmRegistry' | 'invoiceOverdue' | 'settleInvoice';

/**
 * Runs the task `kind` with `args` at `atMs` of sandbox time: data, not a closure, so the snapshot keeps it
 * and a restart runs it; a reset drops it with the state it belonged to.
 */
export function later(env: SandboxEnvironment, atMs: number, kind: AccountsTaskKind, args: Json): void {
  env.schedule({ document: 'accounts', kind, atMs, args });
}

/** The next number of a sequence (the first is `start`). */
export function next(state: AccountsState, sequence: string, start = 1): number {
  const value = state.sequences[sequence] ?? start;
  state.sequences[sequence] = value + 1;
  return value;
}

/** The party-account shape of an account of the platform. */
export function partyOf(account: Account): Json {
  return {
    ispb: platformIspb,
    issuer: account.branch,
    number: account.number,
    accountType: 'CACC',
    document: account.document,
    name: account.name,
  };
}

/** 12345 → 123.45 (the API's numbers); "123.45" (event amounts are text). */
export const amountOf = (cents: number): number => Math.round(cents) / 100;
export const amountText = (cents: number): string => (Math.round(cents) / 100).toFixed(2);
/** 123.45 → 12345, exactly for amounts of two decimals. */
export const centsOf = (amount: number): number => Math.round(amount * 100);

/** RFC 3339 in UTC with milliseconds, as the sandbox writes instants. */
export const instant = (env: SandboxEnvironment, offsetMs = 0): string => new Date(env.clock.nowMs() + offsetMs).toISOString();

/** `E` + ISPB + UTC minute + 11 letters or digits (32 characters). */
export function endToEndId(env: SandboxEnvironment, ispb = platformIspb): string {
  const stamp = env.clock.now().toISOString().replace(/[-T:]/g, '').slice(0, 12);
  return `E${ispb}${stamp}${env.random.text(11)}`;
}

/** One page of a CaaS or crypto-risk list (sections 4.6 and 4.7): the query's `page` and `limit`, 1 and 20 unless given. */
export function limitPage<T>(query: Readonly<Record<string, unknown>>, matching: readonly T[]): { meta: Json; items: T[] } {
  const page = typeof query.page === 'number' ? query.page : 1;
  const limit = typeof query.limit === 'number' ? query.limit : 20;
  return { meta: { total: matching.length, page, limit }, items: matching.slice((page - 1) * limit, page * limit) };
}

export const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

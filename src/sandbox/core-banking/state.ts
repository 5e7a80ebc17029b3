/**
 * What the core banking sandbox (interface D) holds: the BaaS partners and their accounts (each partner's
 * main account and its child accounts), the payers (customers) invoices are made out to, fee rules per
 * BaaS, invoices with their idempotency keys, bankarization products and applications, and the credentials
 * issued through the provisional credential operations. Plain JSON, so a snapshot is its text.
 *
 * Who calls: section 5 gives no per-credential kind for interface D, so the sandbox reads it from the
 * credential as sections 1 and 5 describe the platform's: a client id with the `baas_` prefix, or a
 * credential holding a scope section 5 grants to BaaS credentials only (fee-rules.*, baas-users.*, baas.*),
 * is a BaaS caller acting for the sandbox's BaaS partner; any other is an account caller bound to one child
 * account. `sandbox-core` (every scope of D) is therefore a BaaS caller, `sandbox-account` an account caller.
 * Both tests are the accounts client's own (isBaasCredential, isBaasOnlyScope): section 5's table is shared.
 */
import { isBaasCredential } from '../../accounts/account-header.js';
import { isBaasOnlyScope } from '../../accounts/definition.js';
import type { Principal, SandboxEnvironment } from '../contract.js';
import { SandboxProblem } from '../contract.js';
import { type Kept, keep, keptFor } from '../idempotency.js';
import type { Payer } from '../invoices.js';

export type Json = Record<string, unknown>;

export interface StoredAccount {
  /** Account id (CoreAccount.id is text; the paths take it as an integer). */
  readonly id: string;
  readonly number: string;
  readonly type: string;
  /** The partner the account belongs to (its main account shows baasId null, section 4.3). */
  readonly partnerId: string;
  readonly main: boolean;
  status: 'ACTIVE' | 'INACTIVE';
  readonly person: { readonly name: string; readonly document: string; readonly type: 'NATURAL_PERSON' | 'LEGAL_PERSON' };
  readonly createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  /** Balance before anything happened in the sandbox, in cents. */
  readonly openingCents: number;
  /** The account's random Pix key, once a Pix manager credential created it. */
  pixKey: string | null;
}

export interface StoredPartner {
  readonly id: string;
  readonly name: string;
  readonly mainAccountId: string;
  readonly createdAt: string;
}

/** A payer invoices are made out to (src/sandbox/invoices.ts). */
export type StoredCustomer = Payer;

/** An invoice's place in section 3: `registered` and `cancelled` have no status value in the contract. */
export type InvoiceStage = 'draft' | 'registering' | 'registered' | 'paid' | 'cancelled';

export interface StoredInvoice {
  /** The invoice as answered, without `status` (derived from the stage). */
  view: Json;
  stage: InvoiceStage;
  readonly accountId: number;
  readonly createdAtMs: number;
  /** When the registry confirms a boleto on its own (sandbox time). */
  registersAtMs: number | null;
  paidAtMs: number | null;
  cancelledAtMs: number | null;
}

/** An answer kept under its idempotency key, replayed for the same payload (src/sandbox/idempotency.ts). */
export type IdempotentAnswer = Kept<{ readonly status: number; readonly body: unknown }>;

export interface StoredApplication {
  view: Json;
  /** Who may read and cancel it: the BaaS partner or the account it was sent for. */
  readonly partnerId: string;
  readonly accountId: string | null;
  readonly createdAtMs: number;
}

export interface StoredCredential {
  readonly kind: 'api' | 'pix-manager';
  readonly clientId: string;
  readonly id: number;
  readonly partnerId: string;
  accountId: number;
  description: string | null;
  allowedIps: string[];
  scopes: string[];
}

export interface CoreBankingState {
  partners: Record<string, StoredPartner>;
  accounts: Record<string, StoredAccount>;
  customers: Record<string, StoredCustomer>;
  /** The partner BaaS callers act for, and the account account callers are bound to. */
  readonly callerPartnerId: string;
  readonly callerAccountId: string;
  feeRules: Record<string, Json>;
  invoices: Record<string, StoredInvoice>;
  nextInvoiceId: number;
  /** `<clientId> <operationId> <key>` → the first answer. */
  idempotency: Record<string, IdempotentAnswer>;
  products: Record<string, Json>;
  applications: Record<string, StoredApplication>;
  credentials: Record<string, StoredCredential>;
  nextCredentialId: number;
}

/** RFC 3339 in UTC with milliseconds, as the sandbox writes instants. */
export const instant = (env: SandboxEnvironment, offsetMs = 0): string => new Date(env.clock.nowMs() + offsetMs).toISOString();

export type Caller =
  | { readonly kind: 'baas'; readonly clientId: string; readonly partnerId: string; readonly institution: boolean }
  | { readonly kind: 'account'; readonly clientId: string; readonly accountId: string; readonly institution: boolean };

/** Whom a call comes from: a BaaS caller (for the sandbox's partner) or an account caller (bound to one account). */
export function callerOf(state: CoreBankingState, principal: Principal | undefined): Caller {
  if (!principal) throw new SandboxProblem(401, 'unauthorized', 'no token: ask POST /auth/token for one');
  const institution = principal.scopes.includes('institution');
  const baas = isBaasCredential(principal.clientId) || principal.scopes.some(isBaasOnlyScope);
  return baas
    ? { kind: 'baas', clientId: principal.clientId, partnerId: state.callerPartnerId, institution }
    : { kind: 'account', clientId: principal.clientId, accountId: state.callerAccountId, institution };
}

/** Refuses an account caller on an operation of BaaS credentials (section 5: account credentials get 403). */
export function requireBaas(caller: Caller, what: string): Extract<Caller, { kind: 'baas' }> {
  if (caller.kind !== 'baas')
    throw new SandboxProblem(403, 'forbidden', `${what} is for BaaS credentials; ${caller.clientId} is an account credential`);
  return caller;
}

export const notFound = (detail: string): SandboxProblem => new SandboxProblem(404, 'not-found', detail);
export const invalid = (detail: string): SandboxProblem => new SandboxProblem(400, 'invalid-parameters', detail);

/** The account `id` as the caller may see it: its own (account caller), its partner's (BaaS), any (institution). */
export function visibleAccount(state: CoreBankingState, caller: Caller, id: string | number): StoredAccount {
  const account = state.accounts[String(id)];
  if (!account || !canSee(caller, account)) throw notFound(`no account ${id} is visible to this credential`);
  return account;
}

export function canSee(caller: Caller, account: StoredAccount): boolean {
  return caller.institution || (caller.kind === 'baas' ? account.partnerId === caller.partnerId : account.id === caller.accountId);
}

/** Balance in cents: the opening balance plus every invoice of the account paid in the sandbox. */
export function balanceCents(state: CoreBankingState, account: StoredAccount): { cents: number; lastUpdatedMs: number | null } {
  let cents = account.openingCents;
  let lastUpdatedMs: number | null = null;
  for (const invoice of Object.values(state.invoices)) {
    if (invoice.stage !== 'paid' || String(invoice.accountId) !== account.id) continue;
    cents += Math.round((invoice.view.amount as number) * 100);
    lastUpdatedMs = Math.max(lastUpdatedMs ?? 0, invoice.paidAtMs ?? 0);
  }
  return { cents, lastUpdatedMs };
}

/** One page of `items` (pages from 1). */
export function pageOf<T>(items: readonly T[], page: number, size: number): T[] {
  return items.slice((page - 1) * size, page * size);
}

export const numberOr = (value: unknown, fallback: number): number => (typeof value === 'number' ? value : fallback);

/** Sorts by a member (text or number), `desc` by default as section 4.10 says; ties keep their order. */
export function sortBy<T>(items: readonly T[], keyOf: (item: T) => unknown, order: unknown): T[] {
  const descending = typeof order !== 'string' || order.toLowerCase() === 'desc';
  return [...items].sort((a, b) => {
    const left = keyOf(a);
    const right = keyOf(b);
    const compared =
      typeof left === 'number' && typeof right === 'number' ? left - right : String(left ?? '').localeCompare(String(right ?? ''));
    return descending ? -compared : compared;
  });
}

/**
 * Runs `create` once per idempotency key of a caller and operation (section 4.10, `Idempotency-Key` 1..160):
 * the same key with the same payload replays the first answer; with another payload it is 409.
 */
export function idempotent(
  state: CoreBankingState,
  scope: { clientId: string; operationId: string; key: string },
  payload: unknown,
  create: () => { status: number; body: unknown },
): { status: number; body: unknown } {
  const slot = `${scope.clientId} ${scope.operationId} ${scope.key}`;
  const kept = keptFor(state.idempotency, slot, payload, () => {
    throw new SandboxProblem(
      409,
      'idempotency-conflict',
      `the Idempotency-Key ${scope.key} was used with another payload; use a new key for a new request`,
    );
  });
  if (kept) return { status: kept.status, body: kept.body };
  const answer = create();
  keep(state.idempotency, slot, payload, { status: answer.status, body: answer.body });
  return answer;
}

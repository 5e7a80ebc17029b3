/**
 * Accounts, balances and BaaS partners of interface D (scope `institution`): the seeded accounts as
 * CoreAccount, a balance derived from the invoices paid in the sandbox, and the partners with their main
 * account. Lists page with `page`/`perPage` (default 10), filter by free text and sort by a member,
 * `createdAt` descending unless asked otherwise.
 */
import type { Handler } from '../contract.js';
import {
  balanceCents,
  type CoreBankingState,
  callerOf,
  canSee,
  invalid,
  type Json,
  numberOr,
  pageOf,
  type StoredAccount,
  type StoredPartner,
  sortBy,
  visibleAccount,
} from './state.js';

/** The account as CoreAccount: the main account of a partner has no direct BaaS id (section 4.3). */
export function accountView(account: StoredAccount): Json {
  return {
    id: account.id,
    number: account.number,
    type: account.type,
    baasId: account.main ? null : account.partnerId,
    status: account.status,
    person: { name: account.person.name, document: account.person.document, type: account.person.type },
    createdAt: account.createdAt,
    updatedAt: account.updatedAt,
    closedAt: account.closedAt,
  };
}

function partnerView(state: CoreBankingState, partner: StoredPartner): Json {
  return { id: partner.id, name: partner.name, mainAccount: accountView(state.accounts[partner.mainAccountId]!) };
}

const contains = (text: unknown, filter: string): boolean => typeof text === 'string' && text.toLowerCase().includes(filter);

/** Sorted, filtered and paged as the core lists are: `{ meta: { total, page, perPage }, data }`. */
function list(views: Json[], query: Readonly<Record<string, unknown>>, matches: (view: Json, filter: string) => boolean): Json {
  const filter = typeof query.filter === 'string' ? query.filter.trim().toLowerCase() : '';
  const sortField = typeof query.sortBy === 'string' ? query.sortBy : 'createdAt';
  if (views.length > 0 && !views.some((view) => sortField in view))
    throw invalid(`/query/sortBy: ${sortField} is not a member of the listed items (${Object.keys(views[0]!).join(', ')})`);
  const matching = filter === '' ? views : views.filter((view) => matches(view, filter));
  const sorted = sortBy(matching, (view) => view[sortField], query.sortOrder ?? 'desc');
  const page = numberOr(query.page, 1);
  const perPage = numberOr(query.perPage, 10);
  return { meta: { total: sorted.length, page, perPage }, data: pageOf(sorted, page, perPage) };
}

export const accountHandlers: Record<string, Handler<CoreBankingState>> = {
  'accounts.list': (request, state) => {
    const caller = callerOf(state, request.principal);
    const baasId = request.query.baasId;
    const views = Object.values(state.accounts)
      .filter((account) => canSee(caller, account))
      .map(accountView)
      // The owner account of a partner has no direct baasId (section 4.3), so the filter does not find it.
      .filter((view) => baasId === undefined || view.baasId === baasId);
    const body = list(views, request.query, (view, filter) => {
      const person = view.person as Json;
      return contains(person.name, filter) || contains(person.document, filter) || contains(view.number, filter);
    });
    return { status: 200, body };
  },
  'accounts.get': (request, state) => {
    const account = visibleAccount(state, callerOf(state, request.principal), request.path.id!);
    return { status: 200, body: accountView(account) };
  },
  'accounts.balance': (request, state) => {
    const account = visibleAccount(state, callerOf(state, request.principal), request.path.id!);
    const { cents, lastUpdatedMs } = balanceCents(state, account);
    return {
      status: 200,
      body: {
        accountId: account.id,
        balance: cents / 100,
        currency: 'BRL',
        lastUpdated: lastUpdatedMs === null ? account.updatedAt : new Date(lastUpdatedMs).toISOString(),
      },
    };
  },
  'baas.list': (request, state) => {
    const views = Object.values(state.partners).map((partner) => ({ ...partnerView(state, partner), createdAt: partner.createdAt }));
    const body = list(views, request.query, (view, filter) => contains(view.name, filter));
    // createdAt is a sort key only: BaasPartner has no such member.
    body.data = (body.data as Json[]).map(({ createdAt: _createdAt, ...partner }) => partner);
    return { status: 200, body };
  },
};

/**
 * BaaS-scope operations (section 4.3, convention 2: no x-account-id, the link comes from the BaaS
 * credential): the partner's child accounts (its owner account is never listed), onboardings with their
 * document images (accepted only in statuses 0 and 1), and accounts-API credentials issued for child
 * accounts — usable at once at the token endpoint, each operating its child account with its scopes.
 */
import type { Handler, SandboxEnvironment, SandboxRequest } from '../contract.js';
import { callerOf, notFound, refuse } from './access.js';
import type { Account, AccountsState, Json } from './state.js';

/** BaaS-scope operations are the partner's: an account credential lacks their scopes, and is refused here too. */
function requireBaas(request: SandboxRequest, state: AccountsState, env: SandboxEnvironment): void {
  if (callerOf(request, state, env).kind !== 'baas')
    refuse(403, 'forbidden', `${request.operationId} is a BaaS-scope operation: BaaS credentials only`);
}

function childView(account: Account): Json {
  return {
    id: account.id,
    accountNumber: Number(account.number),
    branchNumber: Number(account.branch),
    type: 'CACC',
    subType: account.personType === 'NATURAL_PERSON' ? 'INDIVIDUAL' : 'BUSINESS',
    status: account.status,
    nickname: null,
    person: {
      id: account.id * 100 + 1,
      name: account.name,
      tradeName: account.tradeName,
      document: account.document,
      type: account.personType,
      status: account.status,
    },
    createdAt: account.createdAt,
    updatedAt: account.updatedAt,
  };
}

/** `{ meta, data }` of a page-numbered list whose meta has total, limit and offset. */
function paged<T>(items: readonly T[], query: Readonly<Record<string, unknown>>): { meta: Json; data: T[] } {
  const page = typeof query.page === 'number' ? query.page : 1;
  const perPage = typeof query.perPage === 'number' ? query.perPage : 20;
  const offset = (page - 1) * perPage;
  return { meta: { total: items.length, limit: perPage, offset }, data: items.slice(offset, offset + perPage) };
}

const within = (at: string, query: Readonly<Record<string, unknown>>): boolean =>
  (typeof query.createdAtStart !== 'string' || Date.parse(at) >= Date.parse(query.createdAtStart)) &&
  (typeof query.createdAtEnd !== 'string' || Date.parse(at) <= Date.parse(query.createdAtEnd));

export const baasHandlers: Record<string, Handler<AccountsState>> = {
  'childAccounts.list': (request, state, env) => {
    requireBaas(request, state, env);
    const { query } = request;
    const children = Object.values(state.accounts).filter(
      (account) =>
        account.child &&
        (query.status === undefined || account.status === query.status) &&
        (query.type === undefined || query.type === 'CACC') &&
        (query.document === undefined || account.document === query.document) &&
        (query.accountNumber === undefined || Number(account.number) === query.accountNumber) &&
        within(account.createdAt, query),
    );
    return { status: 200, body: paged(children.map(childView), query) };
  },
  'childAccounts.get': (request, state, env) => {
    requireBaas(request, state, env);
    const account = state.accounts[request.path.id!];
    if (!account?.child) notFound(`no child account ${request.path.id} of this BaaS partner`);
    return { status: 200, body: { data: childView(account!) } };
  },
};

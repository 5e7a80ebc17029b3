/**
 * Who calls and which account a call operates (conventions 1 and 2 of section 1), and how the accounts
 * sandbox refuses: RFC 7807 problems of interface A (src/sandbox/problem-details.ts), with the network
 * refusals of CaaS and crypto risk answered 422 as sections 4.6 and 4.7 say, not as a schema's 400.
 *
 * Callers: a client id with the `baas_` prefix is the BaaS partner (x-account-id names one of its child
 * accounts on account-operational endpoints); a credential issued by POST /credentials operates its child
 * account; any other credential the sandbox knows that holds `account.read` (the seeded `sandbox-account`)
 * operates the sandbox's own account. Tokens of other interfaces' credentials are refused with 403.
 */
import { isBaasCredential } from '../../accounts/account-header.js';
import type { ValidationIssue } from '../../runtime/errors.js';
import { type ProblemFormat, type SandboxEnvironment, SandboxProblem, type SandboxRequest } from '../contract.js';
import { problemDetails } from '../problem-details.js';
import type { Account, AccountsState } from './state.js';

/** A refusal of interface A: `type` is the last segment of `{base_url}/errors/<type>`. */
export function refuse(status: number, type: string, detail: string): never {
  throw new SandboxProblem(status, type, detail);
}

export const notFound = (detail: string): never => refuse(404, 'not-found', detail);
/** A request the schema accepts but the sandbox cannot act on as asked (400, the interface's invalid-parameters). */
export const invalid = (detail: string): never => refuse(400, 'invalid-parameters', detail);

export type Caller = { readonly kind: 'baas' } | { readonly kind: 'account'; readonly accountId: number };

/** Whether a known client id is a credential of the accounts API (not one of another interface's). */
export function isAccountsCredential(clientId: string, state: AccountsState, env: SandboxEnvironment): boolean {
  return (
    isBaasCredential(clientId) ||
    state.credentials.some((credential) => credential.clientId === clientId) ||
    (env.tokens.scopesOf(clientId)?.includes('account.read') ?? false)
  );
}

export function callerOf(request: SandboxRequest, state: AccountsState, env: SandboxEnvironment): Caller {
  const clientId = request.principal?.clientId ?? '';
  if (isBaasCredential(clientId)) return { kind: 'baas' };
  const issued = state.credentials.find((credential) => credential.clientId === clientId);
  if (issued) return { kind: 'account', accountId: issued.accountId };
  if (env.tokens.scopesOf(clientId)?.includes('account.read')) return { kind: 'account', accountId: state.ownAccountId };
  return refuse(403, 'forbidden', `the credential ${clientId || '(none)'} is not a credential of the accounts API`);
}

/**
 * The account an account-operational call operates: a BaaS token names a child account in x-account-id
 * (required); an account token operates its own account, and an x-account-id naming another is refused.
 */
export function accountOf(request: SandboxRequest, state: AccountsState, env: SandboxEnvironment): Account {
  const caller = callerOf(request, state, env);
  const header = request.headers['x-account-id'];
  const named = header === undefined ? undefined : Number(header);
  if (caller.kind === 'baas') {
    // 403 (every operation declares it; not all declare 400): this credential may not call it without an account.
    if (named === undefined)
      return refuse(
        403,
        'forbidden',
        `${request.operationId} operates an account: a BaaS credential names the child account in x-account-id (GET /accounts lists them)`,
      );
    const account = state.accounts[String(named)];
    if (!account?.child) return refuse(403, 'forbidden', `the account ${named} is not a child account of this BaaS partner`);
    return account;
  }
  if (named !== undefined && named !== caller.accountId)
    return refuse(
      403,
      'forbidden',
      `an account credential operates its own account (${caller.accountId}); x-account-id ${named} names another, and only BaaS credentials select accounts`,
    );
  return state.accounts[String(caller.accountId)]!;
}

/** Operations whose `network` (body or query) names an unsupported network with 422 (sections 4.6 rule 4 and 4.7). */
const networkOperations: Readonly<Record<string, string>> = {
  'caasWallets.create': 'BTC, ETH or TRX (USDT and USDC are assets, not networks)',
  'caasWallets.list': 'BTC, ETH or TRX (USDT and USDC are assets, not networks)',
  'caasQuotes.create': 'BTC, ETH or TRX (USDT and USDC are assets, not networks)',
  'cryptoRiskAnalyses.create': 'ETHEREUM or TRON',
  'cryptoRiskAnalyses.list': 'ETHEREUM or TRON',
  'cryptoRiskIngest.get': 'ETHEREUM or TRON',
};

const isNetworkIssue = (issue: ValidationIssue): boolean => /^\/(query|body)\/network$/.test(issue.pointer) && issue.rule === 'enum';

/** The problem format of interface A, with the 422 of an unsupported network. */
export function accountsProblems(): ProblemFormat {
  const base = problemDetails();
  return {
    ...base,
    invalid(issues, context) {
      const networks = networkOperations[context.operationId];
      if (networks && issues.some(isNetworkIssue))
        return base.problem(
          new SandboxProblem(422, 'unsupported-network', `network: unsupported; ${context.operationId} takes ${networks}`),
          context,
        );
      return base.invalid(issues, context);
    },
  };
}

/** Interface A, the accounts API: its document, token request, BaaS-only and x-account-id steps and client options. */
import type { ClientOptions } from '../runtime/client-options.js';
import { documentModules, type InterfaceDefinition } from '../runtime/definition.js';
import { ConfigurationError } from '../runtime/errors.js';
import { insertBefore } from '../runtime/pipeline.js';
import { accountHeaderStep, isBaasCredential } from './account-header.js';
import { baasOnlyStep } from './baas-only.js';
import { accountsTokenRequest } from './token.js';

/** Options of the accounts client; `baseUrl` is `{base_url}`, including its /api/v2 prefix. */
export interface AccountsClientOptions extends ClientOptions {
  /**
   * Child account to operate, sent as `x-account-id` on the account-operational endpoints when the
   * credential is a BaaS one (client id `baas_…`). A call may name another with `header: { 'x-account-id': n }`.
   */
  readonly accountId?: number;
  /** Scopes to ask for (space-separated); the credential's when omitted. */
  readonly scope?: string;
}

/** Scopes section 5 grants to BaaS credentials only: child accounts, onboarding, credentials, fee rules, portal users. */
export const isBaasOnlyScope = (scope: string): boolean => /^(baas\.|fee-rules\.|baas-users\.)/.test(scope);

/**
 * Section 5's scope table is shared by interfaces A and D: a credential of A holds the scopes of both schemes,
 * but `institution`, core banking's own (which the table omits).
 */
const sectionFive = { scopesOf: ['accounts', 'core-banking'], lacks: (scope: string) => scope === 'institution' } as const;

export const accountsDefinition: InterfaceDefinition<AccountsClientOptions> = {
  name: 'accounts',
  letter: 'A',
  title: 'Accounts API',
  address: '{base_url}',
  documents: [
    {
      name: 'accounts',
      identifier: 'accounts',
      title: 'Accounts API',
      mockPort: 4011,
      sandbox: { prefix: '/accounts/api/v2' },
      load: () =>
        documentModules(
          import('../../generated/accounts/operations.js'),
          import('../../generated/accounts/validators.js'),
          import('./checks.js').then((module) => module.accountsChecks),
        ),
    },
  ],
  client: {
    optionNames: ['accountId', 'scope'],
    checkOptions: (options) => {
      if (options.accountId !== undefined && !isBaasCredential(options.clientId)) {
        throw new ConfigurationError(
          'accountId selects a child account and only BaaS credentials (client id baas_…) use it; an account credential operates its own account',
        );
      }
    },
    credentials: ({ clientId, clientSecret }) => ({ clientId, clientSecret }),
    // The token route is the operation table's (provisional, so a caller's `routes` may move it).
    tokenRequest: (baseUrl, options, operations) =>
      accountsTokenRequest(baseUrl, { ...options, tokenPath: operations['auth.token']?.path ?? '/auth/token' }),
    // Both refuse a call the credential cannot make before any key, token or request exists.
    steps: (options, defaults) =>
      insertBefore(defaults, 'idempotency-key', baasOnlyStep(options.clientId), accountHeaderStep(options.clientId, options.accountId)),
  },
  sandbox: {
    // An account credential (its own account, no x-account-id; BaaS-only operations answer 403) and a BaaS one
    // (the `baas_` prefix of section 5.5: x-account-id selects a child account), every scope of section 5.
    credentials: [
      { clientId: 'sandbox-account', ...sectionFive, lacks: (scope) => sectionFive.lacks(scope) || isBaasOnlyScope(scope) },
      { clientId: 'baas_sandbox', ...sectionFive },
    ],
    // The samples act as the BaaS credential on its seeded child account, so every operation is allowed.
    client: { clientId: 'baas_sandbox', options: { accountId: 2001 } },
  },
};

/**
 * Client of the accounts API (interface A): token over mutual TLS with the camelCase request of section
 * 5.5, the typed facade of every operation, `x-account-id` handled for BaaS credentials (conventions 1
 * and 2), date rules checked before sending, and the multi-step flows of sections 4.1, 4.3 and 4.7.
 */
import { createAccountsFacade, operationTable, type AccountsFacade } from '../../generated/accounts/operations.js';
import type { OperationInfo } from '../runtime/contract.js';
import { accountsTokenFlow } from '../runtime/auth-flows.js';
import { commonRuntimeOptions, tokenCacheFor, transportFor, withRoutes, type ClientOptions } from '../runtime/client-options.js';
import { ConfigurationError } from '../runtime/errors.js';
import { createRuntime, type OperationValidatorSet } from '../runtime/runtime.js';
import { checkBaseUrl, type TlsOptions } from '../runtime/transport.js';
import { accountsChecks } from './checks.js';
import { createKeyWithChallenge, type KeyChallengeFlow } from './key-challenge.js';
import { checkedImageUpload } from './onboarding-image.js';
import { analyzeWallet, type RiskAnalysisFlow } from './crypto-risk.js';

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

/** BaaS credentials are told apart by their client id (section 5.5). */
export function isBaasCredential(clientId: string): boolean {
  return clientId.startsWith('baas_');
}

const accountHeaderName = 'x-account-id';

/**
 * Conventions 1 and 2 of section 1: a BaaS token names the child account on account-operational
 * endpoints; account tokens operate their own account and send none; BaaS-scope endpoints take none.
 */
export function accountHeaderPolicy(clientId: string, accountId: number | undefined) {
  const baas = isBaasCredential(clientId);
  return (info: OperationInfo, header: Record<string, unknown> | undefined): Record<string, unknown> | undefined => {
    const given = header && Object.keys(header).find((name) => name.toLowerCase() === accountHeaderName);
    if (!info.accountHeader) {
      if (given)
        throw new ConfigurationError(
          `${info.operationId} is a BaaS-scope operation: it takes no x-account-id (the BaaS link comes from the credential)`,
          { operationId: info.operationId },
        );
      return header;
    }
    if (!baas) {
      if (given)
        throw new ConfigurationError(
          `${info.operationId}: x-account-id selects a child account and only BaaS credentials (client id baas_…) send it; this credential operates its own account`,
          { operationId: info.operationId },
        );
      return header;
    }
    if (given) return header;
    if (accountId === undefined) {
      throw new ConfigurationError(
        `${info.operationId} operates an account: a BaaS credential must name the child account (client option accountId, or header x-account-id on the call)`,
        { operationId: info.operationId },
      );
    }
    return { ...header, [info.accountHeader]: accountId };
  };
}

export type AccountsClient = AccountsFacade & {
  readonly keys: AccountsFacade['keys'] & {
    /** EMAIL or PHONE key: challenge, ask `getCode` for the code sent to the contact, create — within the 300 s the challenge lasts. */
    createWithChallenge: KeyChallengeFlow;
  };
  readonly onboarding: Omit<AccountsFacade['onboarding'], 'uploadImage'> & {
    /** Uploads a document image after checking it is a JPG or PNG (by its bytes) of at most 10 MB. */
    uploadImage: ReturnType<typeof checkedImageUpload>;
  };
  readonly cryptoRisk: {
    /** POST the analysis; on 202 follow the ingest until it is stored, then POST again for the 201 snapshot. */
    analyze: RiskAnalysisFlow;
  };
  /** The same client operating another child account (BaaS credentials); shares connections and token. */
  forAccount(accountId: number): AccountsClient;
  rotateCertificate(tls: TlsOptions): void;
  close(): Promise<void>;
};

export function createAccountsClient(options: AccountsClientOptions): AccountsClient {
  const baseUrl = checkBaseUrl(options.baseUrl);
  const operations = withRoutes(operationTable, options.routes);
  if (options.accountId !== undefined && !isBaasCredential(options.clientId)) {
    throw new ConfigurationError(
      'accountId selects a child account and only BaaS credentials (client id baas_…) use it; an account credential operates its own account',
    );
  }
  const transport = transportFor(options);
  const issue = accountsTokenFlow(baseUrl, { ...options, tokenPath: operations['auth.token'].path });
  const tokens = tokenCacheFor(options, () => issue(transport.fetch));
  const common = commonRuntimeOptions(options, transport, tokens);

  const clientFor = (accountId: number | undefined): AccountsClient => {
    const runtime = createRuntime({
      ...common,
      baseUrl,
      operations,
      loadValidators: async () => {
        const { validators, patternDescriptions } = await import('../../generated/accounts/validators.js');
        return { operations: validators.operations as Record<string, OperationValidatorSet>, patternDescriptions };
      },
      tokens,
      crossFieldChecks: accountsChecks,
      prepareHeaders: accountHeaderPolicy(options.clientId, accountId),
    });
    const facade = createAccountsFacade(runtime);
    return Object.assign(facade, {
      keys: { ...facade.keys, createWithChallenge: createKeyWithChallenge(facade) },
      onboarding: { ...facade.onboarding, uploadImage: checkedImageUpload(facade.onboarding.uploadImage) },
      cryptoRisk: { analyze: analyzeWallet(facade) },
      forAccount: (other: number) => {
        if (!isBaasCredential(options.clientId))
          throw new ConfigurationError('forAccount: only BaaS credentials (client id baas_…) operate child accounts');
        return clientFor(other);
      },
      rotateCertificate: (tls: TlsOptions) => transport.rotate(tls),
      close: () => transport.close(),
    });
  };
  return clientFor(options.accountId);
}

export { operationTable, eventTable } from '../../generated/accounts/operations.js';
export type { components, operations, paths, webhooks } from '../../generated/accounts/types.js';
export { ChallengeExpiredError, type KeyChallengeFlow, type KeyChallengeInput } from './key-challenge.js';
export { imageTypeOf, maxImageBytes, type ImageUploadArgs } from './onboarding-image.js';
export type { RiskAnalysisFlow, RiskAnalysisInput } from './crypto-risk.js';
export * from '../runtime/client-options.js';

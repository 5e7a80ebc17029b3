/**
 * Client of the accounts API (interface A): token over mutual TLS with the camelCase request of section
 * 5.5, the typed facade of every operation, `x-account-id` handled for BaaS credentials (conventions 1
 * and 2), credential issuing refused to account credentials (4.3), date rules checked before sending,
 * checks of a call against what was read before (read-checks.ts), and the multi-step flows of sections
 * 4.1, 4.3 and 4.7.
 */
import { type AccountsFacade, createAccountsFacade, operationTable } from '../../generated/accounts/operations.js';
import { type ClientCore, createClientCore } from '../runtime/client.js';
import { ConfigurationError } from '../runtime/errors.js';
import { insertBefore } from '../runtime/pipeline.js';
import { accountHeaderStep, isBaasCredential } from './account-header.js';
import { analyzeWallet, type RiskAnalysisFlow } from './crypto-risk.js';
import { type AccountsClientOptions, accountsDefinition } from './definition.js';
import { createKeyWithChallenge, type KeyChallengeFlow } from './key-challenge.js';
import { checkedImageUpload } from './onboarding-image.js';

export type { AccountsClientOptions } from './definition.js';
export { isBaasCredential } from './account-header.js';

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
} & ClientCore['lifecycle'];

export function createAccountsClient(options: AccountsClientOptions): AccountsClient {
  const core = createClientCore(accountsDefinition, operationTable, options);
  const clientFor = (accountId: number | undefined): AccountsClient => {
    // The definition's step names the client's own account; another account replaces it.
    const runtime =
      accountId === options.accountId
        ? core.runtime()
        : core.runtime({
            steps: (steps) =>
              insertBefore(
                steps.filter((step) => step.name !== 'account-header'),
                'idempotency-key',
                accountHeaderStep(options.clientId, accountId),
              ),
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
      ...core.lifecycle,
    });
  };
  return clientFor(options.accountId);
}

export { operationTable, eventTable } from '../../generated/accounts/operations.js';
export type { components, operations, paths, webhooks } from '../../generated/accounts/types.js';
/** The named types of every operation: `<Group><Name>Params`, `…Path`, `…Query`, `…Body`, `…Result`, `…Item` (generated/README.md). */
export type * from '../../generated/accounts/named-types.js';
export { ChallengeExpiredError, type KeyChallengeFlow, type KeyChallengeInput } from './key-challenge.js';
export { imageTypeOf, maxImageBytes, type ImageUploadArgs } from './onboarding-image.js';
export type { RiskAnalysisFlow, RiskAnalysisInput } from './crypto-risk.js';
export {
  buyHardCapBrl,
  checkBilletPayable,
  checkBilletPaymentAmount,
  checkBuyAmount,
  checkImageUpload,
  checkSellOrigin,
  imageUploadStatuses,
  type OrderHandling,
  orderHandling,
} from './read-checks.js';
export * from '../runtime/client-options.js';

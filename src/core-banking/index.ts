/**
 * Client of the core banking administrative API (interface D, section 4.10 of the interface
 * specification): token from POST /auth/token over mutual TLS, then the typed facade of every operation.
 */
import { createCoreBankingFacade, operationTable, type CoreBankingFacade } from '../../generated/core-banking/operations.js';
import { patternDescriptions, validators } from '../../generated/core-banking/validators.js';
import { AuthError, HttpError } from '../runtime/errors.js';
import { createRuntime, type OperationValidatorSet } from '../runtime/runtime.js';
import { TokenCache } from '../runtime/token-cache.js';
import { check } from '../runtime/validation.js';
import { coreBankingChecks } from './checks.js';
import { checkBaseUrl, createDispatcher, fetchThrough, type TlsOptions } from '../runtime/transport.js';

export interface CoreBankingClientOptions {
  /** `{banking_base_url}`: https, or http on loopback only (a mock). */
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Client certificate presented on the token request and on every call (section 5.1). */
  readonly tls?: TlsOptions;
  /** Renew the token this many seconds before it expires (default 60). */
  readonly tokenSkewSeconds?: number;
  /** Check responses against the contract as well (default false: responses are read tolerantly). */
  readonly validateResponses?: boolean;
}

export type CoreBankingClient = CoreBankingFacade;

export function createCoreBankingClient(options: CoreBankingClientOptions): CoreBankingClient {
  const baseUrl = checkBaseUrl(options.baseUrl);
  const fetch = fetchThrough(createDispatcher(options.tls), options.tls);
  const tokens = new TokenCache({
    skewSeconds: options.tokenSkewSeconds ?? 60,
    issue: async () => {
      try {
        const response = await facade.auth.token({
          body: { client_id: options.clientId, client_secret: options.clientSecret, grant_type: 'client_credentials' },
        });
        // The token is used on every call, so its answer is always checked, whatever validateResponses says.
        const issues = check(validators.schemas.TokenResponse, response);
        if (issues.length > 0) {
          throw new AuthError(`core-banking token response breaks the contract: ${issues.map((i) => `${i.pointer} ${i.message}`).join('; ')}`, null);
        }
        return { accessToken: response.access_token, expiresIn: response.expires_in };
      } catch (error) {
        if (error instanceof HttpError && (error.status === 401 || error.status === 403)) {
          const why =
            error.status === 401
              ? 'invalid credentials or client certificate (wrong client id or secret, inactive credential, certificate not linked)'
              : 'source IP not allowed for this credential';
          throw new AuthError(`core-banking token request refused: ${why}`, error.status, error);
        }
        throw error;
      }
    },
  });
  const runtime = createRuntime({
    baseUrl,
    operations: operationTable,
    validators: validators.operations as Record<string, OperationValidatorSet>,
    fetch,
    tokens,
    validateResponses: options.validateResponses ?? false,
    patternDescriptions,
    crossFieldChecks: coreBankingChecks,
  });
  const facade = createCoreBankingFacade(runtime);
  return facade;
}

export { operationTable } from '../../generated/core-banking/operations.js';
export type { components, operations, paths } from '../../generated/core-banking/types.js';
export * from '../runtime/errors.js';

/**
 * Client of the core banking administrative API (interface D, section 4.10 of the interface
 * specification): token from POST /auth/token over mutual TLS, then the typed facade of every operation,
 * with retries that never repeat a call that is not idempotent, timeouts, a rate limiter set to the
 * documented limits and redacted logging.
 */
import { createCoreBankingFacade, operationTable, type CoreBankingFacade } from '../../generated/core-banking/operations.js';
import { coreBankingTokenFlow } from '../runtime/auth-flows.js';
import { commonRuntimeOptions, tokenCacheFor, transportFor, withRoutes, type ClientOptions } from '../runtime/client-options.js';
import type { RateLimit } from '../runtime/rate-limiter.js';
import { createRuntime, type OperationValidatorSet } from '../runtime/runtime.js';
import { checkBaseUrl, type TlsOptions } from '../runtime/transport.js';
import { coreBankingChecks } from './checks.js';

/** Options of the core banking client; `baseUrl` is `{banking_base_url}`, and the rate limiter defaults to section 8's limits. */
export type CoreBankingClientOptions = ClientOptions;

/** Section 8: 1000 requests per minute and 10000 per hour. */
export const coreBankingRateLimits: readonly RateLimit[] = [
  { limit: 1000, intervalMs: 60_000 },
  { limit: 10_000, intervalMs: 3_600_000 },
];

export type CoreBankingClient = CoreBankingFacade & {
  /** Presents `tls` on every new connection from now on (section 5.3: two active certificates during a rotation). */
  rotateCertificate(tls: TlsOptions): void;
  /** Closes the connections; calls after it fail. */
  close(): Promise<void>;
};

export function createCoreBankingClient(options: CoreBankingClientOptions): CoreBankingClient {
  const baseUrl = checkBaseUrl(options.baseUrl);
  const transport = transportFor(options);
  const issue = coreBankingTokenFlow(baseUrl, options);
  const tokens = tokenCacheFor(options, () => issue(transport.fetch));
  const runtime = createRuntime({
    ...commonRuntimeOptions(options, transport, tokens, coreBankingRateLimits),
    baseUrl,
    operations: withRoutes(operationTable, options.routes),
    loadValidators: async () => {
      const { validators, patternDescriptions } = await import('../../generated/core-banking/validators.js');
      return { operations: validators.operations as Record<string, OperationValidatorSet>, patternDescriptions };
    },
    tokens,
    crossFieldChecks: coreBankingChecks,
  });
  return Object.assign(createCoreBankingFacade(runtime), {
    rotateCertificate: (tls: TlsOptions) => transport.rotate(tls),
    close: () => transport.close(),
  });
}

export { operationTable } from '../../generated/core-banking/operations.js';
export type { components, operations, paths } from '../../generated/core-banking/types.js';
export * from '../runtime/client-options.js';

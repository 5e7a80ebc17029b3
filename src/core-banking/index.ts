/**
 * Client of the core banking administrative API (interface D, section 4.10 of the interface
 * specification): token from POST /auth/token over mutual TLS, then the typed facade of every operation,
 * with retries that never repeat a call that is not idempotent, timeouts, a rate limiter set to the
 * documented limits and redacted logging.
 */
import { createCoreBankingFacade, operationTable, type CoreBankingFacade } from '../../generated/core-banking/operations.js';
import { patternDescriptions, validators } from '../../generated/core-banking/validators.js';
import { coreBankingTokenFlow } from '../runtime/auth-flows.js';
import type { Logger } from '../runtime/logging.js';
import { RateLimiter, type RateLimit } from '../runtime/rate-limiter.js';
import type { RetryPolicy } from '../runtime/retry.js';
import { createRuntime, type OperationValidatorSet, type ResponseValidation } from '../runtime/runtime.js';
import { TokenCache } from '../runtime/token-cache.js';
import { checkBaseUrl, Transport, type TlsOptions } from '../runtime/transport.js';
import { coreBankingChecks } from './checks.js';

export interface CoreBankingClientOptions {
  /** `{banking_base_url}`: https, or http on loopback only (a mock). */
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Client certificate presented on the token request and on every call (section 5.1). */
  readonly tls?: TlsOptions;
  /** Renew the token this many seconds before it expires (default 60). */
  readonly tokenSkewSeconds?: number;
  /** `off` (default), `warn` or `strict`; all accept new fields and enum values (section 9.3). */
  readonly responseValidation?: ResponseValidation;
  /** Retry policy; default 2 retries within 60 s, backoff 250 ms doubling up to 8 s, Retry-After honoured up to 60 s. */
  readonly retry?: Partial<RetryPolicy>;
  /** Time limit of each attempt (default 30 s). */
  readonly timeoutMs?: number;
  /** Client-side limits; default section 8's 1000 per minute and 10000 per hour; false turns it off. */
  readonly rateLimit?: readonly RateLimit[] | false;
  /** Receives request, response, retry and token events, already redacted. */
  readonly logger?: Logger;
  /** Mask CPF/CNPJ in logs (default true). */
  readonly maskDocuments?: boolean;
}

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
  const transport = new Transport(options.tls);
  const issue = coreBankingTokenFlow(baseUrl, options);
  const tokens = new TokenCache({
    skewSeconds: options.tokenSkewSeconds ?? 60,
    issue: async () => {
      const token = await issue(transport.fetch);
      options.logger?.({ level: 'info', event: 'token', data: { issued: true, expiresIn: token.expiresIn } });
      return token;
    },
  });
  const runtime = createRuntime({
    baseUrl,
    operations: operationTable,
    validators: validators.operations as Record<string, OperationValidatorSet>,
    fetch: transport.fetch,
    tokens,
    responseValidation: options.responseValidation ?? 'off',
    patternDescriptions,
    crossFieldChecks: coreBankingChecks,
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.rateLimit === false ? {} : { rateLimiter: new RateLimiter(options.rateLimit ?? coreBankingRateLimits) }),
    ...(options.logger ? { logger: options.logger } : {}),
    maskDocuments: options.maskDocuments ?? true,
    secrets: () => [options.clientSecret, tokens.peek() ?? ''],
  });
  return Object.assign(createCoreBankingFacade(runtime), {
    rotateCertificate: (tls: TlsOptions) => transport.rotate(tls),
    close: () => transport.close(),
  });
}

export { operationTable } from '../../generated/core-banking/operations.js';
export type { components, operations, paths } from '../../generated/core-banking/types.js';
export { responseMeta, type ResponseMeta, type ResponseValidation } from '../runtime/runtime.js';
export type { TlsOptions } from '../runtime/transport.js';
export type { LogEvent, Logger } from '../runtime/logging.js';
export type { RetryPolicy } from '../runtime/retry.js';
export * from '../runtime/errors.js';

/**
 * Options every contrato client takes, and how they become runtime options; each interface module adds
 * only what is its own, through its definition (address, token request, defaults such as published rate limits).
 */
import type { OperationInfo } from './contract.js';
import type { ResponseValidation } from './runtime.js';
import { ConfigurationError } from './errors.js';
import type { IdempotencyJournal } from './journal.js';
import type { Logger } from './logging.js';
import type { RateLimit, RequestLimiter } from './rate-limiter.js';
import type { Middleware } from './middleware.js';
import type { RetryPolicy } from './retry.js';
import type { TelemetryOption } from './telemetry.js';
import type { TlsOptions, TransportOptions } from './transport.js';

export interface ClientOptions {
  /** The interface's address: https, or http on loopback only (a mock). */
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Client certificate presented on the token request and on every call (section 5.1). */
  readonly tls?: TlsOptions;
  /** Forward proxy: a URL, or false to ignore HTTPS_PROXY / HTTP_PROXY / NO_PROXY, which are honoured by default. */
  readonly proxy?: TransportOptions['proxy'];
  /** An undici dispatcher of your own for every request (then TLS settings go in its options, not `tls`). */
  readonly dispatcher?: TransportOptions['dispatcher'];
  /** Renew the token this many seconds before it expires (default 60). */
  readonly tokenSkewSeconds?: number;
  /** `off` (default), `warn` or `strict`; all accept new fields and enum values (section 9.3). */
  readonly responseValidation?: ResponseValidation;
  /** Retry policy; default 2 retries within 60 s, backoff 250 ms doubling up to 8 s, Retry-After honoured up to 60 s. */
  readonly retry?: Partial<RetryPolicy>;
  /** Time limit of each attempt (default 30 s). */
  readonly timeoutMs?: number;
  /** Client-side limits; false (or absent where the interface publishes none) turns the limiter off. */
  readonly rateLimit?: readonly RateLimit[] | false;
  /**
   * A limiter of your own in place of the client's memory one, e.g. contrato/postgres `postgresRateLimiter`,
   * which every process of a credential shares; not together with `rateLimit`.
   */
  readonly rateLimiter?: RequestLimiter;
  /**
   * Journal of keyed calls (`memoryIdempotencyJournal()`, or contrato/postgres `postgresIdempotencyJournal`
   * shared by every process): a call's key is recorded before it is sent, so after a crash
   * `client.resumeInDoubt()` or the same `reference` again re-sends it with its original key; a reference
   * that succeeded is answered from the journal, never sent again (`response.fromJournal`).
   */
  readonly journal?: IdempotencyJournal;
  /** Receives request, response, retry and token events, already redacted. */
  readonly logger?: Logger;
  /** Mask CPF/CNPJ in logs (default true). */
  readonly maskDocuments?: boolean;
  /**
   * Paths of provisional operations (routes the interface specification does not show), by operationId,
   * e.g. `{ 'ted.create': '/transfers/ted' }` once the provider publishes them. Same path parameters.
   */
  readonly routes?: Readonly<Record<string, string>>;
  /**
   * Your own hooks on every attempt, after the token is added and before the request leaves
   * (`onRequest` may add headers), then on its answer (`onResponse`) or failure (`onError`): middleware.ts.
   */
  readonly middleware?: readonly Middleware[];
  /**
   * OpenTelemetry spans and metrics go to the providers the application registered with `@opentelemetry/api`
   * (an optional peer); `false` turns them off. `{ propagateTraceContext: true }` also sends W3C `traceparent`
   * on every request (off by default: the platform's acceptance of extra headers is not shown).
   */
  readonly telemetry?: TelemetryOption;
}

/** Names of the options every client takes (each interface adds its own in its definition). */
export const commonOptionNames = [
  'baseUrl',
  'clientId',
  'clientSecret',
  'tls',
  'proxy',
  'dispatcher',
  'tokenSkewSeconds',
  'responseValidation',
  'retry',
  'timeoutMs',
  'rateLimit',
  'rateLimiter',
  'journal',
  'logger',
  'maskDocuments',
  'routes',
  'middleware',
  'telemetry',
] as const satisfies readonly (keyof ClientOptions)[];

/** The operation table with the caller's routes for provisional operations; shown routes cannot change. */
export function withRoutes<Table extends Readonly<Record<string, OperationInfo>>>(
  table: Table,
  routes: Readonly<Record<string, string>> | undefined,
): Table {
  if (!routes) return table;
  const parametersOf = (path: string): string =>
    path
      .split('/')
      .filter((segment) => segment.startsWith('{') && segment.endsWith('}'))
      .sort()
      .join(',');
  const result: Record<string, OperationInfo> = { ...table };
  for (const [operationId, path] of Object.entries(routes)) {
    const info = table[operationId];
    if (!info) throw new ConfigurationError(`routes: unknown operation ${operationId}`);
    if (!info.provisional)
      throw new ConfigurationError(
        `routes: ${operationId} has the route the interface specification shows (${info.path}); only provisional routes can be overridden`,
      );
    if (!path.startsWith('/')) throw new ConfigurationError(`routes: ${operationId}: ${path} must start with /`);
    if (parametersOf(path) !== parametersOf(info.path))
      throw new ConfigurationError(`routes: ${operationId}: ${path} must have the path parameters of ${info.path}`);
    result[operationId] = { ...info, path };
  }
  return result as Table;
}

/** What every client module exports besides its own client: errors, result metadata, option types. */
export * from './errors.js';
export type { ResponseValidation } from './runtime.js';
export type { CallPromise, CallResponse } from './contract.js';
export type { TlsOptions } from './transport.js';
export type { LogEvent, Logger } from './logging.js';
export type { RetryPolicy } from './retry.js';
export type { Middleware, MiddlewareFailure, MiddlewareRequest, MiddlewareResponse } from './middleware.js';
export type { TelemetryOption } from './telemetry.js';
export type { RateLimit, RequestLimiter } from './rate-limiter.js';
export {
  type IdempotencyJournal,
  type InDoubtQuery,
  type JournalEntry,
  type JournalEntryId,
  type JournalOutcome,
  type JournalState,
  memoryIdempotencyJournal,
  type NewJournalEntry,
  type ResumedCall,
  type ResumeOptions,
} from './journal.js';

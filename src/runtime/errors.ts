/**
 * Every failure a contrato client reports is one of these classes, so callers branch on type:
 *
 *   ContratoError
 *   ├── ValidationError ─── RequestValidationError (never sent), ResponseValidationError
 *   ├── HttpError (an error status) ─── ProblemError (RFC 7807) ─── RateLimitError (429)
 *   ├── AuthError (token refused, TLS handshake or certificate problem: `reason` says which)
 *   ├── ConnectionError (no answer: reset, refused, dropped mid-reply)
 *   ├── TimeoutError
 *   └── ConfigurationError (misuse detected before any request)
 *
 * Errors of a call carry what the caller needs to follow up: the operationId, the idempotency key that
 * was sent (look the operation up by it before trying again), the number of attempts and the server's
 * correlation id when it sent one. No error message ever contains a secret.
 */
import { isProblem, type ProblemDetails, reasonOf } from './problem-reason.js';

/** One violated rule of a request or response. */
export interface ValidationIssue {
  /** JSON pointer of the offending value, rooted at the part checked: `/body/name`, `/query/perPage`. */
  readonly pointer: string;
  /** JSON Schema keyword or named check that failed: `minLength`, `format`, `statement-period`, ... */
  readonly rule: string;
  /** What is wrong, in plain words. */
  readonly message: string;
  /** The offending value (secrets redacted), or undefined when the value is missing. */
  readonly value?: unknown;
}

/**
 * Why a failed call was not tried again, as `error.notRetried` carries it (the message says it in words):
 * - `non-idempotent-without-key`: the failure may pass, but the call (POST, PATCH) carries no idempotency
 *   key, and a repetition could execute it twice;
 * - `retry-after-beyond-cap`: the server asked to wait longer (`Retry-After`) than `retry.maxRetryAfterMs`;
 * - `deadline`: after the wait before the next attempt no time would be left within `retry.deadlineMs`;
 * - `attempts-exhausted`: `retry.maxRetries` retries were made;
 * - `not-retryable-status`: the answer's status is final (only 429, 500, 502, 503 and 504 are retried);
 * - `not-retryable-failure`: the failure is one that trying again cannot mend (a TLS refusal, a refused
 *   credential, an answer that is not JSON).
 */
export type NotRetried =
  | { readonly reason: 'non-idempotent-without-key'; readonly method: string }
  | { readonly reason: 'retry-after-beyond-cap'; readonly retryAfterSeconds: number; readonly capSeconds: number }
  | {
      readonly reason: 'deadline';
      /** The wait before the attempt that would have been next (Retry-After, or the backoff). */
      readonly waitSeconds: number;
      /** Whether that wait is the server's `Retry-After` (else the client's backoff). */
      readonly retryAfter: boolean;
      readonly deadlineSeconds: number;
    }
  | { readonly reason: 'attempts-exhausted'; readonly maxRetries: number }
  | { readonly reason: 'not-retryable-status'; readonly status: number }
  | { readonly reason: 'not-retryable-failure' };

export type NotRetriedReason = NotRetried['reason'];

const seconds = (value: number): string => `${Number.isInteger(value) ? value : value.toFixed(1)} s`;

/** `notRetried` in words, as the message of the error says it. */
export function notRetriedWords(notRetried: NotRetried, attempts: number): string {
  const made = `${attempts} attempt${attempts === 1 ? '' : 's'} made`;
  switch (notRetried.reason) {
    case 'non-idempotent-without-key':
      return `not retried: a ${notRetried.method.toUpperCase()} without an idempotency key could be executed twice (${made})`;
    case 'retry-after-beyond-cap':
      return `not retried: the server asked to wait ${seconds(notRetried.retryAfterSeconds)} (Retry-After), longer than the ${seconds(notRetried.capSeconds)} the client waits at most (retry.maxRetryAfterMs) (${made})`;
    case 'deadline':
      return `not retried: after a wait of ${seconds(notRetried.waitSeconds)}${notRetried.retryAfter ? ' (Retry-After)' : ''} no time would be left for another attempt within the call's deadline of ${seconds(notRetried.deadlineSeconds)} (retry.deadlineMs) (${made})`;
    case 'attempts-exhausted':
      return `not retried: attempts exhausted (${made}, retry.maxRetries ${notRetried.maxRetries})`;
    case 'not-retryable-status':
      return `not retried: status ${notRetried.status} is final, only 429, 500, 502, 503 and 504 are retried (${made})`;
    case 'not-retryable-failure':
      return `not retried: trying again cannot mend this failure (${made})`;
  }
}

/** What is known of the call an error belongs to. */
export interface CallContext {
  readonly operationId?: string | undefined;
  /** Idempotency key sent with the call (the same on every attempt). */
  readonly idempotencyKey?: string | undefined;
  /** Attempts made: each try at sending the call, a refused connection included; 0 when nothing was tried. */
  readonly attempts?: number | undefined;
  /** Correlation or request id the server sent (header or problem body). */
  readonly correlationId?: string | undefined;
  /**
   * The call may have been executed although no answer says so: a request reached the server (or may
   * have) and the connection failed or timed out before the answer.
   */
  readonly outcomeUnknown?: boolean | undefined;
  /** Why the call was not tried again (absent on errors of no call, and on calls refused before sending). */
  readonly notRetried?: NotRetried | undefined;
}

/** Members of an error that are shown only when they hold a value: no rendering prints `x: undefined`. */
function defineMember(target: object, name: string, value: unknown): void {
  if (value === undefined) {
    if (Object.hasOwn(target, name)) delete (target as Record<string, unknown>)[name];
    return;
  }
  Object.defineProperty(target, name, { value, writable: false, enumerable: true, configurable: true });
}

export class ContratoError extends Error {
  override readonly name: string = 'ContratoError';
  /** The operation of the call; absent on an error of no call (a client misconfigured). */
  declare readonly operationId?: string;
  /** The idempotency key sent with the call, when it carried one. */
  declare readonly idempotencyKey?: string;
  /** Attempts made: each try at sending the call counts, a refused connection included; 0 when nothing was tried. */
  declare readonly attempts: number;
  declare readonly correlationId?: string;
  /** True when the call may have been executed although it ended in this error (see CallContext). */
  declare readonly outcomeUnknown: boolean;
  /** Why the call was not tried again; absent when no retry was in question (nothing was sent). */
  declare readonly notRetried?: NotRetried;
  constructor(message: string, context: CallContext = {}, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : options);
    defineMember(this, 'operationId', context.operationId);
    defineMember(this, 'idempotencyKey', context.idempotencyKey);
    defineMember(this, 'attempts', context.attempts ?? 0);
    defineMember(this, 'correlationId', context.correlationId);
    defineMember(this, 'outcomeUnknown', context.outcomeUnknown ?? false);
    defineMember(this, 'notRetried', context.notRetried);
  }

  /**
   * What a structured log writes (JSON.stringify, loggers that serialise errors as objects): the name,
   * the message and every member that holds a value, none of them `undefined`.
   */
  toJSON(): Record<string, unknown> {
    const members = Object.entries(this).filter(([, value]) => value !== undefined);
    return { name: this.name, message: this.message, ...Object.fromEntries(members) };
  }
}

/**
 * A copy of `error` that carries the context of the call it ended (and, given one, a sentence added to
 * its message). A copy, not a change: one error (a failed token request) may end many waiting calls.
 */
export function withCallContext<E extends ContratoError>(error: E, context: CallContext, addition?: string): E {
  const copy = Object.create(Object.getPrototypeOf(error) as object, Object.getOwnPropertyDescriptors(error)) as E;
  defineMember(copy, 'operationId', context.operationId ?? error.operationId);
  defineMember(copy, 'idempotencyKey', context.idempotencyKey ?? error.idempotencyKey);
  defineMember(copy, 'attempts', context.attempts ?? error.attempts ?? 0);
  defineMember(copy, 'correlationId', context.correlationId ?? error.correlationId);
  defineMember(copy, 'outcomeUnknown', context.outcomeUnknown ?? error.outcomeUnknown ?? false);
  defineMember(copy, 'notRetried', context.notRetried ?? error.notRetried);
  if (addition) {
    const message = `${error.message}; ${addition}`;
    Object.defineProperty(copy, 'message', { value: message, writable: true, enumerable: false, configurable: true });
    if (typeof error.stack === 'string') {
      Object.defineProperty(copy, 'stack', {
        value: error.stack.replace(error.message, () => message),
        writable: true,
        enumerable: false,
        configurable: true,
      });
    }
  }
  return copy;
}

/** Issues shown in an error message; `issues` holds them all. A huge bad payload gets a readable message. */
export const issuesInMessage = 20;

function formatIssues(issues: readonly ValidationIssue[]): string {
  const shown = issues.slice(0, issuesInMessage).map((issue) => `  ${issue.pointer || '/'}: ${issue.message}`);
  if (issues.length > issuesInMessage) shown.push(`  … and ${issues.length - issuesInMessage} more (error.issues lists every one)`);
  return shown.join('\n');
}

export class ValidationError extends ContratoError {
  override readonly name: string = 'ValidationError';
  constructor(
    message: string,
    readonly issues: readonly ValidationIssue[],
    context: CallContext = {},
  ) {
    super(`${message}\n${formatIssues(issues)}`, context);
  }
}

/** A request that would break the contract; it was never sent. */
export class RequestValidationError extends ValidationError {
  override readonly name = 'RequestValidationError';
  constructor(operationId: string, issues: readonly ValidationIssue[]) {
    super(`${operationId}: invalid request, not sent`, issues, { operationId });
  }
}

/** A response that breaks the contract (response validation `strict`). */
export class ResponseValidationError extends ValidationError {
  override readonly name = 'ResponseValidationError';
  constructor(
    operationId: string,
    readonly status: number,
    issues: readonly ValidationIssue[],
    context: CallContext = {},
  ) {
    super(`${operationId}: response ${status} breaks the contract`, issues, { ...context, operationId });
  }
}

export { isProblem, type ProblemDetails, reasonOf };

/** An HTTP error status. `body` is the parsed JSON, the text when it was not JSON, or undefined. */
export class HttpError extends ContratoError {
  override readonly name: string = 'HttpError';
  /** The answer's body: parsed JSON, the text when it was not JSON; absent when there was none. */
  declare readonly body: unknown;
  constructor(
    readonly status: number,
    body: unknown,
    context: CallContext,
    message?: string,
  ) {
    const reason = reasonOf(body);
    super(message ?? `${context.operationId ?? 'request'}: HTTP ${status}${reason ? ` ${reason}` : ''}`, context);
    defineMember(this, 'body', body);
  }
}

/** The value of an HTTP Basic Authorization header (RFC 6749 2.3.1: id and secret form-encoded first). */
export function basicCredentials(clientId: string, clientSecret: string): string {
  return Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64');
}

/** The last path segment of a problem type URI: `CobNaoEncontrado`, `not-found`, ... */
export function errorTypeOf(type: string | undefined): string | undefined {
  return type ? type.split(/[/#]/).filter(Boolean).pop() : undefined;
}

/** An error answer in RFC 7807 form. */
export class ProblemError extends HttpError {
  override readonly name: string = 'ProblemError';
  // Members of the problem that it has; one it lacks is absent, not `undefined`.
  declare readonly type?: string;
  /** The interface's error type, from the last segment of `type` (e.g. `CobNaoEncontrado`). */
  declare readonly errorType?: string;
  declare readonly title?: string;
  declare readonly detail?: string;
  declare readonly instance?: string;
  declare readonly violacoes?: ProblemDetails['violacoes'];
  constructor(
    status: number,
    readonly problem: ProblemDetails,
    context: CallContext,
  ) {
    const correlationId = context.correlationId ?? problem.correlationId;
    const summary = reasonOf(problem);
    const correlation = correlationId ? ` (correlationId ${correlationId})` : '';
    super(
      status,
      problem,
      { ...context, ...(correlationId ? { correlationId } : {}) },
      `${context.operationId ?? 'request'}: HTTP ${status}${summary ? ` ${summary}` : ''}${correlation}`,
    );
    defineMember(this, 'type', problem.type);
    defineMember(this, 'errorType', errorTypeOf(problem.type));
    defineMember(this, 'title', problem.title);
    defineMember(this, 'detail', problem.detail);
    defineMember(this, 'instance', problem.instance);
    defineMember(this, 'violacoes', problem.violacoes);
  }
}

/** 429: rate limit exceeded and the retry budget could not wait it out. */
export class RateLimitError extends ProblemError {
  override readonly name = 'RateLimitError';
  /** Seconds the server asked to wait (Retry-After), when it said. */
  declare readonly retryAfterSeconds?: number;
  constructor(problem: ProblemDetails, retryAfterSeconds: number | undefined, context: CallContext) {
    super(429, problem, context);
    defineMember(this, 'retryAfterSeconds', retryAfterSeconds);
  }
}

export type AuthFailure =
  | 'invalid-credentials'
  | 'inactive-credential'
  | 'ip-not-allowed'
  | 'certificate-refused'
  | 'certificate-expired'
  | 'certificate-not-yet-valid'
  | 'key-mismatch'
  | 'pfx-unreadable'
  | 'server-untrusted'
  | 'tls-handshake'
  | 'token-response-invalid';

/** Authentication failed: `reason` says which way (token refusal, certificate, TLS trust). */
export class AuthError extends ContratoError {
  override readonly name = 'AuthError';
  constructor(
    message: string,
    readonly reason: AuthFailure,
    readonly status: number | null,
    context: CallContext = {},
    cause?: unknown,
  ) {
    super(message, context, cause === undefined ? undefined : { cause });
  }
}

/** Where a failure without an answer happened and why, as far as the client saw it. */
export interface FailureDetails {
  readonly cause?: unknown;
  /** The system or undici code of the root cause: `ECONNREFUSED`, `ECONNRESET`, `ENOTFOUND`, `UND_ERR_SOCKET`, ... */
  readonly code?: string | undefined;
  /** `host:port` the failed connection was to. */
  readonly target?: string | undefined;
}

/**
 * No answer: the connection was refused, reset, or dropped before the reply was complete. The message
 * names the root cause in one line (code, host:port, what it means); `code` and `target` hold it too.
 */
export class ConnectionError extends ContratoError {
  override readonly name = 'ConnectionError';
  /** The system or undici code of the root cause (`ECONNREFUSED`, `ECONNRESET`, `UND_ERR_SOCKET`, ...), when there was one. */
  declare readonly code?: string;
  /** `host:port` of the connection that failed. */
  declare readonly target?: string;
  constructor(message: string, context: CallContext = {}, details: FailureDetails = {}) {
    super(message, context, details.cause === undefined ? undefined : { cause: details.cause });
    defineMember(this, 'code', details.code);
    defineMember(this, 'target', details.target);
  }
}

/** The attempt took longer than its time limit; the message says how long, from where, and what had arrived. */
export class TimeoutError extends ContratoError {
  override readonly name = 'TimeoutError';
  /** `host:port` the attempt was waiting on. */
  declare readonly target?: string;
  /** The time limit of the attempt. */
  declare readonly timeoutMs?: number;
  constructor(
    message: string,
    context: CallContext = {},
    details: { readonly cause?: unknown; readonly target?: string | undefined; readonly timeoutMs?: number } = {},
  ) {
    super(message, context, details.cause === undefined ? undefined : { cause: details.cause });
    defineMember(this, 'target', details.target);
    defineMember(this, 'timeoutMs', details.timeoutMs);
  }
}

/** Client misuse detected before any request: bad base URL, unknown operation, missing option. */
export class ConfigurationError extends ContratoError {
  override readonly name = 'ConfigurationError';
}

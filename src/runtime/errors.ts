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

/** What is known of the call an error belongs to. */
export interface CallContext {
  readonly operationId?: string;
  /** Idempotency key sent with the call (the same on every attempt). */
  readonly idempotencyKey?: string;
  readonly attempts?: number;
  /** Correlation or request id the server sent (header or problem body). */
  readonly correlationId?: string;
  /**
   * The call may have been executed although no answer says so: a request reached the server (or may
   * have) and the connection failed or timed out before the answer.
   */
  readonly outcomeUnknown?: boolean;
}

export class ContratoError extends Error {
  override readonly name: string = 'ContratoError';
  readonly operationId: string | undefined;
  readonly idempotencyKey: string | undefined;
  readonly attempts: number | undefined;
  readonly correlationId: string | undefined;
  /** True when the call may have been executed although it ended in this error (see CallContext). */
  readonly outcomeUnknown: boolean;
  constructor(message: string, context: CallContext = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.operationId = context.operationId;
    this.idempotencyKey = context.idempotencyKey;
    this.attempts = context.attempts;
    this.correlationId = context.correlationId;
    this.outcomeUnknown = context.outcomeUnknown ?? false;
  }
}

/**
 * A copy of `error` that carries the context of the call it ended (and, given one, a sentence added to
 * its message). A copy, not a change: one error (a failed token request) may end many waiting calls.
 */
export function withCallContext<E extends ContratoError>(error: E, context: CallContext, addition?: string): E {
  const copy = Object.create(Object.getPrototypeOf(error) as object, Object.getOwnPropertyDescriptors(error)) as E;
  const set = (name: string, value: unknown): void => {
    Object.defineProperty(copy, name, { value, writable: false, enumerable: true, configurable: true });
  };
  set('operationId', context.operationId ?? error.operationId);
  set('idempotencyKey', context.idempotencyKey ?? error.idempotencyKey);
  set('attempts', context.attempts ?? error.attempts);
  set('correlationId', context.correlationId ?? error.correlationId);
  set('outcomeUnknown', context.outcomeUnknown ?? error.outcomeUnknown);
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

/** An HTTP error status. `body` is the parsed JSON, the text when it was not JSON, or undefined. */
export class HttpError extends ContratoError {
  override readonly name: string = 'HttpError';
  constructor(
    readonly status: number,
    readonly body: unknown,
    context: CallContext,
    message?: string,
  ) {
    super(message ?? `${context.operationId ?? 'request'}: HTTP ${status}`, context);
  }
}

/** RFC 7807 problem details (section 7.1; section 7.2 adds `violacoes` on interface B). */
export interface ProblemDetails {
  readonly type?: string;
  readonly title?: string;
  readonly status?: number;
  readonly detail?: string;
  readonly instance?: string;
  readonly correlationId?: string;
  readonly violacoes?: ReadonlyArray<{ readonly razao?: string; readonly propriedade?: string; readonly valor?: string }>;
  readonly [extension: string]: unknown;
}

/** Whether an error body is an RFC 7807 problem: an object with any of its members `type`, `title`, `status`. */
export function isProblem(body: unknown): body is ProblemDetails {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && ('title' in body || 'type' in body || 'status' in body);
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
  readonly type: string | undefined;
  /** The interface's error type, from the last segment of `type` (e.g. `CobNaoEncontrado`). */
  readonly errorType: string | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  readonly instance: string | undefined;
  readonly violacoes: ProblemDetails['violacoes'];
  constructor(
    status: number,
    readonly problem: ProblemDetails,
    context: CallContext,
  ) {
    const correlationId = context.correlationId ?? problem.correlationId;
    const summary = [problem.title, problem.detail].filter(Boolean).join(': ');
    const correlation = correlationId ? ` (correlationId ${correlationId})` : '';
    super(
      status,
      problem,
      { ...context, ...(correlationId ? { correlationId } : {}) },
      `${context.operationId ?? 'request'}: HTTP ${status}${summary ? ` ${summary}` : ''}${correlation}`,
    );
    this.type = problem.type;
    this.errorType = errorTypeOf(problem.type);
    this.title = problem.title;
    this.detail = problem.detail;
    this.instance = problem.instance;
    this.violacoes = problem.violacoes;
  }
}

/** 429: rate limit exceeded and the retry budget could not wait it out. */
export class RateLimitError extends ProblemError {
  override readonly name = 'RateLimitError';
  constructor(
    problem: ProblemDetails,
    /** Seconds the server asked to wait (Retry-After), when it said. */
    readonly retryAfterSeconds: number | undefined,
    context: CallContext,
  ) {
    super(429, problem, context);
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
    super(message, context, { cause });
  }
}

/** No answer: the connection was refused, reset, or dropped before the reply was complete. */
export class ConnectionError extends ContratoError {
  override readonly name = 'ConnectionError';
}

/** The call took longer than its timeout. */
export class TimeoutError extends ContratoError {
  override readonly name = 'TimeoutError';
}

/** Client misuse detected before any request: bad base URL, unknown operation, missing option. */
export class ConfigurationError extends ContratoError {
  override readonly name = 'ConfigurationError';
}

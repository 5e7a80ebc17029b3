/** Every failure a contrato client reports is one of these classes, so callers can branch on type. */

/** One violated rule of a request or response, as produced by the generated validators. */
export interface ValidationIssue {
  /** JSON pointer of the offending value, rooted at the part checked: `/body/name`, `/query/perPage`. */
  readonly pointer: string;
  /** JSON Schema keyword that failed: `minLength`, `required`, `format`, ... */
  readonly rule: string;
  /** What is wrong, in words. */
  readonly message: string;
  /** The offending value (secrets redacted), or undefined when the value is missing. */
  readonly value?: unknown;
}

export class ContratoError extends Error {
  override readonly name: string = 'ContratoError';
}

function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((issue) => `  ${issue.pointer || '/'}: ${issue.message}`).join('\n');
}

/** A request that would break the contract; it was never sent. */
export class RequestValidationError extends ContratoError {
  override readonly name = 'RequestValidationError';
  constructor(
    readonly operationId: string,
    readonly issues: readonly ValidationIssue[],
  ) {
    super(`${operationId}: invalid request, not sent\n${formatIssues(issues)}`);
  }
}

/** A response that does not match the contract (only checked when `validateResponses` is on). */
export class ResponseValidationError extends ContratoError {
  override readonly name = 'ResponseValidationError';
  constructor(
    readonly operationId: string,
    readonly status: number,
    readonly issues: readonly ValidationIssue[],
  ) {
    super(`${operationId}: response ${status} breaks the contract\n${formatIssues(issues)}`);
  }
}

/** An HTTP error status whose body is not an RFC 7807 problem. */
export class HttpError extends ContratoError {
  override readonly name: string = 'HttpError';
  constructor(
    readonly operationId: string,
    readonly status: number,
    readonly body: unknown,
    message?: string,
  ) {
    super(message ?? `${operationId}: HTTP ${status}`);
  }
}

/** RFC 7807 problem details (section 7.1 of the interface specification). */
export interface ProblemDetails {
  readonly type?: string;
  readonly title?: string;
  readonly status?: number;
  readonly detail?: string;
  readonly instance?: string;
  readonly correlationId?: string;
  readonly [extension: string]: unknown;
}

/** An error response in RFC 7807 form. `correlationId` is what the provider's support asks for. */
export class ProblemError extends HttpError {
  override readonly name = 'ProblemError';
  readonly type: string | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  readonly instance: string | undefined;
  readonly correlationId: string | undefined;
  constructor(
    operationId: string,
    status: number,
    readonly problem: ProblemDetails,
  ) {
    const summary = [problem.title, problem.detail].filter(Boolean).join(': ');
    const correlation = problem.correlationId ? ` (correlationId ${problem.correlationId})` : '';
    super(operationId, status, problem, `${operationId}: HTTP ${status}${summary ? ` ${summary}` : ''}${correlation}`);
    this.type = problem.type;
    this.title = problem.title;
    this.detail = problem.detail;
    this.instance = problem.instance;
    this.correlationId = problem.correlationId;
  }
}

/** The token request failed: wrong credentials, inactive credential, certificate or IP not allowed. */
export class AuthError extends ContratoError {
  override readonly name = 'AuthError';
  constructor(
    message: string,
    readonly status: number | null,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/** Client misuse detected before any request: bad base URL, unknown operation, missing option. */
export class ConfigurationError extends ContratoError {
  override readonly name = 'ConfigurationError';
}

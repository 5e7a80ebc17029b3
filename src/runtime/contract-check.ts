/**
 * The one judge of the contract: a request's arguments, then an answer, against an operation's generated
 * validators, its cross-field rules and its problem types (section 7). The client's validate step and
 * response check call it with the arguments of a call; src/checks/http-check.ts reads a raw HTTP message
 * into the same arguments for `contrato validate`, the sandbox, the mock front and `contrato verify`.
 * Issues are rooted at the request: `/path/…`, `/query/…`, `/header/…`, `/body/…`.
 */
import type { OperationInfo } from './contract.js';
import { runCrossFieldChecks } from './cross-field.js';
import { errorTypeOf, type ValidationIssue } from './errors.js';
import type { CallArgs, OperationChecks, OperationValidatorSet } from './pipeline.js';
import { withoutTrailingSlashes } from './text.js';
import { check, type CompiledValidator } from './validation.js';

const parameterLocations = ['path', 'query', 'header'] as const;

/** Text from a URL, a header or the command line as the value its parameter's schema type expects. */
export function parameterValue(text: string, type: string | null): unknown {
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** A file part of a multipart body: a Blob or bytes from a caller, `{ bytes }` as a server read it. */
const isFilePart = (value: unknown): boolean =>
  value instanceof Uint8Array ||
  (typeof Blob !== 'undefined' && value instanceof Blob) ||
  (typeof value === 'object' && value !== null && 'bytes' in value);

/** Binary parts stand in as a string while the fields of a multipart body are checked against the schema. */
function validatableBody(info: OperationInfo, body: unknown): unknown {
  if (info.requestBody?.mediaType !== 'multipart/form-data' || typeof body !== 'object' || body === null) return body;
  return Object.fromEntries(Object.entries(body).map(([name, value]) => [name, isFilePart(value) ? '(binary)' : value]));
}

/** The schema issues of a request's arguments: parameters by location (required headers included), then the body. */
export function validateRequest(
  info: OperationInfo,
  validators: OperationValidatorSet,
  args: CallArgs,
  patterns: Readonly<Record<string, string>> = {},
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const location of parameterLocations) {
    const validator = validators.parameters[location];
    const given = args[location];
    if (validator) issues.push(...check(validator, given ?? {}, `/${location}`, patterns));
    // Headers stay open: a request carries many the operation does not declare.
    else if (given && Object.keys(given).length > 0 && location !== 'header') {
      issues.push({
        pointer: `/${location}`,
        rule: 'additionalProperties',
        message: `this operation takes no ${location} parameters: leave them out`,
      });
    }
  }
  if (validators.body) {
    if (args.body !== undefined) issues.push(...check(validators.body, validatableBody(info, args.body), '/body', patterns));
    else if (info.requestBody?.required) issues.push({ pointer: '/body', rule: 'required', message: 'is required: send the request body' });
  } else if (args.body !== undefined) {
    issues.push({ pointer: '/body', rule: 'additionalProperties', message: 'this operation takes no body: leave it out' });
  }
  return issues;
}

/** Every issue of a request: its schemas first, then (once they pass) the rules across fields or against `now`. */
export function requestIssues(info: OperationInfo, checks: OperationChecks, args: CallArgs, now: Date): ValidationIssue[] {
  const schemaIssues = validateRequest(info, checks.validators, args, checks.patterns);
  if (schemaIssues.length > 0) return schemaIssues;
  return runCrossFieldChecks(checks.crossField, args, { now });
}

/** An answer as the judge sees it: its status and parsed body. */
export interface JudgedAnswer {
  readonly status: number | string;
  readonly body: unknown;
}

export interface AnswerCheckOptions {
  /** The body's validator: the tolerant generated one (clients), or a strict one (platform checks). */
  readonly validator?: CompiledValidator | null | undefined;
  readonly patterns?: Readonly<Record<string, string>>;
  /** The address the request went to: `{base_url}` of a problem type is compared with it when known. */
  readonly baseUrl?: string | undefined;
}

/** Every issue of an answer: its status declared, its body, and when it is a problem, its status and type. */
export function answerIssues(info: OperationInfo, answer: JudgedAnswer, options: AnswerCheckOptions = {}): ValidationIssue[] {
  const status = String(answer.status);
  if (!info.responseStatuses.includes(status) && !info.responseStatuses.includes('default'))
    return [
      {
        pointer: '',
        rule: 'status',
        message: `status ${status} is not in the contract of ${info.operationId} (${info.responseStatuses.join(', ')})`,
      },
    ];
  const issues = options.validator ? check(options.validator, answer.body, '', options.patterns) : [];
  return [...issues, ...problemIssues(info, status, answer.body, options.baseUrl)];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const typeMarker = '{errorType}';

/**
 * The error type of `type` when it has `shape` (`{base_url}/errors/{errorType}`: `{base_url}` is the
 * address when known, any absolute URI otherwise), undefined when it has not. Read by position rather than
 * by a pattern built from the shape, so a hostile answer cannot make the check backtrack.
 */
function shapedErrorType(shape: string, type: string, baseUrl: string | undefined): string | undefined {
  if (!shape.endsWith(typeMarker)) return type.split('/').pop();
  const head = shape.slice(0, -typeMarker.length);
  const close = head.indexOf('}');
  const placeholder = head.slice(0, close + 1);
  const literal = head.slice(close + 1);
  const slash = type.lastIndexOf('/');
  const errorType = type.slice(slash + 1);
  const prefix = type.slice(0, slash + 1);
  if (errorType === '' || /[#?]/.test(errorType) || !prefix.endsWith(literal)) return undefined;
  const base = prefix.slice(0, prefix.length - literal.length);
  if (placeholder === '{base_url}' && baseUrl !== undefined) return base === withoutTrailingSlashes(baseUrl) ? errorType : undefined;
  return /^[a-z][a-z0-9+.-]*:\S+$/i.test(base) ? errorType : undefined;
}

/**
 * The issues of a problem body answered with `status` (none when it is not an error answer): `status`
 * repeats the HTTP status (RFC 9457); `type` has the shape of section 7 (`x-problem-type`) and names an
 * error type the operation declares for that status.
 */
export function problemIssues(
  info: Pick<OperationInfo, 'operationId' | 'problemTypes'>,
  status: string,
  body: unknown,
  baseUrl?: string,
): ValidationIssue[] {
  // Only an error answer is a problem: a success body may have a `status` of its own (OnboardingCreated's 1).
  if (!isObject(body) || !/^[45]\d\d$/.test(status)) return [];
  const issues: ValidationIssue[] = [];
  if (typeof body.status === 'number' && body.status !== Number(status)) {
    issues.push({
      pointer: '/status',
      rule: 'status-equals-http-status',
      message: `is ${body.status}, but the answer's HTTP status is ${status}: a problem's status repeats the HTTP status (RFC 9457)`,
      value: body.status,
    });
  }
  const { shape, byStatus } = info.problemTypes;
  const declared = byStatus[status] ?? [];
  if (typeof body.type !== 'string') return issues;
  let type = errorTypeOf(body.type);
  // A status the operation declares no error type for (an OAuth 401 of a token endpoint) has nothing
  // to hold its type against: RFC 9457's about:blank is as good as any there.
  if (shape !== null && declared.length > 0) {
    const shaped = shapedErrorType(shape, body.type, baseUrl);
    if (shaped === undefined) {
      const where = baseUrl === undefined ? shape : shape.replace('{base_url}', withoutTrailingSlashes(baseUrl));
      issues.push({
        pointer: '/type',
        rule: 'problem-type-shape',
        message: `must have the shape ${where} (section 7), with an error type of ${declared.join(', ')}`,
        value: body.type,
      });
      return issues;
    }
    type = shaped;
  }
  if (declared.length > 0 && type !== undefined && !declared.includes(type)) {
    issues.push({
      pointer: '/type',
      rule: 'declared-error-type',
      message: `names the error type ${type}, which ${info.operationId} does not answer with ${status}; it declares ${declared.join(', ')} for ${status}`,
      value: body.type,
    });
  }
  return issues;
}

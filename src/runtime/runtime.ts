/**
 * The engine behind every generated facade: runs a call through the pipeline of steps (steps/index.ts)
 * and turns how it ended into a result or a typed error. It names no interface: what differs between
 * interfaces comes from the operation table (generated from the spec) and from the steps a definition adds.
 */
import { ContratoCallPromise, type Answered } from './call-promise.js';
import type { CallOptions, FacadeRuntime, OperationInfo } from './contract.js';
import type { CrossFieldChecks } from './cross-field.js';
import {
  ConfigurationError,
  type CallContext,
  ContratoError,
  HttpError,
  isProblem,
  notRetriedWords,
  type ProblemDetails,
  ProblemError,
  RateLimitError,
  ResponseValidationError,
  type ValidationIssue,
  withCallContext,
} from './errors.js';
import type { IdempotencyJournal } from './journal.js';
import { type Logger, redact } from './logging.js';
import {
  type Answer,
  type CallArgs,
  compose,
  contextOf,
  type OperationChecks,
  type OperationValidatorSet,
  type Outcome,
  type Step,
  type CallState,
} from './pipeline.js';
import { nextPosition } from './paging.js';
import { defaultSleep, type RequestLimiter } from './rate-limiter.js';
import { type RetryPolicy, retryableStatuses, retryAfterMs } from './retry.js';
import { type ClientCredentials, defaultSteps } from './steps/index.js';
import type { TokenCache } from './token-cache.js';
import type { Send } from './transport.js';
import { answerIssues } from './contract-check.js';
import type { Middleware } from './middleware.js';
import { type CallEnding, type ClientTelemetry, noTelemetry } from './telemetry.js';

/** `off`: read responses as they come; `warn`: log contract breaks; `strict`: throw on them. All three accept section 9.3 additions. */
export type ResponseValidation = 'off' | 'warn' | 'strict';

/** The checks of a document's operations: validators, the words of its patterns, its cross-field rules. */
export interface DocumentChecks {
  readonly validators: Readonly<Record<string, OperationValidatorSet>>;
  readonly patternDescriptions: Readonly<Record<string, string>>;
  readonly crossFieldChecks?: CrossFieldChecks;
}

export interface RuntimeOptions {
  readonly baseUrl: string;
  readonly operations: Readonly<Record<string, OperationInfo>>;
  /**
   * The checks, or a loader called with the first call: the generated validator modules are large, and
   * importing a client should not pay for parsing them (npm run bench).
   */
  readonly checks: DocumentChecks | (() => Promise<DocumentChecks>);
  readonly send: Send;
  /** Absent for documents without a token (payload locations). */
  readonly tokens?: TokenCache;
  /** The client's id and secret, sent on operations secured with HTTP Basic. */
  readonly credentials?: ClientCredentials;
  readonly responseValidation?: ResponseValidation;
  readonly retry?: Partial<RetryPolicy>;
  /** Time limit of each attempt (default 30 s). */
  readonly timeoutMs?: number;
  readonly rateLimiter?: RequestLimiter;
  /** The journal of keyed calls and the scope (the interface) its entries are written under. */
  readonly journal?: { readonly journal: IdempotencyJournal; readonly scope: string };
  readonly logger?: Logger;
  /** Mask CPF/CNPJ in logs and in what errors carry (default true). */
  readonly maskDocuments?: boolean;
  /** Values to scrub from logs and errors wherever they appear (client secret, current token). */
  readonly secrets?: () => readonly string[];
  /** The present instant for date rules and Retry-After dates (tests inject it). */
  readonly now?: () => Date;
  readonly random?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The caller's hooks on every attempt (the client option `middleware`). */
  readonly middleware?: readonly Middleware[];
  /** Spans and metrics of the calls (the client's, over the OpenTelemetry API when there is one). */
  readonly telemetry?: ClientTelemetry;
  /** The steps of a call, from the default list: an interface adds its own here. */
  readonly steps?: (defaults: readonly Step[]) => readonly Step[];
}

const correlationHeaders = ['x-correlation-id', 'correlation-id', 'x-request-id', 'request-id'];

function correlationIdOf(answer: Answer): string | undefined {
  for (const name of correlationHeaders) {
    const value = answer.headers.get(name);
    if (value) return value;
  }
  return isProblem(answer.body) && typeof answer.body.correlationId === 'string' ? answer.body.correlationId : undefined;
}

/** Methods whose repetition changes nothing (RFC 9110): an unknown outcome of theirs is harmless. */
const safeMethods = new Set(['get', 'head', 'options']);

export function createRuntime(options: RuntimeOptions): FacadeRuntime {
  const clock = (): number => options.now?.().getTime() ?? Date.now();
  const redaction = () => ({ maskDocuments: options.maskDocuments ?? true, secrets: options.secrets?.() ?? [] });
  /** Known secret values scrubbed, and documents masked, in what an error or a log carries. */
  const scrub = <T>(value: T): T => redact(value, redaction()) as T;
  const log =
    (level: 'debug' | 'info' | 'warn' | 'error', event: string) =>
    (operationId: string, data: Record<string, unknown>): void => {
      options.logger?.({ level, event, operationId, data: scrub(data) });
    };

  const defaults = defaultSteps({
    scrub,
    now: () => options.now?.() ?? new Date(),
    retry: {
      ...(options.retry ? { policy: options.retry } : {}),
      clock,
      random: options.random ?? Math.random,
      sleep: options.sleep ?? defaultSleep,
      onRetry: log('warn', 'retry'),
    },
    auth: {
      tokens: options.tokens,
      credentials: options.credentials,
      onRenewal: (id) => log('info', 'token')(id, { renewedAfter401: true }),
    },
    rateLimiter: options.rateLimiter,
    ...(options.journal ? { journal: { ...options.journal, scrub, onSettleFailure: log('warn', 'journal') } } : {}),
    timeoutMs: options.timeoutMs,
    send: {
      baseUrl: options.baseUrl,
      send: options.send,
      // Without a logger the send step builds no record of each request and answer.
      ...(options.logger ? { onRequest: log('debug', 'request'), onAnswer: log('info', 'response') } : {}),
      scrub: (text) => scrub(text),
      ...(options.middleware?.length ? { middleware: options.middleware } : {}),
    },
  });
  const run = compose(options.steps ? options.steps(defaults) : defaults);

  let loaded: DocumentChecks | undefined = typeof options.checks === 'function' ? undefined : options.checks;
  let loading: Promise<DocumentChecks> | undefined;
  const checksReady = (): DocumentChecks | Promise<DocumentChecks> => {
    if (loaded) return loaded;
    const load = options.checks as () => Promise<DocumentChecks>;
    loading ??= load().then((checks) => (loaded = checks));
    return loading;
  };

  function infoOf(operationId: string): OperationInfo {
    const info = options.operations[operationId];
    if (!info) throw new ConfigurationError(`unknown operation ${operationId}`);
    return info;
  }

  function checksIn(checks: DocumentChecks, operationId: string): OperationChecks {
    const validators = checks.validators[operationId];
    if (!validators) throw new ConfigurationError(`unknown operation ${operationId}`);
    return { validators, patterns: checks.patternDescriptions, crossField: checks.crossFieldChecks?.[operationId] };
  }

  /** The checks of an operation: at once when the document's are loaded, else once they are. */
  function checksOf(operationId: string): OperationChecks | Promise<OperationChecks> {
    const ready = checksReady();
    return ready instanceof Promise ? ready.then((checks) => checksIn(checks, operationId)) : checksIn(ready, operationId);
  }

  const scrubIssues = (issues: readonly ValidationIssue[]): ValidationIssue[] =>
    issues.map((issue) => ({
      ...issue,
      message: scrub(issue.message),
      ...(issue.value === undefined ? {} : { value: scrub(issue.value) }),
    }));

  function checkResponse(info: OperationInfo, checks: OperationChecks, answer: Answer, context: CallContext): void {
    const mode = options.responseValidation ?? 'off';
    if (mode === 'off') return;
    const { responses } = checks.validators;
    // The problem type's `{base_url}` is judged by its shape only: a client behind a gateway or a mock sees
    // another address than the one the platform writes into its types.
    const issues = answerIssues(info, answer, {
      validator: responses[String(answer.status)] ?? responses.default,
      patterns: checks.patterns,
    });
    if (issues.length === 0) return;
    if (mode === 'strict') throw new ResponseValidationError(info.operationId, answer.status, scrubIssues(issues), context);
    log('warn', 'response-contract')(info.operationId, { status: answer.status, issues });
  }

  function errorOf(answer: Answer, context: CallContext): ContratoError {
    const body = scrub(answer.body);
    if (answer.status === 429) {
      const wait = retryAfterMs(answer.headers.get('retry-after'), clock());
      // Any JSON object: interface C's refusals are no RFC 7807 problem, and their reason belongs in the message too.
      const reasons = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as ProblemDetails) : {};
      return new RateLimitError(reasons, wait === undefined ? undefined : Math.ceil(wait / 1000), context);
    }
    if (isProblem(body)) return new ProblemError(answer.status, body, context);
    return new HttpError(answer.status, body, context);
  }

  /**
   * The error that ends the call, with the call's attempts and why it was not tried again, saying whether
   * the operation may have run and what to do about it.
   */
  function ending(info: OperationInfo, state: CallState, error: ContratoError, maybeExecuted: boolean): ContratoError {
    const { notRetried } = state;
    const context: CallContext = { attempts: state.attempts, ...(notRetried ? { notRetried } : {}) };
    const doubtful =
      maybeExecuted && !safeMethods.has(info.method) && !(error instanceof HttpError && !retryableStatuses.has(error.status));
    const sentences: string[] = [];
    if (doubtful) {
      sentences.push(
        state.idempotencyKey
          ? `the outcome is unknown: the operation may have been executed; call again with idempotency key ${state.idempotencyKey} to get its result without executing it twice`
          : 'the outcome is unknown: the operation may have been executed, and it was not retried because it carries no idempotency key; check its effect before calling it again',
      );
    }
    // The advice above already says why a call without a key was not repeated.
    const saidAlready = doubtful && !state.idempotencyKey && notRetried?.reason === 'non-idempotent-without-key';
    if (notRetried && !saidAlready) sentences.push(notRetriedWords(notRetried, state.attempts));
    return withCallContext(error, { ...context, ...(doubtful ? { outcomeUnknown: true } : {}) }, sentences.join('; ') || undefined);
  }

  function settle(
    info: OperationInfo,
    checks: OperationChecks,
    state: CallState,
    outcome: Outcome,
    callOptions: CallOptions | undefined,
  ): Answered<unknown> {
    const maybeExecuted = state.maybeExecuted || (outcome.kind === 'failure' && outcome.maybeExecuted);
    if (outcome.kind === 'failure') throw ending(info, state, outcome.error, maybeExecuted);
    const { answer } = outcome;
    const correlationId = correlationIdOf(answer);
    const context: CallContext = { ...contextOf({ info, state }), ...(correlationId ? { correlationId } : {}) };
    if (answer.status < 200 || answer.status >= 300) {
      checkResponse(info, checks, answer, context);
      throw ending(info, state, errorOf(answer, context), maybeExecuted);
    }
    const data = answer.status === 204 ? undefined : answer.body;
    const fromJournal = state.fromJournal === true;
    // A result replayed from the journal was checked when it came, and is never repeated in a log or an error.
    if (!fromJournal) checkResponse(info, checks, { ...answer, body: data }, context);
    callOptions?.onResponse?.({ status: answer.status, headers: answer.headers });
    const { attempts, idempotencyKey } = state;
    return { data, response: { status: answer.status, headers: answer.headers, idempotencyKey, attempts, correlationId, fromJournal } };
  }

  async function call(operationId: string, args: object, callOptions?: CallOptions): Promise<Answered<unknown>> {
    const info = infoOf(operationId);
    if (callOptions?.reference !== undefined && !options.journal)
      throw new ConfigurationError(`${operationId}: a reference needs the client option journal, where it is kept`, { operationId });
    const found = checksOf(operationId);
    const checks = found instanceof Promise ? await found : found;
    const telemetry = (options.telemetry ?? noTelemetry).call(info);
    const state: CallState = { attempts: 0, idempotencyKey: undefined, maybeExecuted: false, telemetry };
    const ending = (status: number | undefined, error: unknown): CallEnding => ({
      status,
      error,
      attempts: state.attempts,
      idempotencyKeySent: state.idempotencyKey !== undefined,
      outcomeUnknown: error instanceof ContratoError && error.outcomeUnknown,
      notRetried: state.notRetried?.reason,
      fromJournal: state.fromJournal === true,
    });
    try {
      const outcome = await run({
        info,
        args: args as CallArgs,
        options: callOptions,
        checks,
        headers: {},
        signal: callOptions?.signal,
        state,
      });
      const answered = settle(info, checks, state, outcome, callOptions);
      telemetry.end(ending(answered.response.status, undefined));
      return answered;
    } catch (error) {
      telemetry.end(ending(error instanceof HttpError ? error.status : undefined, error));
      throw error;
    }
  }

  function invoke(operationId: string, args: object, callOptions?: CallOptions): ContratoCallPromise<unknown> {
    return new ContratoCallPromise(call(operationId, args, callOptions));
  }

  async function* pages(operationId: string, rawArgs: object, callOptions?: CallOptions): AsyncGenerator<unknown> {
    const paging = infoOf(operationId).pagination;
    if (!paging) throw new ConfigurationError(`${operationId} is not a paginated operation`);
    const args = rawArgs as CallArgs;
    const query = args.query ?? {};
    // Bounded by the server: each page either ends the walk or moves the position forward.
    for (let position: number | null = Number(query[paging.position] ?? paging.firstPage); position !== null; ) {
      const page = await invoke(operationId, { ...args, query: { ...query, [paging.position]: position } }, callOptions);
      yield page;
      position = nextPosition(paging, page, position, Number(query[paging.size] ?? paging.defaultSize ?? 0));
    }
  }

  return { invoke, pages };
}

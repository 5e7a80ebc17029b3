/**
 * The interface-agnostic engine behind every generated facade. For one call it: validates the request
 * (schema, then cross-field rules), fixes the idempotency key, waits for the rate limiter, sends through
 * openapi-fetch with the bearer token and a timeout, renews the token once on 401, retries what may be
 * retried (never a non-idempotent call without a key), and turns the answer into a result or a typed error.
 */
import createClient from 'openapi-fetch';
import { randomUUID } from 'node:crypto';
import type { CallOptions, FacadeRuntime, OperationInfo } from './contract.js';
import { runCrossFieldChecks, type CrossFieldChecks } from './cross-field.js';
import {
  AuthError,
  ConfigurationError,
  ConnectionError,
  ContratoError,
  HttpError,
  ProblemError,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
  TimeoutError,
  basicCredentials,
  isProblem,
  withCallContext,
  type CallContext,
  type ProblemDetails,
  type ValidationIssue,
} from './errors.js';
import { ContratoCallPromise, type Answered } from './call-promise.js';
import { generateIdempotencyKey } from './idempotency.js';
import { redact, type Logger } from './logging.js';
import { defaultSleep, type RateLimiter } from './rate-limiter.js';
import { backoffMs, defaultRetryPolicy, mayRetry, retryableStatuses, retryAfterMs, type RetryPolicy } from './retry.js';
import type { TokenCache } from './token-cache.js';
import type { FetchLike } from './transport.js';
import { check, type CompiledValidator } from './validation.js';

export interface OperationValidatorSet {
  readonly body: CompiledValidator | null;
  readonly parameters: { readonly path?: CompiledValidator; readonly query?: CompiledValidator; readonly header?: CompiledValidator };
  readonly responses: Readonly<Record<string, CompiledValidator>>;
}

/** `off`: read responses as they come; `warn`: log contract breaks; `strict`: throw on them. All three accept section 9.3 additions. */
export type ResponseValidation = 'off' | 'warn' | 'strict';

export interface RuntimeOptions {
  readonly baseUrl: string;
  readonly operations: Readonly<Record<string, OperationInfo>>;
  /** The validators of each operation; or `loadValidators`, which loads them with the first call. */
  readonly validators?: Readonly<Record<string, OperationValidatorSet>>;
  /**
   * Loads the validators (and their pattern descriptions) when the first call needs them: the generated
   * validator modules are large, and importing a client should not pay for parsing them (npm run bench).
   */
  readonly loadValidators?: () => Promise<{
    readonly operations: Readonly<Record<string, OperationValidatorSet>>;
    readonly patternDescriptions: Readonly<Record<string, string>>;
  }>;
  readonly fetch: FetchLike;
  /** Absent for interfaces or calls without a bearer token. */
  readonly tokens?: TokenCache;
  /** Client id and secret for operations authenticated with HTTP Basic (the API Pix token request). */
  readonly basicCredentials?: { readonly clientId: string; readonly clientSecret: string };
  /** How a token is presented (default `Authorization: Bearer <token>`; interface C uses `svc-token`). */
  readonly tokenHeader?: (token: string) => readonly [name: string, value: string];
  readonly responseValidation?: ResponseValidation;
  /** Plain-words meaning of each pattern of the spec, for error messages. */
  readonly patternDescriptions?: Readonly<Record<string, string>>;
  /**
   * Adjusts the headers of a call before it is checked (interface A adds `x-account-id` for BaaS
   * credentials); may throw a ConfigurationError to stop a call that cannot be right.
   */
  readonly prepareHeaders?: (info: OperationInfo, header: Record<string, unknown> | undefined) => Record<string, unknown> | undefined;
  /** Rules across fields (or against today) by operationId, run once the schema passed. */
  readonly crossFieldChecks?: CrossFieldChecks;
  readonly retry?: Partial<RetryPolicy>;
  /** Time limit of each attempt (default 30 s). */
  readonly timeoutMs?: number;
  readonly rateLimiter?: RateLimiter;
  readonly logger?: Logger;
  /** Mask CPF/CNPJ in logs and in what errors carry (default true). */
  readonly maskDocuments?: boolean;
  /** Values to scrub from logs wherever they appear (client secret, current token). */
  readonly secrets?: () => readonly string[];
  /** The present instant for date rules (tests inject it). */
  readonly now?: () => Date;
  readonly random?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** What the client knows of the answer behind a result object. */
export interface ResponseMeta {
  readonly status: number;
  readonly idempotencyKey: string | undefined;
  readonly attempts: number;
  readonly correlationId: string | undefined;
}

const metaOfResults = new WeakMap<object, ResponseMeta>();

/** Status, idempotency key, attempts and correlation id of a result returned by a client call. */
export function responseMeta(result: unknown): ResponseMeta | undefined {
  return typeof result === 'object' && result !== null ? metaOfResults.get(result) : undefined;
}

interface CallArgs {
  readonly path?: Record<string, unknown>;
  readonly query?: Record<string, unknown>;
  readonly header?: Record<string, unknown>;
  readonly body?: unknown;
}

const parameterLocations = ['path', 'query', 'header'] as const;
const correlationHeaders = ['x-correlation-id', 'correlation-id', 'x-request-id', 'request-id'];

/** A multipart body from an object of fields: binary parts (Blob, bytes) as files, the rest as text. */
function multipartBody(body: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined) continue;
    if (value instanceof Blob) form.append(name, value, value instanceof File ? value.name : name);
    else if (value instanceof Uint8Array) form.append(name, new Blob([value]), name);
    else form.append(name, String(value));
  }
  return form;
}

/** Binary parts stand in as a string while the fields of a multipart body are checked against the schema. */
function validatableBody(info: OperationInfo, body: unknown): unknown {
  if (info.requestBody?.mediaType !== 'multipart/form-data' || typeof body !== 'object' || body === null) return body;
  return Object.fromEntries(
    Object.entries(body).map(([name, value]) => [name, value instanceof Blob || value instanceof Uint8Array ? '(binary)' : value]),
  );
}

/** Request header names are case-insensitive; use the spelling the spec declares. */
function canonicalHeaders(info: OperationInfo, header: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!header) return undefined;
  const declared = new Map(info.parameters.filter((p) => p.in === 'header').map((p) => [p.name.toLowerCase(), p.name]));
  return Object.fromEntries(Object.entries(header).map(([name, value]) => [declared.get(name.toLowerCase()) ?? name, value]));
}

export function validateRequest(
  info: OperationInfo,
  validators: OperationValidatorSet,
  args: CallArgs,
  patterns: Readonly<Record<string, string>> = {},
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const location of parameterLocations) {
    const validator = validators.parameters[location];
    if (validator) issues.push(...check(validator, args[location] ?? {}, `/${location}`, patterns));
    else if (args[location] && Object.keys(args[location]).length > 0 && location !== 'header') {
      issues.push({ pointer: `/${location}`, rule: 'additionalProperties', message: `takes no ${location} parameters` });
    }
  }
  if (validators.body) {
    if (args.body !== undefined) issues.push(...check(validators.body, validatableBody(info, args.body), '/body', patterns));
    else if (info.requestBody?.required) issues.push({ pointer: '/body', rule: 'required', message: 'is required (required)' });
  } else if (args.body !== undefined) {
    issues.push({ pointer: '/body', rule: 'additionalProperties', message: 'this operation takes no body' });
  }
  return issues;
}

function correlationIdOf(response: Response, body: unknown): string | undefined {
  for (const name of correlationHeaders) {
    const value = response.headers.get(name);
    if (value) return value;
  }
  return isProblem(body) && typeof body.correlationId === 'string' ? body.correlationId : undefined;
}

/** Node/undici failures that mean "no (complete) answer". */
function isConnectionFailure(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = String((current as { code?: unknown }).code ?? '');
    if (/^(ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|UND_ERR_)/.test(code)) return true;
    if (current.message === 'fetch failed' || current.message === 'terminated' || /other side closed/.test(current.message)) return true;
  }
  return false;
}

/** Failures in which the request cannot have left this machine: nothing was sent, so nothing was executed. */
function neverSent(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = String((current as { code?: unknown }).code ?? '');
    if (/^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_CONNECT_TIMEOUT)$/.test(code)) return true;
  }
  return false;
}

/** Methods whose repetition changes nothing (RFC 9110): an unknown outcome of theirs is harmless. */
const safeMethods = new Set(['get', 'head', 'options']);

type Attempt =
  | { readonly kind: 'answer'; readonly response: Response; readonly data: unknown; readonly error: unknown }
  | { readonly kind: 'failure'; readonly failure: ContratoError; readonly retryable: boolean; readonly maybeExecuted: boolean };

export function createRuntime(options: RuntimeOptions): FacadeRuntime {
  const http = createClient<Record<string, never>>({ baseUrl: options.baseUrl, fetch: options.fetch });
  const request = http.request as unknown as (
    method: string,
    path: string,
    init: object,
  ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  const policyOf = (callOptions?: CallOptions): RetryPolicy => ({
    ...defaultRetryPolicy,
    ...options.retry,
    ...(callOptions?.maxRetries !== undefined ? { maxRetries: callOptions.maxRetries } : {}),
  });
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  const clock = (): number => options.now?.().getTime() ?? Date.now();
  const log = (level: 'debug' | 'info' | 'warn' | 'error', event: string, operationId: string, data: Record<string, unknown>): void => {
    if (!options.logger) return;
    const safe = redact(data, { maskDocuments: options.maskDocuments ?? true, secrets: options.secrets?.() ?? [] }) as Record<
      string,
      unknown
    >;
    options.logger({ level, event, operationId, data: safe });
  };

  /** Known secret values (client secret, current token) scrubbed, and documents masked, in what an error carries. */
  const scrub = <T>(value: T): T =>
    redact(value, { maskDocuments: options.maskDocuments ?? true, secrets: options.secrets?.() ?? [] }) as T;
  const scrubIssues = (issues: readonly ValidationIssue[]): ValidationIssue[] =>
    issues.map((issue) => ({
      ...issue,
      message: scrub(issue.message),
      ...(issue.value === undefined ? {} : { value: scrub(issue.value) }),
    }));

  let checks: { validators: Readonly<Record<string, OperationValidatorSet>>; patterns: Readonly<Record<string, string>> } | undefined =
    options.validators ? { validators: options.validators, patterns: options.patternDescriptions ?? {} } : undefined;
  let loadingChecks: Promise<NonNullable<typeof checks>> | undefined;
  function checksReady(): Promise<NonNullable<typeof checks>> {
    if (checks) return Promise.resolve(checks);
    if (!options.loadValidators) throw new ConfigurationError('the runtime needs validators or loadValidators');
    loadingChecks ??= options
      .loadValidators()
      .then(
        (loaded) =>
          (checks = { validators: loaded.operations, patterns: { ...loaded.patternDescriptions, ...options.patternDescriptions } }),
      );
    return loadingChecks;
  }

  function infoOf(operationId: string): OperationInfo {
    const info = options.operations[operationId];
    if (!info) throw new ConfigurationError(`unknown operation ${operationId}`);
    return info;
  }

  async function operationOf(
    operationId: string,
  ): Promise<{ info: OperationInfo; validators: OperationValidatorSet; patterns: Readonly<Record<string, string>> }> {
    const info = infoOf(operationId);
    const { validators, patterns } = await checksReady();
    const set = validators[operationId];
    if (!set) throw new ConfigurationError(`unknown operation ${operationId}`);
    return { info, validators: set, patterns };
  }

  async function attempt(
    info: OperationInfo,
    args: CallArgs,
    callOptions: CallOptions | undefined,
    token: string | null,
    context: CallContext,
  ): Promise<Attempt> {
    const headers: Record<string, string> = { ...callOptions?.headers };
    if (token) {
      const [name, value] = options.tokenHeader?.(token) ?? ['Authorization', `Bearer ${token}`];
      headers[name] = value;
    } else if (info.basicAuth && options.basicCredentials && !Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) {
      const { clientId, clientSecret } = options.basicCredentials;
      headers.Authorization = `Basic ${basicCredentials(clientId, clientSecret)}`;
    }
    const timeoutMs = callOptions?.timeoutMs ?? options.timeoutMs ?? 30_000;
    // A timer cleared as soon as the answer is read (AbortSignal.timeout would keep one per call alive).
    const timeoutController = new AbortController();
    const timer = setTimeout(
      () => timeoutController.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')),
      timeoutMs,
    );
    const timeout = timeoutController.signal;
    const signal = callOptions?.signal ? AbortSignal.any([callOptions.signal, timeout]) : timeout;
    log('debug', 'request', info.operationId, {
      method: info.method.toUpperCase(),
      path: info.path,
      attempt: context.attempts,
      args,
      headers,
    });
    const started = performance.now();
    try {
      const mediaType = info.requestBody?.mediaType;
      const form = mediaType === 'application/x-www-form-urlencoded';
      const result = await request(info.method, info.path, {
        params: { path: args.path, query: args.query, header: args.header },
        body: args.body,
        headers: form ? { ...headers, 'content-type': 'application/x-www-form-urlencoded' } : headers,
        ...(form ? { bodySerializer: (body: Record<string, string>) => new URLSearchParams(body).toString() } : {}),
        // fetch writes the multipart boundary itself from the FormData.
        ...(mediaType === 'multipart/form-data' ? { bodySerializer: multipartBody } : {}),
        // A payload location answers with a compact JWS, not JSON.
        ...(info.jwsPayload ? { parseAs: 'text' } : {}),
        signal,
      });
      log('info', 'response', info.operationId, {
        status: result.response.status,
        ms: Math.round(performance.now() - started),
        attempt: context.attempts,
      });
      return { kind: 'answer', response: result.response, data: result.data, error: result.error };
    } catch (error) {
      if (callOptions?.signal?.aborted) throw callOptions.signal.reason;
      // The transport's TLS verdicts come from the TLS layer itself (an alert, a verify error): nothing was executed.
      if (error instanceof AuthError)
        return { kind: 'failure', failure: withCallContext(error, context), retryable: false, maybeExecuted: false };
      if (error instanceof SyntaxError) {
        // V8's message quotes the start of the body, which may hold a document or an echoed secret: not repeated.
        const issue = { pointer: '', rule: 'json', message: 'the response body is not valid JSON' };
        return {
          kind: 'failure',
          failure: new ResponseValidationError(info.operationId, 200, scrubIssues([issue]), context),
          retryable: false,
          maybeExecuted: true,
        };
      }
      // What happened decides the class, not the timer: a reset seen while the timer also ran out is a reset.
      if (isConnectionFailure(error)) {
        const failure = new ConnectionError(`${info.operationId}: the connection failed before a complete answer`, context, {
          cause: error,
        });
        return { kind: 'failure', failure, retryable: true, maybeExecuted: !neverSent(error) };
      }
      if (timeout.aborted) {
        return {
          kind: 'failure',
          failure: new TimeoutError(`${info.operationId}: no answer within ${timeoutMs} ms`, context, { cause: error }),
          retryable: true,
          maybeExecuted: true,
        };
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  function checkResponse(
    info: OperationInfo,
    validators: OperationValidatorSet,
    status: number,
    body: unknown,
    context: CallContext,
  ): void {
    const mode = options.responseValidation ?? 'off';
    if (mode === 'off') return;
    const known = info.responseStatuses.includes(String(status)) || info.responseStatuses.includes('default');
    const validator = validators.responses[String(status)] ?? validators.responses.default;
    const issues: ValidationIssue[] = known
      ? validator
        ? check(validator, body, '', checks?.patterns ?? options.patternDescriptions)
        : []
      : [{ pointer: '', rule: 'status', message: `status ${status} is not in the contract (${info.responseStatuses.join(', ')})` }];
    if (issues.length === 0) return;
    if (mode === 'strict') throw new ResponseValidationError(info.operationId, status, scrubIssues(issues), context);
    log('warn', 'response-contract', info.operationId, { status, issues });
  }

  function errorOf(info: OperationInfo, response: Response, body: unknown, context: CallContext): ContratoError {
    const { status } = response;
    if (status === 429) {
      const wait = retryAfterMs(response.headers.get('retry-after'), clock());
      return new RateLimitError(isProblem(body) ? body : {}, wait === undefined ? undefined : Math.ceil(wait / 1000), context);
    }
    if (isProblem(body)) return new ProblemError(status, body, context);
    return new HttpError(status, body, context);
  }

  function invoke(operationId: string, rawArgs: object, callOptions?: CallOptions): ContratoCallPromise<unknown> {
    return new ContratoCallPromise(call(operationId, rawArgs, callOptions));
  }

  async function call(operationId: string, rawArgs: object, callOptions?: CallOptions): Promise<Answered<unknown>> {
    const { info, validators, patterns } = await operationOf(operationId);
    const given = rawArgs as CallArgs;
    const canonical = canonicalHeaders(info, given.header);
    const header = options.prepareHeaders ? options.prepareHeaders(info, canonical) : canonical;
    let args: CallArgs = { ...given, ...(header ? { header } : {}) };
    let idempotencyKey: string | undefined;
    if (info.idempotencyKeyRule) {
      // One key per logical call, reused by every retry: the server executes the call at most once.
      const name = info.idempotencyKeyRule.header;
      const existing = args.header?.[name];
      idempotencyKey =
        typeof existing === 'string' ? existing : (callOptions?.idempotencyKey ?? generateIdempotencyKey(info.idempotencyKeyRule));
      args = { ...args, header: { ...args.header, [name]: idempotencyKey } };
    } else if (info.idempotencyBodyField && typeof args.body === 'object' && args.body !== null) {
      // The key travels in the body (interface C's RequestId, a UUID): the same body on every retry.
      const field = info.idempotencyBodyField;
      const existing = (args.body as Record<string, unknown>)[field];
      idempotencyKey = typeof existing === 'string' ? existing : (callOptions?.idempotencyKey ?? randomUUID());
      args = { ...args, body: { ...(args.body as Record<string, unknown>), [field]: idempotencyKey } };
    }
    const unsent: CallContext = { operationId, attempts: 0, ...(idempotencyKey ? { idempotencyKey } : {}) };
    const schemaIssues = validateRequest(info, validators, args, patterns);
    if (schemaIssues.length > 0) throw withCallContext(new RequestValidationError(operationId, scrubIssues(schemaIssues)), unsent);
    const ruleIssues = runCrossFieldChecks(options.crossFieldChecks?.[operationId], args, { now: options.now?.() ?? new Date() });
    if (ruleIssues.length > 0) throw withCallContext(new RequestValidationError(operationId, scrubIssues(ruleIssues)), unsent);

    const policy = policyOf(callOptions);
    const repeatable = mayRetry(info.method, idempotencyKey !== undefined);
    const deadline = clock() + policy.deadlineMs;
    const tokens = info.secured ? options.tokens : undefined;
    let attempts = 0;
    let retries = 0;
    let renewedToken = false;
    // Whether any attempt may have been executed by the server without an answer saying so.
    let maybeExecuted = false;
    /** The error that ends the call, saying whether the operation may have run and what to do about it. */
    const ending = (error: ContratoError): ContratoError => {
      const doubtful =
        maybeExecuted && !safeMethods.has(info.method) && !(error instanceof HttpError && !retryableStatuses.has(error.status));
      if (!doubtful) return error;
      const advice = idempotencyKey
        ? `the outcome is unknown: the operation may have been executed; call again with idempotency key ${idempotencyKey} to get its result without executing it twice`
        : 'the outcome is unknown: the operation may have been executed, and it was not retried because it carries no idempotency key; check its effect before calling it again';
      return withCallContext(error, { outcomeUnknown: true }, advice);
    };
    for (;;) {
      await options.rateLimiter?.acquire(callOptions?.signal);
      attempts += 1;
      const context: CallContext = { operationId, attempts, ...(idempotencyKey ? { idempotencyKey } : {}) };
      let token: string | null = null;
      let outcome: Attempt;
      try {
        token = tokens ? await tokens.get() : null;
        outcome = await attempt(info, args, callOptions, token, context);
      } catch (error) {
        // The token request failed: the call itself was not sent, so it may be tried again whatever its method.
        if (!(error instanceof ContratoError)) throw error;
        const transient = error instanceof ConnectionError || (error instanceof HttpError && retryableStatuses.has(error.status));
        if (!transient || retries >= policy.maxRetries) throw ending(withCallContext(error, context));
        retries += 1;
        await sleep(backoffMs(retries - 1, policy, random), callOptions?.signal);
        continue;
      }

      let waitMs: number | undefined;
      let final: ContratoError | undefined;
      if (outcome.kind === 'failure') {
        final = outcome.failure;
        if (outcome.maybeExecuted) maybeExecuted = true;
        if (outcome.retryable && repeatable) waitMs = backoffMs(retries, policy, random);
      } else {
        const { response } = outcome;
        const correlationId = correlationIdOf(response, outcome.error);
        const answered: CallContext = { ...context, ...(correlationId ? { correlationId } : {}) };
        if (response.ok) {
          const data = response.status === 204 ? undefined : outcome.data;
          checkResponse(info, validators, response.status, data, answered);
          callOptions?.onResponse?.({ status: response.status, headers: response.headers });
          if (typeof data === 'object' && data !== null) {
            metaOfResults.set(data, { status: response.status, idempotencyKey, attempts, correlationId });
          }
          return { data, response: { status: response.status, headers: response.headers, idempotencyKey, attempts, correlationId } };
        }
        if (response.status === 401 && token && tokens && !renewedToken) {
          // Revoked or expired early: renew once and try once more (section 7.1); not counted as a retry.
          renewedToken = true;
          tokens.invalidate(token);
          log('info', 'token', operationId, { renewedAfter401: true });
          continue;
        }
        checkResponse(info, validators, response.status, outcome.error, answered);
        final = errorOf(info, response, scrub(outcome.error), answered);
        if (retryableStatuses.has(response.status) && repeatable) {
          const asked =
            response.status === 429 || response.status === 503 ? retryAfterMs(response.headers.get('retry-after'), clock()) : undefined;
          waitMs = asked === undefined ? backoffMs(retries, policy, random) : asked <= policy.maxRetryAfterMs ? asked : undefined;
        }
      }
      if (waitMs === undefined || retries >= policy.maxRetries || clock() + waitMs > deadline) throw ending(final);
      retries += 1;
      log('warn', 'retry', operationId, { attempt: attempts, waitMs, reason: final.message, idempotencyKey });
      await sleep(waitMs, callOptions?.signal);
    }
  }

  async function* pages(operationId: string, rawArgs: object, callOptions?: CallOptions): AsyncGenerator<unknown> {
    const info = infoOf(operationId);
    const paging = info.pagination;
    if (!paging) throw new ConfigurationError(`${operationId} is not a paginated operation`);
    const args = rawArgs as CallArgs;
    let position = Number(args.query?.[paging.page] ?? paging.firstPage);
    const size = Number(args.query?.[paging.size] ?? paging.defaultSize ?? 0);
    for (;;) {
      const result = (await invoke(operationId, { ...args, query: { ...args.query, [paging.page]: position } }, callOptions)) as
        | Record<string, unknown>
        | undefined;
      yield result;
      const items = result?.[paging.items];
      const meta = (paging.meta.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], result) ??
        {}) as Record<string, unknown>;
      const received = Array.isArray(items) ? items.length : 0;
      if (paging.kind === 'offset') {
        // Offset lists (total, limit, offset): the next page starts after the items received.
        if (!hasNextOffset(meta, position, size, received)) return;
        position += received;
      } else {
        if (!hasNextPage(meta, position - paging.firstPage + 1, size, received)) return;
        position += 1;
      }
    }
  }

  return { invoke, pages };
}

/**
 * Whether another page follows (`page` counted from 1), from whatever the page meta says: the number of
 * pages (API Pix), explicit next/last page numbers (invoices), a total (most lists), or else a full page.
 */
export function hasNextPage(meta: Record<string, unknown>, page: number, size: number, received: number): boolean {
  if (received === 0) return false;
  // API Pix: quantidadeDePaginas counts pages; `page` here is 1-based whatever the API's first page.
  if (typeof meta.quantidadeDePaginas === 'number') return page < meta.quantidadeDePaginas;
  if ('nextPage' in meta) return typeof meta.nextPage === 'number' && meta.nextPage > page;
  if (typeof meta.lastPage === 'number') return page < meta.lastPage;
  if (typeof meta.total === 'number' && size > 0) return page * size < meta.total;
  return size > 0 && received >= size;
}

/** Whether items follow the `received` ones that started at `offset`: by the total, or else a full page. */
export function hasNextOffset(meta: Record<string, unknown>, offset: number, size: number, received: number): boolean {
  if (received === 0) return false;
  if (typeof meta.total === 'number') return offset + received < meta.total;
  return size > 0 && received >= size;
}

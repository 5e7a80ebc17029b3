/**
 * The interface-agnostic engine behind every generated facade: validates the request with the
 * generated validators, adds the bearer token and the idempotency key, sends it through openapi-fetch,
 * and turns the answer into a typed result or a typed error.
 */
import { randomUUID } from 'node:crypto';
import createClient from 'openapi-fetch';
import type { CallOptions, FacadeRuntime, OperationInfo } from '../../generated/operation-types.js';
import {
  ConfigurationError,
  HttpError,
  ProblemError,
  RequestValidationError,
  ResponseValidationError,
  type ProblemDetails,
  type ValidationIssue,
} from './errors.js';
import { runCrossFieldChecks, type CrossFieldChecks } from '../rules/cross-field.js';
import type { TokenCache } from './token-cache.js';
import type { FetchLike } from './transport.js';
import { check, type CompiledValidator } from './validation.js';

export interface OperationValidatorSet {
  readonly body: CompiledValidator | null;
  readonly parameters: { readonly path?: CompiledValidator; readonly query?: CompiledValidator; readonly header?: CompiledValidator };
  readonly responses: Readonly<Record<string, CompiledValidator>>;
}

export interface RuntimeOptions {
  readonly baseUrl: string;
  readonly operations: Readonly<Record<string, OperationInfo>>;
  readonly validators: Readonly<Record<string, OperationValidatorSet>>;
  readonly fetch: FetchLike;
  /** Absent for interfaces or calls without a bearer token. */
  readonly tokens?: TokenCache;
  /** Check every response against the contract too (off by default: responses are read tolerantly). */
  readonly validateResponses?: boolean;
  /** Plain-words meaning of each pattern of the spec, for error messages. */
  readonly patternDescriptions?: Readonly<Record<string, string>>;
  /** Rules across fields (or against today) by operationId, run once the schema passed. */
  readonly crossFieldChecks?: CrossFieldChecks;
  /** The present instant for date rules (tests inject it). */
  readonly now?: () => Date;
}

interface CallArgs {
  readonly path?: Record<string, unknown>;
  readonly query?: Record<string, unknown>;
  readonly header?: Record<string, unknown>;
  readonly body?: unknown;
}

const parameterLocations = ['path', 'query', 'header'] as const;

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
    if (args.body !== undefined) issues.push(...check(validators.body, args.body, '/body', patterns));
    else if (info.requestBody?.required) issues.push({ pointer: '/body', rule: 'required', message: 'is required (required)' });
  } else if (args.body !== undefined) {
    issues.push({ pointer: '/body', rule: 'additionalProperties', message: 'this operation takes no body' });
  }
  return issues;
}

function isProblem(body: unknown): body is ProblemDetails {
  return typeof body === 'object' && body !== null && ('title' in body || 'type' in body || 'status' in body);
}

export function createRuntime(options: RuntimeOptions): FacadeRuntime {
  const http = createClient<Record<string, never>>({ baseUrl: options.baseUrl, fetch: options.fetch });

  function infoOf(operationId: string): { info: OperationInfo; validators: OperationValidatorSet } {
    const info = options.operations[operationId];
    const validators = options.validators[operationId];
    if (!info || !validators) throw new ConfigurationError(`unknown operation ${operationId}`);
    return { info, validators };
  }

  async function send(info: OperationInfo, args: CallArgs, callOptions: CallOptions | undefined, token: string | null) {
    const headers: Record<string, string> = { ...callOptions?.headers };
    if (token) headers.Authorization = `Bearer ${token}`;
    const init = {
      params: { path: args.path, query: args.query, header: args.header },
      body: args.body,
      headers,
      signal: callOptions?.signal,
    };
    // openapi-fetch's typed overloads need a concrete paths type; the facade already typed the call.
    const request = http.request as unknown as (method: string, path: string, init: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
    return request(info.method, info.path, init);
  }

  async function invoke(operationId: string, rawArgs: object, callOptions?: CallOptions): Promise<unknown> {
    const { info, validators } = infoOf(operationId);
    const given = rawArgs as CallArgs;
    const header = canonicalHeaders(info, given.header);
    let args: CallArgs = { ...given, ...(header ? { header } : {}) };
    if (info.idempotencyHeader && args.header?.[info.idempotencyHeader] === undefined) {
      // One key per logical call: a retry of this call (issue 4) reuses it, so nothing is done twice.
      args = { ...args, header: { ...args.header, [info.idempotencyHeader]: callOptions?.idempotencyKey ?? randomUUID() } };
    }
    const schemaIssues = validateRequest(info, validators, args, options.patternDescriptions);
    if (schemaIssues.length > 0) throw new RequestValidationError(operationId, schemaIssues);
    const ruleIssues = runCrossFieldChecks(options.crossFieldChecks?.[operationId], args, { now: options.now?.() ?? new Date() });
    if (ruleIssues.length > 0) throw new RequestValidationError(operationId, ruleIssues);

    const tokens = info.secured ? options.tokens : undefined;
    let token = tokens ? await tokens.get() : null;
    let result = await send(info, args, callOptions, token);
    if (result.response.status === 401 && tokens && token) {
      // The token was revoked or expired early: renew once and try once more (section 7.1: 401 retry after renewal).
      tokens.invalidate(token);
      token = await tokens.get();
      result = await send(info, args, callOptions, token);
    }
    const { response } = result;
    if (!response.ok) {
      const body = result.error;
      if (options.validateResponses) checkResponse(info, validators, response.status, body);
      if (isProblem(body)) throw new ProblemError(operationId, response.status, body);
      throw new HttpError(operationId, response.status, body);
    }
    const data = response.status === 204 ? undefined : result.data;
    if (options.validateResponses) checkResponse(info, validators, response.status, data);
    return data;
  }

  function checkResponse(info: OperationInfo, validators: OperationValidatorSet, status: number, body: unknown): void {
    const validator = validators.responses[String(status)] ?? validators.responses.default;
    if (!info.responseStatuses.includes(String(status)) && !info.responseStatuses.includes('default')) {
      throw new ResponseValidationError(info.operationId, status, [
        { pointer: '', rule: 'status', message: `status ${status} is not in the contract (${info.responseStatuses.join(', ')})` },
      ]);
    }
    if (!validator) return;
    const issues = check(validator, body, '', options.patternDescriptions);
    if (issues.length > 0) throw new ResponseValidationError(info.operationId, status, issues);
  }

  async function* pages(operationId: string, rawArgs: object, callOptions?: CallOptions): AsyncGenerator<unknown> {
    const { info } = infoOf(operationId);
    const paging = info.pagination;
    if (!paging) throw new ConfigurationError(`${operationId} is not a paginated operation`);
    const args = rawArgs as CallArgs;
    let page = Number(args.query?.[paging.page] ?? 1);
    const size = Number(args.query?.[paging.size] ?? paging.defaultSize ?? 0);
    for (;;) {
      const result = (await invoke(operationId, { ...args, query: { ...args.query, [paging.page]: page } }, callOptions)) as
        | { data?: unknown[]; meta?: Record<string, unknown> }
        | undefined;
      yield result;
      if (!hasNextPage(result?.meta ?? {}, page, size, result?.data?.length ?? 0)) return;
      page += 1;
    }
  }

  return { invoke, pages };
}

/**
 * Whether another page follows, from whatever the page meta says: explicit next/last page numbers
 * (invoices), a total (most lists), or else a full page.
 */
export function hasNextPage(meta: Record<string, unknown>, page: number, size: number, received: number): boolean {
  if (received === 0) return false;
  if ('nextPage' in meta) return typeof meta.nextPage === 'number' && meta.nextPage > page;
  if (typeof meta.lastPage === 'number') return page < meta.lastPage;
  if (typeof meta.total === 'number' && size > 0) return page * size < meta.total;
  return size > 0 && received >= size;
}

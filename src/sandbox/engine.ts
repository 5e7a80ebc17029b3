/**
 * The interface-agnostic part of the sandbox: one request in, one answer out. The request is matched to its
 * operation in the generated table, its token checked, its path, query, headers and body validated with
 * the generated validators and cross-field checks (the very ones the clients run), a fault applied when
 * one is planned, and the module's handler called. In `strict` mode every answer is checked against the
 * response schema with closed known values and unlisted members refused, and against the error types the
 * operation declares, and so is every refusal on the way (a planned fault, a token, a body too large, too
 * slow or unreadable, a route no operation has): a drift from the contract is reported, so the test suite
 * cannot miss it. The body is read only once the route, a planned fault and the token let the call through,
 * so a malformed one is refused with its operation's own 400.
 */
import { checkHttpAnswer, checkMatchedRequest, type ParsedBody } from '../checks/http-check.js';
import type { InterfaceModules } from '../checks/registry.js';
import { findOperation, type OperationMatch } from '../checks/router.js';
import { responseSchema, strictValidator } from '../checks/strict-response.js';
import type { OperationInfo } from '../runtime/contract.js';
import { problemIssues } from '../runtime/contract-check.js';
import type { ValidationIssue } from '../runtime/errors.js';
import type { CompiledValidator } from '../runtime/validation.js';
import {
  type Principal,
  type ProblemContext,
  type SandboxAnswer,
  type SandboxEnvironment,
  type SandboxModule,
  SandboxProblem,
  type SandboxRequest,
  type TokenIssuer,
} from './contract.js';
import type { Fault, FaultPlan } from './faults.js';
import { namedIssues } from './problem-details.js';

type Json = Record<string, unknown>;

/** A module with what the engine loaded for it: its generated modules and its bundle. */
export interface MountedModule {
  readonly module: SandboxModule<unknown>;
  readonly generated: InterfaceModules;
  readonly bundle: Json;
  /** The module's state (replaced on reset and snapshot load). */
  state: unknown;
  /** The environment its handlers get: the sandbox's, with tokens bound to this document. */
  readonly env: SandboxEnvironment;
}

/** The environment of one module: tokens it issues carry its document, and it accepts only those. */
export function moduleEnvironment(env: SandboxEnvironment, document: string): SandboxEnvironment {
  const tokens: TokenIssuer = {
    issue: (principal, ttlSeconds) => env.tokens.issue({ ...principal, audience: document }, ttlSeconds),
    verify: (token) => {
      const verified = env.tokens.verify(token);
      return typeof verified === 'object' && verified.audience !== document ? 'unknown' : verified;
    },
    checkCredential: (clientId, clientSecret) => env.tokens.checkCredential(clientId, clientSecret),
    scopesOf: (clientId) => env.tokens.scopesOf(clientId),
  };
  return {
    get clock() {
      return env.clock;
    },
    get random() {
      return env.random;
    },
    get webhooks() {
      return env.webhooks;
    },
    tokens,
    stateOf: (other) => env.stateOf(other),
    schedule: (task) => env.schedule(task),
    announce: (event) => env.announce(event),
  };
}

/** A body as the server read it: parsed or unreadable (ParsedBody), refused unread (413, 408), or the client went away. */
export type CallBody =
  | ParsedBody
  | { readonly refused: 'too-large' | 'timed-out'; readonly detail: string }
  | { readonly refused: 'aborted' };

/** An HTTP request as the server read it. */
export interface IncomingCall {
  readonly method: string;
  /** Path and query below the module's prefix (`/cob/abc?revisao=1`). */
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly baseUrl: string;
  /** Reads the body of `operation`'s request; called at most once, after the route, a planned fault and the token let the call through. */
  readonly readBody: (operation: OperationInfo) => Promise<CallBody>;
}

/** What the server does with an answer: send it, or drop the connection after processing (a planned fault). */
export interface EngineAnswer extends SandboxAnswer {
  readonly resetConnection?: boolean;
  readonly delayMs?: number;
  readonly operationId?: string;
  /** The answer of a fault planned through the control plane. */
  readonly injected?: boolean;
  /** The client went away before its body ended: there is no one to answer. */
  readonly abandoned?: boolean;
  /** The failure of the sandbox behind a 500, for its log. */
  readonly failure?: Error;
  /**
   * HTTP's answer to a request that is no request of the operation: a body not read whole (413, 408), or inputs
   * an operation that declares no 400 does not take (400). No operation declares these.
   */
  readonly outsideContract?: boolean;
}

/**
 * What HTTP answers to a request that is none of the contract's: a body not read (over the limit, RFC 9110
 * 15.5.14; not arrived in time, 15.5.9), inputs an operation without any does not take (400: the lint of
 * scripts/steps/contract-lint.ts makes every operation that takes inputs declare its 400), and a route no
 * operation has (404). An operation declares its answers to its own requests, so a status none declares is no
 * drift here, and the answer is judged as the interface's problem only: its `status` member, and its type where
 * the operation declares one.
 */
const answersOutsideContract = { request: new Set(['413', '408', '400']), unrouted: '404' };

export interface EngineOptions {
  readonly env: SandboxEnvironment;
  readonly faults: FaultPlan;
  readonly strict: boolean;
  /** Told of every drift from the contract found in strict mode (tests fail on any). */
  readonly onDrift: (drift: string) => void;
}

/** Header of an answer that refuses a request by the contract's checks, before any handler ran. */
export const contractRefusalHeader = 'x-contrato-refused-by-contract';

const strictCache = new WeakMap<Json, Map<string, CompiledValidator | null>>();

/** Drifts of an answer to `info` from the contract, judged as `contrato validate --strict --base-url` judges one. */
function strictCheck(mounted: MountedModule, info: OperationInfo, answer: SandboxAnswer, baseUrl: string): string[] {
  const status = String(answer.status);
  let cache = strictCache.get(mounted.bundle);
  if (!cache) {
    cache = new Map();
    strictCache.set(mounted.bundle, cache);
  }
  const key = `${info.operationId} ${status}`;
  if (!cache.has(key)) {
    const schema = info.responseStatuses.includes(status) ? responseSchema(mounted.bundle, info.method, info.path, status) : null;
    cache.set(key, schema === null ? null : strictValidator(mounted.bundle, schema));
  }
  // A body that is not JSON (a JWS) is the operation's text: only its status is judged.
  const textual = answer.contentType !== undefined && !/json/.test(answer.contentType);
  const issues = checkHttpAnswer(
    mounted.generated,
    info,
    { status, body: textual ? undefined : answer.body },
    { baseUrl, strictValidator: textual ? null : (cache.get(key) ?? null) },
  );
  return issues.map((issue) => `${info.operationId} ${status} ${issue.pointer || '/'}: ${issue.message}`);
}

/**
 * Drifts of the answer to a route no operation has. No operation's contract covers it, so it is judged as
 * an answer of each operation that declares its status: it must pass as one of them (the interface's own
 * problem, a type it declares for the status), and a status none declares is a drift.
 */
function strictCheckUnmatched(mounted: MountedModule, answer: SandboxAnswer, baseUrl: string): string[] {
  const status = String(answer.status);
  const operations: readonly OperationInfo[] = Object.values(mounted.generated.operationTable);
  let first: string[] | undefined;
  for (const info of operations.filter((candidate) => candidate.responseStatuses.includes(status))) {
    const drifts = strictCheck(mounted, info, answer, baseUrl);
    if (drifts.length === 0) return [];
    first ??= drifts.map((drift) => `(a route no operation has, judged as) ${drift}`);
  }
  if (first) return first;
  if (status === answersOutsideContract.unrouted) return problemIssues(noOperation, status, answer.body).map(driftLine('', status));
  return [`${mounted.module.document} ${status} /: no operation declares ${status}, the answer to a route no operation has`];
}

const driftLine =
  (operationId: string, status: string) =>
  (issue: ValidationIssue): string =>
    `${operationId ? `${operationId} ` : ''}${status} ${issue.pointer || '/'}: ${issue.message}`;

/** No operation's error types apply to a route no operation has: only the problem's `status` member is judged. */
const noOperation = { operationId: '', problemTypes: { shape: null, byStatus: {} } };

/** Drifts of HTTP's answer to a request that is none of the operation's, on an operation that does not declare it. */
function outsideContractDrifts(info: OperationInfo, answer: SandboxAnswer, baseUrl: string): string[] {
  const status = String(answer.status);
  if (!answersOutsideContract.request.has(status))
    return [
      `${info.operationId} ${status} /: status ${status} is not in the contract, nor HTTP's 413, 408 or 400 to a request not its own`,
    ];
  return problemIssues(info, status, answer.body, baseUrl).map(driftLine(info.operationId, status));
}

/** The token of a secured call: the scheme's header (`svc-token`) or `Authorization: Bearer`. */
function tokenOf(match: OperationMatch, headers: Readonly<Record<string, string>>): string | undefined {
  if (match.info.tokenHeader) return headers[match.info.tokenHeader.toLowerCase()];
  const authorization = headers.authorization;
  const bearer = authorization ? /^Bearer\s+(\S+)$/i.exec(authorization) : null;
  return bearer?.[1];
}

export class SandboxEngine {
  readonly #options: EngineOptions;

  constructor(options: EngineOptions) {
    this.#options = options;
  }

  async answer(mounted: MountedModule, call: IncomingCall): Promise<EngineAnswer> {
    const match = findOperation(mounted.generated, call.method, call.target);
    let answer: EngineAnswer;
    try {
      answer = await this.#respond(mounted, call, match);
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      this.#options.onDrift(`internal error: ${match?.info.operationId ?? call.target.split('?')[0]}: ${failure.message}`);
      answer = { ...this.#problem(mounted, match, call.baseUrl, 500, 'the sandbox failed on this request; its log says why'), failure };
    }
    // The 501 of an operation without a handler is the sandbox's own gap, not a drift of its answers; a client
    // that went away has no answer to judge. Everything else is judged, refusals and planned faults included.
    if (this.#options.strict && answer.status !== 501 && !answer.abandoned) {
      const drifts = !match
        ? strictCheckUnmatched(mounted, answer, call.baseUrl)
        : answer.outsideContract && !match.info.responseStatuses.includes(String(answer.status))
          ? outsideContractDrifts(match.info, answer, call.baseUrl)
          : strictCheck(mounted, match.info, answer, call.baseUrl);
      for (const drift of drifts) this.#options.onDrift(drift);
    }
    return answer;
  }

  /** A problem the engine raises itself (413, 408, 500): the type the operation declares for the status, else the module's. */
  #problem(mounted: MountedModule, match: OperationMatch | null, baseUrl: string, status: 413 | 408 | 500, detail: string): EngineAnswer {
    const { problems } = mounted.module;
    const fallback = { 413: problems.types.tooLarge, 408: problems.types.timedOut, 500: problems.types.internal }[status];
    const defaults = { 413: 'payload-too-large', 408: 'request-timeout', 500: 'internal-error' };
    const type = match?.info.problemTypes.byStatus[String(status)]?.[0] ?? fallback ?? defaults[status];
    const answer = problems.problem(new SandboxProblem(status, type, detail), this.#where(match, baseUrl));
    return { ...answer, ...(match ? { operationId: match.info.operationId } : {}), ...(status === 500 ? {} : { outsideContract: true }) };
  }

  /** Where a problem happened; the correlation id is drawn only when read, so a successful call leaves the seeded sequence alone. */
  #where(match: OperationMatch | null, baseUrl: string): ProblemContext & { operationId: string } {
    const { random } = this.#options.env;
    return {
      baseUrl,
      operationId: match?.info.operationId ?? '',
      get correlationId() {
        return random.uuid();
      },
    };
  }

  /**
   * A request the contract refuses. Where the operation declares no 400 but a 404 and only path values are
   * wrong, the answer is its 404: a value its pattern refuses names no resource, and the 404 says so in a
   * status the contract lists (GET /solicrec/{idSolicRec} declares no 400).
   */
  #refusal(
    mounted: MountedModule,
    info: OperationInfo,
    issues: readonly ValidationIssue[],
    request: ProblemContext & { operationId: string },
  ) {
    const { problems } = mounted.module;
    const declares = (status: string) => info.responseStatuses.includes(status);
    const pathOnly = issues.every((issue) => issue.pointer.startsWith('/path/'));
    const refusal =
      !declares('400') && declares('404') && pathOnly
        ? problems.problem(
            new SandboxProblem(
              404,
              problems.types.notFound,
              `no resource has this id (${namedIssues(issues)}): use an id the interface gave`,
              issues,
            ),
            request,
          )
        : problems.invalid(issues, request);
    // Inputs an operation that declares no 400 does not take (a body sent to DELETE /webhookrec): no request of its own.
    const untaken =
      refusal.status === 400 &&
      !declares('400') &&
      issues.every((issue) => issue.rule === 'additionalProperties' || (issue.pointer.startsWith('/body') && !info.requestBody));
    // Tells a refusal by the contract (the check every client runs first) from a rule of the module's state.
    return {
      ...refusal,
      headers: { ...refusal.headers, [contractRefusalHeader]: 'request' },
      operationId: info.operationId,
      ...(untaken ? { outsideContract: true } : {}),
    };
  }

  async #respond(mounted: MountedModule, call: IncomingCall, match: OperationMatch | null): Promise<EngineAnswer> {
    const { module, generated } = mounted;
    const where = this.#where(null, call.baseUrl);
    if (!match) {
      const path = call.target.split('?')[0];
      return module.problems.problem(
        new SandboxProblem(404, module.problems.types.notFound, `no operation of ${module.document} answers ${call.method} ${path}`),
        where,
      );
    }
    const { info } = match;
    const request = this.#where(match, call.baseUrl);
    const fault = this.#options.faults.take(info.operationId, (status) => info.responseStatuses.includes(status));
    const refused = this.#faultBefore(mounted, fault, request);
    if (refused) return refused;

    let principal: Principal | undefined;
    if (info.secured) {
      const token = tokenOf(match, call.headers);
      const verified = token ? mounted.env.tokens.verify(token) : 'unknown';
      if (verified === 'expired' || verified === 'unknown') {
        const detail = token
          ? `the token is ${verified === 'expired' ? 'expired' : 'not one the sandbox issued'}: ask for a new one`
          : 'no token: ask the token endpoint for one';
        const status = module.problems.unauthorizedStatus ?? 401;
        return {
          ...module.problems.problem(new SandboxProblem(status, module.problems.types.unauthorized, detail), request),
          operationId: info.operationId,
        };
      }
      const missing = info.scopes.filter((scope) => !verified.scopes.includes(scope));
      if (info.scopes.length > 0 && missing.length === info.scopes.length)
        return {
          ...module.problems.problem(
            new SandboxProblem(403, module.problems.types.forbidden, `the credential lacks the scope ${info.scopes.join(' or ')}`),
            request,
          ),
          operationId: info.operationId,
        };
      principal = verified;
    }

    const read = await call.readBody(info);
    if ('refused' in read) {
      if (read.refused === 'aborted') return { status: 0, abandoned: true, operationId: info.operationId };
      const status = read.refused === 'too-large' ? 413 : 408;
      return this.#problem(mounted, match, call.baseUrl, status, read.detail);
    }
    if ('issue' in read) return this.#refusal(mounted, info, [read.issue], request);
    const verdict = checkMatchedRequest(generated, match, { ...call, body: read.body }, this.#options.env.clock.now());
    if (verdict.issues.length > 0) return this.#refusal(mounted, info, verdict.issues, request);

    const handler = module.handlers[info.operationId];
    let answer: SandboxAnswer;
    if (!handler) {
      answer = module.problems.problem(
        new SandboxProblem(
          501,
          'not-implemented',
          `the sandbox does not implement ${info.operationId} yet; use contrato mock for its examples`,
        ),
        request,
      );
      return { ...answer, operationId: info.operationId };
    }
    const checked: SandboxRequest = {
      operationId: info.operationId,
      info,
      path: match.pathParameters,
      query: verdict.args.query,
      headers: call.headers,
      body: read.body,
      principal,
      baseUrl: call.baseUrl,
    };
    try {
      answer = await handler(checked, mounted.state, mounted.env);
    } catch (error) {
      if (!(error instanceof SandboxProblem)) throw error;
      answer = module.problems.problem(error, request);
    }
    return {
      ...answer,
      operationId: info.operationId,
      ...(fault?.kind === 'reset-after-processing' ? { resetConnection: true } : {}),
      ...(fault?.kind === 'slow' ? { delayMs: fault.delayMs ?? 0 } : {}),
    };
  }

  /** A fault that answers before anything is processed: 503 or 429, with Retry-After when planned. */
  #faultBefore(mounted: MountedModule, fault: Fault | undefined, request: ProblemContext & { operationId: string }): EngineAnswer | null {
    if (!fault || (fault.kind !== 'unavailable' && fault.kind !== 'rate-limited')) return null;
    const { problems } = mounted.module;
    const headers: Record<string, string> = fault.retryAfterSeconds === undefined ? {} : { 'retry-after': String(fault.retryAfterSeconds) };
    const problem =
      fault.kind === 'unavailable'
        ? new SandboxProblem(
            503,
            problems.types.unavailable,
            'unavailable (a fault injected through the sandbox control plane)',
            [],
            headers,
          )
        : new SandboxProblem(
            429,
            problems.types.tooManyRequests,
            'too many requests (a fault injected through the sandbox control plane)',
            [],
            headers,
          );
    const answer = problems.problem(problem, request);
    return { ...answer, headers: { ...answer.headers, ...headers }, operationId: request.operationId, injected: true };
  }
}

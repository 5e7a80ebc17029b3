/**
 * The interface-agnostic part of the sandbox: one request in, one answer out. The request is matched to its
 * operation in the generated table, its token checked, its path, query, headers and body validated with
 * the generated validators and cross-field checks (the very ones the clients run), a fault applied when
 * one is planned, and the module's handler called. In `strict` mode every answer is checked against the
 * response schema with closed known values and unlisted members refused, and against the error types the
 * operation declares: a drift from the contract becomes a 500 naming it, so the test suite cannot miss it.
 */
import { checkHttpAnswer, checkMatchedRequest } from '../checks/http-check.js';
import type { InterfaceModules } from '../checks/registry.js';
import { findOperation, type OperationMatch } from '../checks/router.js';
import { responseSchema, strictValidator } from '../checks/strict-response.js';
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
  };
}

/** An HTTP request as the server read it. */
export interface IncomingCall {
  readonly method: string;
  /** Path and query below the module's prefix (`/cob/abc?revisao=1`). */
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly baseUrl: string;
}

/** What the server does with an answer: send it, or drop the connection after processing (a planned fault). */
export interface EngineAnswer extends SandboxAnswer {
  readonly resetConnection?: boolean;
  readonly delayMs?: number;
  readonly operationId?: string;
  /** The answer of a fault planned through the control plane. */
  readonly injected?: boolean;
}

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

/** Drifts of an answer from the contract, judged as `contrato validate --strict --base-url` judges one. */
function strictCheck(mounted: MountedModule, match: OperationMatch, answer: SandboxAnswer, baseUrl: string): string[] {
  const { info } = match;
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
    const answer = await this.#respond(mounted, call, match);
    // The 501 of an operation without a handler is the sandbox's own gap, and an injected fault is wanted:
    // neither is a drift of its answers.
    if (this.#options.strict && match && answer.status !== 501 && !answer.injected)
      for (const drift of strictCheck(mounted, match, answer, call.baseUrl)) this.#options.onDrift(drift);
    return answer;
  }

  async #respond(mounted: MountedModule, call: IncomingCall, match: OperationMatch | null): Promise<EngineAnswer> {
    const { module, generated } = mounted;
    const { random } = this.#options.env;
    // Drawn only when a problem is answered, so a successful call leaves the seeded sequence alone.
    const where = {
      baseUrl: call.baseUrl,
      get correlationId() {
        return random.uuid();
      },
    };
    if (!match) {
      const path = call.target.split('?')[0];
      return module.problems.problem(
        new SandboxProblem(404, module.problems.types.notFound, `no operation of ${module.document} answers ${call.method} ${path}`),
        where,
      );
    }
    const { info } = match;
    const request = { ...where, operationId: info.operationId };
    const fault = this.#options.faults.take(info.operationId);
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
        return module.problems.problem(new SandboxProblem(status, module.problems.types.unauthorized, detail), request);
      }
      const missing = info.scopes.filter((scope) => !verified.scopes.includes(scope));
      if (info.scopes.length > 0 && missing.length === info.scopes.length)
        return module.problems.problem(
          new SandboxProblem(403, module.problems.types.forbidden, `the credential lacks the scope ${info.scopes.join(' or ')}`),
          request,
        );
      principal = verified;
    }

    const verdict = checkMatchedRequest(generated, match, call, this.#options.env.clock.now());
    if (verdict.issues.length > 0) {
      const refusal = module.problems.invalid(verdict.issues, request);
      // Tells a refusal by the contract (the check every client runs first) from a rule of the module's state.
      return { ...refusal, headers: { ...refusal.headers, [contractRefusalHeader]: 'request' }, operationId: info.operationId };
    }

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
      body: call.body,
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

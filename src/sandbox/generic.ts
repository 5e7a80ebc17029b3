/**
 * The sandbox of any spec document that has no hand-written module: it answers every operation from the
 * spec alone, after the engine has matched, authenticated and validated the request.
 *
 * - The token operation (unsecured, its answer carries a token member) checks a seeded credential (HTTP
 *   Basic or `client_id`/`client_secret` in the body) and issues a token of its scopes (a narrower `scope`
 *   may be asked for; one it does not hold is 403).
 * - A POST to a collection creates a resource: the operation's example answer with the request's members
 *   its schema lists and a new id; a GET, PUT, PATCH or DELETE of `<collection>/{id}` reads, changes or
 *   removes it. The ids of the spec's examples are known too; another id is 404 where the operation
 *   declares 404 (its example answer otherwise). PUT of an unknown id creates it.
 * - Any other operation answers its first 2xx example.
 * - A keyed operation (`x-idempotency-key`) answers a repeat of its key with the first answer as it was, and
 *   the same key with another payload with 409.
 *
 * A hand-written module (src/sandbox/<interface>/) replaces this one to hold the interface's real rules.
 */
import { readFileSync } from 'node:fs';
import { bundledSpecPath } from '../checks/registry.js';
import type { ValidationIssue } from '../runtime/errors.js';
import {
  defineSandboxModule,
  type Handler,
  type MountableModule,
  type ProblemContext,
  type ProblemFormat,
  type SandboxAnswer,
  type SandboxEnvironment,
  SandboxProblem,
  type SandboxRequest,
} from './contract.js';
import { answerWith, type GenericState, isObject, type Json, pick, respond } from './generic-resources.js';
import { type DeclaredAnswer, type GenericOperation, type GenericSpec, genericSpec, successOf, tokenMemberOf } from './generic-spec.js';
import { keep, keptFor } from './idempotency.js';
import { problemTitles } from './problem-details.js';

/** Seconds a token of the generic module lives. */
export const genericTokenSeconds = 3600;

/** The client credential of a token request: HTTP Basic, else `client_id`/`clientId` and its secret in the body. */
function credentialOf(request: SandboxRequest): { readonly clientId: string; readonly clientSecret: string } | null {
  const basic = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  if (basic) {
    const text = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = text.indexOf(':');
    return colon < 0 ? null : { clientId: text.slice(0, colon), clientSecret: text.slice(colon + 1) };
  }
  const body = isObject(request.body) ? request.body : {};
  const memberLike = (pattern: RegExp) => Object.entries(body).find(([name]) => pattern.test(name))?.[1];
  const clientId = memberLike(/^client_?id$/i);
  const clientSecret = memberLike(/^client_?secret$/i);
  return typeof clientId === 'string' && typeof clientSecret === 'string' ? { clientId, clientSecret } : null;
}

function issueToken(request: SandboxRequest, success: DeclaredAnswer, member: string, env: SandboxEnvironment): SandboxAnswer {
  const credential = credentialOf(request);
  if (!credential || !env.tokens.checkCredential(credential.clientId, credential.clientSecret))
    throw new SandboxProblem(
      401,
      'invalid-credentials',
      'the client id or secret is not one the sandbox knows (GET /_sandbox names its credentials)',
    );
  const held = env.tokens.scopesOf(credential.clientId) ?? [];
  const scope = isObject(request.body) ? request.body.scope : undefined;
  const asked = typeof scope === 'string' && scope.trim() !== '' ? scope.trim().split(/\s+/) : [...held];
  const lacking = asked.filter((name) => !held.includes(name));
  if (lacking.length > 0) throw new SandboxProblem(403, 'forbidden', `the credential does not hold the scope ${lacking.join(', ')}`);
  const token = env.tokens.issue({ clientId: credential.clientId, scopes: asked }, genericTokenSeconds);
  const body: Json = { ...(isObject(success.example) ? success.example : {}), [member]: token };
  for (const name of success.members ?? []) {
    if (/^expires/i.test(name)) body[name] = genericTokenSeconds;
    if (name === 'scope') body[name] = asked.join(' ');
  }
  return answerWith(success, body);
}

function handlerOf(spec: GenericSpec, operation: GenericOperation): Handler<GenericState> {
  return (request, state, env) => {
    const success = successOf(operation);
    const tokenMember = tokenMemberOf(success);
    if (!request.info.secured && success && tokenMember) return issueToken(request, success, tokenMember, env);
    const rule = request.info.idempotencyKeyRule;
    const key = rule ? request.headers[rule.header.toLowerCase()] : undefined;
    if (key === undefined) return respond(spec, operation, request, state, env);
    const slot = `${operation.operationId} ${key}`;
    const payload = { path: request.path, query: request.query, body: request.body };
    const kept = keptFor(state.keys, slot, payload, () => {
      throw new SandboxProblem(409, 'conflict', `the idempotency key ${key} was already used with another payload`);
    });
    if (kept) return structuredClone(kept.answer);
    const answer = respond(spec, operation, request, state, env);
    keep(state.keys, slot, payload, { answer: structuredClone(answer) });
    return answer;
  };
}

/**
 * The `type` of a problem: the document's shape at the sandbox's address when it is `{base_url}/…`, else the
 * address the spec's example shows, else `<module address>/errors/<type>` (RFC 7807 as interfaces A and D).
 */
function problemType(shape: string | null, example: Json, errorType: string, baseUrl: string): string {
  if (shape?.startsWith('{base_url}')) return shape.replace('{base_url}', baseUrl).replace('{errorType}', errorType);
  if (typeof example.type === 'string' && example.type.includes('/'))
    return `${example.type.slice(0, example.type.lastIndexOf('/'))}/${errorType}`;
  return `${baseUrl}/errors/${errorType}`;
}

/** How the generic module refuses: an RFC 7807 problem in the shape the operation declares for the status. */
function genericProblems(specOf: () => GenericSpec): ProblemFormat {
  const answer = (status: number, errorType: string, detail: string, context: ProblemContext): SandboxAnswer => {
    const declared = context.operationId ? specOf().operations.get(context.operationId)?.answers.get(status) : undefined;
    const example = isObject(declared?.example) ? declared.example : {};
    // The error type the spec's example of this status shows (its vocabulary), else the one raised.
    const shown = typeof example.type === 'string' ? example.type.slice(example.type.lastIndexOf('/') + 1) : '';
    const full: Json = {
      title: problemTitles[status] ?? 'Error',
      ...example,
      type: problemType(specOf().problemShape, example, shown || errorType, context.baseUrl),
      status,
      detail,
      correlationId: context.correlationId,
    };
    // Only the members the declared schema lists or its example shows: a strict reader refuses others.
    const members = declared?.members ? [...declared.members, ...Object.keys(example)] : null;
    return { status, body: pick(full, members), contentType: declared?.mediaType ?? 'application/problem+json' };
  };
  return {
    problem: (problem, context) => ({ ...answer(problem.status, problem.errorType, problem.detail, context), headers: problem.headers }),
    invalid: (issues: readonly ValidationIssue[], context) =>
      answer(400, 'invalid-parameters', issues.map((issue) => `${issue.pointer || '/'}: ${issue.message}`).join('; '), context),
    types: {
      unauthorized: 'unauthorized',
      forbidden: 'forbidden',
      notFound: 'not-found',
      tooManyRequests: 'too-many-requests',
      unavailable: 'service-unavailable',
    },
  };
}

/**
 * The generic module of a spec document, served under `prefix`; its bundle (`generated/<document>/openapi.json`
 * unless `bundle` gives it) is read when a request first needs it.
 */
export type { GenericState } from './generic-resources.js';

export function genericSandbox(document: string, prefix: string, bundle: () => Json = () => readBundle(document)): MountableModule {
  let spec: GenericSpec | undefined;
  const specOf = () => (spec ??= genericSpec(bundle()));
  let handlers: Record<string, Handler<GenericState>> | undefined;
  return defineSandboxModule<GenericState>({
    document,
    prefix,
    createState: () => ({ resources: {}, keys: {} }),
    get handlers() {
      handlers ??= Object.fromEntries(
        [...specOf().operations.values()].map((operation) => [operation.operationId, handlerOf(specOf(), operation)]),
      );
      return handlers;
    },
    problems: genericProblems(specOf),
  });
}

function readBundle(document: string): Json {
  return JSON.parse(readFileSync(bundledSpecPath(document), 'utf8')) as Json;
}

/**
 * The resources of the generic sandbox module (generic.ts): a POST to a collection creates one from the
 * operation's example answer, the request's members and a new id; `<collection>/{id}` reads, changes or
 * removes it. Every member put into an answer is kept only when the answer still fits the operation's
 * response schema strictly, so a member the request and the answer spell alike but type differently, or an
 * id the schema's pattern refuses, leaves the example's value in place and the answer inside the contract.
 */
import { type SandboxAnswer, type SandboxEnvironment, SandboxProblem, type SandboxRequest } from './contract.js';
import { type DeclaredAnswer, type GenericOperation, type GenericSpec, successOf } from './generic-spec.js';
import type { Kept } from './idempotency.js';

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What the generic module holds: resources created through it, and the answers kept under idempotency keys. */
export interface GenericState {
  /** Collection path -> id -> resource. */
  readonly resources: Record<string, Record<string, Json>>;
  /** `<operationId> <key>` -> the first answer under that key. */
  readonly keys: Record<string, Kept<{ readonly answer: SandboxAnswer }>>;
}

/** Members of an object that `members` lists (all of them when it lists none). */
export function pick(value: Json, members: readonly string[] | null): Json {
  return members === null ? value : Object.fromEntries(Object.entries(value).filter(([name]) => members.includes(name)));
}

export function answerWith(declared: DeclaredAnswer | null, body: unknown): SandboxAnswer {
  const status = declared?.status ?? 204;
  if (!declared?.mediaType || body === undefined) return { status };
  return { status, body, ...(/json/.test(declared.mediaType) ? {} : { contentType: declared.mediaType }) };
}

/** The member that names a resource of a collection: the parameter of its item route when the resource has it, else `id`. */
function idMemberOf(spec: GenericSpec, collection: string, resource: Json): string | null {
  const parameter = [...spec.operations.values()].find(
    (operation) => operation.collection === collection && operation.itemParameter,
  )?.itemParameter;
  return parameter && parameter in resource ? parameter : 'id' in resource ? 'id' : null;
}

/** A new id in the style of the example's: the next integer, a uuid, or letters and digits of the same length. */
function newId(example: unknown, held: Readonly<Record<string, Json>>, env: SandboxEnvironment): string | number {
  if (typeof example === 'number') return Math.max(example, ...Object.keys(held).map(Number).filter(Number.isFinite)) + 1;
  if (typeof example === 'string' && /^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i.test(example)) return env.random.uuid();
  return env.random.text(typeof example === 'string' && example.length > 0 ? example.length : 12);
}

/** `base` with each of `changes` that keeps it an answer the operation may give with `answer`'s status. */
function shaped(spec: GenericSpec, operation: GenericOperation, answer: DeclaredAnswer, base: Json, changes: Json): Json {
  let shape = base;
  for (const [name, value] of Object.entries(changes)) {
    const candidate = { ...shape, [name]: value };
    if (spec.fits(operation, answer.status, candidate)) shape = candidate;
  }
  return shape;
}

/** The resource `id` of a collection the spec's examples show (the example answer of a read naming it). */
function exampleResource(spec: GenericSpec, collection: string, id: string): Json | undefined {
  for (const operation of spec.operations.values()) {
    if (operation.collection !== collection || !operation.itemParameter || operation.method !== 'get') continue;
    const example = successOf(operation)?.example;
    const idMember = isObject(example) ? idMemberOf(spec, collection, example) : null;
    if (isObject(example) && idMember && String(example[idMember]) === id) return example;
  }
  return undefined;
}

/** The answer of an operation that issues no token, from the spec and the resources held. */
export function respond(
  spec: GenericSpec,
  operation: GenericOperation,
  request: SandboxRequest,
  state: GenericState,
  env: SandboxEnvironment,
): SandboxAnswer {
  const success = successOf(operation);
  state.resources[operation.collection] ??= {};
  const held = state.resources[operation.collection]!;
  const body = pick(isObject(request.body) ? request.body : {}, success?.members ?? null);
  const example = success && isObject(success.example) ? success.example : null;
  if (operation.itemParameter === null) {
    const idMember = example && operation.method === 'post' ? idMemberOf(spec, operation.collection, example) : null;
    if (!success || !example || !idMember) return answerWith(success, success?.example);
    const created = shaped(spec, operation, success, example, { [idMember]: newId(example[idMember], held, env), ...body });
    held[String(created[idMember])] = created;
    return answerWith(success, created);
  }
  const id = request.path[operation.itemParameter] ?? '';
  const resource = held[id] ?? exampleResource(spec, operation.collection, id);
  if (!resource && operation.method === 'put' && success && example) {
    // PUT names the resource it creates.
    const idMember = idMemberOf(spec, operation.collection, example);
    const named = idMember ? { [idMember]: typeof example[idMember] === 'number' ? Number(id) : id } : {};
    held[id] = shaped(spec, operation, success, example, { ...named, ...body });
    return answerWith(success, held[id]);
  }
  if (!resource) {
    if (operation.answers.has(404))
      throw new SandboxProblem(404, 'not-found', `no resource ${id} under ${operation.collection} in the sandbox`);
    return answerWith(success, success?.example);
  }
  if (operation.method === 'delete') {
    delete held[id];
    return answerWith(success, success?.example);
  }
  // The answer starts from the operation's own example, so it fits whatever the resource was made by.
  if ((operation.method === 'put' || operation.method === 'patch') && success) {
    held[id] = shaped(spec, operation, success, example ?? resource, { ...resource, ...body });
    return answerWith(success, held[id]);
  }
  if (operation.method === 'get' && success) return answerWith(success, shaped(spec, operation, success, example ?? resource, resource));
  return answerWith(success, success?.example);
}

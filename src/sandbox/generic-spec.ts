/**
 * What the generic sandbox module (generic.ts) reads of a bundled spec: for each operation, the collection
 * its path names and the path parameter of one of its resources, and for each status it declares the media
 * type, the first example and the members its schema lists; and whether a value is an answer an operation
 * may give, as the engine's strict check reads it. Read once per document, when first needed.
 */
import { bundleOperations, resolveLocalRef } from '../bundle-operations.js';
import { responseSchema, strictValidator } from '../checks/strict-response.js';
import type { CompiledValidator } from '../runtime/validation.js';
import { check } from '../runtime/validation.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** One declared answer of an operation. */
export interface DeclaredAnswer {
  readonly status: number;
  /** Its media type, null when it has no body. */
  readonly mediaType: string | null;
  /** Its first named example (else the media type's or the schema's example), undefined when it has none. */
  readonly example: unknown;
  /** The members its schema lists (through $ref and allOf), null when it lists none. */
  readonly members: readonly string[] | null;
}

export interface GenericOperation {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  /** The collection the path names: the path itself, or the path without its last `{parameter}` segment. */
  readonly collection: string;
  /** The path parameter naming one resource of the collection (`id` of `/widgets/{id}`), null on the collection. */
  readonly itemParameter: string | null;
  /** Every answer it declares, by status (`default` left out). */
  readonly answers: ReadonlyMap<number, DeclaredAnswer>;
}

/** The lowest 2xx answer an operation declares, or null. */
export function successOf(operation: GenericOperation): DeclaredAnswer | null {
  const statuses = [...operation.answers.keys()].filter((status) => status >= 200 && status < 300).sort((a, b) => a - b);
  return statuses.length > 0 ? operation.answers.get(statuses[0]!)! : null;
}

/** The members a schema lists, following $ref and allOf; null when it lists none. */
function membersOf(bundle: Json, raw: unknown, depth = 0): string[] | null {
  const schema = resolveLocalRef(bundle, raw);
  if (depth > 8) return null;
  const members = new Set(Object.keys(isObject(schema.properties) ? schema.properties : {}));
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : [])
    for (const name of membersOf(bundle, part, depth + 1) ?? []) members.add(name);
  return members.size > 0 ? [...members] : null;
}

/** The first example of a media type: its first named example, else its `example`, else its schema's. */
function exampleOf(bundle: Json, media: Json): unknown {
  if (isObject(media.examples)) {
    const first = Object.values(media.examples)[0];
    if (first !== undefined) return resolveLocalRef(bundle, first).value;
  }
  if (media.example !== undefined) return media.example;
  const schema = resolveLocalRef(bundle, media.schema);
  return schema.example ?? (Array.isArray(schema.examples) ? schema.examples[0] : undefined);
}

function declaredAnswer(bundle: Json, status: number, raw: unknown): DeclaredAnswer {
  const response = resolveLocalRef(bundle, raw);
  const content = isObject(response.content) ? response.content : {};
  const [mediaType, media] = Object.entries(content)[0] ?? [null, {}];
  const resolved = resolveLocalRef(bundle, media);
  return { status, mediaType, example: exampleOf(bundle, resolved), members: membersOf(bundle, resolved.schema) };
}

/** Every operation of a bundle, by operationId. */
export function genericOperations(bundle: Json): Map<string, GenericOperation> {
  const operations = new Map<string, GenericOperation>();
  for (const { method, path, operation } of bundleOperations(bundle)) {
    if (typeof operation.operationId !== 'string') continue;
    // `/widgets/{id}`: the collection `/widgets` and its parameter `id` (string operations: no regular expression to backtrack).
    const last = path.slice(path.lastIndexOf('/') + 1);
    const parameter = last.startsWith('{') && last.endsWith('}') ? last.slice(1, -1) : '';
    const responses = isObject(operation.responses) ? operation.responses : {};
    const answers = new Map(
      Object.entries(responses)
        .filter(([status]) => /^\d{3}$/.test(status))
        .map(([status, response]) => [Number(status), declaredAnswer(bundle, Number(status), response)] as const),
    );
    operations.set(operation.operationId, {
      operationId: operation.operationId,
      method,
      path,
      collection: parameter ? path.slice(0, path.lastIndexOf('/')) || '/' : path,
      itemParameter: parameter || null,
      answers,
    });
  }
  return operations;
}

/** The member of a token answer that carries the token (`access_token`, `accessToken`, `token`, `svc-token`), or null. */
export function tokenMemberOf(answer: DeclaredAnswer | null): string | null {
  const members = answer?.members ?? [];
  return members.find((name) => /^access_?token$/i.test(name)) ?? members.find((name) => /^(svc-?)?token$/i.test(name)) ?? null;
}

/** A bundle as the generic module reads it. */
export interface GenericSpec {
  readonly operations: ReadonlyMap<string, GenericOperation>;
  /** The shape of a problem's `type` (`x-problem-types.shape`, `{base_url}/errors/{errorType}`), null when it gives none. */
  readonly problemShape: string | null;
  /** Whether `value` is an answer `operation` may give with `status`: its schema strictly (closed lists, no unlisted member). */
  fits(operation: GenericOperation, status: number, value: unknown): boolean;
}

export function genericSpec(bundle: Json): GenericSpec {
  const validators = new Map<string, CompiledValidator | null>();
  const settings = bundle['x-problem-types'];
  return {
    operations: genericOperations(bundle),
    problemShape: isObject(settings) && typeof settings.shape === 'string' ? settings.shape : null,
    fits(operation, status, value) {
      const key = `${operation.operationId} ${status}`;
      if (!validators.has(key)) {
        const schema = responseSchema(bundle, operation.method, operation.path, String(status));
        validators.set(key, schema === null ? null : strictValidator(bundle, schema));
      }
      const validator = validators.get(key);
      return !validator || check(validator, value).length === 0;
    },
  };
}

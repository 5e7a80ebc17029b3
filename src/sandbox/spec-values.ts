/**
 * What the hand-written sandbox modules read from the bundled spec instead of typing it again: the values a
 * member admits (its `enum`, else its `x-known-values`) and the members a schema lists. A place is written as
 * the control verbs' contracts write it (verb-contract.ts: `RecEncerramento/rejeicao/codigo`, an array entered
 * through its items); a place the spec does not have, or one with no values, throws naming it. Each bundle
 * (generated/<document>/openapi.json) is read once, when a module first asks.
 */
import { readFileSync } from 'node:fs';
import { resolveLocalRef } from '../bundle-operations.js';
import { bundledSpecPath } from '../checks/registry.js';
import { resolvePlace, type SchemaPlace } from './verb-contract.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const bundles = new Map<string, Json>();
const answers = new Map<string, readonly string[]>();

function bundleOf(document: string): Json {
  let bundle = bundles.get(document);
  if (!bundle) {
    bundle = JSON.parse(readFileSync(bundledSpecPath(document), 'utf8')) as Json;
    bundles.set(document, bundle);
  }
  return bundle;
}

/** `read` of the place, worked out once per document, place and question. */
function remembered(
  question: string,
  document: string,
  place: SchemaPlace,
  read: (bundle: Json, schema: Json) => string[],
): readonly string[] {
  const key = `${question} ${document}#${place}`;
  let answer = answers.get(key);
  if (!answer) {
    const bundle = bundleOf(document);
    answer = Object.freeze(read(bundle, resolveLocalRef(bundle, resolvePlace(bundle, document, place).schema)));
    answers.set(key, answer);
  }
  return answer;
}

/** The values the member at `place` admits, in the spec's order (`RecEncerramento/rejeicao/codigo`: AP13, AP14). */
export function declaredValues(document: string, place: SchemaPlace): readonly string[] {
  return remembered('values', document, place, (_bundle, schema) => {
    const values = schema.enum ?? schema['x-known-values'];
    if (!Array.isArray(values) || values.length === 0) throw new Error(`${document}#${place} declares no values (enum or x-known-values)`);
    return values.map(String);
  });
}

/** The members a schema lists, following $ref, allOf and an array's items, in the spec's order. */
function membersOf(bundle: Json, raw: unknown, seen: Set<Json>): string[] {
  const schema = resolveLocalRef(bundle, raw);
  if (seen.has(schema)) return [];
  seen.add(schema);
  const parts = [...(Array.isArray(schema.allOf) ? schema.allOf : []), ...(schema.items === undefined ? [] : [schema.items])];
  const own = isObject(schema.properties) ? Object.keys(schema.properties) : [];
  return [...new Set([...own, ...parts.flatMap((part) => membersOf(bundle, part, seen))])];
}

/** The members the schema at `place` lists, in the spec's order (`BilletPayment`: id, idempotencyKey, eventDate, …). */
export function declaredMembers(document: string, place: SchemaPlace): readonly string[] {
  return remembered('members', document, place, (bundle, schema) => {
    const members = membersOf(bundle, schema, new Set());
    if (members.length === 0) throw new Error(`${document}#${place} lists no members`);
    return members;
  });
}

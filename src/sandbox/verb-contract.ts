/**
 * What a control verb takes and makes, in the contract's own terms, so the control plane can refuse what
 * would take an answer out of the contract (design: "the control plane accepts only values that keep every
 * answer inside the contract"). A verb declares each member of its body: one it stores or answers names the
 * schema place it lands in (`valor` → `Pix/valor`), one that only picks what the verb acts on says what it
 * names; any other member is refused. The declared answers (`/pix` → `Pix`) are checked once the verb ran,
 * before its changes are kept (control-transaction.ts). Every check compiles the place's schema from the
 * bundled spec with the strict rules the engine answers by (src/checks/strict-response.ts): known values
 * closed, listed members only — never a limit typed again by hand.
 */
import type { ValidationIssue } from '../runtime/errors.js';
import type { CompiledValidator } from '../runtime/validation.js';
import type { ControlVerb } from './contract.js';

type Json = Record<string, unknown>;

/**
 * A place in a spec document: `Component/member/member` (`Pix/valor`, `RecEncerramento/rejeicao/codigo`),
 * the component alone, or `document#Component/…` for another document than the verb's. An array on the way
 * is entered through its items (`CobRTentativas/rejeicao/codigo`).
 */
export type SchemaPlace = string;

/** Where an input lands: one place, several (every one is checked), or a choice made from the whole body. */
export type Landing = SchemaPlace | readonly SchemaPlace[] | ((body: Json) => SchemaPlace | readonly SchemaPlace[] | undefined);

/** The component a member of the answer is, or a choice made from the value and the module's state. */
export type Produced<State> = SchemaPlace | ((value: unknown, state: State) => SchemaPlace | undefined);

export interface VerbContract<State> {
  /** The spec document the places name (the module's own). */
  readonly document: string;
  /** Members that pick what the verb acts on or how, stored nowhere the contract shows: member → what it names. */
  readonly selects?: Readonly<Record<string, string>>;
  /** Members stored or answered: member → where it lands. */
  readonly lands?: Readonly<Record<string, Landing>>;
  /** Members of the verb's answer that are resources of the contract: JSON pointer (`''` the whole answer) → what it is. */
  readonly answers?: Readonly<Record<string, Produced<State>>>;
}

/** A control verb with its contract. */
export interface DeclaredVerb<State> extends ControlVerb<State> {
  readonly contract: VerbContract<State>;
}

export function declareVerb<State>(contract: VerbContract<State>, run: ControlVerb<State>): DeclaredVerb<State> {
  const verb: ControlVerb<State> = (body, state, env) => run(body, state, env);
  return Object.assign(verb, { contract });
}

/** The contract of a verb, when it declares one. */
export function contractOf<State>(verb: ControlVerb<State>): VerbContract<State> | undefined {
  return (verb as Partial<DeclaredVerb<State>>).contract;
}

/** One reason a verb is refused: the member (a JSON pointer into the body or into the answer), the rule, the words. */
export interface ControlViolation {
  readonly pointer: string;
  readonly rule: string;
  readonly message: string;
  /** The schema place the value was checked against (`pix#Pix/valor`). */
  readonly place?: string;
}

/** Compiles the strict check of a schema of a document, and finds the words of its patterns. */
export interface SchemaSource {
  bundle(document: string): Json;
  strictValidator(bundle: Json, schema: unknown): CompiledValidator;
  check(validator: CompiledValidator, value: unknown, pointer: string, document: string): ValidationIssue[];
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const componentPrefix = '#/components/schemas/';

/** The schemas applied in place with `schema` (its $ref target, allOf, anyOf and oneOf) and, for an array, its items. */
function partsOf(schema: Json, components: Json): Json[] {
  const target =
    typeof schema.$ref === 'string' && schema.$ref.startsWith(componentPrefix)
      ? components[schema.$ref.slice(componentPrefix.length)]
      : undefined;
  const members = ['allOf', 'anyOf', 'oneOf'].flatMap((keyword) => (Array.isArray(schema[keyword]) ? (schema[keyword] as unknown[]) : []));
  return [target, ...members, schema.items].filter(isObject);
}

/** Every schema `name` has where `schema` applies (a member declared in two parts of an allOf is bound by both). */
function memberSchemas(schema: Json, name: string, components: Json, seen: Set<Json>): Json[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const own = isObject(schema.properties) && isObject(schema.properties[name]) ? [schema.properties[name] as Json] : [];
  return [...own, ...partsOf(schema, components).flatMap((part) => memberSchemas(part, name, components, seen))];
}

export interface ResolvedPlace {
  readonly document: string;
  readonly schema: Json;
  /** The place as written, with its document: `pix#Pix/valor`. */
  readonly name: string;
}

/** The schema at `place` of `document`'s bundle; a place the spec does not have throws, naming it. */
export function resolvePlace(bundle: Json, document: string, place: SchemaPlace): ResolvedPlace {
  const hash = place.indexOf('#');
  const owner = hash < 0 ? document : place.slice(0, hash);
  const [component, ...path] = (hash < 0 ? place : place.slice(hash + 1)).split('/');
  const components = isObject(bundle.components) && isObject(bundle.components.schemas) ? bundle.components.schemas : {};
  const name = `${owner}#${place.slice(hash + 1)}`;
  const found = components[component!];
  if (!isObject(found)) throw new Error(`${name}: ${owner} has no schema ${component}`);
  let schema: Json = found;
  for (const member of path) {
    const schemas = memberSchemas(schema, member, components, new Set());
    if (schemas.length === 0) throw new Error(`${name}: no member ${member} there`);
    schema = schemas.length === 1 ? schemas[0]! : { allOf: schemas };
  }
  return { document: owner, schema, name };
}

const asList = (places: SchemaPlace | readonly SchemaPlace[] | undefined): readonly SchemaPlace[] =>
  places === undefined ? [] : typeof places === 'string' ? [places] : places;

/** The places a body's member lands in. */
export function placesOf(landing: Landing, body: Json): readonly SchemaPlace[] {
  return asList(typeof landing === 'function' ? landing(body) : landing);
}

const pointerToken = (member: string): string => member.replace(/~/g, '~0').replace(/\//g, '~1');

/** The value at a JSON pointer of `root` (undefined when absent). */
function valueAt(root: unknown, pointer: string): unknown {
  let value = root;
  for (const token of pointer.split('/').slice(1)) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    value = isObject(value) || Array.isArray(value) ? (value as Json)[key] : undefined;
  }
  return value;
}

export class VerbChecker {
  readonly #source: SchemaSource;
  /** Compiled places, by bundle, then by place. */
  readonly #compiled = new WeakMap<Json, Map<string, CompiledValidator>>();

  constructor(source: SchemaSource) {
    this.#source = source;
  }

  /** What the contract finds wrong with `value` at `place` (a place of `document`, or of the one it names). */
  issuesAt(document: string, place: SchemaPlace, value: unknown, pointer: string): ControlViolation[] {
    const owner = place.includes('#') ? place.slice(0, place.indexOf('#')) : document;
    const resolved = resolvePlace(this.#source.bundle(owner), document, place);
    return this.issuesOf(owner, resolved.name, resolved.schema, value, pointer);
  }

  /** What `schema` (a schema of `document`'s bundle, known as `name`) finds wrong with `value`. */
  issuesOf(document: string, name: string, schema: unknown, value: unknown, pointer: string): ControlViolation[] {
    const bundle = this.#source.bundle(document);
    let cache = this.#compiled.get(bundle);
    if (!cache) {
      cache = new Map();
      this.#compiled.set(bundle, cache);
    }
    let validator = cache.get(name);
    if (!validator) {
      validator = this.#source.strictValidator(bundle, schema);
      cache.set(name, validator);
    }
    return this.#source
      .check(validator, value, pointer, document)
      .map((issue) => ({ pointer: issue.pointer || '/', rule: issue.rule, message: issue.message, place: name }));
  }

  /** The body's members the verb does not take, and every landing member the contract refuses where it lands. */
  inputViolations<State>(contract: VerbContract<State>, body: Json): ControlViolation[] {
    const lands = contract.lands ?? {};
    const taken = [...Object.keys(contract.selects ?? {}), ...Object.keys(lands)];
    const violations: ControlViolation[] = [];
    for (const member of Object.keys(body))
      if (!taken.includes(member))
        violations.push({
          pointer: `/${pointerToken(member)}`,
          rule: 'known inputs',
          message: `is not an input of this verb; it takes ${taken.length > 0 ? taken.join(', ') : 'no member'}`,
        });
    for (const [member, landing] of Object.entries(lands)) {
      if (body[member] === undefined) continue;
      for (const place of placesOf(landing, body))
        violations.push(...this.issuesAt(contract.document, place, body[member], `/${pointerToken(member)}`));
    }
    return violations;
  }

  /** Where the verb's answer leaves the contract: each declared resource checked at its component. */
  answerViolations<State>(contract: VerbContract<State>, answer: unknown, state: State): ControlViolation[] {
    const violations: ControlViolation[] = [];
    for (const [pointer, produced] of Object.entries(contract.answers ?? {})) {
      const value = valueAt(answer, pointer);
      if (value === undefined) continue;
      const place = typeof produced === 'function' ? produced(value, state) : produced;
      if (place !== undefined) violations.push(...this.issuesAt(contract.document, place, value, pointer));
    }
    return violations;
  }
}

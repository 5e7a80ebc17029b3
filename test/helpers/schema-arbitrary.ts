/**
 * fast-check arbitraries of values a JSON Schema (as our specs write them) accepts, and single mutations
 * that a strict validator must reject. Covers the keywords the specs use; a schema with a keyword it
 * does not know makes `unsupportedKeywords` non-empty so the fuzz test fails loudly instead of lying.
 */
import fc from 'fast-check';
import { isObject, resolveLocal, type Json, type JsonObject } from '../../scripts/openapi-model.js';
import { buildBrCode } from '../../src/formats/brcode.js';
import { digitableLineOfBarcode, modulo11Bank } from '../../src/formats/boleto.js';
import { cnpjCheckDigits } from '../../src/formats/documents.js';
import { generateEndToEndId, generateIdRec } from '../../src/formats/pix.js';

const known = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'uniqueItems',
  '$ref',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'maxProperties',
  'if',
  'then',
  'else',
  'default',
  'description',
  'title',
  'examples',
  'example',
  'readOnly',
  'writeOnly',
  'deprecated',
  // Annotations only (ajv asserts none of them).
  '$schema',
  '$comment',
  'contentEncoding',
  'contentMediaType',
]);

function isComposed(schema: JsonObject): boolean {
  const plainAllOf = Array.isArray(schema.allOf) && schema.allOf.length === 1 && !schema.properties;
  // A conditional (if/then) holds only in the branch random values seldom aim at: fuzzed from examples too.
  return Boolean(
    schema.oneOf || schema.anyOf || schema.not || schema.if || (schema.allOf && !plainAllOf) || typeof schema.maxProperties === 'number',
  );
}

/** Whether a oneOf/anyOf/allOf/not/if/maxProperties appears anywhere below `schema`: random generation cannot aim at those. */
export function containsComposition(schema: Json, document: JsonObject, seen = new Set<Json>()): boolean {
  if (!isObject(schema) || seen.has(schema)) return false;
  seen.add(schema);
  if (isComposed(schema)) return true;
  const children: Json[] = [];
  if (typeof schema.$ref === 'string') children.push(resolveLocal(document, schema) ?? null);
  if (isObject(schema.properties)) children.push(...Object.values(schema.properties));
  for (const key of ['items', 'additionalProperties', 'if', 'then', 'else'] as const)
    if (schema[key] !== undefined) children.push(schema[key]!);
  if (Array.isArray(schema.allOf)) children.push(...schema.allOf);
  return children.some((child) => containsComposition(child, document, seen));
}

export function unsupportedKeywords(schema: Json, document: JsonObject, seen = new Set<Json>()): string[] {
  if (!isObject(schema) || seen.has(schema)) return [];
  seen.add(schema);
  const found = Object.keys(schema).filter((key) => !known.has(key) && !key.startsWith('x-'));
  const children: Json[] = [];
  if (typeof schema.$ref === 'string') children.push(resolveLocal(document, schema) ?? null);
  if (isObject(schema.properties)) children.push(...Object.values(schema.properties));
  for (const key of ['items', 'additionalProperties', 'if', 'then', 'else'] as const)
    if (schema[key] !== undefined) children.push(schema[key]!);
  if (Array.isArray(schema.allOf)) children.push(...schema.allOf);
  return [...found, ...children.flatMap((child) => unsupportedKeywords(child, document, seen))];
}

const digits = (length: number) => fc.stringMatching(new RegExp(`^\\d{${length}}$`));
const words = (min: number, max: number) =>
  fc
    .string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ '), minLength: min, maxLength: max })
    .filter((text) => text.trim() === text && text.length >= min);

function cpfArbitrary(): fc.Arbitrary<string> {
  return digits(9)
    .map((base) => {
      const digit = (values: number[]) => ((values.reduce((sum, d, i) => sum + d * (values.length + 1 - i), 0) * 10) % 11) % 10;
      const numbers = [...base].map(Number);
      const first = digit(numbers);
      return base + first + digit([...numbers, first]);
    })
    .filter((cpf) => !/^(.)\1*$/.test(cpf));
}

const formatArbitraries: Record<string, () => fc.Arbitrary<string>> = {
  uuid: () => fc.uuid(),
  date: () =>
    fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  'date-time': () => fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((d) => d.toISOString()),
  email: () =>
    fc
      .tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,15}$/), fc.constantFrom('example.com', 'padaria.com.br'))
      .map(([user, host]) => `${user}@${host}`),
  uri: () => fc.stringMatching(/^[a-z0-9-]{1,20}$/).map((path) => `https://banking.example.com/errors/${path}`),
  'uri-reference': () => fc.stringMatching(/^[a-z0-9-]{1,20}$/).map((path) => `/fee-rules/${path}`),
  cidr: () =>
    fc
      .tuple(
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 0, max: 255 }),
        fc.option(fc.integer({ min: 0, max: 32 })),
      )
      .map(([a, b, c, d, prefix]) => `${a}.${b}.${c}.${d}${prefix === null ? '' : `/${prefix}`}`),
  cpf: cpfArbitrary,
  'cpf-cnpj': () => fc.oneof(cpfArbitrary(), formatArbitraries.cnpj!()),
  'cpf-cnpj-digits': () =>
    fc.oneof(
      cpfArbitrary(),
      fc
        .string({ unit: fc.constantFrom(...'0123456789'), minLength: 12, maxLength: 12 })
        .map((base) => base + cnpjCheckDigits(base))
        .filter((v) => !/^(.)\1*$/.test(v)),
    ),
  decimal: () => fc.stringMatching(/^[1-9]\d{0,19}(\.\d{1,18})?$/),
  cnpj: () =>
    fc
      .string({ unit: fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'), minLength: 12, maxLength: 12 })
      .map((base) => base + cnpjCheckDigits(base))
      .filter((v) => !/^(.)\1*$/.test(v)),
  ispb: () => digits(8),
  txid: () => fc.stringMatching(/^[a-zA-Z0-9]{26,35}$/),
  e2eid: () =>
    fc
      .tuple(digits(8), fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }))
      .map(([ispb, at]) => generateEndToEndId({ ispb, at })),
  idrec: () => fc.tuple(digits(8), fc.boolean()).map(([agentId, allowsRetries]) => generateIdRec({ agentId, allowsRetries })),
  'brl-amount': () => fc.stringMatching(/^\d{1,10}\.\d{2}$/),
  'pix-key': () =>
    fc.oneof(
      cpfArbitrary(),
      fc.uuid().map((uuid) => uuid.toLowerCase()),
      fc.stringMatching(/^\+55[1-9]{2}9\d{8}$/),
      fc.stringMatching(/^[a-z][a-z0-9]{0,15}$/).map((user) => `${user}@padaria.com.br`),
    ),
  phone: () => fc.stringMatching(/^\+[1-9]\d{7,14}$/),
  evp: () => fc.uuid().map((uuid) => uuid.toLowerCase()),
  ibge: () => digits(5).map((rest) => `35${rest}`),
  brcode: () =>
    fc
      .tuple(words(1, 25), words(1, 15), fc.option(fc.stringMatching(/^[1-9]\d{0,5}\.\d{2}$/), { nil: undefined }))
      .map(([merchantName, merchantCity, amount]) =>
        buildBrCode({ key: '+5511987654321', merchantName, merchantCity, ...(amount ? { amount } : {}) }),
      ),
  'boleto-barcode': () =>
    fc.tuple(fc.stringMatching(/^[0-7]\d{2}$/), digits(39)).map(([bank, rest]) => {
      const body = `${bank}9${rest}`;
      return body.slice(0, 4) + modulo11Bank(body) + body.slice(4);
    }),
  'boleto-line': () => formatArbitraries['boleto-barcode']!().map(digitableLineOfBarcode),
};

export interface Generation {
  readonly document: JsonObject;
  readonly depth: number;
}

/** Values the schema accepts. */
export function arbitraryOf(schema: Json, context: Generation): fc.Arbitrary<unknown> {
  if (schema === true || !isObject(schema)) return fc.constant(null);
  if (typeof schema.$ref === 'string') return arbitraryOf(resolveLocal(context.document, schema) ?? {}, context);
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1 && !schema.properties) return arbitraryOf(schema.allOf[0]!, context);
  if (isComposed(schema)) throw new Error('a composed schema (oneOf/anyOf/allOf/not/maxProperties) is fuzzed from its examples');
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const types = Array.isArray(schema.type) ? schema.type.map(String) : typeof schema.type === 'string' ? [schema.type] : [];
  if (types.length > 1) return fc.oneof(...types.map((type) => arbitraryOf({ ...schema, type }, context)));
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      if (schema.format === 'int32' && schema.minimum === undefined && schema.maximum === undefined) return fc.integer();
      const min =
        typeof schema.minimum === 'number'
          ? schema.minimum
          : typeof schema.exclusiveMinimum === 'number'
            ? Math.floor(schema.exclusiveMinimum) + 1
            : -1_000_000;
      const max = typeof schema.maximum === 'number' ? schema.maximum : min + 2_000_000;
      return fc.integer({ min, max });
    }
    case 'number': {
      const min =
        typeof schema.minimum === 'number'
          ? schema.minimum
          : typeof schema.exclusiveMinimum === 'number'
            ? schema.exclusiveMinimum + 0.01
            : -1e6;
      const max = typeof schema.maximum === 'number' ? schema.maximum : min + 2e6;
      return fc.integer({ min: Math.ceil(min * 100), max: Math.floor(max * 100) }).map((cents) => cents / 100);
    }
    case 'string': {
      if (typeof schema.format === 'string' && formatArbitraries[schema.format]) return formatArbitraries[schema.format]!();
      if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern));
      const known = schema['x-known-values'];
      const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
      const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : Math.max(minLength, 24);
      const text = fc.string({ minLength, maxLength });
      return Array.isArray(known) ? fc.oneof(fc.constantFrom(...known.map(String)), text) : text;
    }
    case 'array': {
      const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
      // Deep in a document, lists stay as short as allowed so generation ends.
      if (context.depth > 4 && minLength === 0) return fc.constant([]);
      const item = arbitraryOf(schema.items ?? {}, { ...context, depth: context.depth + 1 });
      const maxLength = typeof schema.maxItems === 'number' ? schema.maxItems : Math.max(minLength, 3);
      return schema.uniqueItems === true
        ? fc.uniqueArray(item, { minLength, maxLength, selector: (value) => JSON.stringify(value) })
        : fc.array(item, { minLength, maxLength });
    }
    case 'object':
    case undefined: {
      if (types[0] === undefined && !isObject(schema.properties)) return fc.constant({});
      // A member whose schema is `not: {}` (or false) is forbidden: never generated.
      const forbidden = (sub: Json): boolean => sub === false || (isObject(sub) && isObject(sub.not) && Object.keys(sub.not).length === 0);
      const properties = Object.fromEntries(
        Object.entries(isObject(schema.properties) ? schema.properties : {}).filter(([, sub]) => !forbidden(sub)),
      );
      // Members a then/else branch may require are always generated: present, they satisfy either branch.
      const branchRequired = [schema.then, schema.else].flatMap((branch) =>
        isObject(branch) && Array.isArray(branch.required) ? branch.required.map(String) : [],
      );
      const required = [...(Array.isArray(schema.required) ? schema.required.map(String) : []), ...branchRequired];
      const next = { ...context, depth: context.depth + 1 };
      const record = fc.record(Object.fromEntries(Object.entries(properties).map(([name, sub]) => [name, arbitraryOf(sub, next)])), {
        requiredKeys: required.filter((name) => name in properties),
      });
      return record as fc.Arbitrary<unknown>;
    }
    default:
      return fc.constant(null);
  }
}

/** A value that breaks exactly one rule of the schema at `pointer` of a valid instance. */
export interface Mutation {
  readonly description: string;
  readonly apply: (instance: unknown) => unknown;
}

function setAt(instance: unknown, path: readonly string[], update: (parent: Record<string, unknown>, key: string) => void): unknown {
  const copy = structuredClone(instance);
  let parent = copy as Record<string, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  update(parent, path.at(-1)!);
  return copy;
}

function valueAt(instance: unknown, path: readonly string[]): unknown {
  let current = instance;
  for (const key of path) current = (current as Record<string, unknown> | undefined)?.[key];
  return current;
}

const wrongTypeValue = (types: readonly string[]): unknown => (types.includes('string') ? 12345 : 'not-the-right-type');

/**
 * Mutations of a valid `instance` that `schema` must reject: a required member dropped, an unknown
 * member in a strict object, a wrong type, a length over maxLength, a value outside enum or a bound.
 * Members under conditional or composed schemas are left alone (a change there may still be valid).
 */
export function mutationsOf(schema: Json, instance: unknown, document: JsonObject, path: string[] = []): Mutation[] {
  if (!isObject(schema)) return [];
  if (typeof schema.$ref === 'string') return mutationsOf(resolveLocal(document, schema) ?? {}, instance, document, path);
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1 && !schema.properties)
    return mutationsOf(schema.allOf[0]!, instance, document, path);
  // Under a choice or a negation a changed member may still be valid: nothing is mutated there.
  if (schema.oneOf || schema.anyOf || schema.not || schema.allOf || typeof schema.maxProperties === 'number') return [];
  const where = `/${path.join('/')}`;
  const mutations: Mutation[] = [];
  const types = Array.isArray(schema.type) ? schema.type.map(String) : typeof schema.type === 'string' ? [schema.type] : [];
  const value = valueAt(instance, path);
  if (value === undefined) return [];
  if (path.length === 0 && types.length > 0 && !types.includes('object') && !types.includes('array') && !types.includes('number')) {
    mutations.push({ description: '/: wrong type', apply: () => wrongTypeValue(types) });
  }
  if (path.length > 0 && types.length > 0 && !types.includes('number') && !(types.includes('string') && types.includes('integer'))) {
    mutations.push({ description: `${where}: wrong type`, apply: (i) => setAt(i, path, (p, k) => (p[k] = wrongTypeValue(types))) });
  }
  if (typeof value === 'string' && typeof schema.maxLength === 'number' && path.length > 0) {
    const limit = schema.maxLength;
    mutations.push({
      description: `${where}: longer than ${limit}`,
      apply: (i) => setAt(i, path, (p, k) => (p[k] = 'x'.repeat(limit + 1))),
    });
  }
  if (Array.isArray(schema.enum) && path.length > 0) {
    mutations.push({ description: `${where}: outside the enum`, apply: (i) => setAt(i, path, (p, k) => (p[k] = 'NOT_IN_THE_ENUM')) });
  }
  if (typeof value === 'number' && path.length > 0) {
    if (typeof schema.minimum === 'number')
      mutations.push({
        description: `${where}: below minimum`,
        apply: (i) => setAt(i, path, (p, k) => (p[k] = (schema.minimum as number) - 1)),
      });
    if (typeof schema.exclusiveMinimum === 'number')
      mutations.push({
        description: `${where}: at the exclusive minimum`,
        apply: (i) => setAt(i, path, (p, k) => (p[k] = schema.exclusiveMinimum)),
      });
    if (typeof schema.maximum === 'number')
      mutations.push({
        description: `${where}: above maximum`,
        apply: (i) => setAt(i, path, (p, k) => (p[k] = (schema.maximum as number) + 1)),
      });
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && isObject(schema.properties)) {
    const conditional = schema.if !== undefined;
    for (const name of Array.isArray(schema.required) ? schema.required.map(String) : []) {
      mutations.push({ description: `${where}: required ${name} dropped`, apply: (i) => setAt(i, [...path, name], (p, k) => delete p[k]) });
    }
    if (schema.additionalProperties === false) {
      mutations.push({
        description: `${where}: unknown member`,
        apply: (i) => setAt(i, [...path, 'unknownMemberAddedByFuzz'], (p, k) => (p[k] = 1)),
      });
    }
    if (!conditional) {
      for (const [name, sub] of Object.entries(schema.properties)) mutations.push(...mutationsOf(sub, instance, document, [...path, name]));
    } else {
      // Under if/then/else only the unconditional members are mutated: their rules hold in every branch.
      for (const [name, sub] of Object.entries(schema.properties))
        mutations.push(...mutationsOf(sub, instance, document, [...path, name]).filter((m) => !m.description.includes('outside the enum')));
    }
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    for (let index = 0; index < value.length; index += 1)
      mutations.push(...mutationsOf(schema.items!, instance, document, [...path, String(index)]));
  }
  return mutations;
}

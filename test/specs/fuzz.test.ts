/**
 * Property-based fuzzing of every validator of every spec: generated valid instances are accepted,
 * single mutations of them (required member dropped, unknown member, wrong type, too long, outside
 * enum or bounds) are rejected, and no input makes a validator throw.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { operationsOf, resolveLocal, type Json, type JsonObject } from '../../scripts/openapi-model.js';
import { parameterLocations, parameterSchema } from '../../scripts/steps/validators.js';
import { bundledSpecPath, loadInterface } from '../../src/checks/registry.js';
import { interfaces } from '../../src/interfaces.js';
import { check, type CompiledValidator } from '../../src/runtime/validation.js';
import { arbitraryOf, containsComposition, mutationsOf, unsupportedKeywords } from '../helpers/schema-arbitrary.js';
import { exampleCases } from '../helpers/spec-examples.js';

interface Target {
  readonly label: string;
  readonly schema: Json;
  readonly validator: CompiledValidator;
  readonly document: JsonObject;
  /** Valid instances written in the spec (request and response examples whose schema this is). */
  readonly examples: readonly unknown[];
}

/** Examples of the spec by the JSON of the schema they illustrate (a `$ref` or an inline schema). */
function examplesBySchema(document: JsonObject): Map<string, unknown[]> {
  const found = new Map<string, unknown[]>();
  const add = (schema: Json | null | undefined, value: unknown): void => {
    if (schema === undefined || schema === null || value === undefined) return;
    const key = JSON.stringify(schema);
    found.set(key, [...(found.get(key) ?? []), value]);
  };
  for (const c of exampleCases(document)) add(c.operation.responses.find((r) => r.status === c.status)?.schema, c.value);
  for (const operation of operationsOf(document)) {
    const media = operation.requestBody
      ? ((((operation.operation.requestBody as JsonObject).content ?? {}) as JsonObject)[operation.requestBody.mediaType] as
          | JsonObject
          | undefined)
      : undefined;
    const examples =
      media && typeof media.examples === 'object' && media.examples !== null ? Object.values(media.examples as JsonObject) : [];
    // Example files referenced by $ref are lifted into components/examples by the bundler.
    for (const example of examples)
      add(operation.requestBody!.schema, (resolveLocal(document, example) as { value?: unknown } | undefined)?.value);
  }
  return found;
}

async function targetsOf(name: (typeof interfaces)[number]['name']): Promise<Target[]> {
  const document = JSON.parse(readFileSync(bundledSpecPath(name), 'utf8')) as JsonObject;
  const modules = await loadInterface(name);
  const known = examplesBySchema(document);
  const examplesOf = (schema: Json): unknown[] => known.get(JSON.stringify(schema)) ?? [];
  const targets: Target[] = Object.entries(modules.validators.schemas)
    .filter(([schemaName]) => Object.hasOwn((document.components as JsonObject).schemas as JsonObject, schemaName))
    .map(([schemaName, validator]) => {
      const schema = { $ref: `#/components/schemas/${schemaName}` };
      return { label: `${name} schema ${schemaName}`, schema, validator, document, examples: examplesOf(schema) };
    });
  for (const operation of operationsOf(document)) {
    const set = modules.validators.operations[operation.operationId]!;
    if (operation.requestBody && set.body) {
      targets.push({
        label: `${name} ${operation.operationId} body`,
        schema: operation.requestBody.schema,
        validator: set.body,
        document,
        examples: examplesOf(operation.requestBody.schema),
      });
    }
    for (const location of parameterLocations) {
      const schema = parameterSchema(operation, location);
      const validator = set.parameters[location];
      if (schema && validator)
        targets.push({ label: `${name} ${operation.operationId} ${location}`, schema, validator, document, examples: [] });
    }
    for (const response of operation.responses) {
      const validator = set.responses[response.status];
      if (response.schema && validator) {
        targets.push({
          label: `${name} ${operation.operationId} ${response.status}`,
          schema: response.schema,
          validator,
          document,
          examples: examplesOf(response.schema),
        });
      }
    }
  }
  return targets;
}

/** Schemas with no required member, no strict object and no typed member: nothing a mutation could break. */
const openSchemas: string[] = [
  // Bodies whose shape the interface specification does not show: an open object.
  'accounts schema PixKeyDeleteResponse',
  'accounts keys.delete 200',
  'accounts schema CryptoRiskAccepted',
  'accounts cryptoRiskAnalyses.create 202',
  'accounts schema CryptoRiskEvent',
  // Interface C: answers whose bodies are not shown (section 4.9).
  'messages schema SendReceipt',
  'messages schema DictAnswer',
  ...[
    'pacs002',
    'pacs004',
    'pacs008',
    'pain009',
    'pain011',
    'pain012Authorization',
    'pain012Confirmation',
    'pain013',
    'pain014',
    'camt060',
    'camt055',
    'camt029',
    'reda022',
  ].map((group) => `messages ${group}.send 200`),
  ...['dictKeys.create', 'dictKeys.update', 'dictKeys.list', 'dictKeys.checkExistence', 'dictQrCode.lookup', 'dictFraudMarkers.create'].map(
    (id) => `messages ${id} 200`,
  ),
  // A bare number with a lower bound: the mutations change members, and it has none (its bound is fuzzed inside the messages).
  'messages schema MessageAmount',
];

const targets = (await Promise.all(interfaces.map((info) => targetsOf(info.name)))).flat();

describe('fuzzing every validator', () => {
  it('covers every schema, request body, parameter set and response of every spec', () => {
    expect(targets.length).toBeGreaterThan(100);
  });

  it.each(targets.map((target) => [target.label, target] as const))('%s', (_label, target) => {
    expect(unsupportedKeywords(target.schema, target.document)).toEqual([]);
    const mutationsSeen = new Set<string>();
    // Schemas with oneOf/anyOf/allOf/not are fuzzed from the spec's own examples of them: random values
    // would almost never land in a branch; the rest are generated at random.
    const composed = containsComposition(target.schema, target.document);
    if (composed && target.examples.length === 0) {
      expect(target.label).toMatch(/ schema /); // only a component no example uses may go without
      return;
    }
    const instances = composed ? fc.constantFrom(...target.examples) : arbitraryOf(target.schema, { document: target.document, depth: 0 });
    fc.assert(
      fc.property(instances, (instance) => {
        expect(check(target.validator, instance)).toEqual([]);
        for (const mutation of mutationsOf(target.schema, instance, target.document)) {
          mutationsSeen.add(mutation.description.replace(/\/\d+(\/|$)/g, '/*$1'));
          const mutated = mutation.apply(instance);
          expect(target.validator(mutated), `${mutation.description} of ${JSON.stringify(instance)}`).toBe(false);
        }
      }),
      { numRuns: 40 },
    );
    if (process.env.FUZZ_REPORT) console.log(`${target.label}: ${mutationsSeen.size} kinds of mutation`);
    // Only a schema with nothing to break (an open object of optional members) may see no mutation.
    if (mutationsSeen.size === 0 && !composed) expect(openSchemas).toContain(target.label);
    fc.assert(
      fc.property(
        fc.anything({ withBigInt: true, withDate: true, withMap: true, withSet: true, withTypedArray: true, withNullPrototype: true }),
        (value) => {
          expect(() => target.validator(value)).not.toThrow();
          expect(() => check(target.validator, value)).not.toThrow();
        },
      ),
      { numRuns: 60 },
    );
  });
});

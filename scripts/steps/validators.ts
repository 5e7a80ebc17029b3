/**
 * ajv standalone validators for every component schema, every request body, every parameter location
 * and every response body of an interface, emitted as one ES module plus its declarations.
 */
import { _, Ajv2020, type AnySchemaObject } from 'ajv/dist/2020.js';
import ajvFormatsPlugin from 'ajv-formats';
import ajvStandalone from 'ajv/dist/standalone/index.js';

// CommonJS modules: under NodeNext their callable export is `.default`.
const addFormats = ajvFormatsPlugin.default;
const standaloneCode = ajvStandalone.default;
import { ajvFormats as contratoFormats } from '../../src/formats/registry.js';
import { bannerFor, identifierOf } from '../lib.js';
import { escapeToken } from '../../src/runtime/json-pointer.js';
import { isObject, operationsOf, type Json, type JsonObject, type OperationModel } from '../openapi-model.js';

const schemaMapKeywords = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
const schemaKeywords = [
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
];
const schemaListKeywords = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
/**
 * OpenAPI keywords ajv does not know, and annotations that never affect validity: dropped so the
 * standalone code does not embed every description.
 */
const droppedKeywords = new Set([
  'example',
  'discriminator',
  'xml',
  'externalDocs',
  'title',
  'description',
  'examples',
  '$comment',
  'deprecated',
]);

/**
 * What each pattern of a document accepts, in plain words, and where that was first said. Error messages
 * look the words up by the pattern alone, so one pattern may have only one meaning in a document.
 */
export type PatternMeanings = Map<string, { readonly meaning: string; readonly at: string }>;

function addMeaning(patterns: PatternMeanings, key: string, meaning: string, at: string): void {
  const known = patterns.get(key);
  if (!known) patterns.set(key, { meaning, at });
  else if (known.meaning !== meaning)
    throw new Error(
      `pattern ${key.startsWith('not:') ? `${key.slice('not:'.length)} (under not)` : key} has two x-pattern-descriptions, ${JSON.stringify(known.meaning)} at ${known.at} and ${JSON.stringify(meaning)} at ${at} (one pattern, one meaning: error messages find the words by the pattern): give both the same words saying what the pattern accepts, and move the field's context into its description`,
    );
}

/**
 * Copy of a schema that ajv can compile: annotations and `x-` extensions removed (only where they are
 * keywords, never property names), `#/components/schemas/X` rewritten to the interface's `$defs`. `at`
 * says where the schema is, for the errors.
 */
export function toAjvSchema(schema: Json, componentsId: string, patterns: PatternMeanings = new Map(), at = '#'): Json {
  if (Array.isArray(schema)) return schema.map((item, index) => toAjvSchema(item, componentsId, patterns, `${at}/${index}`));
  if (!isObject(schema)) return schema;
  if (typeof schema.pattern === 'string') {
    // Every pattern says in plain words what it accepts: error messages quote that, not the regex.
    const meaning = schema['x-pattern-description'];
    if (typeof meaning !== 'string' || meaning === '') {
      throw new Error(`pattern ${schema.pattern} has no x-pattern-description (what it accepts, in plain words)`);
    }
    addMeaning(patterns, schema.pattern, meaning, at);
  }
  // A pattern a value must NOT match is listed again under `not:`, so a refusal can say what was excluded.
  if (isObject(schema.not) && typeof schema.not.pattern === 'string' && typeof schema.not['x-pattern-description'] === 'string') {
    addMeaning(patterns, `not:${schema.not.pattern}`, schema.not['x-pattern-description'], `${at}/not`);
  }
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-') || droppedKeywords.has(key)) continue;
    const below = `${at}/${escapeToken(key)}`;
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
      copy.$ref = `${componentsId}#/$defs/${value.slice('#/components/schemas/'.length)}`;
    } else if (schemaMapKeywords.includes(key) && isObject(value)) {
      copy[key] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, toAjvSchema(sub, componentsId, patterns, `${below}/${escapeToken(name)}`)]),
      );
    } else if (schemaKeywords.includes(key) || schemaListKeywords.includes(key)) {
      copy[key] = toAjvSchema(value, componentsId, patterns, below);
    } else {
      copy[key] = value;
    }
  }
  return copy;
}

/** The components of a document as one schema whose `$defs` they are, each located at its place in the bundle. */
function componentsSchema(components: JsonObject, componentsId: string, patterns?: PatternMeanings): AnySchemaObject {
  return {
    $id: componentsId,
    $defs: Object.fromEntries(
      Object.entries(components).map(([name, schema]) => [
        name,
        toAjvSchema(schema, componentsId, patterns, `#/components/schemas/${escapeToken(name)}`),
      ]),
    ),
  };
}

export type ParameterLocation = 'path' | 'query' | 'header';
export const parameterLocations: readonly ParameterLocation[] = ['path', 'query', 'header'];

/** One object schema per parameter location: strict for path and query, open for headers. */
export function parameterSchema(operation: OperationModel, location: ParameterLocation): JsonObject | null {
  const parameters = operation.parameters.filter((parameter) => parameter.in === location);
  if (parameters.length === 0) return null;
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter.schema])),
    required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    additionalProperties: location === 'header',
  };
}

export interface ValidatorNames {
  /** component schema name -> export name */
  readonly schemas: Record<string, string>;
  readonly operations: Record<
    string,
    { body: string | null; parameters: Partial<Record<ParameterLocation, string>>; responses: Record<string, string> }
  >;
}

/** Generated modules live in generated/<interface>/ (and dist/generated/<interface>/ beside dist/src/). */
const formatsImport = 'import { validatorFormats as contratoFormats } from "../../src/formats/validator-formats.js";';

export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    strictTypes: false,
    strictRequired: false,
    // Referenced schemas become shared functions instead of copies inlined at every use.
    inlineRefs: false,
    // Formats are looked up in the table the generated module imports (see formatsImport).
    code: { source: true, esm: true, lines: false, optimize: true, formats: _`contratoFormats` },
  });
  addFormats(ajv);
  for (const [name, check] of Object.entries(contratoFormats)) ajv.addFormat(name, check);
  return ajv;
}

/** Where a check of an operation's arguments applies: a parameter location or the request body. */
export type RequestPart = ParameterLocation | 'body';

/**
 * The compiled validators of an operation's request, in process (the very schemas the standalone module
 * holds): the problems of `value` as `<pointer> <message>` lines, empty when it is valid. Null when the
 * operation has no schema for that part.
 */
export type RequestCheck = (operationId: string, part: RequestPart) => ((value: unknown) => string[]) | null;

/** The checks emitValidators compiled for a bundle, kept for the steps that run after it on the same bundle. */
const compiledChecks = new WeakMap<JsonObject, RequestCheck>();

function requestCheckOf(ajv: Ajv2020, base: string): RequestCheck {
  return (operationId, part) => {
    const validate = ajv.getSchema(`${base}/operations/${operationId}/${part}`);
    if (!validate) return null;
    return (value) =>
      validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? error.keyword}`);
  };
}

/**
 * The request checks of a bundle: those emitValidators compiled for this very document, or the same schemas
 * compiled now (only the request parts of each operation, compiled when first asked for).
 */
export function requestCheckFor(document: JsonObject, interfaceName: string): RequestCheck {
  const cached = compiledChecks.get(document);
  if (cached) return cached;
  const base = `https://contrato.invalid/${interfaceName}`;
  const componentsId = `${base}/components`;
  const ajv = createAjv();
  const components = isObject(document.components) && isObject(document.components.schemas) ? document.components.schemas : {};
  ajv.addSchema(componentsSchema(components, componentsId));
  for (const operation of operationsOf(document)) {
    const id = operation.operationId;
    for (const location of parameterLocations) {
      const schema = parameterSchema(operation, location);
      if (schema)
        ajv.addSchema({
          ...(toAjvSchema(schema, componentsId) as JsonObject),
          $id: `${base}/operations/${id}/${location}`,
        } as AnySchemaObject);
    }
    if (operation.requestBody) {
      ajv.addSchema({
        ...(toAjvSchema(operation.requestBody.schema, componentsId) as JsonObject),
        $id: `${base}/operations/${id}/body`,
      } as AnySchemaObject);
    }
  }
  const check = requestCheckOf(ajv, base);
  compiledChecks.set(document, check);
  return check;
}

/** `source`: the spec the document was bundled from, named in the banners (regenerate always names it). */
export function emitValidators(
  document: JsonObject,
  interfaceName: string,
  source = 'specs/',
): { code: string; declarations: string; names: ValidatorNames; requestCheck: RequestCheck } {
  const banner = `/* ${bannerFor('validators', source)} */`;
  const base = `https://contrato.invalid/${interfaceName}`;
  const componentsId = `${base}/components`;
  const ajv = createAjv();
  const components = isObject(document.components) && isObject(document.components.schemas) ? document.components.schemas : {};
  const patterns: PatternMeanings = new Map();
  ajv.addSchema(componentsSchema(components, componentsId, patterns));

  const exportsToIds: Record<string, string> = {};
  const declarations: string[] = [];
  const names: ValidatorNames = { schemas: {}, operations: {} };

  for (const name of Object.keys(components)) {
    const exportName = `schema_${identifierOf(name)}`;
    exportsToIds[exportName] = `${componentsId}#/$defs/${name}`;
    names.schemas[name] = exportName;
    declarations.push(`export declare const ${exportName}: Validator<components["schemas"][${JSON.stringify(name)}]>;`);
  }

  // `at`: the operation and part the schema is of (a parameter schema is built here, so it has no place in the bundle).
  const addOperationSchema = (exportName: string, id: string, schema: Json, type: string, at: string): void => {
    ajv.addSchema({ ...(toAjvSchema(schema, componentsId, patterns, at) as JsonObject), $id: id } as AnySchemaObject);
    exportsToIds[exportName] = id;
    declarations.push(`export declare const ${exportName}: Validator<${type}>;`);
  };

  for (const operation of operationsOf(document)) {
    const id = operation.operationId;
    const prefix = `operation_${identifierOf(id)}`;
    const opType = `operations[${JSON.stringify(id)}]`;
    const entry: ValidatorNames['operations'][string] = { body: null, parameters: {}, responses: {} };
    for (const location of parameterLocations) {
      const schema = parameterSchema(operation, location);
      if (!schema) continue;
      const exportName = `${prefix}_${location}`;
      addOperationSchema(
        exportName,
        `${base}/operations/${id}/${location}`,
        schema,
        `NonNullable<${opType}["parameters"][${JSON.stringify(location)}]>`,
        `${id} ${location} parameters`,
      );
      entry.parameters[location] = exportName;
    }
    if (operation.requestBody) {
      const exportName = `${prefix}_body`;
      const type = `NonNullable<${opType}["requestBody"]>["content"][${JSON.stringify(operation.requestBody.mediaType)}]`;
      addOperationSchema(exportName, `${base}/operations/${id}/body`, operation.requestBody.schema, type, `${id} request body`);
      entry.body = exportName;
    }
    for (const response of operation.responses) {
      if (!response.schema || !response.mediaType) continue;
      const exportName = `${prefix}_response_${identifierOf(response.status)}`;
      const type = `${opType}["responses"][${/^\d+$/.test(response.status) ? response.status : JSON.stringify(response.status)}]["content"][${JSON.stringify(response.mediaType)}]`;
      addOperationSchema(
        exportName,
        `${base}/operations/${id}/responses/${response.status}`,
        response.schema,
        type,
        `${id} response ${response.status}`,
      );
      entry.responses[response.status] = exportName;
    }
    names.operations[id] = entry;
  }

  const standalone = withRequireShim(standaloneCode(ajv, exportsToIds));
  const table = [
    'export const validators = {',
    `  schemas: { ${Object.entries(names.schemas)
      .map(([name, exp]) => `${JSON.stringify(name)}: ${exp}`)
      .join(', ')} },`,
    '  operations: {',
    ...Object.entries(names.operations).map(([id, entry]) => {
      const parameters = Object.entries(entry.parameters)
        .map(([location, exp]) => `${location}: ${exp}`)
        .join(', ');
      const responses = Object.entries(entry.responses)
        .map(([status, exp]) => `${JSON.stringify(status)}: ${exp}`)
        .join(', ');
      return `    ${JSON.stringify(id)}: { body: ${entry.body ?? 'null'}, parameters: { ${parameters} }, responses: { ${responses} } },`;
    }),
    '  },',
    '};',
    '/** What each pattern of the spec accepts, in plain words (x-pattern-description). */',
    `export const patternDescriptions = ${JSON.stringify(Object.fromEntries([...patterns].map(([pattern, { meaning }]) => [pattern, meaning]).sort()), null, 2)};`,
  ].join('\n');

  const code = `${banner}\n// @ts-nocheck\n${formatsImport}\n${standalone}\n${table}\n`;
  const dts = [
    banner,
    'import type { ErrorObject } from "ajv";',
    'import type { components, operations } from "./types.js";',
    '',
    '/** A compiled JSON Schema check; on failure `errors` lists every violation (ajv `allErrors`). */',
    'export interface Validator<T> {',
    '  (data: unknown): data is T;',
    '  errors?: ErrorObject[] | null;',
    '}',
    '',
    ...declarations,
    '',
    'export interface OperationValidators {',
    '  readonly body: Validator<unknown> | null;',
    '  readonly parameters: { readonly path?: Validator<unknown>; readonly query?: Validator<unknown>; readonly header?: Validator<unknown> };',
    '  readonly responses: Readonly<Record<string, Validator<unknown>>>;',
    '}',
    '',
    'export declare const validators: {',
    `  readonly schemas: { ${Object.entries(names.schemas)
      .map(([name, exp]) => `readonly ${JSON.stringify(name)}: typeof ${exp}`)
      .join('; ')} };`,
    '  readonly operations: Readonly<Record<string, OperationValidators>>;',
    '};',
    '',
    '/** What each pattern of the spec accepts, in plain words (x-pattern-description). */',
    'export declare const patternDescriptions: Readonly<Record<string, string>>;',
    '',
  ].join('\n');
  const requestCheck = requestCheckOf(ajv, base);
  compiledChecks.set(document, requestCheck);
  return { code, declarations: dts, names, requestCheck };
}

/**
 * ajv's ESM output still calls require() for its runtime helpers and formats (CommonJS modules whose
 * `.default` means different things under Node's ESM and under vitest/bundler interop), so give the
 * module a real `require` instead of rewriting those calls.
 */
function withRequireShim(code: string): string {
  const body = code.replace(/^"use strict";/, '');
  if (!body.includes('require(')) return body;
  return `import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\n${body}`;
}

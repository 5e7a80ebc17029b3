/**
 * `contrato validate … response --strict`, for the platform team checking its own answers: the opposite of
 * a client's tolerance (section 9.3). Every `x-known-values` list is closed (an unknown value is refused)
 * and every object that lists its members refuses members it does not list. Compiled at run time from the
 * bundled spec with ajv, since the generated validators are the tolerant ones the clients use.
 */
import { Ajv2020, type AnySchemaObject } from 'ajv/dist/2020.js';
import { validatorFormats } from '../formats/validator-formats.js';
import type { CompiledValidator } from '../runtime/validation.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keywords whose schema describes a value of its own (a member, an item): where an object can be closed. */
const valueKeywords = new Set(['items', 'additionalProperties', 'contains', 'propertyNames']);
const valueMapKeywords = new Set(['properties', 'patternProperties']);
/** Keywords applied in place to the same value: closing there would refuse the siblings' members. */
const inPlaceKeywords = new Set(['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else']);

const componentPrefix = '#/components/schemas/';
/** Keywords that admit members beyond the listed ones: an object with any of them stays as open as it is. */
const openKeywords = ['additionalProperties', 'patternProperties', 'unevaluatedProperties'];

class StrictSchemas {
  readonly #components: Json;
  readonly #base: string;

  constructor(bundle: Json, base: string) {
    this.#components = isObject(bundle.components) && isObject(bundle.components.schemas) ? bundle.components.schemas : {};
    this.#base = base;
  }

  /** The components as a schema document ajv can resolve `…#/$defs/<Name>` in. */
  definitions(): Json {
    return {
      $id: this.#base,
      $defs: Object.fromEntries(Object.entries(this.#components).map(([name, schema]) => [name, this.copy(schema, false)])),
    };
  }

  /** The schemas applied in place with `schema`: its $ref target and the members of allOf, anyOf and oneOf. */
  private inPlaceParts(schema: Json): Json[] {
    const target =
      typeof schema.$ref === 'string' && schema.$ref.startsWith(componentPrefix)
        ? this.#components[schema.$ref.slice(componentPrefix.length)]
        : undefined;
    const members = ['allOf', 'anyOf', 'oneOf'].flatMap((keyword) =>
      Array.isArray(schema[keyword]) ? (schema[keyword] as unknown[]) : [],
    );
    return [target, ...members].filter(isObject);
  }

  /**
   * Whether `schema` lists members and leaves no other member open (no additionalProperties,
   * patternProperties or unevaluatedProperties anywhere it applies in place), following $ref.
   */
  closable(schema: unknown): boolean {
    return isObject(schema) && !this.opens(schema, new Set()) && this.lists(schema, new Set());
  }

  private lists(schema: Json, seen: Set<Json>): boolean {
    if (seen.has(schema)) return false;
    seen.add(schema);
    return isObject(schema.properties) || this.inPlaceParts(schema).some((part) => this.lists(part, seen));
  }

  private opens(schema: Json, seen: Set<Json>): boolean {
    if (seen.has(schema)) return false;
    seen.add(schema);
    if (openKeywords.some((keyword) => keyword in schema)) return true;
    return this.inPlaceParts(schema).some((part) => this.opens(part, seen));
  }

  /** A strict copy: known values closed, objects in value positions closed, component refs into $defs. */
  copy(schema: unknown, valuePosition: boolean): unknown {
    if (Array.isArray(schema)) return schema.map((item) => this.copy(item, valuePosition));
    if (!isObject(schema)) return schema;
    const copy: Json = {};
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(componentPrefix)) {
        copy.$ref = `${this.#base}#/$defs/${value.slice(componentPrefix.length)}`;
      } else if (valueMapKeywords.has(key) && isObject(value)) {
        copy[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, this.copy(sub, true)]));
      } else if (valueKeywords.has(key) || key === 'prefixItems') {
        copy[key] = this.copy(value, true);
      } else if (inPlaceKeywords.has(key) || key === 'dependentSchemas') {
        copy[key] =
          key === 'dependentSchemas' && isObject(value)
            ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, this.copy(sub, false)]))
            : this.copy(value, false);
      } else if (!key.startsWith('x-')) {
        copy[key] = value;
      }
    }
    const known = schema['x-known-values'];
    if (Array.isArray(known) && !('enum' in schema) && !('const' in schema)) {
      // A nullable member keeps null beside its known values.
      const nullable = schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'));
      copy.enum = nullable && !known.includes(null) ? [...known, null] : known;
    }
    if (valuePosition && this.closable(schema)) copy.unevaluatedProperties = false;
    return copy;
  }
}

/** One compiler per bundle: its components are compiled once, however many answers are checked. */
const compilers = new WeakMap<Json, { ajv: Ajv2020; strict: StrictSchemas }>();
let instance = 0;

/** A strict validator of `schema` (a response body schema of `bundle`), checked like the generated ones. */
export function strictValidator(bundle: Json, schema: unknown): CompiledValidator {
  let compiler = compilers.get(bundle);
  if (!compiler) {
    instance += 1;
    const strict = new StrictSchemas(bundle, `https://contrato.invalid/strict/${instance}`);
    // strict: false lets OpenAPI annotations (example, discriminator) through as the keywords they are not.
    const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
    for (const [name, format] of Object.entries(validatorFormats)) ajv.addFormat(name, format as never);
    ajv.addSchema(strict.definitions() as AnySchemaObject);
    compiler = { ajv, strict };
    compilers.set(bundle, compiler);
  }
  return compiler.ajv.compile(compiler.strict.copy(schema, true) as AnySchemaObject) as unknown as CompiledValidator;
}

/** The body schema of `operation`'s response `status` in `bundle` (its JSON media type), or null when it has none. */
export function responseSchema(bundle: Json, method: string, path: string, status: string): unknown {
  const paths = isObject(bundle.paths) ? bundle.paths : {};
  const item = paths[path];
  const operation = isObject(item) ? item[method] : undefined;
  if (!isObject(operation) || !isObject(operation.responses)) return null;
  let response = operation.responses[status];
  if (isObject(response) && typeof response.$ref === 'string') {
    const name = /^#\/components\/responses\/(.+)$/.exec(response.$ref)?.[1];
    const responses = isObject(bundle.components) && isObject(bundle.components.responses) ? bundle.components.responses : {};
    response = name ? responses[name] : undefined;
  }
  if (!isObject(response) || !isObject(response.content)) return null;
  const media = Object.entries(response.content).find(([type]) => /json/.test(type))?.[1];
  return isObject(media) && 'schema' in media ? media.schema : null;
}

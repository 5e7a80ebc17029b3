/**
 * The parameters' rows of the operation table: name, place, whether required, JSON Schema type, and for a query
 * parameter the `style` and `explode` its spec declares — refused when the runtime could not send it in that
 * style and read it back alike (src/runtime/query.ts).
 */
import { type ParameterInfo, type QueryStyle, queryStyles } from '../../src/runtime/contract.js';
import type { OperationModel, ParameterModel } from '../openapi-model.js';

/** The JSON Schema type the table records for a parameter: its own schema's `type`, a $ref not followed. */
const parameterType = (parameter: ParameterModel): string | null =>
  typeof parameter.schema.type === 'string' ? parameter.schema.type : null;

/** `a`, `a or b`, `a, b or c`. */
const oneOf = (words: readonly string[]): string =>
  words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : (words[0] ?? '');

const isQueryStyle = (value: unknown): value is QueryStyle => (queryStyles as readonly unknown[]).includes(value);

/**
 * The query styles the runtime both writes and reads back (src/runtime/query.ts) for a parameter of this type:
 * an object as a deepObject, a list in any list style, one value in the default form.
 */
function sendableStyles(type: string | null): readonly QueryStyle[] {
  if (type === 'object') return queryStyles.filter((style) => style === 'deepObject');
  if (type === 'array') return queryStyles.filter((style) => style !== 'deepObject');
  return queryStyles.filter((style) => style === 'form');
}

/**
 * A parameter's row of the table. A query parameter's `style` and `explode` are recorded only where the spec
 * declares them (a spec without any keeps its table as it was), and regenerate refuses a style the client
 * could send but the checking path not read back alike, or not send at all: what reaches the runtime is what
 * query.ts does. Header and path parameters are written in their default style (simple) only.
 */
export function parameterRow(source: string, model: OperationModel, parameter: ParameterModel): ParameterInfo {
  const type = parameterType(parameter);
  const { style, explode } = parameter;
  const refusal = (what: string): Error =>
    new Error(`${source}: ${model.operationId}: ${parameter.in} parameter ${parameter.name} ${what}`);
  if (explode !== undefined && typeof explode !== 'boolean')
    throw refusal(`declares explode ${JSON.stringify(explode)}: it is true or false`);
  const row: ParameterInfo = { name: parameter.name, in: parameter.in, required: parameter.required, type };
  if (parameter.in === 'path' || parameter.in === 'header') {
    if (style !== undefined && style !== 'simple')
      throw refusal(
        `declares style ${JSON.stringify(style)}, which the runtime cannot send: it sends ${parameter.in} parameters as simple`,
      );
    return row;
  }
  // Cookies are not sent by the runtime: nothing to record.
  if (parameter.in !== 'query') return row;
  const sendable = sendableStyles(type);
  const effective = style ?? 'form';
  if (!isQueryStyle(effective) || !sendable.includes(effective)) {
    const kind = type === null ? 'without a type' : `of type ${type}`;
    const declared = style === undefined ? 'has no style (form by default)' : `declares style ${JSON.stringify(style)}`;
    throw refusal(
      `(${kind}) ${declared}, which the runtime cannot send and read back: it sends a parameter ${kind} as ${oneOf(sendable)} (src/runtime/query.ts)`,
    );
  }
  // deepObject is defined exploded only (OpenAPI's style table), and openapi-fetch writes it so whatever explode says.
  if (effective === 'deepObject' && explode === false)
    throw refusal('declares style deepObject with explode false, which the runtime cannot send: it sends deepObject exploded only');
  return { ...row, ...(style === undefined ? {} : { style: effective }), ...(explode === undefined ? {} : { explode }) };
}

/**
 * openapi-typescript over the bundle. Response-only enums are written `x-known-values` in the specs
 * (section 9.3: new values must not break a client), so they become `'A' | 'B' | (string & {})`.
 */
import openapiTS, { astToString, tsLiteral, tsUnion, type SchemaObject } from 'openapi-typescript';
import ts from 'typescript';
import { bannerFor } from '../lib.js';
import type { JsonObject } from '../openapi-model.js';

const openString = ts.factory.createIntersectionTypeNode([
  ts.factory.createKeywordTypeNode(ts.SyntaxKind.StringKeyword),
  ts.factory.createTypeLiteralNode([]),
]);

/** `source`: the spec the document was bundled from, named in the banner (regenerate always names it). */
export async function emitTypes(document: JsonObject, source = 'specs/'): Promise<string> {
  const ast = await openapiTS(structuredClone(document) as never, {
    alphabetize: false,
    defaultNonNullable: false,
    // An object schema that lists no members (`type: object`, shape not shown) accepts any members: its type
    // is Record<string, unknown>, not openapi-typescript's default Record<string, never> that no value fits.
    emptyObjectsUnknown: true,
    transform(schema: SchemaObject) {
      const known = (schema as { 'x-known-values'?: unknown })['x-known-values'];
      if (!Array.isArray(known)) return undefined;
      const literals = known.map((value) => tsLiteral(value));
      const union = tsUnion([...literals, openString]);
      const nullable = Array.isArray(schema.type) && schema.type.includes('null');
      return nullable ? tsUnion([union, ts.factory.createLiteralTypeNode(ts.factory.createNull())]) : union;
    },
  });
  return `/* ${bannerFor('types', source)} */\n\n${astToString(ast)}`;
}

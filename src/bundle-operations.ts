/**
 * The operations of a bundled OpenAPI document (generated/<interface>/openapi.json), for the parts of the
 * package that read a bundle at run time: the mocks' front, the docs pages and `contrato diff`. (The
 * generators have their fuller model in scripts/openapi-model.ts, which is not shipped.)
 */
import { pointerTokens } from './runtime/json-pointer.js';

/** An object of a bundled document; its members are `unknown` until read and checked. */
type Json = Record<string, unknown>;

export const httpMethods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

/**
 * An operation of a bundle and the path item holding it. Both are objects of the document, so they are
 * given the document's own type: `Record<string, unknown>` for a parsed bundle, or a caller's JSON type.
 */
export interface BundleOperation<Document extends Json = Json> {
  readonly method: (typeof httpMethods)[number];
  readonly path: string;
  readonly operation: Document;
  readonly pathItem: Document;
}

/** The member `key` of any JSON value, as `value?.[key]` reads it (`undefined` for null and undefined). */
function member(value: unknown, key: string): unknown {
  return value === null || value === undefined ? undefined : (Object(value) as Json)[key];
}

/** A local `$ref` (`#/…`) followed until it reaches something else; `{}` when it leads nowhere or in a circle. */
export function resolveLocalRef<Document extends Json>(document: Document, value: unknown): Document {
  const seen = new Set<string>();
  let current = value;
  while (current && typeof current === 'object') {
    const ref = (current as Json).$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) break;
    if (seen.has(ref)) return {} as Document;
    seen.add(ref);
    current = pointerTokens(ref.slice(1)).reduce<unknown>(member, document);
  }
  // What a reference leads to is a part of the document, of the document's type (the caller checks each member it reads).
  return (current ?? {}) as Document;
}

export function bundleOperations<Document extends Json>(document: Document): BundleOperation<Document>[] {
  return Object.entries((document.paths ?? {}) as Json).flatMap(([path, rawItem]) => {
    const pathItem = resolveLocalRef(document, rawItem);
    return httpMethods
      .filter((method) => pathItem[method] && typeof pathItem[method] === 'object')
      .map((method) => ({ method, path, operation: pathItem[method] as Document, pathItem }));
  });
}

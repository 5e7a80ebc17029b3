/**
 * The operations of a bundled OpenAPI document (generated/<interface>/openapi.json), for the parts of the
 * package that read a bundle at run time: the mocks' front, the docs pages and `contrato diff`. (The
 * generators have their fuller model in scripts/openapi-model.ts, which is not shipped.)
 */
import { pointerTokens } from './runtime/json-pointer.js';

// biome-ignore lint/suspicious/noExplicitAny: a bundled OpenAPI document is walked member by member; its shape is checked where it matters.
type Json = Record<string, any>;

export const httpMethods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

export interface BundleOperation {
  readonly method: (typeof httpMethods)[number];
  readonly path: string;
  readonly operation: Json;
  readonly pathItem: Json;
}

/** A local `$ref` (`#/…`) followed until it reaches something else; `{}` when it leads nowhere or in a circle. */
export function resolveLocalRef(document: Json, value: unknown): Json {
  const seen = new Set<string>();
  let current = value as Json;
  while (current && typeof current === 'object' && typeof current.$ref === 'string' && current.$ref.startsWith('#/')) {
    if (seen.has(current.$ref)) return {};
    seen.add(current.$ref);
    current = pointerTokens(current.$ref.slice(1)).reduce<Json | undefined>(
      (node, key) => node?.[key] as Json | undefined,
      document,
    ) as Json;
  }
  return (current ?? {}) as Json;
}

export function bundleOperations(document: Json): BundleOperation[] {
  return Object.entries((document.paths ?? {}) as Json).flatMap(([path, rawItem]) => {
    const pathItem = resolveLocalRef(document, rawItem);
    return httpMethods
      .filter((method) => pathItem[method] && typeof pathItem[method] === 'object')
      .map((method) => ({ method, path, operation: pathItem[method] as Json, pathItem }));
  });
}

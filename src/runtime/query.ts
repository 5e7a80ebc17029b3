/**
 * A query string written and read as each parameter's `style` and `explode` say (OpenAPI 3.1, the query
 * styles): `form` (a list repeated, `id=1&id=2`, or joined, `id=1,2`), `spaceDelimited` and `pipeDelimited`
 * lists (`id=1%202`, `id=1|2`), `deepObject` objects (`filter[status]=ATIVA`). The operation table records each
 * query parameter's style; the send step writes with it (openapi-fetch's own serializers, one parameter at a
 * time) and the one checking path (src/checks/http-check.ts) reads requests back with it. Regenerate refuses a
 * style these two cannot both do (scripts/steps/operations.ts).
 */
import { serializeArrayParam, serializeObjectParam, serializePrimitiveParam } from 'openapi-fetch';
import type { ParameterInfo, QueryStyle } from './contract.js';

/** A query parameter's style with OpenAPI's defaults: form when absent; exploded when absent for form only. */
function styleOf(parameter: ParameterInfo | undefined): { readonly style: QueryStyle; readonly explode: boolean } {
  const style = parameter?.style ?? 'form';
  return { style, explode: parameter?.explode ?? style === 'form' };
}

const queryParameter = (parameters: readonly ParameterInfo[], name: string): ParameterInfo | undefined =>
  parameters.find((each) => each.in === 'query' && each.name === name);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The query string of `query` (no leading `?`), each member written by its parameter's style; absent members
 * (undefined, null, an empty list) are left out. A member no parameter declares is written with the defaults.
 * An object is always written as a deepObject: it is the one object style the reader reads back, and
 * regenerate refuses an object parameter declared in another. A list given for a parameter declared as one
 * value is written in that parameter's style all the same: the validate step refuses it before sending.
 */
export function serializeQuery(parameters: readonly ParameterInfo[], query: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    const { style, explode } = styleOf(queryParameter(parameters, name));
    if (Array.isArray(value)) {
      if (value.length === 0) continue;
      // deepObject is for objects only (regenerate refuses it on a list): a list in such a slot goes as form.
      parts.push(
        style === 'deepObject'
          ? serializeArrayParam(name, value, { style: 'form', explode: true })
          : serializeArrayParam(name, value, { style, explode }),
      );
    } else if (isRecord(value)) {
      // openapi-fetch writes member names as they are; they are data (a space, `&`, `=` would break the pair), so encoded here.
      const members = Object.fromEntries(Object.entries(value).map(([member, item]) => [encodeURIComponent(member), item]));
      parts.push(serializeObjectParam(name, members, { style: 'deepObject', explode: true }));
    } else parts.push(serializePrimitiveParam(name, String(value)));
  }
  // An object without members writes nothing: no empty pair between two others.
  return parts.filter((part) => part !== '').join('&');
}

/** What joins the items of a list that is not exploded, once the query is decoded. */
const separators: Readonly<Record<Exclude<QueryStyle, 'deepObject'>, string>> = { form: ',', spaceDelimited: ' ', pipeDelimited: '|' };

/** `filter[status]` as the deepObject parameter `filter` and its member `status`; undefined when no deepObject parameter owns the name. */
function deepObjectMember(
  parameters: readonly ParameterInfo[],
  name: string,
): { readonly owner: string; readonly member: string } | undefined {
  const match = /^([^[\]]+)\[([^[\]]*)\]$/.exec(name);
  if (!match || queryParameter(parameters, match[1]!)?.style !== 'deepObject') return undefined;
  return { owner: match[1]!, member: match[2]! };
}

/**
 * The query of a request as the values its parameters' styles describe, before their schema types are applied
 * (values stay text): a list for an array parameter (its pairs, or their items split at the style's separator
 * when not exploded), an object for a deepObject one, text otherwise. A name given twice is a list whatever its
 * parameter says, and a name no parameter owns is kept as it came: the schema judges both.
 *
 * `search` is already decoded, so an item holding its list's separator cannot be told from two items: the
 * writer sends `['a,b', 'c']` under form, not exploded, as `id=a%2Cb,c`, and it reads back as `['a', 'b', 'c']`
 * (spaceDelimited cannot tell them apart even on the wire). A list whose items may hold the separator is declared
 * exploded (form's default) in the spec.
 */
export function parseQuery(parameters: readonly ParameterInfo[], search: URLSearchParams): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  const names = [...new Set(search.keys())];
  const listOrOne = (values: string[]): string | string[] => (values.length > 1 ? values : values[0]!);
  for (const name of names) {
    if (deepObjectMember(parameters, name)) continue;
    const parameter = queryParameter(parameters, name);
    const values = search.getAll(name);
    if (parameter?.type === 'array') {
      const { style, explode } = styleOf(parameter);
      query[name] = explode || style === 'deepObject' ? values : values.flatMap((value) => value.split(separators[style]));
    } else query[name] = listOrOne(values);
  }
  // The members of deepObject parameters after the plain names, so `filter=x` with `filter[a]=1` keeps both, in any order.
  for (const name of names) {
    const owned = deepObjectMember(parameters, name);
    if (!owned) continue;
    const slot = query[owned.owner];
    // The parameter also came plain: the member is kept as it came, and the schema refuses the mix.
    if (slot !== undefined && !isRecord(slot)) query[name] = listOrOne(search.getAll(name));
    else query[owned.owner] = { ...slot, [owned.member]: listOrOne(search.getAll(name)) };
  }
  return query;
}

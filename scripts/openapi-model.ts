/**
 * A typed view of the bundled OpenAPI document, shared by the steps that emit validators and the
 * operation table: resolves local $refs, merges path-level and operation-level parameters.
 */
import { bundleOperations, httpMethods } from '../src/bundle-operations.js';
import { pointerTokens } from '../src/runtime/json-pointer.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

// One list of methods, in one order, for the generators and the package's own bundle reader.
export { httpMethods };

export interface ParameterModel {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly required: boolean;
  readonly schema: JsonObject;
  /** The parameter's example (its own `example`, its first `examples` entry, or its schema's). */
  readonly example: Json | undefined;
  /** Its `style` and `explode` as the spec writes them (undefined when absent); the operations step judges them. */
  readonly style: Json | undefined;
  readonly explode: Json | undefined;
}

export interface ResponseModel {
  readonly status: string;
  /** Media type and schema of the JSON body, when the response has one. */
  readonly mediaType: string | null;
  readonly schema: JsonObject | null;
  readonly exampleNames: readonly string[];
}

export interface OperationModel {
  readonly operationId: string;
  readonly method: (typeof httpMethods)[number];
  readonly path: string;
  readonly summary: string;
  readonly description: string;
  readonly operation: JsonObject;
  readonly parameters: readonly ParameterModel[];
  readonly requestBody: { mediaType: string; schema: JsonObject; required: boolean; exampleNames: string[] } | null;
  readonly responses: readonly ResponseModel[];
  readonly scopes: readonly string[];
  /** True when the call needs a bearer token (oauth2, OpenID Connect or HTTP bearer), not only the client certificate. */
  readonly secured: boolean;
  /** True when the call authenticates the client with HTTP Basic (the OAuth token request of the API Pix). */
  readonly basicAuth: boolean;
  /** Header of an API-key token scheme (`svc-token`); null when the token goes as `Authorization: Bearer`. */
  readonly tokenHeader: string | null;
  /** The Link Objects of its success responses: the operations that consume what it made. */
  readonly links: readonly LinkModel[];
}

/**
 * An OpenAPI Link Object of a success response: the consumer operation (same document, by operationId) and
 * where its values come from. Contract knowledge shared by the code samples and the contract's verifier.
 */
export interface LinkModel {
  /** The producer's response status that declares the link. */
  readonly status: string;
  /** The link's key (by convention the consumer's operationId). */
  readonly name: string;
  /** The consumer's operationId; '' when the link names none (`operationRef` is not supported). */
  readonly operationId: string;
  /** Consumer parameter (`txid`, or `path.txid` when the name is ambiguous) → runtime expression. */
  readonly parameters: Readonly<Record<string, string>>;
  /** `x-body`: JSON pointer into the consumer's request body → runtime expression. */
  readonly body: Readonly<Record<string, string>>;
}

// The link expressions are read by the generators and by `contrato verify` alike: one parser, in src/.
export { type LinkExpression, linkExpressionForms, parseLinkExpression } from '../src/link-expression.js';

/** A consumer parameter a link key names: `txid` (unique by name) or `path.txid`; null when none or ambiguous. */
export function linkedParameter(consumer: OperationModel, key: string): ParameterModel | null {
  const qualified = /^(path|query|header|cookie)\.(.+)$/.exec(key);
  const matches = consumer.parameters.filter((parameter) =>
    qualified
      ? parameter.in === qualified[1] && parameter.name.toLowerCase() === qualified[2]!.toLowerCase()
      : parameter.name.toLowerCase() === key.toLowerCase(),
  );
  return matches.length === 1 ? matches[0]! : null;
}

/**
 * The schema a JSON pointer reaches inside `schema` (through $refs, allOf, the first oneOf/anyOf branch holding
 * the member, array items), and whether a step on the way may be absent; null when the pointer leaves it.
 */
export function schemaAtPointer(
  document: JsonObject,
  schema: Json | undefined,
  pointer: string,
): { readonly schema: JsonObject; readonly optional: boolean } | null {
  let current = resolveLocal(document, schema);
  let optional = false;
  for (const token of pointerTokens(pointer)) {
    const step = memberSchema(document, current, token, 0);
    if (!step) return null;
    current = step.schema;
    optional ||= step.optional;
  }
  return isObject(current) ? { schema: current, optional } : null;
}

function memberSchema(
  document: JsonObject,
  raw: Json | undefined,
  token: string,
  depth: number,
): { schema: JsonObject; optional: boolean } | null {
  const schema = resolveLocal(document, raw);
  if (!isObject(schema) || depth > 8) return null;
  const properties = isObject(schema.properties) ? schema.properties : {};
  const member = resolveLocal(document, properties[token]);
  if (isObject(member)) {
    const required = Array.isArray(schema.required) && schema.required.includes(token);
    return { schema: member, optional: !required };
  }
  if (/^(0|[1-9][0-9]*)$/.test(token) && schema.items !== undefined) {
    const item = resolveLocal(document, schema.items);
    return isObject(item) ? { schema: item, optional: true } : null;
  }
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    const parts = schema[key];
    if (!Array.isArray(parts)) continue;
    for (const part of parts) {
      const found = memberSchema(document, part, token, depth + 1);
      // Through a oneOf/anyOf branch the member is there only when that branch is the one answered.
      if (found) return key === 'allOf' ? found : { schema: found.schema, optional: true };
    }
  }
  return null;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function resolveLocal(document: JsonObject, value: Json | undefined): Json | undefined {
  let current = value;
  const seen = new Set<string>();
  while (isObject(current) && typeof current.$ref === 'string' && current.$ref.startsWith('#/')) {
    const ref = current.$ref;
    if (seen.has(ref)) throw new Error(`circular $ref ${ref}`);
    seen.add(ref);
    current = pointerGet(document, ref.slice(1));
  }
  return current;
}

export function pointerGet(document: Json, pointer: string): Json | undefined {
  let current: Json | undefined = document;
  for (const key of pointerTokens(pointer)) {
    if (Array.isArray(current)) current = current[Number(key)];
    else if (isObject(current)) current = current[key];
    else return undefined;
  }
  return current;
}

/** The first JSON media type of a content map (application/json, application/problem+json, ...). */
function jsonMedia(content: Json | undefined): { mediaType: string; media: JsonObject } | null {
  if (!isObject(content)) return null;
  for (const [mediaType, media] of Object.entries(content)) {
    if (/[/+]json$/.test(mediaType) && isObject(media)) return { mediaType, media };
  }
  return null;
}

function exampleOfSchema(document: JsonObject, schema: JsonObject): Json | undefined {
  const resolved = resolveLocal(document, schema);
  if (!isObject(resolved)) return undefined;
  // An enum's first member is as good an example as any.
  return (
    resolved.example ??
    (Array.isArray(resolved.examples) ? resolved.examples[0] : undefined) ??
    (Array.isArray(resolved.enum) ? resolved.enum[0] : undefined)
  );
}

function soleMedia(content: Json | undefined): { mediaType: string; media: JsonObject } | null {
  if (!isObject(content)) return null;
  const entries = Object.entries(content);
  const [mediaType, media] = entries[0] ?? [];
  return entries.length === 1 && mediaType && isObject(media) ? { mediaType, media } : null;
}

/**
 * A form body, validated as the object of its fields: url-encoded (the OAuth token request of the API
 * Pix) or multipart (the onboarding image upload, whose file part is checked by the client).
 */
function formMedia(content: Json | undefined): { mediaType: string; media: JsonObject } | null {
  if (!isObject(content)) return null;
  for (const mediaType of ['application/x-www-form-urlencoded', 'multipart/form-data']) {
    const media = content[mediaType];
    if (isObject(media)) return { mediaType, media };
  }
  return null;
}

function exampleNamesOf(media: JsonObject): string[] {
  return isObject(media.examples) ? Object.keys(media.examples) : [];
}

export function operationsOf(document: JsonObject): OperationModel[] {
  const result: OperationModel[] = [];
  const globalSecurity = document.security;
  // Which operations a bundle holds is read by the package's own reader, the one the mocks and docs use.
  for (const { path, method, pathItem: item, operation } of bundleOperations(document)) {
    const operationId = String(operation.operationId ?? '');
    if (!operationId) throw new Error(`${method.toUpperCase()} ${path} has no operationId`);

    const byKey = new Map<string, ParameterModel>();
    for (const list of [item.parameters, operation.parameters]) {
      if (!Array.isArray(list)) continue;
      for (const raw of list) {
        const parameter = resolveLocal(document, raw);
        if (!isObject(parameter)) continue;
        const schema = isObject(parameter.schema) ? parameter.schema : {};
        const named = isObject(parameter.examples) ? Object.values(parameter.examples)[0] : undefined;
        const model: ParameterModel = {
          name: String(parameter.name),
          in: parameter.in as ParameterModel['in'],
          required: parameter.required === true || parameter.in === 'path',
          schema,
          example: parameter.example ?? (isObject(named) ? named.value : undefined) ?? exampleOfSchema(document, schema),
          style: parameter.style,
          explode: parameter.explode,
        };
        byKey.set(`${model.in}:${model.name.toLowerCase()}`, model);
      }
    }

    let requestBody: OperationModel['requestBody'] = null;
    const body = resolveLocal(document, operation.requestBody);
    if (isObject(body)) {
      const json = jsonMedia(body.content) ?? formMedia(body.content);
      if (json && isObject(json.media.schema)) {
        requestBody = {
          mediaType: json.mediaType,
          schema: json.media.schema,
          required: body.required === true,
          exampleNames: exampleNamesOf(json.media),
        };
      }
    }

    const responses: ResponseModel[] = [];
    const rawResponses = isObject(operation.responses) ? operation.responses : {};
    for (const [status, rawResponse] of Object.entries(rawResponses)) {
      const response = resolveLocal(document, rawResponse);
      // JSON first; otherwise the one media type a response declares (a JWS of the payload locations).
      const json = isObject(response) ? (jsonMedia(response.content) ?? soleMedia(response.content)) : null;
      responses.push({
        status,
        mediaType: json?.mediaType ?? null,
        schema: json && isObject(json.media.schema) ? json.media.schema : null,
        exampleNames: json ? exampleNamesOf(json.media) : [],
      });
    }

    const security = operation.security ?? globalSecurity;
    const scopes = new Set<string>();
    let secured = false;
    let basicAuth = false;
    let tokenHeader: string | null = null;
    if (Array.isArray(security)) {
      for (const requirement of security) {
        if (!isObject(requirement)) continue;
        for (const [scheme, list] of Object.entries(requirement)) {
          // mutualTLS is satisfied by the transport; only token schemes need a bearer header.
          const type = pointerGet(document, `/components/securitySchemes/${scheme}/type`);
          const httpScheme = String(pointerGet(document, `/components/securitySchemes/${scheme}/scheme`) ?? '').toLowerCase();
          if (type === 'http' && httpScheme === 'basic') basicAuth = true;
          // An API key in a header is a token too (interface C's svc-token); the runtime says how it is sent.
          const headerKey = type === 'apiKey' && pointerGet(document, `/components/securitySchemes/${scheme}/in`) === 'header';
          if (type !== 'oauth2' && type !== 'openIdConnect' && !(type === 'http' && httpScheme === 'bearer') && !headerKey) continue;
          if (headerKey) tokenHeader = String(pointerGet(document, `/components/securitySchemes/${scheme}/name`));
          secured = true;
          if (Array.isArray(list)) for (const scope of list) scopes.add(String(scope));
        }
      }
    }

    result.push({
      operationId,
      method,
      path,
      summary: String(operation.summary ?? ''),
      description: String(operation.description ?? ''),
      operation,
      parameters: [...byKey.values()],
      requestBody,
      responses,
      scopes: [...scopes],
      secured,
      basicAuth,
      tokenHeader,
      links: linksOf(document, rawResponses),
    });
  }
  return result;
}

/** The Link Objects of the success responses, in the responses' order. */
function linksOf(document: JsonObject, responses: JsonObject): LinkModel[] {
  const result: LinkModel[] = [];
  for (const [status, rawResponse] of Object.entries(responses)) {
    const response = resolveLocal(document, rawResponse);
    if (!/^2\d\d$/.test(status) || !isObject(response) || !isObject(response.links)) continue;
    for (const [name, rawLink] of Object.entries(response.links)) {
      const link = resolveLocal(document, rawLink);
      if (!isObject(link)) continue;
      const strings = (value: Json | undefined): Record<string, string> =>
        isObject(value) ? Object.fromEntries(Object.entries(value).map(([key, each]) => [key, String(each)])) : {};
      result.push({
        status,
        name,
        operationId: typeof link.operationId === 'string' ? link.operationId : '',
        parameters: strings(link.parameters),
        body: strings(link['x-body']),
      });
    }
  }
  return result;
}

/** A webhook delivery described under `webhooks:` (OpenAPI 3.1): the event type and its payload schema. */
export interface WebhookModel {
  readonly type: string;
  readonly operationId: string;
  readonly summary: string;
  /** Name of the component schema of the payload. */
  readonly schema: string;
}

export function webhooksOf(document: JsonObject): WebhookModel[] {
  const webhooks = isObject(document.webhooks) ? document.webhooks : {};
  return Object.entries(webhooks).map(([type, rawItem]) => {
    const item = resolveLocal(document, rawItem);
    const operation = isObject(item) && isObject(item.post) ? item.post : null;
    const body = operation ? resolveLocal(document, operation.requestBody) : null;
    const media = isObject(body) ? jsonMedia(body.content) : null;
    const ref = media && isObject(media.media.schema) ? media.media.schema.$ref : undefined;
    if (!operation || typeof ref !== 'string' || !ref.startsWith('#/components/schemas/')) {
      throw new Error(`webhook ${type}: needs a POST whose JSON body is a $ref to a component schema`);
    }
    return {
      type,
      operationId: String(operation.operationId ?? ''),
      summary: String(operation.summary ?? ''),
      schema: ref.slice('#/components/schemas/'.length),
    };
  });
}

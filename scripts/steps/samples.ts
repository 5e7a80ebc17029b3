/**
 * Code samples on every operation (`x-codeSamples`, shown by Redoc beside the operation), made from the
 * operation table of the bundle, never written by hand:
 *
 * - **TypeScript**: the interface's client built for the local sandbox (`npx contrato sandbox`, its
 *   credentials of docs/guides/sandbox.md) and the call by its facade method (`client.feeRules.create`)
 *   with the spec's own example arguments: the required parameters (their examples) and the request
 *   body's first named example;
 * - **curl**: the same request against the sandbox, its token fetched first by the interface's own token
 *   operation (the one answering the token that the other operations present).
 *
 * Every argument a sample sends is checked with the generated validators (the ajv schemas of the
 * validators step, compiled in process) before the sample is written: a sample a validator refuses fails
 * regenerate. test/docs/samples.test.ts runs samples of every interface against a sandbox.
 */
import { findDefinition, type InterfaceInfo } from '../../src/interfaces.js';
import {
  clientFactoryOf,
  type SandboxClientDefinition,
  sandboxClientOf,
  sandboxPrefixOf,
  sandboxSecret,
} from '../../src/runtime/definition.js';
import { isObject, operationsOf, resolveLocal, type Json, type JsonObject, type OperationModel } from '../openapi-model.js';
import { samplePlanOf } from './sample-chains.js';
import {
  Code,
  curlSample,
  quoteTs,
  type SampleRequest,
  type SampleValue,
  tokenLines,
  tokenMemberOf,
  typescriptSample,
} from './sample-sources.js';
import { type RequestCheck, type RequestPart, requestCheckFor } from './validators.js';

export { tsLiteral } from './sample-sources.js';

/** Where `npx contrato sandbox` listens by default (src/sandbox/modules.ts `sandboxPort`). */
export const sandboxOrigin = 'http://127.0.0.1:4010';

/** How a sample's client presents the sandbox credential of its interface (the definition's `sandbox.client`). */
export type SampleCredential = SandboxClientDefinition & { readonly clientId: string };

/** Everything a document's samples need to know besides its operations. */
export interface SampleTarget {
  /** The spec document (`pix-location`). */
  readonly document: string;
  /** Package subpath of its client (`contrato/pix`). */
  readonly module: string;
  /** The client factory (`createPixClient`). */
  readonly factory: string;
  /** Base URL of the client: the sandbox address of the interface's first document. */
  readonly clientBaseUrl: string;
  /** Base URL of this document's operations at the sandbox. */
  readonly baseUrl: string;
  readonly credential: SampleCredential;
  readonly secret: string;
  /** operationId -> reader of `client.locations`, for documents read through readers. */
  readonly readers?: Readonly<Record<string, string>>;
  /** operationId -> the credential of its sample, for operations only another kind of caller may make. */
  readonly credentialByOperation?: Readonly<Record<string, SampleCredential>>;
}

/**
 * The samples' target of a spec document of src/interfaces.ts, from its definition: the sandbox prefixes of
 * the document and of the interface's first one, the client and credential of `sandbox.client`, the readers.
 */
export function sampleTargetOf(info: Pick<InterfaceInfo, 'name' | 'interfaceName'>): SampleTarget {
  const definition = findDefinition(info.interfaceName);
  const document = definition?.documents.find((each) => each.name === info.name);
  if (!definition || !document) throw new Error(`code samples: ${info.name} is no document of an interface of src/interfaces.ts`);
  const main = definition.documents[0];
  const readers = document.sandbox?.readers;
  const byOperation = Object.keys(definition.sandbox?.clientByOperation ?? {});
  return {
    document: info.name,
    module: `contrato/${definition.name}`,
    factory: clientFactoryOf(definition),
    clientBaseUrl: `${sandboxOrigin}${sandboxPrefixOf(main)}`,
    baseUrl: `${sandboxOrigin}${sandboxPrefixOf(document)}`,
    credential: sandboxClientOf(definition),
    secret: sandboxSecret,
    ...(readers ? { readers } : {}),
    ...(byOperation.length > 0
      ? { credentialByOperation: Object.fromEntries(byOperation.map((id) => [id, sandboxClientOf(definition, id)])) }
      : {}),
  };
}

// ---------------------------------------------------------------------------------------------------
// The arguments of a sample

/** Which credential a body member carries by its name (`client_id`, `clientSecret`), or null. */
export const credentialMember = (name: string): 'id' | 'secret' | null =>
  /^client_?id$/i.test(name) ? 'id' : /^client_?secret$/i.test(name) ? 'secret' : null;

function mediaOf(document: JsonObject, model: OperationModel): JsonObject | null {
  if (!model.requestBody) return null;
  const body = resolveLocal(document, model.operation.requestBody);
  const content = isObject(body) && isObject(body.content) ? body.content : {};
  const media = content[model.requestBody.mediaType];
  return isObject(media) ? media : null;
}

function resolvedSchema(document: JsonObject, schema: Json | undefined): JsonObject {
  const resolved = resolveLocal(document, schema);
  return isObject(resolved) ? resolved : {};
}

/** The first named example of the request body, or null when it has none. */
function bodyExample(document: JsonObject, model: OperationModel): Json | undefined {
  const media = mediaOf(document, model);
  const name = model.requestBody?.exampleNames[0];
  if (!media || !name || !isObject(media.examples)) return undefined;
  const example = resolveLocal(document, media.examples[name]);
  return isObject(example) ? example.value : undefined;
}

const formats: Readonly<Record<string, string>> = {
  date: '2026-01-15',
  'date-time': '2026-01-15T10:30:00Z',
  uuid: '3f2b8c1e-6d4a-4e5b-9a7c-1d2e3f4a5b6c',
  email: 'someone@example.com',
  uri: 'https://example.com/',
};

/**
 * A value of a schema when the spec gives no example: its own example, default, const or first enum
 * member, else the required members of an object and one item of a non-empty array. Undefined when a
 * pattern or an unknown format would have to be guessed (regenerate then fails, naming the operation).
 */
export function valueOfSchema(document: JsonObject, raw: Json | undefined, depth = 0): Json | undefined {
  const schema = resolvedSchema(document, raw);
  if (depth > 12) return undefined;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  for (const key of ['oneOf', 'anyOf']) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length > 0) return valueOfSchema(document, branches[0], depth + 1);
  }
  if (Array.isArray(schema.allOf)) {
    const merged: JsonObject = {};
    for (const part of schema.allOf) {
      const value = valueOfSchema(document, part, depth + 1);
      if (!isObject(value)) return value;
      Object.assign(merged, value);
    }
    return merged;
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const properties = isObject(schema.properties) ? schema.properties : {};
      const value: JsonObject = {};
      for (const name of Array.isArray(schema.required) ? schema.required.map(String) : []) {
        const member = valueOfSchema(document, properties[name], depth + 1);
        if (member === undefined) return undefined;
        value[name] = member;
      }
      return value;
    }
    case 'array': {
      const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
      if (minItems === 0) return [];
      const item = valueOfSchema(document, schema.items, depth + 1);
      return item === undefined ? undefined : Array.from({ length: minItems }, () => item);
    }
    case 'string': {
      if (typeof schema.pattern === 'string') return undefined;
      if (typeof schema.format === 'string') return formats[schema.format];
      const length = typeof schema.minLength === 'number' ? schema.minLength : 1;
      return 'x'.repeat(Math.max(length, 1));
    }
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number'
        ? schema.minimum
        : typeof schema.exclusiveMinimum === 'number'
          ? schema.exclusiveMinimum + 1
          : 1;
    case 'boolean':
      return true;
    default:
      return undefined;
  }
}

const extensions: Readonly<Record<string, string>> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'application/pdf': 'pdf' };

/** A multipart body: its binary members become a file read (TypeScript) and a `-F name=@file` part (curl). */
function withFiles(document: JsonObject, model: OperationModel, body: Json): SampleValue {
  if (model.requestBody?.mediaType !== 'multipart/form-data' || !isObject(body)) return body;
  const schema = resolvedSchema(document, model.requestBody.schema);
  const properties = isObject(schema.properties) ? schema.properties : {};
  const encoding = isObject(mediaOf(document, model)?.encoding) ? (mediaOf(document, model)!.encoding as JsonObject) : {};
  const result: { [key: string]: SampleValue } = {};
  for (const [name, value] of Object.entries(body)) {
    const member = resolvedSchema(document, properties[name]);
    if (member.format !== 'binary') {
      result[name] = value;
      continue;
    }
    const declared = isObject(encoding[name]) ? String((encoding[name] as JsonObject).contentType ?? '') : '';
    const mediaType = declared.split(',')[0]!.trim() || 'application/octet-stream';
    const file = `${name}.${extensions[mediaType] ?? 'bin'}`;
    result[name] = new Code(`readFileSync(${quoteTs(file)})`, `@${file};type=${mediaType}`);
  }
  return result;
}

/** The body with the sandbox credential in the members that carry the client's id and secret. */
function withCredential(body: Json, target: SampleTarget): Json {
  if (!isObject(body)) return body;
  return Object.fromEntries(
    Object.entries(body).map(([name, value]) => {
      const member = credentialMember(name);
      return [name, member === 'id' ? target.credential.clientId : member === 'secret' ? target.secret : value];
    }),
  );
}

/** The request a sample sends for an operation, every part checked with the generated validators. */
export function sampleRequestOf(document: JsonObject, model: OperationModel, target: SampleTarget, check: RequestCheck): SampleRequest {
  const id = model.operationId;
  const idempotencyHeader = typeof model.operation['x-idempotency-key'] === 'string' ? model.operation['x-idempotency-key'] : null;
  const args: { path?: JsonObject; query?: JsonObject; header?: JsonObject; body?: SampleValue } = {};
  const addedHeaders: Record<string, SampleValue> = {};
  const accountId = target.credential.options?.accountId;
  for (const parameter of model.parameters) {
    const isAccountHeader = parameter.in === 'header' && parameter.name.toLowerCase() === 'x-account-id';
    if (isAccountHeader && accountId !== undefined) {
      addedHeaders[parameter.name] = accountId;
      continue;
    }
    if (!parameter.required || parameter.in === 'cookie') continue;
    const value = parameter.example ?? valueOfSchema(document, parameter.schema);
    if (value === undefined) throw new Error(`code samples: ${id}: parameter ${parameter.name} has no example`);
    if (parameter.in === 'header' && parameter.name === idempotencyHeader) {
      addedHeaders[parameter.name] = value;
      continue;
    }
    const location = parameter.in as 'path' | 'query' | 'header';
    args[location] = { ...args[location], [parameter.name]: value };
  }
  let body: Json | undefined;
  if (model.requestBody) {
    body = bodyExample(document, model) ?? valueOfSchema(document, model.requestBody.schema);
    if (body === undefined) throw new Error(`code samples: ${id}: the request body has no example and none can be made from its schema`);
    if (!model.secured) body = withCredential(body, target);
    args.body = withFiles(document, model, body);
  }

  const checked: [RequestPart, unknown][] = [
    ['path', args.path ?? {}],
    ['query', args.query ?? {}],
    ['header', { ...args.header, ...addedHeaders }],
    ...(body === undefined ? [] : [['body', body] as [RequestPart, unknown]]),
  ];
  for (const [part, value] of checked) {
    const issues = check(id, part)?.(value) ?? [];
    if (issues.length > 0)
      throw new Error(`code samples: ${id}: the sample's ${part} is refused by the generated validators:\n  ${issues.join('\n  ')}`);
  }
  return { model, args, addedHeaders };
}

// ---------------------------------------------------------------------------------------------------

export interface CodeSample {
  readonly lang: string;
  readonly label: string;
  readonly source: string;
}

/** The operation that issues the token of the others: unsecured, it takes the credential and answers a token. */
export function tokenOperationOf(document: JsonObject, models: readonly OperationModel[]): OperationModel | null {
  return (
    models.find((model) => {
      if (model.secured || !model.requestBody || tokenMemberOf(document, model) === null) return false;
      if (model.basicAuth) return true;
      const schema = resolvedSchema(document, model.requestBody.schema);
      return Object.keys(isObject(schema.properties) ? schema.properties : {}).some((name) => credentialMember(name) === 'id');
    }) ?? null
  );
}

/** The token request a curl sample sends: only what it requires (the credential and its grant, no narrower scope). */
function tokenBody(document: JsonObject, token: OperationModel, target: SampleTarget): Json {
  const example = bodyExample(document, token) ?? valueOfSchema(document, token.requestBody!.schema);
  const schema = resolvedSchema(document, token.requestBody!.schema);
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const minimal = isObject(example) ? Object.fromEntries(Object.entries(example).filter(([name]) => required.has(name))) : example;
  return withCredential(minimal ?? {}, target);
}

/**
 * The samples of every operation of a bundle, by operationId. An operation another one's success response
 * links to runs that producer first (scripts/steps/sample-chains.ts) and takes the values the link names.
 */
export function codeSamplesOf(document: JsonObject, target: SampleTarget, check: RequestCheck): Map<string, CodeSample[]> {
  const models = operationsOf(document);
  const token = tokenOperationOf(document, models);
  const samples = new Map<string, CodeSample[]>();
  for (const model of models) {
    // The whole sample acts as one caller: the operation's own when only another kind may make it.
    const credential = target.credentialByOperation?.[model.operationId];
    const at: SampleTarget = credential ? { ...target, credential } : target;
    const requestOf = (each: OperationModel): SampleRequest => sampleRequestOf(document, each, at, check);
    const plan = samplePlanOf(document, models, model, requestOf);
    const tokenCommand = (): string[] => {
      if (!token) throw new Error(`code samples: ${model.operationId} needs a token and ${target.document} has no token operation`);
      return tokenLines(document, token, tokenBody(document, token, at), at, check);
    };
    samples.set(model.operationId, [
      { lang: 'TypeScript', label: 'TypeScript', source: typescriptSample(plan, at) },
      { lang: 'Shell', label: 'curl', source: curlSample(plan, at, tokenCommand) },
    ]);
  }
  return samples;
}

/**
 * The bundle with `x-codeSamples` on every operation (a copy; the document given is not changed). An
 * operation that already has samples is refused: they are generated, never written in specs/.
 */
export function withCodeSamples(
  document: JsonObject,
  info: Pick<InterfaceInfo, 'name' | 'interfaceName'>,
  check: RequestCheck = requestCheckFor(document, info.name),
): JsonObject {
  return withSamplesOf(document, sampleTargetOf(info), check);
}

export function withSamplesOf(document: JsonObject, target: SampleTarget, check: RequestCheck): JsonObject {
  const samples = codeSamplesOf(document, target, check);
  const copy = structuredClone(document);
  for (const model of operationsOf(copy)) {
    const operation = model.operation;
    if (operation['x-codeSamples'] !== undefined || operation['x-code-samples'] !== undefined) {
      throw new Error(`${model.operationId}: x-codeSamples are generated (scripts/steps/samples.ts); remove them from specs/`);
    }
    operation['x-codeSamples'] = samples.get(model.operationId)! as unknown as Json;
  }
  return copy;
}

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
import { type RequestCheck, type RequestPart, requestCheckFor } from './validators.js';

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
  return {
    document: info.name,
    module: `contrato/${definition.name}`,
    factory: clientFactoryOf(definition),
    clientBaseUrl: `${sandboxOrigin}${sandboxPrefixOf(main)}`,
    baseUrl: `${sandboxOrigin}${sandboxPrefixOf(document)}`,
    credential: sandboxClientOf(definition),
    secret: sandboxSecret,
    ...(readers ? { readers } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------
// The arguments of a sample

/** Source text inside a TypeScript literal (a file read), and what curl sends in its place. */
class Code {
  constructor(
    readonly source: string,
    readonly curlForm: string,
  ) {}
}
type SampleValue = Json | Code | SampleValue[] | { [key: string]: SampleValue };

/** A request as a sample makes it: the facade's arguments plus what the runtime adds. */
export interface SampleRequest {
  readonly model: OperationModel;
  /** The facade call's argument: required parameters by location, and the body. */
  readonly args: { path?: JsonObject; query?: JsonObject; header?: JsonObject; body?: SampleValue };
  /** Headers curl must send that the client adds itself: the idempotency key, the child account. */
  readonly addedHeaders: JsonObject;
}

const credentialMember = (name: string): 'id' | 'secret' | null =>
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
  const addedHeaders: JsonObject = {};
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
// TypeScript

function quoteTs(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r')}'`;
}

const identifierPattern = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A value as a TypeScript literal: unquoted keys where they can be, on one line when it fits in `width`. */
export function tsLiteral(value: SampleValue, indent = 0, width = 100): string {
  const inline = tsInline(value);
  if (indent * 2 + inline.length <= width || !(Array.isArray(value) || (isPlainObject(value) && Object.keys(value).length > 0)))
    return inline;
  const pad = '  '.repeat(indent + 1);
  const close = '  '.repeat(indent);
  if (Array.isArray(value)) return `[\n${value.map((item) => `${pad}${tsLiteral(item, indent + 1, width)},`).join('\n')}\n${close}]`;
  const entries = Object.entries(value as Record<string, SampleValue>);
  return `{\n${entries.map(([key, item]) => `${pad}${tsKey(key)}: ${tsLiteral(item, indent + 1, width)},`).join('\n')}\n${close}}`;
}

function isPlainObject(value: SampleValue): value is { [key: string]: SampleValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Code);
}

const tsKey = (key: string): string => (identifierPattern.test(key) ? key : quoteTs(key));

function tsInline(value: SampleValue): string {
  if (value instanceof Code) return value.source;
  if (typeof value === 'string') return quoteTs(value);
  if (value === null || typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return `[${value.map(tsInline).join(', ')}]`;
  const entries = Object.entries(value);
  return entries.length === 0 ? '{}' : `{ ${entries.map(([key, item]) => `${tsKey(key)}: ${tsInline(item)}`).join(', ')} }`;
}

function hasSuccessBody(model: OperationModel): boolean {
  return model.responses.some((response) => /^2\d\d$/.test(response.status) && response.mediaType !== null);
}

function containsCode(value: SampleValue | undefined): boolean {
  if (value instanceof Code) return true;
  if (Array.isArray(value)) return value.some(containsCode);
  return isPlainObject(value ?? null) && Object.values(value as Record<string, SampleValue>).some(containsCode);
}

/** The TypeScript sample: the client of the interface at the sandbox, the call, what it resolves to. */
export function typescriptSample(request: SampleRequest, target: SampleTarget): string {
  const { model, args } = request;
  const { credential } = target;
  const readsFiles = credential.pfx !== undefined || containsCode(args.body);
  const options: string[] = [`  baseUrl: ${quoteTs(target.clientBaseUrl)},`];
  if (credential.login) options.push(`  login: { clientId: ${quoteTs(credential.clientId)}, clientSecret: ${quoteTs(target.secret)} },`);
  else options.push(`  clientId: ${quoteTs(credential.clientId)},`, `  clientSecret: ${quoteTs(target.secret)},`);
  for (const [name, value] of Object.entries(credential.options ?? {})) options.push(`  ${tsKey(name)}: ${tsInline(value)},`);
  if (credential.pfx) options.push(`  tls: { pfx: readFileSync(${quoteTs(credential.pfx)}) }, // npx contrato dev-certs writes it`);

  const reader = target.readers?.[model.operationId];
  let call: string[];
  if (reader !== undefined) {
    // A payload location is read by its URL (the QR code's), not by the operation's arguments.
    const location = `${target.baseUrl}${fillPath(model.path, args.path ?? {})}`;
    const query = args.query ? `, ${tsInline(args.query)}` : '';
    call = [`const { payload } = await client.locations.${reader}(${quoteTs(location)}${query});`, 'console.log(payload);'];
  } else {
    const [group, name] = model.operationId.split('.') as [string, string];
    const opening = `${hasSuccessBody(model) ? 'const result = ' : ''}await client.${group}.${name}(`;
    // The arguments on the call's line when the whole line fits in 100 characters.
    const argument = Object.keys(args).length === 0 ? '' : tsLiteral(args as SampleValue, 0, 100 - opening.length - 2);
    call = [`${opening}${argument});`, ...(hasSuccessBody(model) ? ['console.log(result);'] : [])];
  }
  return [
    ...(readsFiles ? ["import { readFileSync } from 'node:fs';"] : []),
    `import { ${target.factory} } from ${quoteTs(target.module)};`,
    '',
    `const client = ${target.factory}({`,
    ...options,
    '});',
    '',
    ...call,
    'await client.close();',
    '',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------------
// curl

function quoteShell(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function fillPath(path: string, values: JsonObject): string {
  return path.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const value = values[name];
    if (value === undefined || value === null) throw new Error(`code samples: no value for the path parameter ${name} of ${path}`);
    return encodeURIComponent(String(value));
  });
}

function queryString(query: JsonObject | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, typeof item === 'string' ? item : JSON.stringify(item));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** curl's arguments that send a body of the operation's media type. */
function bodyArguments(model: OperationModel, body: SampleValue): string[] {
  const mediaType = model.requestBody!.mediaType;
  if (mediaType === 'application/x-www-form-urlencoded' && isPlainObject(body)) {
    return Object.entries(body).map(([name, value]) => `--data-urlencode ${quoteShell(`${name}=${String(value)}`)}`);
  }
  if (mediaType === 'multipart/form-data' && isPlainObject(body)) {
    return Object.entries(body).map(([name, value]) =>
      value instanceof Code
        ? `-F ${quoteShell(`${name}=${value.curlForm}`)}`
        : `-F ${quoteShell(`${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`)}`,
    );
  }
  return [`-H ${quoteShell(`content-type: ${mediaType}`)}`, `-d ${quoteShell(JSON.stringify(body))}`];
}

/** One curl command, one argument a line. */
function curlCommand(parts: readonly string[], indent = ''): string {
  return parts.map((part, index) => (index === 0 ? `${indent}${part}` : `${indent}  ${part}`)).join(' \\\n');
}

/** The member of the token operation's success answer that holds the token. */
function tokenMemberOf(document: JsonObject, model: OperationModel): string | null {
  for (const response of model.responses) {
    if (!/^2\d\d$/.test(response.status) || !response.schema) continue;
    const schema = resolvedSchema(document, response.schema);
    const names = Object.keys(isObject(schema.properties) ? schema.properties : {});
    const found = names.find((name) => /^access_?token$/i.test(name)) ?? names.find((name) => /^(svc-?)?token$/i.test(name));
    if (found) return found;
  }
  return null;
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

/** The shell lines that put a token of the sandbox credential in `$TOKEN`. */
function tokenLines(document: JsonObject, token: OperationModel, target: SampleTarget, check: RequestCheck): string[] {
  const example = bodyExample(document, token) ?? valueOfSchema(document, token.requestBody!.schema);
  // Only what the token request requires: the credential and its grant, no narrower scope.
  const schema = resolvedSchema(document, token.requestBody!.schema);
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const minimal = isObject(example) ? Object.fromEntries(Object.entries(example).filter(([name]) => required.has(name))) : example;
  const body = withCredential(minimal ?? {}, target);
  const issues = check(token.operationId, 'body')?.(body) ?? [];
  if (issues.length > 0) throw new Error(`code samples: the token request of ${target.document} is refused:\n  ${issues.join('\n  ')}`);
  const member = tokenMemberOf(document, token)!;
  const jq = identifierPattern.test(member) ? `.${member}` : `.[${JSON.stringify(member)}]`;
  const command = curlCommand([
    `TOKEN=$(curl -sS -X ${token.method.toUpperCase()} ${quoteShell(`${target.baseUrl}${token.path}`)}`,
    ...(token.basicAuth ? [`-u ${quoteShell(`${target.credential.clientId}:${target.secret}`)}`] : []),
    ...bodyArguments(token, body),
  ]);
  return [`${command} \\\n  | jq -r ${quoteShell(jq)})`];
}

/** The curl sample: a token of the sandbox credential when the operation needs one, then the request. */
export function curlSample(
  document: JsonObject,
  request: SampleRequest,
  target: SampleTarget,
  token: OperationModel | null,
  check: RequestCheck,
): string {
  const { model, args, addedHeaders } = request;
  const url = `${target.baseUrl}${fillPath(model.path, args.path ?? {})}${queryString(args.query)}`;
  const method = model.method.toUpperCase();
  const parts = [`curl -sS -i${method === 'GET' ? '' : ` -X ${method}`} ${quoteShell(url)}`];
  const lines: string[] = [];
  if (model.secured) {
    if (!token) throw new Error(`code samples: ${model.operationId} needs a token and ${target.document} has no token operation`);
    lines.push(...tokenLines(document, token, target, check));
    const header = model.tokenHeader ?? 'authorization';
    parts.push(`-H "${header}: ${model.tokenHeader ? '' : 'Bearer '}$TOKEN"`);
  }
  if (model.basicAuth) parts.push(`-u ${quoteShell(`${target.credential.clientId}:${target.secret}`)}`);
  for (const [name, value] of Object.entries({ ...args.header, ...addedHeaders }))
    parts.push(`-H ${quoteShell(`${name}: ${String(value)}`)}`);
  if (args.body !== undefined) parts.push(...bodyArguments(model, args.body));
  lines.push(curlCommand(parts));
  return `${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------------

export interface CodeSample {
  readonly lang: string;
  readonly label: string;
  readonly source: string;
}

/** The samples of every operation of a bundle, by operationId. */
export function codeSamplesOf(document: JsonObject, target: SampleTarget, check: RequestCheck): Map<string, CodeSample[]> {
  const models = operationsOf(document);
  const token = tokenOperationOf(document, models);
  const samples = new Map<string, CodeSample[]>();
  for (const model of models) {
    const request = sampleRequestOf(document, model, target, check);
    samples.set(model.operationId, [
      { lang: 'TypeScript', label: 'TypeScript', source: typescriptSample(request, target) },
      { lang: 'Shell', label: 'curl', source: curlSample(document, request, target, token, check) },
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

/**
 * The text of the code samples (scripts/steps/samples.ts plans them): a TypeScript program through the
 * interface's client and a shell script of curl commands, both running the same steps — the calls that
 * make what the operation needs (followed from the spec's Link Objects), then the operation itself.
 */
import { isObject, type Json, type JsonObject, type OperationModel, resolveLocal } from '../openapi-model.js';
import type { RequestCheck } from './validators.js';

/** Source text inside a TypeScript literal (a file read), and what curl sends in its place. */
export class Code {
  constructor(
    readonly source: string,
    readonly curlForm: string,
  ) {}
}

/** A value an earlier step of the sample answered: a TypeScript expression, a shell variable. */
export class Linked {
  constructor(
    readonly typescript: string,
    readonly shellVariable: string,
    /** How it is written inside a JSON body: quoted (string) or bare (number). */
    readonly kind: 'string' | 'number',
  ) {}
}

export type SampleValue = Json | Code | Linked | SampleValue[] | { [key: string]: SampleValue };

/** A request as a sample makes it: the facade's arguments plus what the runtime adds. */
export interface SampleRequest {
  readonly model: OperationModel;
  /** The facade call's argument: required parameters by location, and the body. */
  readonly args: {
    path?: Record<string, SampleValue>;
    query?: Record<string, SampleValue>;
    header?: Record<string, SampleValue>;
    body?: SampleValue;
  };
  /** Headers curl must send that the client adds itself: the idempotency key, the child account. */
  readonly addedHeaders: Record<string, SampleValue>;
}

/** A call made before the operation's own, because the operation acts on what it makes. */
export interface SampleStep {
  readonly request: SampleRequest;
  /** The TypeScript variable holding its result; null when no later step reads its answer. */
  readonly variable: string | null;
  /** The type of the answer a later step reads, when the call resolves to a union of answers (`operations[…]`). */
  readonly resultType: string | null;
  /** What the shell keeps of its answer: one variable per value (a jq filter each). */
  readonly captures: readonly { readonly variable: string; readonly filter: string }[];
  /** The shell variable keeping the whole answer when several values are read from it. */
  readonly answerVariable: string;
  /** The comment line saying why it runs. */
  readonly why: string;
}

/** Everything a sample runs: the earlier steps in order, then the operation's request. */
export interface SamplePlan {
  readonly steps: readonly SampleStep[];
  readonly request: SampleRequest;
}

/** How a sample reaches the sandbox and presents its credential (from the interface's definition). */
export interface SampleTargetLike {
  readonly document: string;
  readonly module: string;
  readonly factory: string;
  readonly clientBaseUrl: string;
  readonly baseUrl: string;
  readonly credential: {
    readonly clientId: string;
    readonly login?: boolean;
    readonly pfx?: string;
    readonly options?: Readonly<Record<string, Json>>;
  };
  readonly secret: string;
  readonly readers?: Readonly<Record<string, string>>;
}

// ---------------------------------------------------------------------------------------------------
// TypeScript

export function quoteTs(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r')}'`;
}

export const identifierPattern = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

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

export function isPlainObject(value: SampleValue): value is { [key: string]: SampleValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Code) && !(value instanceof Linked);
}

export const tsKey = (key: string): string => (identifierPattern.test(key) ? key : quoteTs(key));

export function tsInline(value: SampleValue): string {
  if (value instanceof Code) return value.source;
  if (value instanceof Linked) return value.typescript;
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

/** A path with its parameters filled: literal text and the linked values between, in order. */
export function pathPieces(path: string, values: Record<string, SampleValue>): (string | Linked)[] {
  const pieces: (string | Linked)[] = [];
  let last = 0;
  for (const match of path.matchAll(/\{([^}]+)\}/g)) {
    pieces.push(path.slice(last, match.index));
    const value = values[match[1]!];
    if (value === undefined || value === null) throw new Error(`code samples: no value for the path parameter ${match[1]} of ${path}`);
    pieces.push(value instanceof Linked ? value : encodeURIComponent(String(value)));
    last = match.index + match[0].length;
  }
  pieces.push(path.slice(last));
  return pieces.filter((piece) => piece !== '');
}

/** Pieces as a TypeScript string: a quoted literal, or a template when a linked value is among them. */
function tsString(pieces: readonly (string | Linked)[]): string {
  if (pieces.every((piece) => typeof piece === 'string')) return quoteTs(pieces.join(''));
  const text = pieces.map((piece) => (piece instanceof Linked ? `\${${piece.typescript}}` : piece.replace(/[`\\]|\$\{/g, '\\$&'))).join('');
  return `\`${text}\``;
}

/**
 * The facade call of one request: `await client.group.name({ ... })`. An earlier step keeps its result in
 * `variable` when a later step reads it; the operation's own call prints what it resolves to.
 */
function tsCall(
  request: SampleRequest,
  variable: string | null,
  target: SampleTargetLike,
  own: boolean,
  resultType: string | null = null,
): string[] {
  const { model, args } = request;
  const reader = target.readers?.[model.operationId];
  if (reader !== undefined) {
    // A payload location is read by its URL (the QR code's), not by the operation's arguments.
    const location = tsString([target.baseUrl, ...pathPieces(model.path, args.path ?? {})]);
    const query = args.query ? `, ${tsInline(args.query)}` : '';
    const call = `await client.locations.${reader}(${location}${query});`;
    if (own) return [`const { payload } = ${call}`, 'console.log(payload);'];
    return [variable === null ? call : `const ${variable} = ${call}`];
  }
  const [group, name] = model.operationId.split('.') as [string, string];
  const keep = own ? (hasSuccessBody(model) ? 'result' : null) : variable;
  const typed = !own && resultType !== null;
  const opening = `${keep ? `const ${keep} = ` : ''}${typed ? '(' : ''}await client.${group}.${name}(`;
  const closing = typed ? `)) as ${resultType};` : ');';
  // The arguments on the call's line when the whole line fits in 100 characters.
  const argument = Object.keys(args).length === 0 ? '' : tsLiteral(args as SampleValue, 0, 100 - opening.length - 2);
  return [`${opening}${argument}${closing}`, ...(own && keep ? ['console.log(result);'] : [])];
}

/** The TypeScript sample: the client of the interface at the sandbox, the earlier steps, the call, what it resolves to. */
export function typescriptSample(plan: SamplePlan, target: SampleTargetLike): string {
  const { credential } = target;
  const requests = [...plan.steps.map((step) => step.request), plan.request];
  const readsFiles = credential.pfx !== undefined || requests.some((request) => containsCode(request.args.body));
  const options: string[] = [`  baseUrl: ${quoteTs(target.clientBaseUrl)},`];
  if (credential.login) options.push(`  login: { clientId: ${quoteTs(credential.clientId)}, clientSecret: ${quoteTs(target.secret)} },`);
  else options.push(`  clientId: ${quoteTs(credential.clientId)},`, `  clientSecret: ${quoteTs(target.secret)},`);
  for (const [name, value] of Object.entries(credential.options ?? {})) options.push(`  ${tsKey(name)}: ${tsInline(value)},`);
  if (credential.pfx) options.push(`  tls: { pfx: readFileSync(${quoteTs(credential.pfx)}) }, // npx contrato dev-certs writes it`);
  return [
    ...(readsFiles ? ["import { readFileSync } from 'node:fs';"] : []),
    `import { ${target.factory}${plan.steps.some((step) => step.resultType) ? ', type operations' : ''} } from ${quoteTs(target.module)};`,
    '',
    `const client = ${target.factory}({`,
    ...options,
    '});',
    '',
    ...plan.steps.flatMap((step) => [`// ${step.why}`, ...tsCall(step.request, step.variable, target, false, step.resultType)]),
    ...statusNote(plan.request.model, '//'),
    ...tsCall(plan.request, null, target, true),
    'await client.close();',
    '',
  ].join('\n');
}

/**
 * The status the sample gets when the operation's first success status is not the one (`x-sample-status`:
 * a PUT that creates on a fresh sandbox answers 201), said in a comment line; the samples test expects it.
 */
export function sampleStatusOf(model: OperationModel): number | null {
  const status = model.operation['x-sample-status'];
  return typeof status === 'number' || typeof status === 'string' ? Number(status) : null;
}

function statusNote(model: OperationModel, comment: string): string[] {
  const status = sampleStatusOf(model);
  return status === null ? [] : [`${comment} A fresh sandbox answers ${status} here.`];
}

// ---------------------------------------------------------------------------------------------------
// curl

export function quoteShell(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** One shell word of literal text and linked values: `'…/keys/'"$KEYS_CREATE_KEY"`. */
export function shellWord(pieces: readonly (string | Linked)[]): string {
  const word = pieces
    .map((piece) => (piece instanceof Linked ? `"$${piece.shellVariable}"` : piece === '' ? '' : quoteShell(piece)))
    .join('');
  return word === '' ? "''" : word;
}

/** A value as JSON text, linked values left as pieces (quoted when they are strings). */
function jsonPieces(value: SampleValue): (string | Linked)[] {
  if (value instanceof Linked) return value.kind === 'string' ? ['"', value, '"'] : [value];
  if (value instanceof Code) return [JSON.stringify(value.curlForm)];
  if (Array.isArray(value)) return ['[', ...value.flatMap((item, index) => [...(index > 0 ? [','] : []), ...jsonPieces(item)]), ']'];
  if (isPlainObject(value))
    return [
      '{',
      ...Object.entries(value).flatMap(([key, item], index) => [`${index > 0 ? ',' : ''}${JSON.stringify(key)}:`, ...jsonPieces(item)]),
      '}',
    ];
  return [JSON.stringify(value)];
}

/** Adjacent literal pieces joined, so that a word has as few quotes as it can. */
function merged(pieces: readonly (string | Linked)[]): (string | Linked)[] {
  const result: (string | Linked)[] = [];
  for (const piece of pieces) {
    const last = result.at(-1);
    if (typeof piece === 'string' && typeof last === 'string') result[result.length - 1] = last + piece;
    else result.push(piece);
  }
  return result;
}

/** Text as a form or query encodes it (a space as `+`). */
const formEncoded = (text: string): string => new URLSearchParams({ v: text }).toString().slice(2);

const textPieces = (value: SampleValue): (string | Linked)[] =>
  value instanceof Linked ? [value] : [typeof value === 'string' ? value : JSON.stringify(value)];

function queryPieces(query: Record<string, SampleValue> | undefined): (string | Linked)[] {
  const pieces: (string | Linked)[] = [];
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      pieces.push(pieces.length === 0 ? '?' : '&', `${formEncoded(name)}=`);
      pieces.push(item instanceof Linked ? item : formEncoded(String(textPieces(item)[0])));
    }
  }
  return pieces;
}

/** curl's arguments that send a body of the operation's media type. */
function bodyArguments(model: OperationModel, body: SampleValue): string[] {
  const mediaType = model.requestBody!.mediaType;
  if (mediaType === 'application/x-www-form-urlencoded' && isPlainObject(body)) {
    return Object.entries(body).map(([name, value]) => `--data-urlencode ${shellWord(merged([`${name}=`, ...textPieces(value)]))}`);
  }
  if (mediaType === 'multipart/form-data' && isPlainObject(body)) {
    return Object.entries(body).map(([name, value]) =>
      value instanceof Code
        ? `-F ${quoteShell(`${name}=${value.curlForm}`)}`
        : `-F ${shellWord(merged([`${name}=`, ...textPieces(value)]))}`,
    );
  }
  return [`-H ${quoteShell(`content-type: ${mediaType}`)}`, `-d ${shellWord(merged(jsonPieces(body)))}`];
}

/** One curl command, one argument a line. */
function curlCommand(parts: readonly string[], indent = ''): string {
  return parts.map((part, index) => (index === 0 ? `${indent}${part}` : `${indent}  ${part}`)).join(' \\\n');
}

/** The member of the token operation's success answer that holds the token. */
export function tokenMemberOf(document: JsonObject, model: OperationModel): string | null {
  for (const response of model.responses) {
    if (!/^2\d\d$/.test(response.status) || !response.schema) continue;
    const resolved = resolveLocal(document, response.schema);
    const names = Object.keys(isObject(resolved) && isObject(resolved.properties) ? resolved.properties : {});
    const found = names.find((name) => /^access_?token$/i.test(name)) ?? names.find((name) => /^(svc-?)?token$/i.test(name));
    if (found) return found;
  }
  return null;
}

/** A jq filter reading a JSON pointer: `/items/0/id` → `.items[0].id`. */
export function jqFilter(tokens: readonly string[]): string {
  if (tokens.length === 0) return '.';
  return tokens
    .map((token, index) =>
      /^(0|[1-9][0-9]*)$/.test(token)
        ? `${index === 0 ? '.' : ''}[${token}]`
        : identifierPattern.test(token)
          ? `.${token}`
          : `${index === 0 ? '.' : ''}[${JSON.stringify(token)}]`,
    )
    .join('');
}

/** The curl arguments of one request (after `curl -sS`), its token presented when it needs one. */
function requestParts(request: SampleRequest, target: SampleTargetLike, verbose: boolean): string[] {
  const { model, args, addedHeaders } = request;
  const url = shellWord(merged([target.baseUrl, ...pathPieces(model.path, args.path ?? {}), ...queryPieces(args.query)]));
  const method = model.method.toUpperCase();
  const parts = [`curl -sS${verbose ? ' -i' : ''}${method === 'GET' ? '' : ` -X ${method}`} ${url}`];
  if (model.secured) parts.push(`-H "${model.tokenHeader ?? 'authorization'}: ${model.tokenHeader ? '' : 'Bearer '}$TOKEN"`);
  if (model.basicAuth) parts.push(`-u ${quoteShell(`${target.credential.clientId}:${target.secret}`)}`);
  for (const [name, value] of Object.entries({ ...args.header, ...addedHeaders }))
    parts.push(`-H ${shellWord(merged([`${name}: `, ...textPieces(value)]))}`);
  if (args.body !== undefined) parts.push(...bodyArguments(model, args.body));
  return parts;
}

/** The shell lines of an earlier step: its answer's values kept in variables, or the answer dropped. */
function stepLines(step: SampleStep, target: SampleTargetLike): string[] {
  const parts = requestParts(step.request, target, false);
  const [only, ...more] = step.captures;
  if (!only) return [`# ${step.why}`, curlCommand([parts[0]!.replace(/^curl -sS/, 'curl -sS -o /dev/null'), ...parts.slice(1)])];
  if (more.length === 0)
    return [
      `# ${step.why}`,
      `${curlCommand([`${only.variable}=$(${parts[0]}`, ...parts.slice(1)])} \\\n  | jq -r ${quoteShell(only.filter)})`,
    ];
  // Several values of one answer: the answer kept once, each value read from it.
  const answer = step.answerVariable;
  return [
    `# ${step.why}`,
    `${curlCommand([`${answer}=$(${parts[0]}`, ...parts.slice(1)])})`,
    ...step.captures.map((capture) => `${capture.variable}=$(printf '%s' "$${answer}" | jq -r ${quoteShell(capture.filter)})`),
  ];
}

/** The shell lines that put a token in `$TOKEN`, from the token request given. */
export function tokenLines(
  document: JsonObject,
  token: OperationModel,
  body: Json,
  target: SampleTargetLike,
  check: RequestCheck,
): string[] {
  const issues = check(token.operationId, 'body')?.(body) ?? [];
  if (issues.length > 0) throw new Error(`code samples: the token request of ${target.document} is refused:\n  ${issues.join('\n  ')}`);
  const member = tokenMemberOf(document, token)!;
  const request: SampleRequest = { model: token, args: { body }, addedHeaders: {} };
  const [first, ...rest] = requestParts(request, target, false);
  return [`${curlCommand([`TOKEN=$(${first}`, ...rest])} \\\n  | jq -r ${quoteShell(jqFilter([member]))})`];
}

/** The curl sample: a token when a step needs one, the earlier steps, then the request (`-i`: its status shows). */
export function curlSample(plan: SamplePlan, target: SampleTargetLike, tokenCommand: () => string[]): string {
  const requests = [...plan.steps.map((step) => step.request), plan.request];
  const lines: string[] = [];
  if (requests.some((request) => request.model.secured)) lines.push(...tokenCommand());
  for (const step of plan.steps) lines.push(...stepLines(step, target));
  lines.push(...statusNote(plan.request.model, '#'));
  lines.push(curlCommand(requestParts(plan.request, target, true)));
  return `${lines.join('\n')}\n`;
}

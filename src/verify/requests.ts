/**
 * The valid request of each operation, as `contrato verify` sends it: the one regenerate wrote in
 * generated/<document>/requests.json (the spec's examples, the same as the code samples), with
 * - the values its producers' Link Objects name taken from what the target answered them in this run,
 * - a new value for each id the caller chooses (`x-caller-chosen`), drawn from the seed,
 * - the caller's credential in the members that carry one, a small valid file in each multipart file member.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseLinkExpression } from '../link-expression.js';
import { pointerTokens } from '../runtime/json-pointer.js';
import type { CallArgs } from '../runtime/pipeline.js';
import type { Credential } from './session.js';

export interface LinkData {
  readonly status: string;
  readonly operationId: string;
  readonly parameters: Readonly<Record<string, string>>;
  readonly body: Readonly<Record<string, string>>;
}

export interface RequestData {
  readonly request: { path?: Record<string, unknown>; query?: Record<string, unknown>; header?: Record<string, unknown>; body?: unknown };
  readonly callerChosen: readonly string[];
  /** Body members (JSON pointers) that carry the caller's credential: its id or its secret. */
  readonly credential: Readonly<Record<string, 'id' | 'secret'>>;
  readonly links: readonly LinkData[];
}

export type RequestTable = Readonly<Record<string, RequestData>>;

/** The requests of a spec document, as regenerate wrote them. */
export function loadRequests(document: string): RequestTable {
  const file = fileURLToPath(new URL(`../../generated/${document}/requests.json`, import.meta.url));
  return (JSON.parse(readFileSync(file, 'utf8')) as { operations: RequestTable }).operations;
}

/** What a producer's call was and answered, for the links that read it. */
export interface Made {
  readonly args: CallArgs;
  readonly status: number;
  readonly body: unknown;
}

function at(value: unknown, pointer: string): unknown {
  let current = value;
  for (const token of pointerTokens(pointer))
    current = typeof current === 'object' && current !== null ? (current as Record<string, unknown>)[token] : undefined;
  return current;
}

function setAt(body: unknown, pointer: string, value: unknown): unknown {
  const tokens = pointerTokens(pointer);
  if (tokens.length === 0) return value;
  const root: Record<string, unknown> = typeof body === 'object' && body !== null ? structuredClone(body as Record<string, unknown>) : {};
  let current = root;
  for (const token of tokens.slice(0, -1)) {
    const next = current[token];
    current[token] = typeof next === 'object' && next !== null ? next : {};
    current = current[token] as Record<string, unknown>;
  }
  current[tokens.at(-1)!] = value;
  return root;
}

/** The value of a link's runtime expression in what a producer sent and got; undefined when it is not there. */
export function linkValue(made: Made, text: string): unknown {
  const expression = parseLinkExpression(text);
  if (!expression) return undefined;
  if (expression.part === 'body') return at(expression.source === 'response' ? made.body : made.args.body, expression.pointer);
  const named = made.args[expression.part] ?? {};
  const key = Object.keys(named).find((name) => name.toLowerCase() === expression.name.toLowerCase());
  return key === undefined ? undefined : named[key];
}

/** The request with the values a link names put in place (a link key is `name` or `path.name`). */
export function withLink(args: CallArgs, link: LinkData, made: Made): CallArgs {
  const path = { ...args.path };
  const query = { ...args.query };
  const header = { ...args.header };
  const parts = { path, query, header } as const;
  for (const [key, expression] of Object.entries(link.parameters)) {
    const value = linkValue(made, expression);
    if (value === undefined) continue;
    const qualified = /^(path|query|header)\.(.+)$/.exec(key);
    const where = qualified
      ? parts[qualified[1] as 'path' | 'query' | 'header']
      : key in path || !(key in query || key in header)
        ? path
        : key in query
          ? query
          : header;
    where[qualified ? qualified[2]! : key] = value;
  }
  let body = args.body;
  for (const [pointer, expression] of Object.entries(link.body)) {
    const value = linkValue(made, expression);
    if (value !== undefined) body = setAt(body, pointer, value);
  }
  return { path, query, header, ...(body === undefined ? {} : { body }) };
}

const classes = ['abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '0123456789'] as const;

/** `example` with every letter and digit drawn again within its class: the same shape, a new value. */
export function redrawn(example: string, random: () => number): string {
  return [...example]
    .map((char) => {
      const set = classes.find((each) => each.includes(char));
      return set ? set[Math.floor(random() * set.length)]! : char;
    })
    .join('');
}

// Small valid files of the media types the forms take (a 1×1 PNG, a minimal JPEG, a one-page PDF).
const files: Readonly<Record<string, string>> = {
  'image/png': 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'image/jpeg':
    '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8QEBD/yQALCAABAAEBAREA/8wABgAQEAX/2gAIAQEAAD8A0s8g/9k=',
  'application/pdf':
    'JVBERi0xLjQKMSAwIG9iago8PC9UeXBlL0NhdGFsb2cvUGFnZXMgMiAwIFI+PgplbmRvYmoKMiAwIG9iago8PC9UeXBlL1BhZ2VzL0tpZHNbMyAwIFJdL0NvdW50IDE+PgplbmRvYmoKMyAwIG9iago8PC9UeXBlL1BhZ2UvUGFyZW50IDIgMCBSL01lZGlhQm94WzAgMCA2MTIgNzkyXT4+CmVuZG9iagp0cmFpbGVyCjw8L1Jvb3QgMSAwIFI+PgolJUVPRgo=',
};

/** The body with a small valid file in place of each `{ $file: mediaType }`. */
export function materialized(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(materialized);
  if (typeof body !== 'object' || body === null) return body;
  const record = body as Record<string, unknown>;
  if (typeof record.$file === 'string') {
    const bytes = Buffer.from(files[record.$file] ?? 'AA==', 'base64');
    const extension = record.$file.split('/')[1] ?? 'bin';
    return new File([bytes], `verify.${extension}`, { type: record.$file });
  }
  return Object.fromEntries(Object.entries(record).map(([name, value]) => [name, materialized(value)]));
}

/** The caller's credential at the members that carry it. */
function withCredential(body: unknown, members: RequestData['credential'], credential: Credential): unknown {
  let result = body;
  for (const [pointer, member] of Object.entries(members))
    result = setAt(result, pointer, member === 'id' ? credential.clientId : credential.clientSecret);
  return result;
}

/** The example request as call arguments (copies: a check may change them). */
export function argsOf(data: RequestData, credential: Credential): CallArgs {
  const { path, query, header, body } = data.request;
  return {
    ...(path ? { path: { ...path } } : {}),
    ...(query ? { query: { ...query } } : {}),
    ...(header ? { header: { ...header } } : {}),
    ...(body === undefined ? {} : { body: withCredential(materialized(structuredClone(body)), data.credential, credential) }),
  };
}

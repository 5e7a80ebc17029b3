/**
 * A raw HTTP message read into the arguments the contract's judge (src/runtime/contract-check.ts) takes:
 * the operation by the one router, path parameters, the query string and the declared headers in their
 * schema types, and the body parsed by its content type. `contrato validate`, the sandbox, the mock front
 * and `contrato verify` all come through here, so a request is refused or accepted alike by each of them
 * and by the client.
 */
import { defaultMaxNestingDepth, nestsDeeperThan } from '../events/json.js';
import { type JudgedAnswer, answerIssues, parameterValue, requestIssues } from '../runtime/contract-check.js';
import type { OperationInfo } from '../runtime/contract.js';
import type { ValidationIssue } from '../runtime/errors.js';
import type { CallArgs, OperationChecks } from '../runtime/pipeline.js';
import { parseQuery } from '../runtime/query.js';
import { type CompiledValidator, check } from '../runtime/validation.js';
import type { InterfaceModules } from './registry.js';
import { findOperation, type OperationMatch } from './router.js';

/** A request as it arrived: method, path with its query, header names in lower case, the parsed body. */
export interface HttpRequest {
  readonly method: string;
  /** Path and query below the interface's base URL (`/cob/abc?revisao=1`). */
  readonly target: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: unknown;
}

export interface RequestVerdict {
  /** Null when no operation answers the method and path. */
  readonly operation: OperationMatch | null;
  /** The request as the operation's arguments (the values its handler reads). */
  readonly args: CallArgs & { readonly path: Record<string, unknown>; readonly query: Record<string, unknown> };
  readonly issues: readonly ValidationIssue[];
}

/**
 * The query string of `target` as the values its parameters' schemas expect: read by each parameter's declared
 * style (parseQuery, the reader of what the client's send step writes), then a single value turned into its
 * schema type. A name given twice, or an array parameter, is a list; a deepObject parameter an object.
 */
export function queryOf(info: OperationInfo, target: string): Record<string, unknown> {
  const marker = target.indexOf('?');
  if (marker < 0) return {};
  const types = new Map(info.parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.type]));
  const query = parseQuery(info.parameters, new URLSearchParams(target.slice(marker + 1)));
  for (const [name, value] of Object.entries(query))
    if (typeof value === 'string') query[name] = parameterValue(value, types.get(name) ?? null);
  return query;
}

/** The declared header parameters of `info` found in `headers`, in the spelling the spec gives them. */
export function declaredHeaders(info: OperationInfo, headers: Readonly<Record<string, string | undefined>>): Record<string, unknown> {
  const declared: Record<string, unknown> = {};
  for (const parameter of info.parameters) {
    if (parameter.in !== 'header') continue;
    const value = headers[parameter.name.toLowerCase()];
    if (value !== undefined) declared[parameter.name] = parameterValue(value, parameter.type);
  }
  return declared;
}

/** The operation's arguments in `request`. */
export function argsOf(match: OperationMatch, request: HttpRequest): RequestVerdict['args'] {
  const { info } = match;
  const path = Object.fromEntries(
    info.parameters
      .filter((p) => p.in === 'path' && match.pathParameters[p.name] !== undefined)
      .map((p) => [p.name, parameterValue(match.pathParameters[p.name]!, p.type)]),
  );
  return {
    path,
    query: queryOf(info, request.target),
    header: declaredHeaders(info, request.headers),
    ...(request.body === undefined ? {} : { body: request.body }),
  };
}

/** What the judge needs of an operation of `modules`; a template path (not concrete) has no path values to check. */
export function checksOf(modules: InterfaceModules, match: OperationMatch): OperationChecks {
  const validators = modules.validators.operations[match.info.operationId];
  if (!validators) throw new Error(`no validators for ${match.info.operationId}: run npm run regenerate`);
  const { path: _path, ...others } = validators.parameters;
  return {
    validators: match.concrete ? validators : { ...validators, parameters: others },
    patterns: modules.patternDescriptions,
    crossField: modules.crossFieldChecks[match.info.operationId],
  };
}

/** The operation of a raw request and every issue the contract finds in it. */
export function checkHttpRequest(modules: InterfaceModules, request: HttpRequest, now: Date = new Date()): RequestVerdict {
  const operation = findOperation(modules, request.method, request.target);
  if (!operation) return { operation: null, args: { path: {}, query: {} }, issues: [] };
  return checkMatchedRequest(modules, operation, request, now);
}

/** Every issue of a request whose operation is already known (`target` gives its path values and query). */
export function checkMatchedRequest(modules: InterfaceModules, operation: OperationMatch, request: HttpRequest, now: Date): RequestVerdict {
  const args = argsOf(operation, request);
  return { operation, args, issues: requestIssues(operation.info, checksOf(modules, operation), args, now) };
}

/** The issues of the path values of a concrete path (`/fee-rules/abc` -> `/path/id: must match format "uuid"`). */
export function pathIssues(modules: InterfaceModules, operation: OperationMatch): ValidationIssue[] {
  const validator = modules.validators.operations[operation.info.operationId]?.parameters.path;
  if (!operation.concrete || !validator) return [];
  return check(
    validator,
    argsOf(operation, { method: '', target: '', headers: {}, body: undefined }).path,
    '/path',
    modules.patternDescriptions,
  );
}

/** The issues of an answer to `info`: tolerant by default, or with the strict validator a platform check compiles. */
export function checkHttpAnswer(
  modules: InterfaceModules,
  info: OperationInfo,
  answer: JudgedAnswer,
  options: { readonly baseUrl?: string | undefined; readonly strictValidator?: CompiledValidator | null | undefined } = {},
): ValidationIssue[] {
  const responses = modules.validators.operations[info.operationId]?.responses ?? {};
  const validator =
    options.strictValidator !== undefined ? options.strictValidator : (responses[String(answer.status)] ?? responses.default);
  return answerIssues(info, answer, { validator, patterns: modules.patternDescriptions, baseUrl: options.baseUrl });
}

/** A body parsed by its content type, or the issue that says why it could not be. */
export type ParsedBody = { readonly body: unknown } | { readonly issue: ValidationIssue };

/** A multipart file part as a server reads it: its name, type, size and bytes. */
export interface FilePart {
  readonly filename: string;
  readonly contentType: string;
  readonly size: number;
  readonly bytes: Uint8Array;
}

export interface BodyParseOptions {
  /**
   * JSON nesting objects and arrays deeper is refused before it is parsed, rule `maxNestingDepth`: the bodies of
   * the contract nest a few levels, and one built to exhaust whatever walks it must not reach the validators.
   */
  readonly maxNestingDepth?: number;
  /**
   * A multipart form of more parts is refused before it is parsed, rule `maxParts`: the forms of the contract
   * have two parts, and parsing one of 100 000 costs tens of megabytes for nothing (default defaultMaxFormParts).
   */
  readonly maxFormParts?: number;
}

/** The most parts a multipart form may have unless told otherwise: the forms of the contract have two. */
export const defaultMaxFormParts = 64;

/** The `boundary` parameter of a multipart content type, unquoted; read by splitting, so no pattern can backtrack. */
function boundaryOf(contentType: string): string | undefined {
  for (const parameter of contentType.split(';').slice(1)) {
    const [name, ...rest] = parameter.split('=');
    if (name?.trim().toLowerCase() !== 'boundary') continue;
    const value = rest.join('=').trim();
    const unquoted = value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1) : value;
    return unquoted === '' ? undefined : unquoted;
  }
  return undefined;
}

/**
 * A count of the parts of a multipart body fed chunk by chunk, by its delimiters and without parsing (a delimiter
 * split between two chunks counted once): true once more than `limit` parts came, so a reader can stop there.
 * Null when the content type is no multipart form naming its boundary (the parser refuses that itself).
 */
export function formPartsOver(
  contentType: string | undefined,
  limit: number = defaultMaxFormParts,
): ((chunk: Uint8Array) => boolean) | null {
  const boundary = contentType && /multipart\/form-data/i.test(contentType) ? boundaryOf(contentType) : undefined;
  if (!boundary) return null;
  const delimiter = Buffer.from(`--${boundary}`);
  const overlap = delimiter.length - 1;
  let tail = Buffer.alloc(0);
  // Each part opens with a delimiter and the form closes with one more.
  let delimiters = 0;
  return (chunk) => {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    // Shorter than a delimiter, the last bytes kept cannot hold a whole one: one found here straddles the two chunks.
    if (tail.length > 0 && Buffer.concat([tail, bytes.subarray(0, overlap)]).includes(delimiter)) delimiters += 1;
    for (let at = bytes.indexOf(delimiter); at >= 0 && delimiters <= limit + 1; at = bytes.indexOf(delimiter, at + delimiter.length))
      delimiters += 1;
    tail = bytes.length >= overlap ? Buffer.from(bytes.subarray(bytes.length - overlap)) : Buffer.concat([tail, bytes]).subarray(-overlap);
    return delimiters > limit + 1;
  };
}

/** The issue of a form of more than `limit` parts. */
export function formPartsIssue(limit: number = defaultMaxFormParts): ValidationIssue {
  return { pointer: '/body', rule: 'maxParts', message: `has more than ${limit} parts: send the form's own fields only` };
}

/** The body as JSON, a form's fields (multipart files as FileParts), text otherwise. */
export async function parseHttpBody(
  bytes: Uint8Array,
  contentType: string | undefined,
  options: BodyParseOptions = {},
): Promise<ParsedBody> {
  if (bytes.length === 0) return { body: undefined };
  const text = () => new TextDecoder().decode(bytes);
  if (contentType && /multipart\/form-data/i.test(contentType)) {
    const maxParts = options.maxFormParts ?? defaultMaxFormParts;
    if (formPartsOver(contentType, maxParts)?.(bytes)) return { issue: formPartsIssue(maxParts) };
    try {
      const form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
      const fields: Record<string, unknown> = {};
      for (const [name, value] of form.entries()) {
        fields[name] =
          typeof value === 'string'
            ? value
            : { filename: value.name, contentType: value.type, size: value.size, bytes: Buffer.from(await value.arrayBuffer()) };
      }
      return { body: fields };
    } catch {
      return {
        issue: {
          pointer: '/body',
          rule: 'multipart',
          message: 'is not a multipart/form-data body with the boundary its content-type names: send the form as multipart',
        },
      };
    }
  }
  if (contentType && /application\/x-www-form-urlencoded/i.test(contentType))
    return { body: Object.fromEntries(new URLSearchParams(text())) };
  if (contentType && !/json/i.test(contentType)) return { body: text() };
  const json = text();
  const limit = options.maxNestingDepth ?? defaultMaxNestingDepth;
  if (nestsDeeperThan(json, limit))
    return {
      issue: {
        pointer: '/body',
        rule: 'maxNestingDepth',
        message: `nests objects and arrays deeper than ${limit} levels: send the body the operation's schema describes`,
      },
    };
  try {
    return { body: JSON.parse(json) };
  } catch (error) {
    return {
      issue: { pointer: '/body', rule: 'json', message: `is not JSON (${(error as Error).message.split('\n')[0]}): send a JSON body` },
    };
  }
}

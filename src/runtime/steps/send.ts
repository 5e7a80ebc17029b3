/**
 * The last step: builds the HTTP request once (openapi-fetch's URL, path and query serializers, so
 * parameters are encoded as the openapi-fetch stack encodes them), sends it through the transport and
 * reads the answer. A failure without an answer becomes a ConnectionError (maybe executed, unless it
 * cannot have left this machine); a TLS refusal stays the transport's AuthError.
 */
import { createFinalURL, defaultPathSerializer } from 'openapi-fetch';
import type { OperationInfo } from '../contract.js';
import { AuthError, ConnectionError, ResponseValidationError, withCallContext } from '../errors.js';
import { type Call, contextOf, type Outcome, type Step } from '../pipeline.js';
import { serializeQuery } from '../query.js';
import { afterAnswer, afterFailure, beforeSending, type Middleware } from '../middleware.js';
import { rootCauseOf, targetOfUrl } from '../root-cause.js';
import { noAttemptTelemetry } from '../telemetry.js';
import type { OutgoingRequest, Send } from '../transport.js';

export interface SendServices {
  readonly baseUrl: string;
  readonly send: Send;
  /** Told of each request and answer (the logger, which redacts). */
  readonly onRequest?: (operationId: string, data: Record<string, unknown>) => void;
  readonly onAnswer?: (operationId: string, data: Record<string, unknown>) => void;
  /** Scrubs what a failure quotes when no code explains it (the runtime's redaction, which knows the secrets). */
  readonly scrub?: (text: string) => string;
  /** The caller's hooks on each attempt (the client option `middleware`). */
  readonly middleware?: readonly Middleware[] | undefined;
}

/** Node/undici failures that mean "no (complete) answer"; a cancellation is not one of them. */
export function isConnectionFailure(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = String((current as { code?: unknown }).code ?? '');
    if (code === 'UND_ERR_ABORTED') return false;
    if (/^(ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|ENOTFOUND|UND_ERR_)/.test(code)) return true;
    if (current.message === 'fetch failed' || current.message === 'terminated' || /other side closed/.test(current.message)) return true;
  }
  return false;
}

/** Failures in which the request cannot have left this machine: nothing was sent, so nothing was executed. */
export function neverSent(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = String((current as { code?: unknown }).code ?? '');
    if (/^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_CONNECT_TIMEOUT)$/.test(code)) return true;
  }
  return false;
}

/** A multipart body from an object of fields: binary parts (Blob, bytes) as files, the rest as text. */
function multipartForm(body: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined) continue;
    if (value instanceof Blob) form.append(name, value, value instanceof File ? value.name : name);
    else if (value instanceof Uint8Array) form.append(name, new Blob([value]), name);
    else form.append(name, String(value));
  }
  return form;
}

/** The body as bytes or text, and the content type that goes with it. */
async function serializedBody(info: OperationInfo, body: unknown): Promise<{ body: string | Uint8Array | null; contentType?: string }> {
  if (body === undefined) return { body: null };
  const mediaType = info.requestBody?.mediaType;
  if (mediaType === 'multipart/form-data') {
    // The platform's encoder writes the parts and the boundary of the content type.
    const encoded = new Response(multipartForm(body as Record<string, unknown>));
    return { body: new Uint8Array(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type') ?? mediaType };
  }
  if (mediaType === 'application/x-www-form-urlencoded') {
    return { body: new URLSearchParams(body as Record<string, string>).toString(), contentType: mediaType };
  }
  return { body: JSON.stringify(body), contentType: 'application/json' };
}

/** A path template cut once at its parameters; null when one has a style marker (`{.x}`, `{;x}`, `{x*}`). */
type PathParts = readonly (string | { readonly parameter: string })[] | null;
const pathPartsOf = new Map<string, PathParts>();

/**
 * The template cut before and after each `{name}` (a brace, then at least one character that is no brace, then a
 * brace), the parameters kept as pieces: a scan, as the ReDoS audit refuses a regular expression for it.
 */
function cutTemplate(template: string): string[] {
  const pieces: string[] = [];
  let text = '';
  for (let index = 0; index < template.length; ) {
    const close = template[index] === '{' ? template.indexOf('}', index + 1) : -1;
    if (close > index + 1 && !template.slice(index + 1, close).includes('{')) {
      if (text !== '') pieces.push(text);
      text = '';
      pieces.push(template.slice(index, close + 1));
      index = close + 1;
    } else {
      text += template[index];
      index += 1;
    }
  }
  if (text !== '') pieces.push(text);
  return pieces;
}

function pathParts(template: string): PathParts {
  let parts = pathPartsOf.get(template);
  if (parts === undefined) {
    const pieces = cutTemplate(template);
    const isParameter = (piece: string): boolean => piece.startsWith('{') && piece.endsWith('}');
    parts = pieces.some((piece) => isParameter(piece) && /^\{[.;]|\*\}$/.test(piece))
      ? null
      : pieces.map((piece) => (isParameter(piece) ? { parameter: piece.slice(1, -1) } : piece));
    pathPartsOf.set(template, parts);
  }
  return parts;
}

/**
 * The URL as openapi-fetch's createFinalURL writes it (simple style: each value through encodeURIComponent, a
 * missing one left as `{name}`), without scanning the template with a regular expression on every call. Arrays,
 * objects and style markers go to openapi-fetch's serializers. The query: each member in its parameter's
 * declared style (query.ts), read back the same by the checking path.
 */
function finalUrl(baseUrl: string, info: OperationInfo, args: Call['args']): string {
  const parts = pathParts(info.path);
  let path = '';
  for (const part of parts ?? []) {
    if (typeof part === 'string') {
      path += part;
      continue;
    }
    const value = args.path?.[part.parameter];
    if (value === undefined || value === null) path += `{${part.parameter}}`;
    else if (typeof value === 'object') return openapiFinalUrl(baseUrl, info, args);
    else path += encodeURIComponent(value as string | number | boolean);
  }
  if (!parts) return openapiFinalUrl(baseUrl, info, args);
  const query = args.query ? serializeQuery(info.parameters, args.query) : '';
  return query ? `${baseUrl}${path}?${query}` : `${baseUrl}${path}`;
}

function openapiFinalUrl(baseUrl: string, info: OperationInfo, args: Call['args']): string {
  return createFinalURL(info.path, {
    baseUrl,
    params: { ...(args.path ? { path: args.path } : {}), ...(args.query ? { query: args.query } : {}) },
    querySerializer: (query) => serializeQuery(info.parameters, query),
    pathSerializer: defaultPathSerializer,
  });
}

/** The headers of one attempt: the caller's, the steps', then the header parameters, then the body's type. */
function attemptHeaders(call: Call, contentType: string | undefined): Record<string, string> {
  const stepHeaders = Object.keys(call.headers);
  // The usual attempt (the token, maybe a content type, nothing of the caller's): no names to reconcile.
  if (!call.options?.headers && !call.args.header && stepHeaders.length <= 1 && stepHeaders[0]?.toLowerCase() !== 'content-type')
    return contentType ? { ...call.headers, 'content-type': contentType } : { ...call.headers };
  // Header names are case-insensitive: a later source replaces an earlier one whatever its spelling.
  const merged = new Map<string, [name: string, value: string]>();
  const put = (name: string, value: string): void => void merged.set(name.toLowerCase(), [name, value]);
  for (const [name, value] of Object.entries({ ...call.options?.headers })) put(name, value);
  for (const [name, value] of Object.entries(call.headers)) put(name, value);
  for (const [name, value] of Object.entries(call.args.header ?? {})) {
    if (value !== undefined && value !== null) put(name, Array.isArray(value) ? value.join(', ') : String(value));
  }
  if (contentType && !merged.has('content-type')) put('content-type', contentType);
  return Object.fromEntries(merged.values());
}

/** The request of one attempt: the caller's headers, the steps' headers, then the header parameters. */
export async function buildRequest(baseUrl: string, call: Call): Promise<OutgoingRequest> {
  const { info, args } = call;
  const url = finalUrl(baseUrl, info, args);
  const { body, contentType } = await serializedBody(info, args.body);
  const request = { method: info.method.toUpperCase(), url, headers: attemptHeaders(call, contentType), body };
  // The attempt's end: the timeout step's AttemptAbort, or the signal that joins the caller's.
  return call.abort ? { ...request, abort: call.abort } : { ...request, signal: call.signal };
}

/** The body of an answer: nothing for 204, HEAD or an empty declared length; JSON, or text for a JWS; an error body as JSON when it is. */
function parsedBody(call: Call, status: number, headers: Headers, text: string): { body: unknown } | { invalidJson: true } {
  // A declared length of 0 means an empty text: the header is read only then (Headers.get is not free).
  if (status === 204 || call.info.method === 'head' || (text === '' && headers.get('content-length') === '0')) return { body: undefined };
  if (status >= 200 && status < 300) {
    if (call.info.jwsPayload) return { body: text };
    try {
      return { body: JSON.parse(text) as unknown };
    } catch {
      return { invalidJson: true };
    }
  }
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    return { body: text };
  }
}

/** How a send that threw ended: a TLS refusal or a connection failure as an outcome; anything else (a cancellation, the timer) is not one. */
function failureOf(error: unknown, call: Call, url: string, scrub: SendServices['scrub']): Outcome | undefined {
  // A TLS verdict comes from the TLS layer itself (an alert, a verify error): nothing was executed.
  if (error instanceof AuthError) {
    return {
      kind: 'failure',
      error: withCallContext(error, contextOf(call)),
      retryable: false,
      beforeSending: false,
      maybeExecuted: false,
    };
  }
  // What happened decides the class, not a timer that also ran out: a reset is a reset.
  if (!isConnectionFailure(error)) return undefined;
  const root = rootCauseOf(error, url, scrub);
  const failure = new ConnectionError(
    `${call.info.operationId}: the connection failed before a complete answer: ${root.text}`,
    contextOf(call),
    { cause: error, code: root.code, target: root.target },
  );
  return { kind: 'failure', error: failure, retryable: true, beforeSending: false, maybeExecuted: !neverSent(error) };
}

export function sendStep(services: SendServices): Step {
  const { middleware } = services;
  // Every request of this step goes to the base URL's host and port (its URL is the base URL and a path).
  let target: string | undefined;
  return {
    name: 'send',
    async run(call): Promise<Outcome> {
      const built = await buildRequest(services.baseUrl, call);
      const { info, state } = call;
      // Where this attempt goes and whether its answer began: the timeout step says so when time runs out.
      state.target = target ??= targetOfUrl(built.url);
      state.answeredStatus = undefined;
      const attempt = state.telemetry?.attempt(state.attempts - 1) ?? noAttemptTelemetry;
      const hooked = { operationId: info.operationId, attempt: state.attempts, method: built.method, url: built.url };
      const headers = attempt.headers === noAttemptTelemetry.headers ? built.headers : { ...built.headers, ...attempt.headers };
      let sending = false;
      let started = 0;
      let answer: Awaited<ReturnType<Send>>;
      try {
        const request: OutgoingRequest = {
          ...built,
          headers: middleware ? await beforeSending(middleware, hooked, headers) : headers,
          onHeaders: (status) => {
            state.answeredStatus = status;
          },
        };
        services.onRequest?.(info.operationId, {
          method: request.method,
          path: info.path,
          attempt: state.attempts,
          args: call.args,
          headers: { ...call.options?.headers, ...call.headers },
        });
        sending = true;
        started = performance.now();
        answer = await attempt.within(() => services.send(request));
      } catch (error) {
        const failure = failureOf(error, call, built.url, services.scrub);
        const reported = failure?.kind === 'failure' ? failure.error : error;
        attempt.failed(reported);
        // A hook's own error is the caller's: it is not reported back to the hooks.
        if (middleware && sending) await afterFailure(middleware, hooked, reported);
        if (!failure) throw error;
        return failure;
      }
      attempt.answered(answer.status);
      const durationMs = performance.now() - started;
      if (middleware) await afterAnswer(middleware, { ...hooked, status: answer.status, headers: answer.headers, durationMs });
      services.onAnswer?.(info.operationId, { status: answer.status, ms: Math.round(durationMs), attempt: state.attempts });
      const parsed = parsedBody(call, answer.status, answer.headers, answer.body);
      if ('invalidJson' in parsed) {
        // The parser's message quotes the start of the body, which may hold a document or an echoed secret: not repeated.
        const issue = { pointer: '', rule: 'json', message: 'the response body is not valid JSON' };
        const failure = new ResponseValidationError(info.operationId, answer.status, [issue], contextOf(call));
        return { kind: 'failure', error: failure, retryable: false, beforeSending: false, maybeExecuted: true };
      }
      return { kind: 'answer', answer: { status: answer.status, headers: answer.headers, body: parsed.body } };
    },
  };
}

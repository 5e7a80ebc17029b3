/**
 * How `contrato verify` talks to the target: the package's own transport (mutual TLS, proxy), the interface's
 * own token request with the caller's credential, the runtime's request builder (the same URL, query and body
 * serializers as the clients), a rate limiter, and a time limit per request. Unlike a client it sends exactly
 * what it is given — a request breaking a rule, a wrong token — and returns whatever came back, or why nothing
 * usable did: judging is the checks' work.
 */
import type { OperationInfo } from '../runtime/contract.js';
import type { InterfaceDefinition, OperationTable } from '../runtime/definition.js';
import { AuthError, type AuthFailure, basicCredentials } from '../runtime/errors.js';
import type { Call, CallArgs } from '../runtime/pipeline.js';
import { type RateLimit, RateLimiter } from '../runtime/rate-limiter.js';
import { buildRequest } from '../runtime/steps/send.js';
import { TokenCache } from '../runtime/token-cache.js';
import { requestToken, type TokenRequest } from '../runtime/token-request.js';
import { type Send, type TlsOptions, Transport } from '../runtime/transport.js';
import type { Exchange, Received } from './model.js';

export interface Credential {
  readonly clientId: string;
  readonly clientSecret: string;
}

export interface SessionOptions {
  readonly definition: InterfaceDefinition<never>;
  readonly baseUrl: string;
  readonly credential: Credential;
  readonly operations: OperationTable;
  readonly tls?: TlsOptions | undefined;
  /** Time limit of one request, answer body included. */
  readonly timeoutMs: number;
  /** Windows the requests stay inside (the interface's published limits by default); empty: none. */
  readonly rateLimits: readonly RateLimit[];
}

/** How a request presents itself: the session's token, none, or a token given (a wrong one, another interface's). */
export type Presented = { readonly kind: 'token' } | { readonly kind: 'none' } | { readonly kind: 'given'; readonly token: string };

/** The client options an interface's token request reads, from a credential: in `login` where the client takes it there (interface C). */
export function clientOptionsOf(definition: InterfaceDefinition<never>, baseUrl: string, credential: Credential, tls?: TlsOptions): object {
  const carried = definition.client.optionNames.includes('login') ? { login: { ...credential } } : { ...credential };
  return { baseUrl, ...carried, ...(tls ? { tls } : {}) };
}

/** The refusals that happen in the TLS layer; the others (a refused credential, a token answer unread) are the server's words. */
const tlsFailures: ReadonlySet<AuthFailure> = new Set([
  'certificate-refused',
  'certificate-expired',
  'certificate-not-yet-valid',
  'key-mismatch',
  'pfx-unreadable',
  'server-untrusted',
  'tls-handshake',
]);

/** Why no usable answer came, from what the transport threw. */
export function noAnswerOf(error: unknown, timedOut: boolean): Extract<Received, { kind: 'no-answer' }> {
  const first = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 300);
  if (timedOut) return { kind: 'no-answer', reason: 'timeout', message: 'no complete answer within the time limit' };
  if (error instanceof AuthError) return { kind: 'no-answer', reason: tlsFailures.has(error.reason) ? 'tls' : 'other', message: first };
  const codes: string[] = [];
  for (let link: unknown = error; link instanceof Error && codes.length < 8; link = link.cause)
    codes.push(String((link as { code?: unknown }).code ?? ''), link.message);
  const text = codes.join(' ');
  if (/ECONNREFUSED/.test(text)) return { kind: 'no-answer', reason: 'refused', message: 'the connection was refused' };
  if (/ECONNRESET|EPIPE|other side closed|terminated|UND_ERR_SOCKET/.test(text))
    return { kind: 'no-answer', reason: 'reset', message: 'the connection was closed before a complete answer' };
  return { kind: 'no-answer', reason: 'other', message: first };
}

/** The body as JSON when it parses (or the operation answers text, a JWS); its first bytes when it should but does not. */
function bodyOf(info: OperationInfo, status: number, headers: Headers, text: string): { body?: unknown; unparsable?: string } {
  if (text === '') return {};
  const declaredJson = /json/i.test(headers.get('content-type') ?? '');
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    const expectsJson = declaredJson || (status >= 200 && status < 300 && info.jwsPayload === null && status !== 204);
    return expectsJson ? { body: text, unparsable: text.slice(0, 120) } : { body: text };
  }
}

export class VerifySession {
  readonly transport: Transport;
  private readonly tokenRequest: TokenRequest;
  private readonly tokens: TokenCache;
  private readonly limiter: RateLimiter | null;

  constructor(readonly options: SessionOptions) {
    const { definition, baseUrl, credential, operations, tls } = options;
    this.transport = new Transport(tls, { proxy: false });
    const clientOptions = clientOptionsOf(definition, baseUrl, credential, tls) as never;
    this.tokenRequest = definition.client.tokenRequest(baseUrl, clientOptions, operations);
    this.tokens = new TokenCache({ issue: () => requestToken(this.timedSend, this.tokenRequest) });
    this.limiter = options.rateLimits.length > 0 ? new RateLimiter(options.rateLimits) : null;
  }

  /** The transport with the run's time limit on requests that carry none (token requests): a silent server cannot stall a run. */
  readonly timedSend: Send = (request) =>
    this.transport.send({ ...request, signal: request.signal ?? AbortSignal.timeout(this.options.timeoutMs) });

  /** Every value no report may show: the secret in its encodings, and the tokens issued. */
  secrets(): string[] {
    return [...this.tokenRequest.secrets, this.options.credential.clientSecret, this.tokens.peek() ?? ''].filter(Boolean);
  }

  /** The session's token (one token request, shared); throws the runtime's AuthError when refused. */
  token(): Promise<string> {
    return this.tokens.get();
  }

  /** A token issued by another token request over this transport (a narrower scope, another interface's). */
  async tokenOf(request: TokenRequest): Promise<string> {
    return (await requestToken(this.timedSend, request)).accessToken;
  }

  /** Sends `args` to `info` at `baseUrl` (the session's by default) and returns what came back, unjudged. */
  async send(
    info: OperationInfo,
    args: CallArgs,
    presented: Presented = { kind: 'token' },
    options: { readonly baseUrl?: string; readonly headers?: Readonly<Record<string, string>> } = {},
  ): Promise<Exchange> {
    const headers: Record<string, string> = { ...options.headers };
    if (info.basicAuth && presented.kind === 'token')
      headers.Authorization = `Basic ${basicCredentials(this.options.credential.clientId, this.options.credential.clientSecret)}`;
    else if (info.secured && presented.kind !== 'none') {
      let token: string;
      try {
        token = presented.kind === 'given' ? presented.token : await this.token();
      } catch (error) {
        // Nothing was sent: the check fails for want of a token, and says why (the message names no secret).
        const why = noAnswerOf(error, false);
        const request = { method: info.method.toUpperCase(), url: `${options.baseUrl ?? this.options.baseUrl}${info.path}`, headers: {} };
        return { request, received: { ...why, message: `no token could be had: ${why.message}` }, durationMs: 0 };
      }
      if (info.tokenHeader) headers[info.tokenHeader] = token;
      else headers.Authorization = `Bearer ${token}`;
    }
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    const call = {
      info,
      args,
      options: { headers },
      headers: {},
      signal,
      checks: undefined as never,
      state: { attempts: 1, idempotencyKey: undefined, maybeExecuted: false },
    } satisfies Call;
    const request = await buildRequest(options.baseUrl ?? this.options.baseUrl, call);
    await this.limiter?.acquire(signal).catch(() => undefined);
    const started = performance.now();
    const sent = {
      method: request.method,
      url: request.url,
      headers: request.headers,
      ...(args.body === undefined ? {} : { body: args.body }),
    };
    try {
      const answer = await this.transport.send(request);
      const parsed = bodyOf(info, answer.status, answer.headers, answer.body);
      return {
        request: sent,
        received: { kind: 'answer', status: answer.status, headers: Object.fromEntries(answer.headers), ...parsed },
        durationMs: performance.now() - started,
      };
    } catch (error) {
      return { request: sent, received: noAnswerOf(error, signal.aborted), durationMs: performance.now() - started };
    }
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}

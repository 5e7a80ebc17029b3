/**
 * HTTP transport: undici with the client certificate of mutual TLS (section 5.1). One dispatcher
 * carries the token request and every call, so both present the same certificate; `rotate` swaps the
 * certificate for the next connections without disturbing calls in flight (a credential may have two
 * active certificates during a rotation, section 5.3). Certificate problems the client can see for itself
 * (expired, not yet valid, key mismatch, unreadable PFX) are refused before any connection.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { connect as tlsConnect, createSecureContext } from 'node:tls';
import type { Dispatcher } from 'undici';
import type { AttemptAbort } from './attempt-abort.js';
import { AuthError, ConfigurationError, type AuthFailure } from './errors.js';
import { withoutTrailingSlashes } from './text.js';

/**
 * Client certificate as PEM (certificate, key, optional CA) or as a PKCS#12 bundle; or only the CA that
 * signs the server's certificate, for a server that needs no client certificate.
 */
export type TlsOptions =
  | { readonly cert: string | Buffer; readonly key: string | Buffer; readonly ca?: string | Buffer; readonly passphrase?: string }
  | { readonly pfx: Buffer; readonly passphrase?: string; readonly ca?: string | Buffer }
  | { readonly ca: string | Buffer };

/** A request as the pipeline builds it, once: absolute URL, final headers, serialized body. */
export interface OutgoingRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array | null;
  readonly signal?: AbortSignal | undefined;
  /** The attempt's end when the pipeline made no AbortSignal for it (attempt-abort.ts): undici takes it instead. */
  readonly abort?: AttemptAbort | undefined;
  /** Told the status as soon as the answer's headers arrived, before its body is read. */
  readonly onHeaders?: ((status: number) => void) | undefined;
}

/** What came back: status, headers, and the whole body as text (decoded from gzip, deflate or br). */
export interface TransportAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

export type Send = (request: OutgoingRequest) => Promise<TransportAnswer>;

const loopbackHosts = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/**
 * Parses and checks a base URL: https anywhere, plain http only on loopback (a mock or a test server),
 * never with credentials in it. Returns it without a trailing slash.
 */
export function checkBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    // Not quoted: a base URL that does not parse may still carry credentials (user:secret@host).
    throw new ConfigurationError(`baseUrl is not a URL (${baseUrl.length} characters; expected https://host[:port][/path])`);
  }
  if (url.username || url.password) throw new ConfigurationError('baseUrl must not carry credentials');
  if (url.protocol === 'http:' && !loopbackHosts.test(url.hostname)) {
    throw new ConfigurationError(`baseUrl ${url.origin} uses plain http; only https is allowed outside loopback`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigurationError(`baseUrl protocol ${url.protocol} is not http(s)`);
  return withoutTrailingSlashes(url.href);
}

function refuse(reason: AuthFailure, message: string, cause?: unknown): AuthError {
  return new AuthError(message, reason, null, {}, cause);
}

/** Refuses a client certificate the server would refuse anyway, saying why. Nothing secret is echoed. */
export function inspectClientCertificate(tls: TlsOptions, now: Date = new Date()): void {
  if (!('pfx' in tls) && !('cert' in tls)) return;
  if ('pfx' in tls) {
    try {
      createSecureContext({ pfx: tls.pfx, ...(tls.passphrase !== undefined ? { passphrase: tls.passphrase } : {}) });
    } catch (error) {
      throw refuse('pfx-unreadable', 'the PFX bundle cannot be opened: wrong passphrase, or not a PKCS#12 file', error);
    }
    return;
  }
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(tls.cert);
  } catch (error) {
    throw refuse('certificate-refused', 'the client certificate is not a readable PEM certificate', error);
  }
  if (now.getTime() > Date.parse(certificate.validTo)) {
    throw refuse('certificate-expired', `the client certificate expired on ${new Date(certificate.validTo).toISOString()}`);
  }
  if (now.getTime() < Date.parse(certificate.validFrom)) {
    throw refuse('certificate-not-yet-valid', `the client certificate is valid only from ${new Date(certificate.validFrom).toISOString()}`);
  }
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey({ key: tls.key, ...(tls.passphrase !== undefined ? { passphrase: tls.passphrase } : {}) });
  } catch (error) {
    throw refuse('key-mismatch', 'the private key cannot be read (wrong passphrase, or not a PEM key)', error);
  }
  if (!certificate.checkPrivateKey(key)) throw refuse('key-mismatch', 'the client certificate and private key do not match');
}

/** TLS failure codes (OpenSSL alerts and Node verification errors), what each means, and its kind. */
const tlsFailures: ReadonlyArray<[RegExp, AuthFailure, string]> = [
  [
    /CERTIFICATE_REQUIRED|HANDSHAKE_FAILURE/,
    'certificate-refused',
    'the server requires a client certificate and none (or an unusable one) was presented',
  ],
  [
    /ALERT_UNKNOWN_CA|ALERT_BAD_CERTIFICATE|ALERT_DECRYPT_ERROR|ALERT_UNSUPPORTED_CERTIFICATE/,
    'certificate-refused',
    'the server rejected the client certificate (not issued by a CA it trusts, or not the linked one)',
  ],
  [/ALERT_CERTIFICATE_EXPIRED/, 'certificate-expired', 'the server rejected the client certificate as expired'],
  [/ALERT_CERTIFICATE_REVOKED/, 'certificate-refused', 'the server rejected the client certificate as revoked'],
  [/KEY_VALUES_MISMATCH/, 'key-mismatch', 'the client certificate and private key do not match'],
  [/CERT_HAS_EXPIRED/, 'server-untrusted', "the server's certificate has expired"],
  [
    /UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_GET_ISSUER_CERT/,
    'server-untrusted',
    "the server's certificate is not trusted (pass the issuing CA in tls.ca)",
  ],
  [/ERR_TLS_CERT_ALTNAME_INVALID/, 'server-untrusted', "the server's certificate does not name this host"],
  [/ERR_SSL_|ERR_OSSL_/, 'tls-handshake', 'the TLS handshake failed'],
];

function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  for (let current = error; current instanceof Error; current = current.cause)
    codes.push(String((current as { code?: unknown }).code ?? ''));
  return codes;
}

/** How long the diagnosing handshake waits for a refusal alert once the handshake completed (a few round trips). */
const alertWaitMs = 250;

/** undici is loaded with the first request: importing a client stays cheap (npm run bench: import cost). */
let undiciModule: Promise<typeof import('undici')> | undefined;
const loadUndici = (): Promise<typeof import('undici')> => (undiciModule ??= import('undici'));

export interface TransportOptions {
  /**
   * Forward proxy for the calls: a URL (`http://proxy.bank.example:3128`), or false to ignore the
   * environment. By default HTTPS_PROXY / HTTP_PROXY / NO_PROXY (either case) are honoured, as curl does.
   * https calls go through a CONNECT tunnel, so mutual TLS stays end to end with the platform.
   */
  readonly proxy?: string | false;
  /**
   * An undici dispatcher of your own (custom agent, instrumentation) carrying every request, the token
   * request included. Its connections are yours: pass TLS settings in its own options, not in `tls`.
   */
  readonly dispatcher?: Dispatcher;
}

const proxyVariables = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] as const;

/**
 * A path and query that the URL parser leaves exactly as they are: only characters it does not encode (no
 * quote, space or fragment), and no `.` or `..` segment, which it would resolve.
 */
const plainPathAndQuery = /^\/[A-Za-z0-9\-._~!$&()*+,;=:@%/]*(?:\?[A-Za-z0-9\-._~!$&()*+,;=:@%/?]+)?$/;
const dotSegment = /\/(?:\.|%2e){1,2}(?:[/?]|$)/i;

type RawHeaders = Record<string, string | string[] | undefined>;
/** A header name as Headers accepts it (RFC 9110 token). */
const headerName = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Tab, line feed, carriage return, space: the HTTP whitespace Headers removes from the ends of a value. */
const isHttpWhitespace = (code: number): boolean => code === 9 || code === 10 || code === 13 || code === 32;

/** A value without its leading and trailing HTTP whitespace (a scan: the ReDoS audit refuses `[\t\n\r ]+$`). */
function trimHttpWhitespace(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isHttpWhitespace(value.charCodeAt(start))) start += 1;
  while (end > start && isHttpWhitespace(value.charCodeAt(end - 1))) end -= 1;
  return value.slice(start, end);
}

/** Headers' own methods, called on an AnswerHeaders (whose type says nothing of Headers: the DOM typings declare its methods as properties, which a subclass cannot override). */
const headersMethods = Headers.prototype;

/**
 * An answer's headers: a Headers filled from undici's object of lower-cased names only when first used
 * through the Headers API (each append validates its name and value: about as much as the rest of the
 * transport's work per request); until then `get` of a valid name reads undici's object, as Headers would
 * answer it. Every method that reads or changes the list fills it first.
 */
class AnswerHeaders extends (Headers as unknown as new () => object) {
  #raw: RawHeaders | null;

  private constructor(raw: RawHeaders) {
    super();
    this.#raw = raw;
  }

  static of(raw: RawHeaders): Headers {
    return new AnswerHeaders(raw) as unknown as Headers;
  }

  #filled(): Headers {
    const headers = this as unknown as Headers;
    const raw = this.#raw;
    if (!raw) return headers;
    this.#raw = null;
    for (const [name, value] of Object.entries(raw)) {
      if (Array.isArray(value)) for (const item of value) headersMethods.append.call(headers, name, item);
      else if (value !== undefined) headersMethods.append.call(headers, name, value);
    }
    return headers;
  }

  get(name: string): string | null {
    if (this.#raw && headerName.test(name)) {
      const value = this.#raw[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.map(trimHttpWhitespace).join(', ') : trimHttpWhitespace(value);
    }
    return headersMethods.get.call(this.#filled(), name);
  }
  has(name: string): boolean {
    return headersMethods.has.call(this.#filled(), name);
  }
  getSetCookie(): string[] {
    return headersMethods.getSetCookie.call(this.#filled());
  }
  append(name: string, value: string): void {
    headersMethods.append.call(this.#filled(), name, value);
  }
  set(name: string, value: string): void {
    headersMethods.set.call(this.#filled(), name, value);
  }
  delete(name: string): void {
    headersMethods.delete.call(this.#filled(), name);
  }
  forEach(callback: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    headersMethods.forEach.call(this.#filled(), callback, thisArg);
  }
  entries(): ReturnType<Headers['entries']> {
    return headersMethods.entries.call(this.#filled());
  }
  keys(): ReturnType<Headers['keys']> {
    return headersMethods.keys.call(this.#filled());
  }
  values(): ReturnType<Headers['values']> {
    return headersMethods.values.call(this.#filled());
  }
  [Symbol.iterator](): ReturnType<Headers['entries']> {
    return headersMethods[Symbol.iterator].call(this.#filled());
  }
  [Symbol.for('nodejs.util.inspect.custom')](): Headers {
    return new Headers(this.#filled());
  }
}

export class Transport {
  /** Made on first use, then kept; a rotation starts a new one. */
  private dispatcher: Promise<Dispatcher> | null = null;
  private tls: TlsOptions | undefined;
  /** Last TLS alert seen on a socket: under TLS 1.3 a refused certificate often reaches fetch only as a closed socket. */
  private lastAlert: { code: string; at: number } | null = null;
  private closed = false;
  /** The dispatcher once made, to skip awaiting its promise on every request. */
  private ready: Dispatcher | null = null;
  /** The origin of the last URL parsed: a URL that starts with it and a plain path needs no parsing. */
  private lastOrigin: string | null = null;
  readonly send: Send;

  constructor(
    tls?: TlsOptions,
    private readonly options: TransportOptions = {},
  ) {
    if (tls && options.dispatcher)
      throw new ConfigurationError('give the TLS settings to your dispatcher (its connect options), or tls without a dispatcher, not both');
    if (options.proxy) {
      let proxy: URL;
      try {
        proxy = new URL(options.proxy);
      } catch {
        throw new ConfigurationError('proxy is not a URL (expected http://host:port)');
      }
      if (proxy.protocol !== 'http:' && proxy.protocol !== 'https:')
        throw new ConfigurationError(`proxy protocol ${proxy.protocol} is not http(s)`);
    }
    if (tls) inspectClientCertificate(tls);
    this.tls = tls;
    this.send = (request) => this.exchange(request);
  }

  /** Whether calls go through a forward proxy (then the origin cannot be probed directly). */
  private get proxied(): boolean {
    if (this.options.dispatcher || this.options.proxy === false) return false;
    return Boolean(this.options.proxy) || proxyVariables.some((name) => Boolean(process.env[name]));
  }

  /** Uses `tls` for every new connection from now on; calls in flight finish on the old one. */
  rotate(tls: TlsOptions): void {
    inspectClientCertificate(tls);
    const previous = this.dispatcher;
    this.tls = tls;
    this.dispatcher = null;
    this.ready = null;
    void previous?.then((dispatcher) => dispatcher.close()).catch(() => undefined);
  }

  async close(): Promise<void> {
    // A closed transport refuses later calls, as undici's closed agent does; a dispatcher of the caller's stays open.
    this.closed = true;
    if (this.options.dispatcher) return;
    const dispatcher = await this.currentDispatcher();
    await dispatcher.close();
  }

  /** The dispatcher of the present certificate, made with the first request after a rotation. */
  private currentDispatcher(): Promise<Dispatcher> {
    if (!this.dispatcher) {
      const made = this.createDispatcher(this.tls);
      this.dispatcher = made;
      // Kept only if no rotation replaced it meanwhile.
      void made.then(
        (dispatcher) => {
          if (this.dispatcher === made) this.ready = dispatcher;
        },
        () => undefined,
      );
    }
    return this.dispatcher;
  }

  /**
   * The origin and the path with query of `url`, as undici takes them. Parsing a URL costs more than the rest
   * of the transport's own work (npm run bench, client overhead), so a URL under the last origin parsed, whose
   * path and query the parser would leave as they are, is cut instead.
   */
  private originAndPath(url: string): { origin: string; path: string } {
    const origin = this.lastOrigin;
    if (origin !== null && url.startsWith(origin) && url.charAt(origin.length) === '/') {
      const path = url.slice(origin.length);
      if (plainPathAndQuery.test(path) && !dotSegment.test(path)) return { origin, path };
    }
    const parsed = new URL(url);
    this.lastOrigin = parsed.origin;
    return { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
  }

  private async createDispatcher(tls: TlsOptions | undefined): Promise<Dispatcher> {
    if (this.options.dispatcher) return this.options.dispatcher;
    const { Agent, EnvHttpProxyAgent, buildConnector } = await loadUndici();
    // TLS verification stays on: rejectUnauthorized is never turned off here.
    const connector = buildConnector({ ...(tls ?? {}) });
    const agentOptions = {
      keepAliveTimeout: 10_000,
      // Through a proxy, the TLS session with the platform (client certificate included) runs inside the CONNECT tunnel.
      ...(tls ? { requestTls: { ...tls } } : {}),
      connect: (options: Parameters<typeof connector>[0], callback: Parameters<typeof connector>[1]) =>
        connector(options, (error, socket) => {
          socket?.on('error', (socketError: { code?: string }) => {
            if (socketError.code?.startsWith('ERR_SSL')) this.lastAlert = { code: socketError.code, at: Date.now() };
          });
          if (error) callback(error, null);
          else callback(null, socket!);
        }),
    };
    if (!this.proxied) return new Agent(agentOptions);
    const explicit = this.options.proxy ? { httpProxy: this.options.proxy, httpsProxy: this.options.proxy } : {};
    return new EnvHttpProxyAgent({ ...agentOptions, ...explicit });
  }

  private failureOf(error: unknown, url: string): AuthError | null {
    const codes = codesOf(error);
    if (this.lastAlert && Date.now() - this.lastAlert.at < 2_000) codes.push(this.lastAlert.code);
    for (const code of codes) {
      const found = tlsFailures.find(([pattern]) => pattern.test(code));
      if (found) return new AuthError(`TLS handshake with ${new URL(url).host} failed: ${found[2]} (${code})`, found[1], null, {}, error);
    }
    return null;
  }

  /**
   * A connection closed before any answer is either a dropped connection (a server that crashed or
   * restarted, maybe after executing the call) or, under TLS 1.3, a server refusing the client
   * certificate after the handshake. A fresh handshake that sends nothing tells them apart:
   * - an alert or a verification error: the TLS layer refuses, and says why;
   * - the handshake completes and the server hangs up at once, before any request (Node's TLS servers
   *   refuse a certificate this way, without an alert): a refusal of this client;
   * - a connection refused or reset, or a server that keeps the new connection open for `alertWaitMs`:
   *   not a certificate problem (null) — the call's failure is a connection failure.
   * A hang-up without an alert counts only when a second handshake meets it too: a server that crashes
   * just as one handshake completes must not pass for a refusal.
   */
  private async diagnoseClosedConnection(url: URL, signal: AbortSignal): Promise<AuthError | null> {
    const first = await this.probeHandshake(url, signal);
    const verdict = first === 'hung-up-after-handshake' ? await this.probeHandshake(url, signal) : first;
    if (verdict === null) return null;
    if (verdict === 'hung-up-after-handshake') {
      const meaning =
        this.tls && ('pfx' in this.tls || 'cert' in this.tls)
          ? 'the server closes the connection right after the TLS handshake, before any request: it refuses the client certificate (not issued by a CA it trusts, expired for it, or not linked to the credential)'
          : 'the server closes the connection right after the TLS handshake, before any request, and no client certificate was configured: this API requires one (tls option)';
      return new AuthError(`TLS handshake with ${url.host} failed: ${meaning}`, 'certificate-refused', null);
    }
    const found = tlsFailures.find(([pattern]) => pattern.test(verdict.code))!;
    return new AuthError(`TLS handshake with ${url.host} failed: ${found[2]} (${verdict.code})`, found[1], null);
  }

  /** One handshake that sends nothing: what the TLS layer said, a hang-up right after it, or nothing telling (null). */
  private probeHandshake(url: URL, signal: AbortSignal): Promise<{ code: string } | 'hung-up-after-handshake' | null> {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    return new Promise<{ code: string } | 'hung-up-after-handshake' | null>((resolve) => {
      const socket = tlsConnect({
        host,
        port: Number(url.port || 443),
        ...(isIP(host) ? {} : { servername: url.hostname }),
        ...(this.tls ?? {}),
      });
      let handshakeDone = false;
      let timer: NodeJS.Timeout | undefined;
      const finish = (value: { code: string } | 'hung-up-after-handshake' | null): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        socket.destroy();
        resolve(value);
      };
      const onAbort = (): void => finish(null);
      signal.addEventListener('abort', onAbort, { once: true });
      // A refusing server answers the client's Finished at once: within a round trip or two.
      socket.once('secureConnect', () => {
        handshakeDone = true;
        timer = setTimeout(() => finish(null), alertWaitMs);
      });
      socket.once('error', (error: { code?: string }) =>
        finish(error.code && tlsFailures.some(([pattern]) => pattern.test(error.code!)) ? { code: error.code } : null),
      );
      socket.once('close', () => finish(handshakeDone ? 'hung-up-after-handshake' : null));
    });
  }

  /**
   * One request through the dispatcher (undici's `request`, not `fetch`: the pipeline already built the
   * request, and fetch would build a second one). Redirects are not followed: an API answering one is
   * answered as it is, with its credentials not sent elsewhere.
   */
  private async exchange(request: OutgoingRequest): Promise<TransportAnswer> {
    if (this.closed && this.options.dispatcher) throw new ConfigurationError('this client was closed');
    const dispatcher = this.ready ?? (await this.currentDispatcher());
    const { origin, path } = this.originAndPath(request.url);
    // undici takes an EventEmitter as well as an AbortSignal; `abort` spares making the signal.
    const signal = request.abort ?? request.signal;
    try {
      const answer = await dispatcher.request({
        origin,
        path,
        method: request.method as Dispatcher.HttpMethod,
        headers: request.headers,
        body: request.body,
        ...(signal ? { signal } : {}),
      });
      request.onHeaders?.(answer.statusCode);
      // Filled on first use through the Headers API: most answers are read only by get.
      const headers = AnswerHeaders.of(answer.headers);
      // Read from undici's object of lower-cased names: Headers.get costs as much again.
      const declared = answer.headers['content-encoding'];
      const encoding = Array.isArray(declared) ? declared.join(', ') : declared;
      const body =
        encoding && encoding !== 'identity'
          ? await decoded(encoding, Buffer.from(await answer.body.arrayBuffer()))
          : await answer.body.text();
      return { status: answer.statusCode, headers, body };
    } catch (error) {
      if (signal?.aborted) throw error;
      const failure = this.failureOf(error, request.url);
      if (failure) throw failure;
      // Through a proxy, or a dispatcher of the caller's, the platform cannot be probed as the calls reach it.
      const url = new URL(request.url);
      if (url.protocol === 'https:' && !this.proxied && !this.options.dispatcher && codesOf(error).includes('UND_ERR_SOCKET')) {
        const refused = await this.diagnoseClosedConnection(url, request.abort?.signal ?? request.signal ?? new AbortController().signal);
        if (refused) throw new AuthError(refused.message, refused.reason, null, {}, error);
      }
      throw error;
    }
  }
}

/** A body sent compressed although none was asked for (no accept-encoding is sent): decoded all the same. */
async function decoded(encoding: string, bytes: Buffer): Promise<string> {
  const { brotliDecompressSync, gunzipSync, inflateSync } = await import('node:zlib');
  const name = encoding.trim().toLowerCase();
  if (name === 'gzip' || name === 'x-gzip') return gunzipSync(bytes).toString('utf8');
  if (name === 'deflate') return inflateSync(bytes).toString('utf8');
  if (name === 'br') return brotliDecompressSync(bytes).toString('utf8');
  return bytes.toString('utf8');
}

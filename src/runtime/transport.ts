/**
 * HTTP transport: undici with an optional client certificate (mTLS, section 5.1). The same dispatcher
 * carries the token request and every call, so both present the same certificate.
 */
import { Agent, fetch as undiciFetch, type Dispatcher } from 'undici';
import { AuthError, ConfigurationError } from './errors.js';

/** Client certificate as PEM (certificate, key, optional CA) or as a PKCS#12 bundle. */
export type TlsOptions =
  | { readonly cert: string | Buffer; readonly key: string | Buffer; readonly ca?: string | Buffer; readonly passphrase?: string }
  | { readonly pfx: Buffer; readonly passphrase?: string; readonly ca?: string | Buffer };

export type FetchLike = (request: Request) => Promise<Response>;

const loopbackHosts = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/**
 * Parses and checks a base URL: https anywhere, plain http only on loopback (a mock or a test server),
 * never with credentials in it. Returns it without a trailing slash.
 */
export function checkBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigurationError(`baseUrl is not a URL: ${JSON.stringify(baseUrl)}`);
  }
  if (url.username || url.password) throw new ConfigurationError('baseUrl must not carry credentials');
  if (url.protocol === 'http:' && !loopbackHosts.test(url.hostname)) {
    throw new ConfigurationError(`baseUrl ${url.origin} uses plain http; only https is allowed outside loopback`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigurationError(`baseUrl protocol ${url.protocol} is not http(s)`);
  // Trailing slashes dropped without a regex: /\/+$/ backtracks quadratically on many slashes.
  let href = url.href;
  while (href.endsWith('/')) href = href.slice(0, -1);
  return href;
}

export function createDispatcher(tls?: TlsOptions): Dispatcher {
  // TLS verification stays on: rejectUnauthorized is never set to false here.
  return new Agent({ connect: tls ? { ...tls } : {}, keepAliveTimeout: 10_000 });
}

/** TLS failure codes (OpenSSL alerts and Node verification errors) and what each means for the caller. */
const tlsFailures: ReadonlyArray<[RegExp, string]> = [
  [/CERTIFICATE_REQUIRED|HANDSHAKE_FAILURE/, 'the server requires a client certificate and none (or an unusable one) was presented'],
  [/ALERT_UNKNOWN_CA|ALERT_BAD_CERTIFICATE|ALERT_DECRYPT_ERROR/, 'the server rejected the client certificate (not issued by a CA it trusts, or not the linked one)'],
  [/ALERT_CERTIFICATE_EXPIRED|ALERT_CERTIFICATE_REVOKED/, 'the server rejected the client certificate as expired or revoked'],
  [/KEY_VALUES_MISMATCH|ERR_OSSL_X509_KEY_VALUES_MISMATCH/, 'the client certificate and private key do not match'],
  [/CERT_HAS_EXPIRED/, "the server's certificate has expired"],
  [/UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_GET_ISSUER_CERT/, "the server's certificate is not trusted (pass the issuing CA in tls.ca)"],
  [/ERR_TLS_CERT_ALTNAME_INVALID/, "the server's certificate does not name this host"],
  [/ERR_SSL_|ERR_OSSL_/, 'the TLS handshake failed'],
];

/**
 * Under TLS 1.3 a server refuses a client certificate after the client has finished its handshake, so
 * undici often sees only a closed socket, not the alert. On an https connection that closes before any
 * answer, say what that almost always means under mutual TLS.
 */
function closedBeforeAnswer(code: string, message: string, hasClientCertificate: boolean): string | null {
  if (code !== 'UND_ERR_SOCKET' || !/other side closed/.test(message)) return null;
  return hasClientCertificate
    ? 'the server closed the TLS connection without answering: it most likely refused the client certificate (not issued by a CA it trusts, expired, or not linked to the credential)'
    : 'the server closed the TLS connection without answering and no client certificate was configured: this API requires one (tls option)';
}

function tlsFailureOf(error: unknown, https: boolean, hasClientCertificate: boolean): { code: string; meaning: string } | null {
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = String((current as { code?: unknown }).code ?? '');
    const found = tlsFailures.find(([pattern]) => pattern.test(code));
    if (found) return { code, meaning: found[1] };
    const closed = https ? closedBeforeAnswer(code, current.message, hasClientCertificate) : null;
    if (closed) return { code, meaning: closed };
  }
  return null;
}

/**
 * A fetch for openapi-fetch that sends through the given dispatcher. A TLS failure (section 5: TLS
 * handshake failure when certificate or trust is wrong) becomes an AuthError that says which.
 */
export function fetchThrough(dispatcher: Dispatcher, tls?: TlsOptions): FetchLike {
  const hasClientCertificate = tls !== undefined && ('pfx' in tls || 'cert' in tls);
  return async (request: Request): Promise<Response> => {
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    try {
      const response = await undiciFetch(request.url, {
        method: request.method,
        headers: [...request.headers.entries()],
        body: hasBody ? Buffer.from(await request.arrayBuffer()) : null,
        signal: request.signal,
        dispatcher,
      });
      return response as unknown as Response;
    } catch (error) {
      const failure = tlsFailureOf(error, request.url.startsWith('https:'), hasClientCertificate);
      if (failure) throw new AuthError(`TLS handshake with ${new URL(request.url).host} failed: ${failure.meaning} (${failure.code})`, null, error);
      throw error;
    }
  };
}

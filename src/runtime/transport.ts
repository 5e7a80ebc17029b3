/**
 * HTTP transport: undici with an optional client certificate (mTLS, section 5.1). The same dispatcher
 * carries the token request and every call, so both present the same certificate.
 */
import { Agent, fetch as undiciFetch, type Dispatcher } from 'undici';
import { ConfigurationError } from './errors.js';

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
  return url.href.replace(/\/+$/, '');
}

export function createDispatcher(tls?: TlsOptions): Dispatcher {
  // TLS verification stays on: rejectUnauthorized is never set to false here.
  return new Agent({ connect: tls ? { ...tls } : {}, keepAliveTimeout: 10_000 });
}

/** A fetch for openapi-fetch that sends through the given dispatcher. */
export function fetchThrough(dispatcher: Dispatcher): FetchLike {
  return async (request: Request): Promise<Response> => {
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    const response = await undiciFetch(request.url, {
      method: request.method,
      headers: [...request.headers.entries()],
      body: hasBody ? Buffer.from(await request.arrayBuffer()) : null,
      signal: request.signal,
      dispatcher,
    });
    return response as unknown as Response;
  };
}

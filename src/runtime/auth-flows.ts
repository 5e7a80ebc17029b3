/**
 * How each interface issues its access token (section 5), as functions over the client's transport:
 *
 * - core-banking: POST /auth/token, JSON snake_case client credentials (5.4);
 * - accounts: JSON camelCase clientId/clientSecret/grantType(/scope) (5.5); its path is not shown, so it is
 *   an option (default /auth/token, where 9.4 says authentication was unified);
 * - pix: POST /oauth/token, standard OAuth 2.0 client credentials with HTTP Basic client authentication (5.6);
 * - messages: a login whose path and shapes are not shown (5.7); it yields the `svc-token` header value.
 *
 * Refusals become AuthErrors that say which: invalid credentials, inactive credential, refused
 * certificate (401), source IP not allowed (403). The secret never appears in any of them: an error keeps
 * no Request, and whatever body or cause it keeps has the credentials scrubbed out, since some gateways
 * answer a refused token request by echoing it (headers and body).
 */
import { AuthError, basicCredentials, ConnectionError, HttpError, isProblem, ProblemError, type AuthFailure } from './errors.js';
import { redact } from './logging.js';
import type { IssuedToken } from './token-cache.js';
import type { FetchLike } from './transport.js';

export interface ClientCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

export type TokenFlow = (fetch: FetchLike) => Promise<IssuedToken>;

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return text;
  }
}

/** Why a token request was refused, from its status and the words of its answer. */
export function refusalOf(status: number, body: unknown): { reason: AuthFailure; meaning: string } {
  const words = typeof body === 'string' ? body : JSON.stringify(body ?? '');
  if (status === 403) return { reason: 'ip-not-allowed', meaning: 'the source IP is not allowed for this credential (403)' };
  if (/inactiv|disabled|desativad|inativ/i.test(words))
    return { reason: 'inactive-credential', meaning: 'the credential is inactive (401)' };
  if (/certificat|certificad/i.test(words))
    return { reason: 'certificate-refused', meaning: 'the client certificate is not the one linked to the credential (401)' };
  return { reason: 'invalid-credentials', meaning: 'invalid credentials: wrong client id or secret (401)' };
}

/** The values a token request carries that no error may keep: the secret, and the Basic value made from it. */
type RequestSecrets = readonly string[];

/** Credentials scrubbed (in every encoding an echo may use), members named like credentials replaced, documents masked. */
function scrubbed<T>(value: T, secrets: RequestSecrets): T {
  return redact(value, { secrets }) as T;
}

/** How many links of a cause chain are kept: enough to explain a failure, and a cycle of causes ends. */
const causeLinks = 8;

/**
 * What explains a failure, without what the failing code attached: each link of the cause chain as a
 * plain Error with only its name, message, code and stack, credentials scrubbed. A fetch (an instrumented
 * one, a polyfill) may attach the Request or quote its body in what it throws.
 */
function explanationOf(error: unknown, secrets: RequestSecrets): Error | undefined {
  const chain: unknown[] = [];
  for (
    let link: unknown = error;
    link !== undefined && link !== null && chain.length < causeLinks;
    link = link instanceof Error ? link.cause : undefined
  )
    chain.push(link);
  let explanation: Error | undefined;
  for (const link of chain.reverse()) {
    const message =
      link instanceof Error ? link.message : typeof link === 'string' ? link : `a value that is not an Error was thrown (${typeof link})`;
    const copy: Error & { code?: string | number } = new Error(
      scrubbed(message, secrets),
      explanation ? { cause: explanation } : undefined,
    );
    const hidden = (name: string, value: unknown): void => {
      Object.defineProperty(copy, name, { value, writable: true, enumerable: false, configurable: true });
    };
    if (link instanceof Error) {
      hidden('name', link.name);
      if (typeof link.stack === 'string') hidden('stack', scrubbed(link.stack, secrets));
      const code = (link as { code?: unknown }).code;
      if (typeof code === 'string' || typeof code === 'number') copy.code = code;
    }
    explanation = copy;
  }
  return explanation;
}

async function requestToken(
  name: string,
  fetch: FetchLike,
  request: Request,
  secrets: RequestSecrets,
  read: (body: unknown, response: Response) => IssuedToken | null,
): Promise<IssuedToken> {
  let response: Response;
  try {
    response = await fetch(request);
  } catch (error) {
    // The transport's TLS verdicts stay AuthErrors; their cause is rebuilt like any other.
    if (error instanceof AuthError)
      throw new AuthError(scrubbed(error.message, secrets), error.reason, error.status, {}, explanationOf(error.cause, secrets));
    throw new ConnectionError(`${name} token request got no answer`, { operationId: 'token' }, { cause: explanationOf(error, secrets) });
  }
  const body = await readBody(response);
  if (response.status === 401 || response.status === 403) {
    const { reason, meaning } = refusalOf(response.status, body);
    throw new AuthError(`${name} token request refused: ${meaning}`, reason, response.status);
  }
  if (!response.ok) {
    // Not a refusal: a server error or rate limit, which the caller may retry. It keeps the answer, scrubbed.
    const kept = scrubbed(body, secrets);
    throw isProblem(kept)
      ? new ProblemError(response.status, kept, { operationId: 'token' })
      : new HttpError(response.status, kept, { operationId: 'token' });
  }
  const token = read(body, response);
  if (!token || !token.accessToken || !(token.expiresIn > 0)) {
    throw new AuthError(`${name} token response has no usable token and lifetime`, 'token-response-invalid', response.status);
  }
  return token;
}

const field = (body: unknown, name: string): unknown =>
  typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const seconds = (value: unknown): number => (typeof value === 'number' ? value : Number.NaN);

export function coreBankingTokenFlow(baseUrl: string, credentials: ClientCredentials): TokenFlow {
  return (fetch) =>
    requestToken(
      'core-banking',
      fetch,
      new Request(`${baseUrl}/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          client_id: credentials.clientId,
          client_secret: credentials.clientSecret,
          grant_type: 'client_credentials',
        }),
      }),
      [credentials.clientSecret],
      (body) => ({ accessToken: text(field(body, 'access_token')), expiresIn: seconds(field(body, 'expires_in')) }),
    );
}

/**
 * Section 5.5 gives `expiresAt` as an integer without saying whether it is an instant or a lifetime:
 * values that look like a Unix time (seconds or milliseconds) are read as the instant, others as seconds.
 */
export function lifetimeFromExpiresAt(expiresAt: number, now: number = Date.now()): number {
  if (expiresAt > 1e12) return (expiresAt - now) / 1000;
  if (expiresAt > 1e9) return expiresAt - now / 1000;
  return expiresAt;
}

export function accountsTokenFlow(
  baseUrl: string,
  credentials: ClientCredentials & { readonly scope?: string; readonly tokenPath?: string },
): TokenFlow {
  return (fetch) =>
    requestToken(
      'accounts',
      fetch,
      new Request(`${baseUrl}${credentials.tokenPath ?? '/auth/token'}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          clientId: credentials.clientId,
          clientSecret: credentials.clientSecret,
          grantType: 'client_credentials',
          ...(credentials.scope ? { scope: credentials.scope } : {}),
        }),
      }),
      [credentials.clientSecret],
      (body) => ({ accessToken: text(field(body, 'accessToken')), expiresIn: lifetimeFromExpiresAt(seconds(field(body, 'expiresAt'))) }),
    );
}

export function pixTokenFlow(baseUrl: string, credentials: ClientCredentials & { readonly scope?: string }): TokenFlow {
  const userPass = `${encodeURIComponent(credentials.clientId)}:${encodeURIComponent(credentials.clientSecret)}`;
  const basic = basicCredentials(credentials.clientId, credentials.clientSecret);
  // The Basic value, and its decoded forms as gateways print them (percent-encoded or not).
  const secrets = [credentials.clientSecret, basic, userPass, `${credentials.clientId}:${credentials.clientSecret}`];
  const form = new URLSearchParams({ grant_type: 'client_credentials', ...(credentials.scope ? { scope: credentials.scope } : {}) });
  return (fetch) =>
    requestToken(
      'pix',
      fetch,
      new Request(`${baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
      }),
      secrets,
      (body) => ({ accessToken: text(field(body, 'access_token')), expiresIn: seconds(field(body, 'expires_in')) }),
    );
}

export interface MessagesLoginOptions extends ClientCredentials {
  /** Path of the login (not shown by the interface specification; default /login). */
  readonly loginPath?: string;
  /** How long a svc-token lasts (not shown; default 3600 s, renewed earlier on any 401). */
  readonly tokenLifetimeSeconds?: number;
}

/** Login of interface C: the token comes back in a `svc-token` header or member of the answer. */
export function messagesLoginFlow(baseUrl: string, options: MessagesLoginOptions): TokenFlow {
  return (fetch) =>
    requestToken(
      'messages',
      fetch,
      new Request(`${baseUrl}${options.loginPath ?? '/login'}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ clientId: options.clientId, clientSecret: options.clientSecret }),
      }),
      [options.clientSecret],
      (body, response) => ({
        accessToken:
          response.headers.get('svc-token') ??
          (text(field(body, 'svc-token')) || text(field(body, 'svcToken')) || text(field(body, 'token'))),
        expiresIn: options.tokenLifetimeSeconds ?? 3600,
      }),
    );
}

/**
 * A token request, whatever its shape: each interface says what it sends and how to read the answer
 * (src/<interface>/token.ts); this module sends it through the client's transport and judges the answer.
 *
 * Refusals become AuthErrors that say which: invalid credentials, inactive credential, refused
 * certificate (401), source IP not allowed (403). The secret never appears in any of them: an error keeps
 * no Request, and whatever body or cause it keeps has the credentials scrubbed out, since some gateways
 * answer a refused token request by echoing it (headers and body).
 */
import { AuthError, ConnectionError, HttpError, isProblem, ProblemError, type AuthFailure } from './errors.js';
import { redact } from './logging.js';
import { rootCauseOf } from './root-cause.js';
import type { IssuedToken } from './token-cache.js';
import type { OutgoingRequest, Send } from './transport.js';

export interface ClientCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

/** Issues a token over the client's transport. */
export type TokenFlow = (send: Send) => Promise<IssuedToken>;

function parsedBody(text: string): unknown {
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

/** What an interface's token request is: its request, the values no error may keep, and the reader of its answer. */
export interface TokenRequest {
  /** Name in error texts: "<name> token request refused: …". */
  readonly name: string;
  readonly request: Omit<OutgoingRequest, 'signal'>;
  /** The secret and every form of it an echo may use (a Basic value, user:pass). */
  readonly secrets: readonly string[];
  readonly read: (body: unknown, headers: Headers) => IssuedToken | null;
}

/** Sends a token request and judges its answer: a token, a refusal (AuthError), or a failure the caller may retry. */
export async function requestToken(send: Send, token: TokenRequest): Promise<IssuedToken> {
  const { name, secrets } = token;
  let answer: Awaited<ReturnType<Send>>;
  try {
    answer = await send(token.request);
  } catch (error) {
    // The transport's TLS verdicts stay AuthErrors; their cause is rebuilt like any other.
    if (error instanceof AuthError)
      throw new AuthError(
        scrubbed(error.message, secrets),
        error.reason,
        error.status,
        { operationId: 'token', attempts: 1 },
        explanationOf(error.cause, secrets),
      );
    // The root cause in the message: the code and the host and port, not two levels down the cause chain.
    const root = rootCauseOf(error, token.request.url, (text) => scrubbed(text, secrets));
    throw new ConnectionError(
      `${name} token request got no answer: ${root.text}`,
      { operationId: 'token', attempts: 1 },
      { cause: explanationOf(error, secrets), code: root.code, target: root.target },
    );
  }
  const body = parsedBody(answer.body);
  if (answer.status === 401 || answer.status === 403) {
    const { reason, meaning } = refusalOf(answer.status, body);
    throw new AuthError(`${name} token request refused: ${meaning}`, reason, answer.status, { operationId: 'token', attempts: 1 });
  }
  if (answer.status < 200 || answer.status >= 300) {
    // Not a refusal: a server error or rate limit, which the caller may retry. It keeps the answer, scrubbed.
    const kept = scrubbed(body, secrets);
    const context = { operationId: 'token', attempts: 1 };
    throw isProblem(kept) ? new ProblemError(answer.status, kept, context) : new HttpError(answer.status, kept, context);
  }
  const issued = token.read(body, answer.headers);
  if (!issued?.accessToken || !(issued.expiresIn > 0)) {
    throw new AuthError(`${name} token response has no usable token and lifetime`, 'token-response-invalid', answer.status, {
      operationId: 'token',
      attempts: 1,
    });
  }
  return issued;
}

/** Readers of a token answer's members. */
export const member = (body: unknown, name: string): unknown =>
  typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
export const text = (value: unknown): string => (typeof value === 'string' ? value : '');
export const seconds = (value: unknown): number => (typeof value === 'number' ? value : Number.NaN);

/**
 * The client option `middleware`: the caller's own hooks on every attempt, run by the send step once the
 * request is built (its token added, its body serialized) and before it leaves, then on its answer or its
 * failure. A hook may add or replace request headers, and observe answers (status, headers, duration); it
 * sees no body. A hook that throws ends the call with its error: nothing more is sent.
 */
import { ConfigurationError } from './errors.js';

/** One attempt about to be sent. `headers` may be changed; they are sent as the hooks leave them. */
export interface MiddlewareRequest {
  readonly operationId: string;
  /** 1 for the first attempt; a retry or a resend after a token renewal counts up. */
  readonly attempt: number;
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
}

/** The answer of an attempt, its body not included. */
export interface MiddlewareResponse {
  readonly operationId: string;
  readonly attempt: number;
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly headers: Headers;
  /** From sending to the answer's headers and body read. */
  readonly durationMs: number;
}

/** An attempt that got no answer: a refused or dropped connection, a TLS refusal, its time limit, a cancellation. */
export interface MiddlewareFailure {
  readonly operationId: string;
  readonly attempt: number;
  readonly method: string;
  readonly url: string;
  readonly error: unknown;
}

export interface Middleware {
  onRequest?(request: MiddlewareRequest): void | Promise<void>;
  onResponse?(response: MiddlewareResponse): void | Promise<void>;
  onError?(failure: MiddlewareFailure): void | Promise<void>;
}

/** The hooks a middleware may have; nothing else is accepted, so a misspelt `onResponce` is not silently ignored. */
export const middlewareHooks = ['onRequest', 'onResponse', 'onError'] as const satisfies readonly (keyof Middleware)[];

/** The `middleware` option checked: an array of objects, each with at least one known hook, each a function. */
export function checkMiddleware(value: unknown): readonly Middleware[] {
  const known = `a middleware is an object with ${middlewareHooks.join(', ')} (functions)`;
  if (!Array.isArray(value)) throw new ConfigurationError(`middleware must be an array: ${known}`);
  value.forEach((entry: unknown, index) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      throw new ConfigurationError(`middleware[${index}] is not an object: ${known}`);
    const names = Object.keys(entry);
    const unknown = names.find((name) => !(middlewareHooks as readonly string[]).includes(name));
    if (unknown !== undefined) throw new ConfigurationError(`middleware[${index}].${unknown} is not a hook: ${known}`);
    if (names.length === 0) throw new ConfigurationError(`middleware[${index}] has no hook: ${known}`);
    for (const name of names) {
      const hook = (entry as Record<string, unknown>)[name];
      if (typeof hook !== 'function') throw new ConfigurationError(`middleware[${index}].${name} must be a function, got ${typeof hook}`);
    }
  });
  return value as readonly Middleware[];
}

type Attempt = Pick<MiddlewareRequest, 'operationId' | 'attempt' | 'method' | 'url'>;

/** The request's headers as the `onRequest` hooks leave them, in order. */
export async function beforeSending(
  middleware: readonly Middleware[],
  attempt: Attempt,
  headers: Readonly<Record<string, string>>,
): Promise<Record<string, string>> {
  const editable = new Headers(headers);
  for (const each of middleware) await each.onRequest?.({ ...attempt, headers: editable });
  return Object.fromEntries(editable);
}

export async function afterAnswer(middleware: readonly Middleware[], response: MiddlewareResponse): Promise<void> {
  for (const each of middleware) await each.onResponse?.(response);
}

export async function afterFailure(middleware: readonly Middleware[], attempt: Attempt, error: unknown): Promise<void> {
  for (const each of middleware) await each.onError?.({ ...attempt, error });
}

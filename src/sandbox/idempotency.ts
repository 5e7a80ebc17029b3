/**
 * Keyed replay, the rule interfaces A and D share: a request sent again under the same idempotency key with
 * the same payload is answered as the first one was, and the same key with another payload is refused (409,
 * each interface in its own words). Payloads are compared by their canonical text, so the same members in
 * another order are the same payload.
 *
 * What differs stays with each interface: what scopes a key (A: the payment family and the account; D: the
 * caller and the operation), the wording of the 409, and what is kept under the
 * key — the reference of what the request created, answered as it is now (A), or the first answer itself,
 * answered as it was (D).
 */
import type { SandboxRequest } from './contract.js';

/** The canonical text of a JSON value (members sorted, undefined as null), so two payloads that mean the same compare equal. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** What a module's state keeps under an idempotency key: the first payload's canonical text beside what the interface replays. */
export type Kept<T> = { readonly fingerprint: string } & T;

/**
 * What `store` keeps under `slot` for `payload`: undefined when the key is new, what the first request left when
 * the payload is the same; another payload calls `conflict`, the interface's 409.
 */
export function keptFor<T>(
  store: Readonly<Record<string, Kept<T>>>,
  slot: string,
  payload: unknown,
  conflict: () => never,
): Kept<T> | undefined {
  const held = store[slot];
  if (!held) return undefined;
  if (held.fingerprint !== canonical(payload)) conflict();
  return held;
}

/** Keeps `value` under `slot` with the canonical text of `payload`, for the replays `keptFor` finds. */
export function keep<T>(store: Record<string, Kept<T>>, slot: string, payload: unknown, value: T): void {
  store[slot] = { fingerprint: canonical(payload), ...value };
}

/**
 * The request's idempotency key, in the header its operation names. The engine refused the request already
 * when the key is missing or malformed (the header is a required parameter), so none is checked here.
 */
export function idempotencyKeyOf(request: SandboxRequest): string {
  const header = request.info.idempotencyKeyRule?.header.toLowerCase();
  const key = header === undefined ? undefined : request.headers[header];
  if (key === undefined) throw new Error(`${request.operationId} reached its handler without its idempotency key`);
  return key;
}

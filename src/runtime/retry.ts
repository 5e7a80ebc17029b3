/**
 * When and how long to wait before trying a call again: exponential backoff with full jitter, the
 * server's Retry-After honoured (seconds or an HTTP date) but capped, all within a total deadline.
 */
export interface RetryPolicy {
  /** Retries after the first attempt (default 2). */
  readonly maxRetries: number;
  /** First backoff ceiling; doubles on each retry (default 250 ms). */
  readonly baseDelayMs: number;
  /** Largest backoff ceiling (default 8 s). */
  readonly maxDelayMs: number;
  /** Longest Retry-After honoured; a longer one ends the call with a RateLimitError (default 60 s). */
  readonly maxRetryAfterMs: number;
  /** Total time a call may take, retries and waits included (default 60 s). */
  readonly deadlineMs: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxRetries: 2,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  deadlineMs: 60_000,
};

/** Statuses worth another attempt (section 7.1: 429, 500, 503 retry with backoff; 502 and 504 are gateway twins). */
export const retryableStatuses: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

const idempotentMethods = new Set(['get', 'head', 'options', 'put', 'delete', 'trace']);

/** A call may be repeated only when repeating it cannot do the work twice. */
export function mayRetry(method: string, hasIdempotencyKey: boolean): boolean {
  return hasIdempotencyKey || idempotentMethods.has(method.toLowerCase());
}

/** Milliseconds a Retry-After header asks for: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null | undefined, now: number): number | undefined {
  if (!header) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its weekday or month; anything else (e.g. "-5") is unreadable, not a date.
  if (!/[A-Za-z]{3}/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Full jitter: a random wait between 0 and the exponential ceiling of this retry (0-based). */
export function backoffMs(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

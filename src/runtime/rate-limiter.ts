/**
 * Client-side rate limiting over one or more windows (section 8 publishes 1000 requests per minute and
 * 10000 per hour for the administrative API): a call waits for room in every window instead of collecting 429s.
 */
import { ConfigurationError } from './errors.js';

export interface RateLimit {
  readonly limit: number;
  readonly intervalMs: number;
}

/**
 * What a client needs of a limiter: wait for room, then count the request. The memory RateLimiter below
 * counts one process's requests; a shared one (contrato/postgres `postgresRateLimiter`) counts every
 * process's, and is handed to a client as its `rateLimiter` option.
 */
export interface RequestLimiter {
  /** Resolves when one more request may be sent, and counts it; rejects with the signal's reason when it is aborted first. */
  acquire(signal?: AbortSignal): Promise<void>;
}

/** Refuses windows that could never admit a request or never measure one (a limit below 1, an empty interval). */
export function checkRateLimits(limits: readonly RateLimit[], optionName = 'rateLimit'): void {
  for (const [index, window] of limits.entries()) {
    if (!Number.isSafeInteger(window.limit) || window.limit < 1)
      throw new ConfigurationError(`${optionName}[${index}].limit must be a whole number of requests of at least 1, not ${window.limit}`);
    if (!Number.isFinite(window.intervalMs) || window.intervalMs <= 0)
      throw new ConfigurationError(
        `${optionName}[${index}].intervalMs must be a positive number of milliseconds, not ${window.intervalMs}`,
      );
  }
}

export class RateLimiter implements RequestLimiter {
  private readonly windows: { readonly rule: RateLimit; readonly sent: number[] }[];

  constructor(
    limits: readonly RateLimit[],
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void> = defaultSleep,
  ) {
    checkRateLimits(limits);
    this.windows = limits.map((rule) => ({ rule, sent: [] }));
  }

  /** Resolves when one more request fits in every window, and records it. */
  async acquire(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const now = this.now();
      let waitMs = 0;
      for (const window of this.windows) {
        while (window.sent.length > 0 && window.sent[0]! <= now - window.rule.intervalMs) window.sent.shift();
        if (window.sent.length >= window.rule.limit) waitMs = Math.max(waitMs, window.sent[0]! + window.rule.intervalMs - now);
      }
      if (waitMs === 0) {
        for (const window of this.windows) window.sent.push(now);
        return;
      }
      await this.sleep(waitMs, signal);
    }
  }
}

export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

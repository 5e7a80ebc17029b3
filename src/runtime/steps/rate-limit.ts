/**
 * Waits for the client's limiter before each request (retries and renewals included: each is a request).
 * The limiter is the client's memory RateLimiter, or one shared by several processes (`rateLimiter` option).
 */
import type { Step } from '../pipeline.js';
import type { RequestLimiter } from '../rate-limiter.js';

export function rateLimitStep(limiter: RequestLimiter): Step {
  return {
    name: 'rate-limit',
    async run(call, next) {
      await limiter.acquire(call.options?.signal);
      return next(call);
    },
  };
}

/** Waits for the client-side rate limiter before each request (retries and renewals included: each is a request). */
import type { Step } from '../pipeline.js';
import type { RateLimiter } from '../rate-limiter.js';

export function rateLimitStep(limiter: RateLimiter): Step {
  return {
    name: 'rate-limit',
    async run(call, next) {
      await limiter.acquire(call.options?.signal);
      return next(call);
    },
  };
}

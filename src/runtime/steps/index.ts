/**
 * The default steps of a call, in order:
 *
 *   canonical-headers → idempotency-key → validate → [journal] → retry → auth → rate-limit → timeout → send
 *
 * The journal (with the client option `journal`) writes a keyed call down after it passed validation and
 * before its first attempt, and settles it once the retries are over.
 * The key comes before validation because the key header is a declared (often required) parameter;
 * validation comes before anything that waits or sends, so a bad call fails at once. Retry wraps auth,
 * rate limit, timeout and send because each attempt is a request of its own: it is counted by the
 * limiter, carries the token valid at that moment, and has its own time limit. An interface adds its
 * own steps to this list through its definition (e.g. a child-account header before validation).
 */
import type { Step } from '../pipeline.js';
import type { RequestLimiter } from '../rate-limiter.js';
import { type AuthServices, authStep } from './auth.js';
import { idempotencyKeyStep } from './idempotency.js';
import { type JournalServices, journalStep } from './journal.js';
import { rateLimitStep } from './rate-limit.js';
import { type RetryServices, retryStep } from './retry.js';
import { type SendServices, sendStep } from './send.js';
import { timeoutStep } from './timeout.js';
import { canonicalHeadersStep, validateStep } from './validate.js';

export interface StepServices {
  readonly scrub: <T>(value: T) => T;
  readonly now: () => Date;
  readonly retry: RetryServices;
  readonly auth: AuthServices;
  readonly rateLimiter?: RequestLimiter | undefined;
  /** The journal of keyed calls; without one no journal step is in the list. */
  readonly journal?: JournalServices | undefined;
  readonly timeoutMs?: number | undefined;
  readonly send: SendServices;
}

export function defaultSteps(services: StepServices): Step[] {
  return [
    canonicalHeadersStep,
    idempotencyKeyStep,
    validateStep(services.scrub, services.now),
    ...(services.journal ? [journalStep(services.journal)] : []),
    retryStep(services.retry),
    authStep(services.auth),
    ...(services.rateLimiter ? [rateLimitStep(services.rateLimiter)] : []),
    timeoutStep(services.timeoutMs),
    sendStep(services.send),
  ];
}

export { authStep, type ClientCredentials } from './auth.js';
export { idempotencyKeyStep } from './idempotency.js';
export { journalOutcomeOf, journalStep } from './journal.js';
export { rateLimitStep } from './rate-limit.js';
export { policyOf, retryStep, waitBeforeRetry } from './retry.js';
export { buildRequest, isConnectionFailure, neverSent, sendStep } from './send.js';
export { timeoutStep } from './timeout.js';
export { canonicalHeadersStep, validateRequest, validateStep } from './validate.js';

/**
 * Tries a call again when the failure may pass: a dropped connection, a timeout, 429, 500, 502, 503 or
 * 504, with exponential backoff and full jitter, the server's Retry-After honoured up to a cap, within a
 * total deadline. A call that could do its work twice (POST or PATCH without an idempotency key) is
 * never repeated once sent; one whose token could not be had was never sent, and may be. When the last
 * outcome stands as an error, `call.state.notRetried` says why no further attempt was made.
 */
import type { CallOptions } from '../contract.js';
import type { NotRetried } from '../errors.js';
import type { Outcome, Step } from '../pipeline.js';
import { errorTypeOf } from '../telemetry.js';
import { backoffMs, defaultRetryPolicy, mayRetry, type RetryPolicy, retryableStatuses, retryAfterMs } from '../retry.js';

export interface RetryServices {
  readonly policy?: Partial<RetryPolicy>;
  readonly clock: () => number;
  readonly random: () => number;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly onRetry?: (operationId: string, data: Record<string, unknown>) => void;
}

/** The policy of one call: the client's, with the call's own `maxRetries`. */
export function policyOf(client: Partial<RetryPolicy> | undefined, call: CallOptions | undefined): RetryPolicy {
  return { ...defaultRetryPolicy, ...client, ...(call?.maxRetries !== undefined ? { maxRetries: call.maxRetries } : {}) };
}

/** The next attempt and its wait, or why there is none. */
export type RetryDecision = { readonly waitMs: number } | { readonly notRetried: NotRetried };

/** Whether an outcome ends the call in an error (a failure, or a status that is not 2xx). */
const isError = (outcome: Outcome): boolean => outcome.kind === 'failure' || outcome.answer.status < 200 || outcome.answer.status >= 300;

/**
 * Whether the outcome of an attempt is worth another, and after how long; when not, why: the kind of
 * failure or status, a call that could run twice, a Retry-After beyond the cap. (The count of attempts and
 * the deadline are the step's to judge, as they depend on the call so far.)
 */
export function retryDecision(
  outcome: Outcome,
  retries: number,
  policy: RetryPolicy,
  repeatable: boolean,
  services: Pick<RetryServices, 'clock' | 'random'>,
  method = 'post',
): RetryDecision {
  const unrepeatable: NotRetried = { reason: 'non-idempotent-without-key', method };
  if (outcome.kind === 'failure') {
    if (!outcome.retryable) return { notRetried: { reason: 'not-retryable-failure' } };
    if (!repeatable && !outcome.beforeSending) return { notRetried: unrepeatable };
    return { waitMs: backoffMs(retries, policy, services.random) };
  }
  const { status, headers } = outcome.answer;
  if (!retryableStatuses.has(status)) return { notRetried: { reason: 'not-retryable-status', status } };
  if (!repeatable) return { notRetried: unrepeatable };
  const asked = status === 429 || status === 503 ? retryAfterMs(headers.get('retry-after'), services.clock()) : undefined;
  if (asked === undefined) return { waitMs: backoffMs(retries, policy, services.random) };
  if (asked > policy.maxRetryAfterMs)
    return { notRetried: { reason: 'retry-after-beyond-cap', retryAfterSeconds: asked / 1000, capSeconds: policy.maxRetryAfterMs / 1000 } };
  return { waitMs: asked };
}

/** How long to wait before the next attempt, or undefined when this outcome must not be retried. */
export function waitBeforeRetry(
  outcome: Outcome,
  retries: number,
  policy: RetryPolicy,
  repeatable: boolean,
  services: Pick<RetryServices, 'clock' | 'random'>,
): number | undefined {
  const decision = retryDecision(outcome, retries, policy, repeatable, services);
  return 'waitMs' in decision ? decision.waitMs : undefined;
}

const statusOf = (outcome: Outcome): number | undefined => (outcome.kind === 'answer' ? outcome.answer.status : undefined);

/** Whether the wait before the next attempt came from the server's Retry-After. */
const waitsForRetryAfter = (outcome: Outcome): boolean =>
  outcome.kind === 'answer' &&
  (outcome.answer.status === 429 || outcome.answer.status === 503) &&
  outcome.answer.headers.has('retry-after');

export function retryStep(services: RetryServices): Step {
  // The client's policy, made once: a call makes its own only when it sets maxRetries.
  const clientPolicy = policyOf(services.policy, undefined);
  return {
    name: 'retry',
    async run(call, next) {
      const policy = call.options?.maxRetries === undefined ? clientPolicy : policyOf(services.policy, call.options);
      const repeatable = mayRetry(call.info.method, call.state.idempotencyKey !== undefined);
      const deadline = services.clock() + policy.deadlineMs;
      /** The last outcome stands; when it is an error, the call records why it was not tried again. */
      const ending = (outcome: Outcome, notRetried: NotRetried): Outcome => {
        call.state.notRetried = isError(outcome) ? notRetried : undefined;
        return outcome;
      };
      // Bounded: each turn either returns or spends one of policy.maxRetries.
      for (let retries = 0; ; retries += 1) {
        call.state.attempts += 1;
        const outcome = await next(call);
        if (outcome.kind === 'failure' && outcome.maybeExecuted) call.state.maybeExecuted = true;
        const decision = retryDecision(outcome, retries, policy, repeatable, services, call.info.method);
        if ('notRetried' in decision) return ending(outcome, decision.notRetried);
        if (retries >= policy.maxRetries) return ending(outcome, { reason: 'attempts-exhausted', maxRetries: policy.maxRetries });
        const { waitMs } = decision;
        // A wait that reaches the deadline leaves no time for the attempt after it.
        if (services.clock() + waitMs >= deadline) {
          return ending(outcome, {
            reason: 'deadline',
            waitSeconds: waitMs / 1000,
            retryAfter: waitsForRetryAfter(outcome),
            deadlineSeconds: policy.deadlineMs / 1000,
          });
        }
        call.state.telemetry?.retrying(
          errorTypeOf(outcome.kind === 'failure' ? outcome.error : undefined, statusOf(outcome)) ?? 'unknown',
          waitMs,
        );
        services.onRetry?.(call.info.operationId, {
          attempt: call.state.attempts,
          waitMs,
          reason: outcome.kind === 'failure' ? outcome.error.message : `status ${outcome.answer.status}`,
          ...(call.state.idempotencyKey === undefined ? {} : { idempotencyKey: call.state.idempotencyKey }),
        });
        await services.sleep(waitMs, call.options?.signal);
      }
    },
  };
}

/**
 * Tries a call again when the failure may pass: a dropped connection, a timeout, 429, 500, 502, 503 or
 * 504, with exponential backoff and full jitter, the server's Retry-After honoured up to a cap, within a
 * total deadline. A call that could do its work twice (POST or PATCH without an idempotency key) is
 * never repeated once sent; one whose token could not be had was never sent, and may be.
 */
import type { CallOptions } from '../contract.js';
import type { Outcome, Step } from '../pipeline.js';
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

/** How long to wait before the next attempt, or undefined when this outcome must not be retried. */
export function waitBeforeRetry(
  outcome: Outcome,
  retries: number,
  policy: RetryPolicy,
  repeatable: boolean,
  services: RetryServices,
): number | undefined {
  if (outcome.kind === 'failure') {
    return outcome.retryable && (repeatable || outcome.beforeSending) ? backoffMs(retries, policy, services.random) : undefined;
  }
  const { status, headers } = outcome.answer;
  if (!retryableStatuses.has(status) || !repeatable) return undefined;
  const asked = status === 429 || status === 503 ? retryAfterMs(headers.get('retry-after'), services.clock()) : undefined;
  if (asked === undefined) return backoffMs(retries, policy, services.random);
  return asked <= policy.maxRetryAfterMs ? asked : undefined;
}

export function retryStep(services: RetryServices): Step {
  return {
    name: 'retry',
    async run(call, next) {
      const policy = policyOf(services.policy, call.options);
      const repeatable = mayRetry(call.info.method, call.state.idempotencyKey !== undefined);
      const deadline = services.clock() + policy.deadlineMs;
      // Bounded: each turn either returns or spends one of policy.maxRetries.
      for (let retries = 0; ; retries += 1) {
        call.state.attempts += 1;
        const outcome = await next(call);
        if (outcome.kind === 'failure' && outcome.maybeExecuted) call.state.maybeExecuted = true;
        const waitMs = waitBeforeRetry(outcome, retries, policy, repeatable, services);
        if (waitMs === undefined || retries >= policy.maxRetries || services.clock() + waitMs > deadline) return outcome;
        services.onRetry?.(call.info.operationId, {
          attempt: call.state.attempts,
          waitMs,
          reason: outcome.kind === 'failure' ? outcome.error.message : `status ${outcome.answer.status}`,
          idempotencyKey: call.state.idempotencyKey,
        });
        await services.sleep(waitMs, call.options?.signal);
      }
    },
  };
}

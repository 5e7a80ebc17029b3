/**
 * A time limit on each attempt, answer body included. The timer is cleared as soon as the attempt ends
 * (AbortSignal.timeout would keep one alive per call). An attempt the timer ended becomes a TimeoutError,
 * retryable, and maybe executed; what the send step saw first decides otherwise (a reset stays a reset).
 */
import { TimeoutError } from '../errors.js';
import { contextOf, type Step } from '../pipeline.js';

export function timeoutStep(clientTimeoutMs: number | undefined): Step {
  return {
    name: 'timeout',
    async run(call, next) {
      const timeoutMs = call.options?.timeoutMs ?? clientTimeoutMs ?? 30_000;
      const timer = new AbortController();
      const handle = setTimeout(() => timer.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
      const signal = call.signal ? AbortSignal.any([call.signal, timer.signal]) : timer.signal;
      try {
        return await next({ ...call, signal });
      } catch (error) {
        // The caller's cancellation ends the call with the caller's own reason.
        if (call.signal?.aborted) throw call.signal.reason;
        if (!timer.signal.aborted) throw error;
        const failure = new TimeoutError(`${call.info.operationId}: no answer within ${timeoutMs} ms`, contextOf(call), { cause: error });
        return { kind: 'failure', error: failure, retryable: true, beforeSending: false, maybeExecuted: true };
      } finally {
        clearTimeout(handle);
      }
    },
  };
}

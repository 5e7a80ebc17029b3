/**
 * A time limit on each attempt, answer body included. The timer is cleared as soon as the attempt ends
 * (AbortSignal.timeout would keep one alive per call). An attempt the timer ended becomes a TimeoutError,
 * retryable, and maybe executed; what the send step saw first decides otherwise (a reset stays a reset).
 * Its message says from which host and port no answer came, or that the answer began and its body stalled.
 */
import { AttemptAbort } from '../attempt-abort.js';
import { TimeoutError } from '../errors.js';
import { type Call, contextOf, type Step } from '../pipeline.js';

export function timeoutStep(clientTimeoutMs: number | undefined): Step {
  return {
    name: 'timeout',
    async run(call, next) {
      const timeoutMs = call.options?.timeoutMs ?? clientTimeoutMs ?? 30_000;
      // Without a signal of the caller's, the attempt ends by an AttemptAbort (no AbortSignal is made: they are
      // costly on Node 20); with one, both are joined in an AbortSignal as before.
      const timer = call.signal ? new AbortController() : new AttemptAbort();
      const handle = setTimeout(() => timer.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
      const attempt: Call =
        timer instanceof AttemptAbort ? { ...call, abort: timer } : { ...call, signal: AbortSignal.any([call.signal!, timer.signal]) };
      try {
        return await next(attempt);
      } catch (error) {
        // The caller's cancellation ends the call with the caller's own reason.
        if (call.signal?.aborted) throw call.signal.reason;
        if (!(timer instanceof AttemptAbort ? timer.aborted : timer.signal.aborted)) throw error;
        const { target, answeredStatus } = call.state;
        const from = target ? ` from ${target}` : '';
        const what =
          answeredStatus === undefined
            ? `no answer within ${timeoutMs} ms${from}`
            : `the answer${from} began (status ${answeredStatus}) but its body did not complete within ${timeoutMs} ms`;
        const failure = new TimeoutError(`${call.info.operationId}: ${what}`, contextOf(call), { cause: error, target, timeoutMs });
        return { kind: 'failure', error: failure, retryable: true, beforeSending: false, maybeExecuted: true };
      } finally {
        clearTimeout(handle);
      }
    },
  };
}

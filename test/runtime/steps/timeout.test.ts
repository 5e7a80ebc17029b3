/**
 * The timeout step alone: an attempt that never answers becomes a TimeoutError failure, a caller's abort
 * rethrows the caller's reason, other errors pass through, and the timer is always cleared. Fake timers
 * where the time limit matters (no durations are measured), real ones only for a 20 ms limit that must fire.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionError, TimeoutError } from '../../../src/runtime/errors.js';
import type { Call, Outcome } from '../../../src/runtime/pipeline.js';
import { AttemptAbort } from '../../../src/runtime/attempt-abort.js';
import { timeoutStep } from '../../../src/runtime/steps/timeout.js';
import { answer, callOf, failure, freshState, operation, recordingNext } from './fixtures.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A next that never answers: it only rejects, with the reason, when the attempt's abort or signal aborts. */
function hanging() {
  const calls: Call[] = [];
  const next = (call: Call): Promise<Outcome> => {
    calls.push(call);
    return new Promise<Outcome>((_resolve, reject) => {
      const signal = call.abort?.signal ?? call.signal;
      if (!signal) return;
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  };
  return { next, calls };
}

const info = operation({ operationId: 'slowThing' });

describe('timeout step: an attempt that never answers', () => {
  it('ends as a TimeoutError failure, retryable and maybe executed (real 20 ms timer)', async () => {
    const { next, calls } = hanging();
    const call = callOf(info, {}, undefined, { state: freshState({ attempts: 2, idempotencyKey: 'key-3' }) });
    const outcome = await timeoutStep(20).run(call, next);
    expect(calls).toHaveLength(1);
    expect(outcome).toMatchObject({ kind: 'failure', retryable: true, beforeSending: false, maybeExecuted: true });
    const { error } = outcome as Extract<Outcome, { kind: 'failure' }>;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toBe('slowThing: no answer within 20 ms');
    expect(error).toMatchObject({ operationId: 'slowThing', attempts: 2, idempotencyKey: 'key-3' });
    expect(error.cause).toBeInstanceOf(DOMException);
    expect((error.cause as DOMException).name).toBe('TimeoutError');
  });

  it.each([
    { given: 'the call’s timeoutMs over the client’s', client: 10_000, options: { timeoutMs: 20 }, limit: 20 },
    { given: 'the client’s timeoutMs', client: 50, options: undefined, limit: 50 },
    { given: 'neither: 30 s', client: undefined, options: undefined, limit: 30_000 },
  ])('uses $given (fake timers)', async ({ client, options, limit }) => {
    vi.useFakeTimers();
    const { next } = hanging();
    let settled: Outcome | undefined;
    void timeoutStep(client)
      .run(callOf(info, {}, options), next)
      .then((outcome) => (settled = outcome));
    await vi.advanceTimersByTimeAsync(limit - 1);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(settled?.kind).toBe('failure');
    expect((settled as Extract<Outcome, { kind: 'failure' }>).error.message).toBe(`slowThing: no answer within ${limit} ms`);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('hands next an AttemptAbort (no signal) when the caller gave none, and joins the caller’s signal when there is one', async () => {
    vi.useFakeTimers();
    const { next, calls } = recordingNext();
    await timeoutStep(1_000).run(callOf(info), next);
    expect(calls[0]!.signal).toBeUndefined();
    expect(calls[0]!.abort).toBeInstanceOf(AttemptAbort);
    expect(calls[0]!.abort?.aborted).toBe(false);

    const controller = new AbortController();
    const joined = recordingNext();
    await timeoutStep(1_000).run(callOf(info, {}, undefined, { signal: controller.signal }), joined.next);
    const signal = joined.calls[0]!.signal!;
    expect(signal).not.toBe(controller.signal);
    controller.abort(new Error('stop'));
    expect(signal.aborted).toBe(true);
  });
});

describe('timeout step: the caller’s abort', () => {
  it.each([
    { given: 'an Error reason', reason: () => new Error('user navigated away') },
    { given: 'a string reason', reason: () => 'cancelled' },
    { given: 'the default AbortError', reason: () => undefined },
  ])('rethrows the caller’s reason ($given), not a TimeoutError', async ({ reason }) => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const { next } = hanging();
    const running = timeoutStep(1_000).run(callOf(info, {}, undefined, { signal: controller.signal }), next);
    const caught = running.then(
      () => 'resolved',
      (error: unknown) => error,
    );
    controller.abort(reason());
    const error = await caught;
    expect(error).toBe(controller.signal.reason);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rethrows the caller’s reason when the signal was aborted before the attempt', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const reason = new Error('already cancelled');
    controller.abort(reason);
    const { next } = hanging();
    await expect(timeoutStep(1_000).run(callOf(info, {}, undefined, { signal: controller.signal }), next)).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('timeout step: other endings', () => {
  it('rethrows an error of next that is not the timer’s', async () => {
    vi.useFakeTimers();
    const bug = new TypeError('bug');
    const next = async (): Promise<Outcome> => {
      throw bug;
    };
    await expect(timeoutStep(1_000).run(callOf(info), next)).rejects.toBe(bug);
    expect(vi.getTimerCount()).toBe(0);
  });

  it.each([
    { given: 'an answer', outcome: answer(200, { ok: true }) },
    {
      given: 'a failure outcome the send step decided (a reset stays a reset)',
      outcome: failure(new ConnectionError('reset'), { maybeExecuted: true }),
    },
  ])('passes $given through and clears its timer', async ({ outcome }) => {
    vi.useFakeTimers();
    const { next } = recordingNext(outcome);
    const result = await timeoutStep(1_000).run(callOf(info), next);
    expect(result).toBe(outcome);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('clears its timer after a timeout too, and leaves no timer per call', async () => {
    vi.useFakeTimers();
    const step = timeoutStep(10);
    const endings: Outcome[] = [];
    for (let index = 0; index < 3; index += 1) {
      const running = step.run(callOf(info), hanging().next).then((outcome) => endings.push(outcome));
      await vi.advanceTimersByTimeAsync(10);
      await running;
    }
    expect(endings.map((outcome) => outcome.kind)).toEqual(['failure', 'failure', 'failure']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('passes the rest of the call on unchanged', async () => {
    vi.useFakeTimers();
    const { next, calls } = recordingNext();
    const call = callOf(info, { query: { a: 1 } }, { timeoutMs: 5 }, { headers: { x: 'y' } });
    await timeoutStep(undefined).run(call, next);
    const { abort, ...rest } = calls[0]!;
    expect(rest).toEqual(call);
    expect(abort).toBeInstanceOf(AttemptAbort);
  });
});

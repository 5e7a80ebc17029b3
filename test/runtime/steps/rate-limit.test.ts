/**
 * The rate-limit step alone, with a RateLimiter on a fake clock whose sleep is recorded (and, where the
 * order matters, held until released): no real waiting and no timing assertions.
 */
import { describe, expect, it } from 'vitest';
import { type RateLimit, RateLimiter } from '../../../src/runtime/rate-limiter.js';
import { rateLimitStep } from '../../../src/runtime/steps/rate-limit.js';
import { answer, callOf, operation, recordingNext } from './fixtures.js';

/** A limiter on a fake clock: each sleep is recorded and moves the clock by the time asked. */
function fakeLimiter(limits: RateLimit[]) {
  const clock = { now: 1_000_000 };
  const sleeps: { ms: number; signal: AbortSignal | undefined }[] = [];
  const limiter = new RateLimiter(
    limits,
    () => clock.now,
    async (ms, signal) => {
      sleeps.push({ ms, signal });
      clock.now += ms;
    },
  );
  return { limiter, clock, sleeps };
}

/** Lets every pending promise callback run (bounded). */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 20; turn += 1) await Promise.resolve();
}

describe('rate-limit step', () => {
  it.each([
    { given: 'calls within the limit', limits: [{ limit: 3, intervalMs: 1_000 }], calls: 3, wantSleeps: [] },
    { given: 'one call over the limit', limits: [{ limit: 2, intervalMs: 1_000 }], calls: 3, wantSleeps: [1_000] },
    { given: 'two calls over a limit of one', limits: [{ limit: 1, intervalMs: 500 }], calls: 3, wantSleeps: [500, 500] },
    {
      given: 'two windows, the longer one full',
      limits: [
        { limit: 2, intervalMs: 100 },
        { limit: 3, intervalMs: 10_000 },
      ],
      calls: 4,
      wantSleeps: [100, 10_000 - 100],
    },
  ])('$given: every call reaches next, waiting $wantSleeps ms', async ({ limits, calls: count, wantSleeps }) => {
    const { limiter, sleeps } = fakeLimiter(limits);
    const { next, calls } = recordingNext();
    const step = rateLimitStep(limiter);
    for (let index = 0; index < count; index += 1) await step.run(callOf(operation()), next);
    expect(calls).toHaveLength(count);
    expect(sleeps.map((sleep) => sleep.ms)).toEqual(wantSleeps);
  });

  it('a call over the limit reaches next only once the limiter lets it through', async () => {
    const clock = { now: 0 };
    const held: { ms: number; release: () => void }[] = [];
    const limiter = new RateLimiter(
      [{ limit: 1, intervalMs: 1_000 }],
      () => clock.now,
      (ms) =>
        new Promise<void>((resolve) => {
          held.push({ ms, release: resolve });
        }),
    );
    const { next, calls } = recordingNext();
    const step = rateLimitStep(limiter);
    const first = callOf(operation({ operationId: 'first' }));
    const second = callOf(operation({ operationId: 'second' }));
    await step.run(first, next);
    const pending = step.run(second, next);
    await settle();
    expect(calls).toEqual([first]);
    expect(held.map((sleep) => sleep.ms)).toEqual([1_000]);
    clock.now += 1_000;
    held[0]!.release();
    await pending;
    expect(calls).toEqual([first, second]);
  });

  it('passes the call on unchanged and returns next’s outcome', async () => {
    const { limiter } = fakeLimiter([{ limit: 1, intervalMs: 1 }]);
    const { next, calls } = recordingNext(answer(202, { queued: true }));
    const call = callOf(operation());
    const outcome = await rateLimitStep(limiter).run(call, next);
    expect(calls[0]).toBe(call);
    expect(outcome).toEqual(answer(202, { queued: true }));
  });

  it('hands the caller’s signal to the limiter’s wait', async () => {
    const { limiter, sleeps } = fakeLimiter([{ limit: 1, intervalMs: 1_000 }]);
    const controller = new AbortController();
    const { next } = recordingNext();
    const step = rateLimitStep(limiter);
    await step.run(callOf(operation()), next);
    await step.run(callOf(operation(), {}, { signal: controller.signal }), next);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]!.signal).toBe(controller.signal);
  });

  it('a wait the caller cancels ends the call with the caller’s reason; nothing is sent', async () => {
    const reason = new Error('caller cancelled');
    const limiter = new RateLimiter(
      [{ limit: 1, intervalMs: 1_000 }],
      () => 0,
      (_ms, signal) => (signal?.aborted ? Promise.reject(signal.reason) : Promise.resolve()),
    );
    const controller = new AbortController();
    controller.abort(reason);
    const { next, calls } = recordingNext();
    const step = rateLimitStep(limiter);
    await step.run(callOf(operation()), next);
    await expect(step.run(callOf(operation(), {}, { signal: controller.signal }), next)).rejects.toBe(reason);
    expect(calls).toHaveLength(1);
  });

  it('counts each run as a request (a retry or renewal passing through again is counted again)', async () => {
    const { limiter, sleeps } = fakeLimiter([{ limit: 2, intervalMs: 1_000 }]);
    const { next } = recordingNext();
    const step = rateLimitStep(limiter);
    const call = callOf(operation());
    for (let index = 0; index < 3; index += 1) await step.run(call, next);
    expect(sleeps.map((sleep) => sleep.ms)).toEqual([1_000]);
  });
});

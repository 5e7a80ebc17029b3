/**
 * The retry step alone, on an injected clock, random and sleep (no real waiting): what is retried, for
 * which methods, how long it waits (backoff, Retry-After), what bounds the attempts, and what it records.
 */
import { describe, expect, it } from 'vitest';
import type { CallOptions, HttpMethod } from '../../../src/runtime/contract.js';
import { AuthError, ConnectionError, TimeoutError } from '../../../src/runtime/errors.js';
import type { Outcome } from '../../../src/runtime/pipeline.js';
import { defaultRetryPolicy, type RetryPolicy } from '../../../src/runtime/retry.js';
import { policyOf, type RetryServices, retryStep, waitBeforeRetry } from '../../../src/runtime/steps/retry.js';
import { answer, callOf, failure, freshState, operation, recordingNext } from './fixtures.js';

/** Starts on a whole second so HTTP dates (second precision) are exact. */
const epoch = Date.parse('2026-11-21T10:00:00Z');

/** Services on a fake clock: sleeping moves the clock; every sleep and retry notice is recorded. */
function fakeServices(policy: Partial<RetryPolicy> = {}, random = 0.5) {
  const clock = { now: epoch };
  const sleeps: { ms: number; signal: AbortSignal | undefined }[] = [];
  const retries: { operationId: string; data: Record<string, unknown> }[] = [];
  const services: RetryServices = {
    policy: { baseDelayMs: 100, maxDelayMs: 1_000, ...policy },
    clock: () => clock.now,
    random: () => random,
    sleep: async (ms, signal) => {
      sleeps.push({ ms, signal });
      clock.now += ms;
    },
    onRetry: (operationId, data) => retries.push({ operationId, data }),
  };
  return { services, clock, sleeps, retries };
}

const connectionLost = (): Outcome => failure(new ConnectionError('reset'), { retryable: true, maybeExecuted: true });
const refused = (): Outcome => failure(new ConnectionError('refused'), { retryable: true, maybeExecuted: false });
const get = operation();
const post = operation({ operationId: 'createThing', method: 'post' });

function callFor(method: HttpMethod, keyed: boolean, options?: CallOptions) {
  return callOf(operation({ operationId: `${method}Thing`, method }), {}, options, {
    state: freshState(keyed ? { idempotencyKey: 'key-1' } : {}),
  });
}

describe('retry step: what is retried', () => {
  const transient: { given: string; outcome: () => Outcome }[] = [
    { given: 'a connection failure', outcome: connectionLost },
    { given: 'a refused connection', outcome: refused },
    { given: 'a timeout', outcome: () => failure(new TimeoutError('slow'), { retryable: true, maybeExecuted: true }) },
    ...[429, 500, 502, 503, 504].map((status) => ({ given: `a ${status} answer`, outcome: () => answer(status) })),
  ];

  it.each(
    transient.flatMap(({ given, outcome }) => [
      { given, outcome, method: 'get' as const, keyed: false },
      { given, outcome, method: 'put' as const, keyed: false },
      { given, outcome, method: 'delete' as const, keyed: false },
      { given, outcome, method: 'post' as const, keyed: true },
      { given, outcome, method: 'patch' as const, keyed: true },
    ]),
  )('$given is retried for $method (keyed: $keyed) until it succeeds', async ({ outcome, method, keyed }) => {
    const { services, sleeps } = fakeServices();
    const { next, calls } = recordingNext(outcome(), answer(200, { ok: true }));
    const call = callFor(method, keyed);
    const result = await retryStep(services).run(call, next);
    expect(result).toEqual(answer(200, { ok: true }));
    expect(calls).toHaveLength(2);
    expect(call.state.attempts).toBe(2);
    expect(sleeps).toHaveLength(1);
  });

  it.each([
    ...[400, 401, 404, 409, 422, 501].map((status) => ({ given: `a ${status} answer`, outcome: answer(status) })),
    { given: 'a 200 answer', outcome: answer(200) },
    { given: 'a non-retryable failure', outcome: failure(new AuthError('no', 'certificate-refused', null), { retryable: false }) },
  ])('$given is not retried, even for GET', async ({ outcome }) => {
    const { services, sleeps } = fakeServices();
    const { next, calls } = recordingNext(outcome, answer(200));
    const result = await retryStep(services).run(callOf(get), next);
    expect(result).toBe(outcome);
    expect(calls).toHaveLength(1);
    expect(sleeps).toHaveLength(0);
  });

  it.each(
    (['post', 'patch'] as const).flatMap((method) => [
      { method, given: 'a connection failure once sent', outcome: connectionLost() },
      { method, given: 'a refused connection (retryable, not before sending)', outcome: refused() },
      { method, given: 'a 503 answer', outcome: answer(503) },
      { method, given: 'a 429 answer with Retry-After', outcome: answer(429, undefined, { 'retry-after': '1' }) },
      { method, given: 'a 500 answer', outcome: answer(500) },
    ]),
  )('$method without an idempotency key: $given is never retried', async ({ method, outcome }) => {
    const { services, sleeps, retries } = fakeServices();
    const { next, calls } = recordingNext(outcome, answer(200));
    const call = callFor(method, false);
    const result = await retryStep(services).run(call, next);
    expect(result).toBe(outcome);
    expect(calls).toHaveLength(1);
    expect(call.state.attempts).toBe(1);
    expect(sleeps).toHaveLength(0);
    expect(retries).toHaveLength(0);
  });

  it.each(['post', 'patch'] as const)(
    '%s without a key is retried when the failure came before sending (a token not had)',
    async (method) => {
      const { services } = fakeServices();
      const beforeSending = failure(new ConnectionError('token endpoint down'), { retryable: true, beforeSending: true });
      const { next, calls } = recordingNext(beforeSending, answer(201));
      const call = callFor(method, false);
      const result = await retryStep(services).run(call, next);
      expect(result.kind === 'answer' && result.answer.status).toBe(201);
      expect(calls).toHaveLength(2);
    },
  );

  it('a failure before sending that is not retryable (a refused credential) is not retried', async () => {
    const { services } = fakeServices();
    const refusal = failure(new AuthError('refused', 'invalid-credentials', 401), { retryable: false, beforeSending: true });
    const { next, calls } = recordingNext(refusal, answer(200));
    expect(await retryStep(services).run(callOf(get), next)).toBe(refusal);
    expect(calls).toHaveLength(1);
  });

  it('passes the same call to every attempt', async () => {
    const { services } = fakeServices();
    const { next, calls } = recordingNext(answer(503), answer(503), answer(200));
    const call = callOf(get);
    await retryStep(services).run(call, next);
    expect(calls).toEqual([call, call, call]);
  });
});

describe('retry step: how long it waits', () => {
  it.each([
    { given: 'Retry-After in seconds on 429', status: 429, retryAfter: () => '3', want: 3_000 },
    { given: 'Retry-After in seconds on 503', status: 503, retryAfter: () => '2', want: 2_000 },
    { given: 'Retry-After 0', status: 429, retryAfter: () => '0', want: 0 },
    { given: 'Retry-After as an HTTP date', status: 429, retryAfter: () => new Date(epoch + 5_000).toUTCString(), want: 5_000 },
    { given: 'Retry-After as a date in the past', status: 503, retryAfter: () => new Date(epoch - 5_000).toUTCString(), want: 0 },
    { given: 'an unreadable Retry-After: backoff', status: 429, retryAfter: () => '-5', want: 50 },
    { given: 'Retry-After on a 500: ignored, backoff', status: 500, retryAfter: () => '30', want: 50 },
    { given: 'Retry-After on a 502: ignored, backoff', status: 502, retryAfter: () => '30', want: 50 },
    { given: 'no Retry-After: backoff', status: 429, retryAfter: () => '', want: 50 },
  ])('$given', async ({ status, retryAfter, want }) => {
    const { services, sleeps } = fakeServices();
    const header = retryAfter();
    const { next } = recordingNext(answer(status, undefined, header ? { 'retry-after': header } : {}), answer(200));
    await retryStep(services).run(callOf(get), next);
    expect(sleeps.map((sleep) => sleep.ms)).toEqual([want]);
  });

  it('backs off exponentially with full jitter, up to the largest ceiling', async () => {
    const { services, sleeps } = fakeServices({ maxRetries: 5, baseDelayMs: 100, maxDelayMs: 500 }, 0.999);
    const { next } = recordingNext(answer(503));
    await retryStep(services).run(callOf(get), next);
    // Ceilings 100, 200, 400, 500, 500 times 0.999, floored.
    expect(sleeps.map((sleep) => sleep.ms)).toEqual([99, 199, 399, 499, 499]);
  });

  it.each([
    { given: 'in seconds', retryAfter: () => '61' },
    { given: 'as an HTTP date', retryAfter: () => new Date(epoch + 120_000).toUTCString() },
  ])('a Retry-After beyond maxRetryAfterMs ($given) ends the call at once with the answer', async ({ retryAfter }) => {
    const { services, sleeps, retries } = fakeServices({ maxRetryAfterMs: 60_000, deadlineMs: 600_000 });
    const tooLong = answer(429, undefined, { 'retry-after': retryAfter() });
    const { next, calls } = recordingNext(tooLong, answer(200));
    const result = await retryStep(services).run(callOf(get), next);
    expect(result).toBe(tooLong);
    expect(calls).toHaveLength(1);
    expect(sleeps).toHaveLength(0);
    expect(retries).toHaveLength(0);
  });

  it('hands the caller’s signal to the sleep, so cancelling ends the wait', async () => {
    const { services, sleeps } = fakeServices();
    const controller = new AbortController();
    const { next } = recordingNext(answer(503), answer(200));
    await retryStep(services).run(callOf(get, {}, { signal: controller.signal }), next);
    expect(sleeps[0]!.signal).toBe(controller.signal);
  });

  it('a sleep that rejects (the caller cancelled) ends the call with that rejection', async () => {
    const reason = new Error('caller cancelled');
    const services: RetryServices = { clock: () => epoch, random: () => 0, sleep: () => Promise.reject(reason) };
    const { next, calls } = recordingNext(answer(503), answer(200));
    await expect(retryStep(services).run(callOf(get), next)).rejects.toBe(reason);
    expect(calls).toHaveLength(1);
  });
});

describe('retry step: what bounds the attempts', () => {
  it.each([
    { given: 'the default policy', policy: {}, options: undefined, want: defaultRetryPolicy.maxRetries + 1 },
    { given: 'the client’s maxRetries 4', policy: { maxRetries: 4 }, options: undefined, want: 5 },
    { given: 'maxRetries 0', policy: { maxRetries: 0 }, options: undefined, want: 1 },
    { given: 'the call’s maxRetries over the client’s', policy: { maxRetries: 4 }, options: { maxRetries: 1 }, want: 2 },
    { given: 'the call’s maxRetries 0', policy: { maxRetries: 4 }, options: { maxRetries: 0 }, want: 1 },
  ])('maxRetries: $given → $want attempts, the last outcome returned', async ({ policy, options, want }) => {
    const { services, sleeps } = fakeServices(policy);
    const last = answer(503, { last: true });
    const { next, calls } = recordingNext(...Array.from({ length: want - 1 }, () => answer(503)), last);
    const call = callOf(get, {}, options);
    const result = await retryStep(services).run(call, next);
    expect(calls).toHaveLength(want);
    expect(call.state.attempts).toBe(want);
    expect(sleeps).toHaveLength(want - 1);
    expect(result).toBe(last);
  });

  it('the deadline ends the call when the next wait would pass it', async () => {
    // Retry-After 2 s each time, deadline 5 s: waits at 0 → 2 s and 2 → 4 s; a third wait would end at 6 s.
    const { services, sleeps } = fakeServices({ maxRetries: 10, deadlineMs: 5_000 });
    const { next, calls } = recordingNext(answer(503, undefined, { 'retry-after': '2' }));
    const call = callOf(get);
    await retryStep(services).run(call, next);
    expect(sleeps.map((sleep) => sleep.ms)).toEqual([2_000, 2_000]);
    expect(calls).toHaveLength(3);
    expect(call.state.attempts).toBe(3);
  });

  it('the deadline counts the time the attempts themselves took', async () => {
    const { services, clock, sleeps } = fakeServices({ maxRetries: 10, deadlineMs: 1_000 }, 0);
    const slow = (): Outcome => {
      clock.now += 400;
      return answer(503);
    };
    const { next, calls } = recordingNext(slow, slow, slow, slow);
    await retryStep(services).run(callOf(get), next);
    // Attempts end at 400, 800, 1200 ms: after the third the deadline has passed.
    expect(calls).toHaveLength(3);
    expect(sleeps.map((sleep) => sleep.ms)).toEqual([0, 0]);
  });
});

describe('retry step: what it records', () => {
  it('state.attempts counts every attempt, on top of the attempts already made', async () => {
    const { services } = fakeServices();
    const call = callOf(get, {}, undefined, { state: freshState({ attempts: 0 }) });
    const seen: number[] = [];
    const { next } = recordingNext(
      (c) => (seen.push(c.state.attempts), answer(503)),
      (c) => (seen.push(c.state.attempts), answer(200)),
    );
    await retryStep(services).run(call, next);
    expect(seen).toEqual([1, 2]);
    expect(call.state.attempts).toBe(2);
  });

  it.each([
    { given: 'a maybe-executed failure, then an answer', script: [connectionLost(), answer(200)], want: true },
    { given: 'a failure that was never sent, then an answer', script: [refused(), answer(200)], want: false },
    { given: 'a retryable answer, then an answer', script: [answer(503), answer(200)], want: false },
    { given: 'a maybe-executed failure as the last outcome', script: [connectionLost()], want: true },
  ])('state.maybeExecuted after $given: $want', async ({ script, want }) => {
    const { services } = fakeServices();
    const { next } = recordingNext(...script);
    const call = callOf(get);
    await retryStep(services).run(call, next);
    expect(call.state.maybeExecuted).toBe(want);
  });

  it('tells onRetry of each retry: attempt, wait, reason and key', async () => {
    const { services, retries } = fakeServices({}, 0.5);
    const { next } = recordingNext(connectionLost(), answer(503, undefined, { 'retry-after': '1' }), answer(200));
    await retryStep(services).run(callFor('post', true), next);
    expect(retries).toEqual([
      { operationId: 'postThing', data: { attempt: 1, waitMs: 50, reason: 'reset', idempotencyKey: 'key-1' } },
      { operationId: 'postThing', data: { attempt: 2, waitMs: 1_000, reason: 'status 503', idempotencyKey: 'key-1' } },
    ]);
  });

  it('does not tell onRetry when the call is not retried', async () => {
    const { services, retries } = fakeServices();
    const { next } = recordingNext(answer(200));
    await retryStep(services).run(callOf(get), next);
    expect(retries).toEqual([]);
  });

  it('works without onRetry', async () => {
    const services: RetryServices = { clock: () => epoch, random: () => 0, sleep: async () => undefined };
    const { next, calls } = recordingNext(answer(503), answer(200));
    const result = await retryStep(services).run(callOf(post, {}, undefined, { state: freshState({ idempotencyKey: 'k' }) }), next);
    expect(result.kind === 'answer' && result.answer.status).toBe(200);
    expect(calls).toHaveLength(2);
  });
});

describe('retry step: why the last outcome stands (state.notRetried)', () => {
  const cases: { given: string; method: HttpMethod; keyed: boolean; policy?: Partial<RetryPolicy>; script: Outcome[]; want: unknown }[] = [
    { given: 'a 200', method: 'get', keyed: false, script: [answer(200)], want: undefined },
    { given: 'a 404', method: 'get', keyed: false, script: [answer(404)], want: { reason: 'not-retryable-status', status: 404 } },
    {
      given: 'a refused certificate',
      method: 'get',
      keyed: false,
      script: [failure(new AuthError('no', 'certificate-refused', null), { retryable: false })],
      want: { reason: 'not-retryable-failure' },
    },
    {
      given: 'a 503 to a POST without a key',
      method: 'post',
      keyed: false,
      script: [answer(503)],
      want: { reason: 'non-idempotent-without-key', method: 'post' },
    },
    {
      given: 'a dropped PATCH without a key',
      method: 'patch',
      keyed: false,
      script: [connectionLost()],
      want: { reason: 'non-idempotent-without-key', method: 'patch' },
    },
    {
      given: 'a 429 asking more than the cap',
      method: 'get',
      keyed: false,
      policy: { maxRetryAfterMs: 30_000 },
      script: [answer(429, undefined, { 'retry-after': '45' })],
      want: { reason: 'retry-after-beyond-cap', retryAfterSeconds: 45, capSeconds: 30 },
    },
    {
      given: 'a 503 asking exactly what is left of the deadline',
      method: 'get',
      keyed: false,
      policy: { deadlineMs: 60_000 },
      script: [answer(503, undefined, { 'retry-after': '60' })],
      want: { reason: 'deadline', waitSeconds: 60, retryAfter: true, deadlineSeconds: 60 },
    },
    {
      given: 'backoff past the deadline',
      method: 'get',
      keyed: false,
      policy: { deadlineMs: 40, baseDelayMs: 100 },
      script: [answer(502)],
      want: { reason: 'deadline', waitSeconds: 0.05, retryAfter: false, deadlineSeconds: 0.04 },
    },
    {
      given: 'three 503 with maxRetries 2',
      method: 'post',
      keyed: true,
      policy: { maxRetries: 2 },
      script: [answer(503)],
      want: { reason: 'attempts-exhausted', maxRetries: 2 },
    },
    {
      given: 'a failure, then a success',
      method: 'get',
      keyed: false,
      script: [connectionLost(), answer(200)],
      want: undefined,
    },
  ];

  it.each(cases)('given $given, want $want', async ({ method, keyed, policy, script, want }) => {
    const { services } = fakeServices(policy);
    const { next } = recordingNext(...script);
    const call = callFor(method, keyed);
    await retryStep(services).run(call, next);
    expect(call.state.notRetried).toEqual(want);
  });
});

describe('waitBeforeRetry', () => {
  const policy: RetryPolicy = { ...defaultRetryPolicy, baseDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 10_000 };
  const services: RetryServices = { clock: () => epoch, random: () => 0.5, sleep: async () => undefined };
  const transientFailure = failure(new ConnectionError('x'), { retryable: true });
  const beforeSending = failure(new ConnectionError('x'), { retryable: true, beforeSending: true });
  const fatal = failure(new ConnectionError('x'), { retryable: false, beforeSending: true });

  it.each([
    { given: 'a retryable failure, repeatable', outcome: transientFailure, retries: 0, repeatable: true, want: 50 },
    { given: 'a retryable failure, second retry', outcome: transientFailure, retries: 1, repeatable: true, want: 100 },
    { given: 'a retryable failure, ceiling reached', outcome: transientFailure, retries: 8, repeatable: true, want: 500 },
    { given: 'a retryable failure, not repeatable', outcome: transientFailure, retries: 0, repeatable: false, want: undefined },
    { given: 'a failure before sending, not repeatable', outcome: beforeSending, retries: 0, repeatable: false, want: 50 },
    { given: 'a non-retryable failure', outcome: fatal, retries: 0, repeatable: true, want: undefined },
    { given: 'a 200', outcome: answer(200), retries: 0, repeatable: true, want: undefined },
    { given: 'a 404', outcome: answer(404), retries: 0, repeatable: true, want: undefined },
    { given: 'a 500', outcome: answer(500), retries: 0, repeatable: true, want: 50 },
    { given: 'a 500, not repeatable', outcome: answer(500), retries: 0, repeatable: false, want: undefined },
    { given: 'a 429 asking 3 s', outcome: answer(429, undefined, { 'retry-after': '3' }), retries: 0, repeatable: true, want: 3_000 },
    {
      given: 'a 503 asking 10 s (the cap)',
      outcome: answer(503, undefined, { 'retry-after': '10' }),
      retries: 0,
      repeatable: true,
      want: 10_000,
    },
    { given: 'a 503 asking 11 s', outcome: answer(503, undefined, { 'retry-after': '11' }), retries: 0, repeatable: true, want: undefined },
    {
      given: 'a 429 asking a date 4 s ahead',
      outcome: answer(429, undefined, { 'retry-after': new Date(epoch + 4_000).toUTCString() }),
      retries: 0,
      repeatable: true,
      want: 4_000,
    },
    {
      given: 'a 504 with Retry-After (ignored)',
      outcome: answer(504, undefined, { 'retry-after': '99' }),
      retries: 2,
      repeatable: true,
      want: 200,
    },
  ])('$given → $want', ({ outcome, retries, repeatable, want }) => {
    expect(waitBeforeRetry(outcome, retries, policy, repeatable, services)).toBe(want);
  });
});

describe('policyOf', () => {
  it.each([
    { given: 'nothing', client: undefined, call: undefined, want: defaultRetryPolicy },
    {
      given: 'the client’s policy',
      client: { maxRetries: 5, baseDelayMs: 1 },
      call: undefined,
      want: { ...defaultRetryPolicy, maxRetries: 5, baseDelayMs: 1 },
    },
    { given: 'the call’s maxRetries', client: { maxRetries: 5 }, call: { maxRetries: 0 }, want: { ...defaultRetryPolicy, maxRetries: 0 } },
    {
      given: 'call options without maxRetries',
      client: { maxRetries: 5 },
      call: { timeoutMs: 1 },
      want: { ...defaultRetryPolicy, maxRetries: 5 },
    },
  ])('$given', ({ client, call, want }) => {
    expect(policyOf(client, call)).toEqual(want);
  });
});

/**
 * The auth step alone, with a real TokenCache whose token request is scripted: the header the token goes
 * in, Basic credentials, the renewal after a 401, and what a token that could not be had becomes.
 */
import { describe, expect, it } from 'vitest';
import type { OperationInfo } from '../../../src/runtime/contract.js';
import { AuthError, basicCredentials, ConnectionError, HttpError } from '../../../src/runtime/errors.js';
import type { Outcome } from '../../../src/runtime/pipeline.js';
import { type AuthServices, authStep } from '../../../src/runtime/steps/auth.js';
import { type IssuedToken, TokenCache } from '../../../src/runtime/token-cache.js';
import { answer, callOf, freshState, operation, recordingNext } from './fixtures.js';

/** A token cache whose token requests answer from the script in turn (an Error in it is thrown). */
function scriptedTokens(...script: (string | Error)[]) {
  let issued = 0;
  const cache = new TokenCache({
    issue: async (): Promise<IssuedToken> => {
      const entry = script[issued];
      issued += 1;
      if (entry === undefined) throw new Error('token script exhausted');
      if (entry instanceof Error) throw entry;
      return { accessToken: entry, expiresIn: 3600 };
    },
  });
  return { cache, issued: () => issued };
}

const secured = operation({ operationId: 'getBalance' });
const apiKey = operation({ operationId: 'pullMessages', tokenHeader: 'svc-token' });
const tokenRequest = operation({ operationId: 'issueToken', method: 'post', secured: false, basicAuth: true });
const credentials = { clientId: 'client id', clientSecret: 's3cr&t' };

describe('auth step: where the token goes', () => {
  it.each([
    { given: 'a bearer operation', info: secured, want: { Authorization: 'Bearer tok-1' } },
    { given: 'an API-key operation (tokenHeader svc-token)', info: apiKey, want: { 'svc-token': 'tok-1' } },
  ])('$given', async ({ info, want }) => {
    const { cache } = scriptedTokens('tok-1');
    const { next, calls } = recordingNext();
    await authStep({ tokens: cache }).run(callOf(info), next);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.headers).toEqual(want);
  });

  it('keeps the headers earlier steps added and does not change the caller’s call', async () => {
    const { cache } = scriptedTokens('tok-1');
    const { next, calls } = recordingNext();
    const call = callOf(secured, {}, undefined, { headers: { 'x-account': '7' } });
    await authStep({ tokens: cache }).run(call, next);
    expect(calls[0]!.headers).toEqual({ 'x-account': '7', Authorization: 'Bearer tok-1' });
    expect(call.headers).toEqual({ 'x-account': '7' });
    expect(calls[0]!.state).toBe(call.state);
  });

  it('reuses the cached token for the next call (one token request)', async () => {
    const { cache, issued } = scriptedTokens('tok-1', 'tok-2');
    const { next, calls } = recordingNext();
    const step = authStep({ tokens: cache });
    await step.run(callOf(secured), next);
    await step.run(callOf(secured), next);
    expect(calls.map((call) => call.headers.Authorization)).toEqual(['Bearer tok-1', 'Bearer tok-1']);
    expect(issued()).toBe(1);
  });
});

describe('auth step: Basic credentials', () => {
  const basic = `Basic ${basicCredentials(credentials.clientId, credentials.clientSecret)}`;

  it('sends the client id and secret on a basicAuth operation, without asking for a token', async () => {
    const { cache, issued } = scriptedTokens('tok-1');
    const { next, calls } = recordingNext();
    await authStep({ tokens: cache, credentials }).run(callOf(tokenRequest), next);
    expect(calls[0]!.headers).toEqual({ Authorization: basic });
    expect(Buffer.from(basic.slice('Basic '.length), 'base64').toString()).toBe('client%20id:s3cr%26t');
    expect(issued()).toBe(0);
  });

  it.each([
    { given: 'in options.headers', options: { headers: { authorization: 'Basic mine' } }, headers: {} },
    { given: 'in the step headers', options: undefined, headers: { AUTHORIZATION: 'Basic mine' } },
  ])('keeps an Authorization the caller sent $given', async ({ options, headers }) => {
    const { next, calls } = recordingNext();
    const call = callOf(tokenRequest, {}, options, { headers });
    await authStep({ credentials }).run(call, next);
    expect(calls).toEqual([call]);
  });

  it('passes a basicAuth operation on untouched when there are no credentials', async () => {
    const { next, calls } = recordingNext();
    const call = callOf(tokenRequest);
    await authStep({}).run(call, next);
    expect(calls).toEqual([call]);
  });

  it('uses the token, not the credentials, on an operation that is not basicAuth', async () => {
    const { cache } = scriptedTokens('tok-1');
    const { next, calls } = recordingNext();
    await authStep({ tokens: cache, credentials }).run(callOf(secured), next);
    expect(calls[0]!.headers).toEqual({ Authorization: 'Bearer tok-1' });
  });
});

describe('auth step: calls without a token', () => {
  it.each([
    { given: 'an unsecured operation', info: operation({ secured: false }), withTokens: true },
    { given: 'a secured operation and no token cache', info: secured, withTokens: false },
  ])('$given passes on untouched', async ({ info, withTokens }) => {
    const { cache, issued } = scriptedTokens('tok-1');
    const { next, calls } = recordingNext();
    const call = callOf(info);
    await authStep(withTokens ? { tokens: cache } : {}).run(call, next);
    expect(calls).toEqual([call]);
    expect(calls[0]).toBe(call);
    expect(issued()).toBe(0);
  });
});

describe('auth step: a 401 answer', () => {
  it('invalidates the token, renews it once and sends once more (attempts + 1)', async () => {
    const { cache, issued } = scriptedTokens('tok-1', 'tok-2');
    const renewals: string[] = [];
    const { next, calls } = recordingNext(answer(401), answer(200, { ok: true }));
    const call = callOf(secured, {}, undefined, { state: freshState({ attempts: 1 }) });
    const outcome = await authStep({ tokens: cache, onRenewal: (id) => renewals.push(id) }).run(call, next);
    expect(outcome).toEqual(answer(200, { ok: true }));
    expect(calls.map((sent) => sent.headers.Authorization)).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    expect(call.state.attempts).toBe(2);
    expect(issued()).toBe(2);
    expect(renewals).toEqual(['getBalance']);
    expect(cache.peek()).toBe('tok-2');
  });

  it('returns a second 401 as it is, without a third request', async () => {
    const { cache } = scriptedTokens('tok-1', 'tok-2', 'tok-3');
    const second = answer(401, { title: 'still no' });
    const { next, calls } = recordingNext(answer(401), second, answer(200));
    const call = callOf(secured);
    const outcome = await authStep({ tokens: cache }).run(call, next);
    expect(outcome).toBe(second);
    expect(calls).toHaveLength(2);
    expect(call.state.attempts).toBe(1);
  });

  it('renews the token in its own header on an API-key operation', async () => {
    const { cache } = scriptedTokens('tok-1', 'tok-2');
    const { next, calls } = recordingNext(answer(401), answer(200));
    await authStep({ tokens: cache }).run(callOf(apiKey), next);
    expect(calls.map((sent) => sent.headers)).toEqual([{ 'svc-token': 'tok-1' }, { 'svc-token': 'tok-2' }]);
  });

  it.each([403, 404, 500])('does not renew on a %i', async (status) => {
    const { cache, issued } = scriptedTokens('tok-1', 'tok-2');
    const { next, calls } = recordingNext(answer(status), answer(200));
    const outcome = await authStep({ tokens: cache }).run(callOf(secured), next);
    expect(outcome.kind === 'answer' && outcome.answer.status).toBe(status);
    expect(calls).toHaveLength(1);
    expect(issued()).toBe(1);
  });

  it('does not renew on a 401 of a Basic operation (no token to renew)', async () => {
    const { cache, issued } = scriptedTokens('tok-1');
    const { next, calls } = recordingNext(answer(401), answer(200));
    const outcome = await authStep({ tokens: cache, credentials }).run(callOf(tokenRequest), next);
    expect(outcome.kind === 'answer' && outcome.answer.status).toBe(401);
    expect(calls).toHaveLength(1);
    expect(issued()).toBe(0);
  });

  it('passes a failure outcome of next on as it is', async () => {
    const { cache } = scriptedTokens('tok-1');
    const failed: Outcome = {
      kind: 'failure',
      error: new ConnectionError('x'),
      retryable: true,
      beforeSending: false,
      maybeExecuted: true,
    };
    const { next } = recordingNext(failed);
    expect(await authStep({ tokens: cache }).run(callOf(secured), next)).toBe(failed);
  });
});

describe('auth step: a token that cannot be had', () => {
  it.each([
    { given: 'a connection failure', error: () => new ConnectionError('token endpoint unreachable'), retryable: true },
    { given: 'an HTTP 503', error: () => new HttpError(503, undefined, {}), retryable: true },
    { given: 'an HTTP 429', error: () => new HttpError(429, undefined, {}), retryable: true },
    { given: 'an HTTP 400', error: () => new HttpError(400, { error: 'invalid_request' }, {}), retryable: false },
    { given: 'a refusal (AuthError)', error: () => new AuthError('credentials refused', 'invalid-credentials', 401), retryable: false },
  ])('$given → a failure before sending, retryable: $retryable', async ({ error, retryable }) => {
    const thrown = error();
    const { cache } = scriptedTokens(thrown);
    const { next, calls } = recordingNext();
    const call = callOf(secured, {}, undefined, { state: freshState({ attempts: 1, idempotencyKey: 'key-9' }) });
    const outcome = await authStep({ tokens: cache }).run(call, next);
    expect(calls).toHaveLength(0);
    expect(outcome).toMatchObject({ kind: 'failure', retryable, beforeSending: true, maybeExecuted: false });
    const failed = outcome as Extract<Outcome, { kind: 'failure' }>;
    expect(failed.error).toBeInstanceOf(thrown.constructor);
    // The token request's words, then that the call itself never left.
    expect(failed.error.message).toBe(`${thrown.message}; getBalance was not sent`);
    expect(failed.error).toMatchObject({ operationId: 'getBalance', attempts: 1, idempotencyKey: 'key-9' });
    // A copy carries the context: the token request's error may end several calls.
    expect(failed.error).not.toBe(thrown);
    expect(thrown.operationId).toBeUndefined();
  });

  it('a renewal that fails after a 401 → that failure, nothing sent again', async () => {
    const { cache } = scriptedTokens('tok-1', new HttpError(503, undefined, {}));
    const { next, calls } = recordingNext(answer(401), answer(200));
    const call = callOf(secured);
    const outcome = await authStep({ tokens: cache }).run(call, next);
    expect(calls).toHaveLength(1);
    expect(outcome).toMatchObject({ kind: 'failure', retryable: true, beforeSending: true, maybeExecuted: false });
    expect(call.state.attempts).toBe(0);
  });

  it('an error that is not a ContratoError is thrown as it is', async () => {
    const bug = new TypeError('bug in the token flow');
    const { cache } = scriptedTokens(bug);
    const { next, calls } = recordingNext();
    await expect(authStep({ tokens: cache } satisfies AuthServices).run(callOf(secured), next)).rejects.toBe(bug);
    expect(calls).toHaveLength(0);
  });

  it('a later call gets a token again after a failed token request', async () => {
    const { cache } = scriptedTokens(new ConnectionError('down'), 'tok-2');
    const { next, calls } = recordingNext();
    const step = authStep({ tokens: cache });
    expect((await step.run(callOf(secured), next)).kind).toBe('failure');
    expect((await step.run(callOf(secured), next)).kind).toBe('answer');
    expect(calls.map((call) => call.headers.Authorization)).toEqual(['Bearer tok-2']);
  });
});

describe('auth step: unsecured operations', () => {
  it('never asks for a token, whatever the answer', async () => {
    const info: OperationInfo = operation({ secured: false });
    const { cache, issued } = scriptedTokens('tok-1');
    const { next, calls } = recordingNext(answer(401));
    const outcome = await authStep({ tokens: cache }).run(callOf(info), next);
    expect(outcome.kind === 'answer' && outcome.answer.status).toBe(401);
    expect(calls).toHaveLength(1);
    expect(issued()).toBe(0);
  });
});

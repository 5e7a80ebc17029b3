/** The idempotency-key step alone: a key in the operation's header or body member, generated or the caller's, kept in the state. */
import { describe, expect, it } from 'vitest';
import type { OperationInfo } from '../../../src/runtime/contract.js';
import { ConfigurationError } from '../../../src/runtime/errors.js';
import { idempotencyKeyStep } from '../../../src/runtime/steps/idempotency.js';
import { callOf, operation, recordingNext } from './fixtures.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function keyed(rule: Partial<NonNullable<OperationInfo['idempotencyKeyRule']>> = {}): OperationInfo {
  return operation({
    operationId: 'createTransfer',
    method: 'post',
    requestBody: { mediaType: 'application/json', required: true },
    idempotencyKeyRule: { header: 'x-idempotency-key', minLength: null, maxLength: null, pattern: null, ...rule },
  });
}

const bodyKeyed = operation({
  operationId: 'sendMessage',
  method: 'post',
  requestBody: { mediaType: 'application/json', required: true },
  idempotencyBodyField: 'RequestId',
});

describe('idempotency-key step: header key', () => {
  it.each([
    { given: 'no limits', rule: {}, length: 32, pattern: /^[A-Za-z0-9]+$/ },
    {
      given: 'at most 50 letters and digits',
      rule: { maxLength: 50, pattern: '^[a-zA-Z0-9]{1,50}$' },
      length: 32,
      pattern: /^[a-zA-Z0-9]{1,50}$/,
    },
    { given: 'a maximum below 32', rule: { maxLength: 20 }, length: 20, pattern: /^[A-Za-z0-9]{20}$/ },
    { given: 'a minimum above 32', rule: { minLength: 40, maxLength: 160 }, length: 40, pattern: /^[A-Za-z0-9]{40}$/ },
    { given: 'a minimum and a maximum around 32', rule: { minLength: 1, maxLength: 128 }, length: 32, pattern: /^[A-Za-z0-9]+$/ },
    { given: 'an exact length', rule: { minLength: 8, maxLength: 8, pattern: '^[A-Za-z0-9]{8}$' }, length: 8, pattern: /^[A-Za-z0-9]{8}$/ },
  ])('generated when none is given, fitting $given', async ({ rule, length, pattern }) => {
    const { next, calls } = recordingNext();
    const call = callOf(keyed(rule), { body: { amount: 1 } });
    await idempotencyKeyStep.run(call, next);
    const key = calls[0]!.args.header?.['x-idempotency-key'];
    expect(typeof key).toBe('string');
    expect(key as string).toHaveLength(length);
    expect(key as string).toMatch(pattern);
    expect(call.state.idempotencyKey).toBe(key);
    expect(calls[0]!.args.body).toEqual({ amount: 1 });
  });

  it('generates a different key for each call', async () => {
    const keys = new Set<unknown>();
    for (let index = 0; index < 5; index += 1) {
      const { next, calls } = recordingNext();
      await idempotencyKeyStep.run(callOf(keyed(), {}), next);
      keys.add(calls[0]!.args.header?.['x-idempotency-key']);
    }
    expect(keys.size).toBe(5);
  });

  // Wrapped in async functions: the step is not async, so its error may come thrown rather than as a rejection.
  const unfit = () => idempotencyKeyStep.run(callOf(keyed({ pattern: '^[0-9]{40}$' }), {}), recordingNext().next);

  it('refuses to send a key that cannot fit the pattern, asking for one', async () => {
    const { next, calls } = recordingNext();
    await expect(async () => idempotencyKeyStep.run(callOf(keyed({ pattern: '^[0-9]{40}$' }), {}), next)).rejects.toThrow(
      /pass one with \{ idempotencyKey \}/,
    );
    expect(calls).toHaveLength(0);
  });

  it('reports that refusal as a ConfigurationError (every failure a client reports is a ContratoError, errors.ts)', async () => {
    await expect(async () => unfit()).rejects.toBeInstanceOf(ConfigurationError);
  });

  it.each([
    { given: 'in the header', header: { 'x-idempotency-key': 'caller-key' }, options: undefined, want: 'caller-key' },
    { given: 'in options.idempotencyKey', header: undefined, options: { idempotencyKey: 'option-key' }, want: 'option-key' },
    {
      given: 'in both (the header wins)',
      header: { 'x-idempotency-key': 'header-key' },
      options: { idempotencyKey: 'option-key' },
      want: 'header-key',
    },
  ])('a caller’s key $given is kept', async ({ header, options, want }) => {
    const { next, calls } = recordingNext();
    const call = callOf(keyed({ maxLength: 5 }), header ? { header } : {}, options);
    await idempotencyKeyStep.run(call, next);
    expect(calls[0]!.args.header?.['x-idempotency-key']).toBe(want);
    expect(call.state.idempotencyKey).toBe(want);
  });

  it('keeps the caller’s other headers and does not change the caller’s header object', async () => {
    const header = { 'X-Request-Id': 'r1' };
    const { next, calls } = recordingNext();
    await idempotencyKeyStep.run(callOf(keyed(), { header }, { idempotencyKey: 'k' }), next);
    expect(calls[0]!.args.header).toEqual({ 'X-Request-Id': 'r1', 'x-idempotency-key': 'k' });
    expect(header).toEqual({ 'X-Request-Id': 'r1' });
  });

  it('uses the header as the spec spells it', async () => {
    const { next, calls } = recordingNext();
    await idempotencyKeyStep.run(callOf(keyed({ header: 'Idempotency-Key' }), {}, { idempotencyKey: 'k' }), next);
    expect(calls[0]!.args.header).toEqual({ 'Idempotency-Key': 'k' });
  });
});

describe('idempotency-key step: body member', () => {
  it.each([
    { given: 'absent', body: { amount: 1 }, options: undefined, want: uuid },
    { given: 'given by the caller', body: { amount: 1, RequestId: 'caller-id' }, options: undefined, want: /^caller-id$/ },
    { given: 'given in options.idempotencyKey', body: { amount: 1 }, options: { idempotencyKey: 'opt-id' }, want: /^opt-id$/ },
    { given: 'not a string (replaced by a UUID)', body: { amount: 1, RequestId: 7 }, options: undefined, want: uuid },
  ])('$given', async ({ body, options, want }) => {
    const { next, calls } = recordingNext();
    const call = callOf(bodyKeyed, { body }, options);
    await idempotencyKeyStep.run(call, next);
    const sent = calls[0]!.args.body as Record<string, unknown>;
    expect(sent.RequestId).toMatch(want);
    expect(sent.amount).toBe(1);
    expect(call.state.idempotencyKey).toBe(sent.RequestId);
    expect(calls[0]!.args.header).toBeUndefined();
  });

  it('does not change the caller’s body object', async () => {
    const body = { amount: 1 };
    const { next } = recordingNext();
    await idempotencyKeyStep.run(callOf(bodyKeyed, { body }), next);
    expect(body).toEqual({ amount: 1 });
  });

  it.each([
    { given: 'no body', args: {} },
    { given: 'a null body', args: { body: null } },
  ])('leaves a call with $given untouched', async ({ args }) => {
    const { next, calls } = recordingNext();
    const call = callOf(bodyKeyed, args);
    await idempotencyKeyStep.run(call, next);
    expect(calls[0]).toBe(call);
    expect(call.state.idempotencyKey).toBeUndefined();
  });
});

describe('idempotency-key step: operations without a key', () => {
  it.each([
    { given: 'a GET', info: operation() },
    { given: 'a POST without a key', info: operation({ method: 'post', requestBody: { mediaType: 'application/json', required: true } }) },
  ])('$given passes on the same call, even with options.idempotencyKey', async ({ info }) => {
    const { next, calls } = recordingNext();
    const call = callOf(info, { body: { a: 1 }, header: { 'x-a': '1' } }, { idempotencyKey: 'ignored' });
    await idempotencyKeyStep.run(call, next);
    expect(calls[0]).toBe(call);
    expect(call.state.idempotencyKey).toBeUndefined();
  });
});

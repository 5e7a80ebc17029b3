/** The canonical-headers step alone: header names renamed to the spec's spelling, case-insensitively. */
import { describe, expect, it } from 'vitest';
import type { ParameterInfo } from '../../../src/runtime/contract.js';
import { canonicalHeadersStep } from '../../../src/runtime/steps/validate.js';
import { callOf, operation, recordingNext } from './fixtures.js';

const parameters: ParameterInfo[] = [
  { name: 'X-Request-Id', in: 'header', required: true, type: 'string' },
  { name: 'x-idempotency-key', in: 'header', required: false, type: 'string' },
  { name: 'Page', in: 'query', required: false, type: 'integer' },
];
const info = operation({ parameters });

describe('canonical-headers step', () => {
  it.each([
    { given: 'lower case', header: { 'x-request-id': 'r1' }, want: { 'X-Request-Id': 'r1' } },
    { given: 'upper case', header: { 'X-REQUEST-ID': 'r1' }, want: { 'X-Request-Id': 'r1' } },
    { given: 'the spec spelling already', header: { 'X-Request-Id': 'r1' }, want: { 'X-Request-Id': 'r1' } },
    { given: 'mixed case of a lower-case declared name', header: { 'X-Idempotency-KEY': 'k' }, want: { 'x-idempotency-key': 'k' } },
    { given: 'an undeclared header', header: { 'X-Custom': 'c' }, want: { 'X-Custom': 'c' } },
    { given: 'a name declared only as a query parameter', header: { page: '2' }, want: { page: '2' } },
    {
      given: 'declared and undeclared headers together',
      header: { 'X-REQUEST-ID': 'r1', 'x-custom': 'c', 'X-IDEMPOTENCY-KEY': 'k' },
      want: { 'X-Request-Id': 'r1', 'x-custom': 'c', 'x-idempotency-key': 'k' },
    },
    { given: 'non-string values', header: { 'x-request-id': 7, 'x-list': ['a', 'b'] }, want: { 'X-Request-Id': 7, 'x-list': ['a', 'b'] } },
    { given: 'an empty header object', header: {}, want: {} },
  ])('$given', async ({ header, want }) => {
    const { next, calls } = recordingNext();
    await canonicalHeadersStep.run(callOf(info, { header }), next);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args.header).toEqual(want);
  });

  it('keeps the other arguments, the options and the state of the call', async () => {
    const { next, calls } = recordingNext();
    const call = callOf(
      info,
      { header: { 'x-request-id': 'r1' }, query: { Page: 2 }, path: { id: 'a' }, body: { n: 1 } },
      { timeoutMs: 5 },
    );
    await canonicalHeadersStep.run(call, next);
    const passed = calls[0]!;
    expect(passed.args).toEqual({ header: { 'X-Request-Id': 'r1' }, query: { Page: 2 }, path: { id: 'a' }, body: { n: 1 } });
    expect(passed.options).toBe(call.options);
    expect(passed.state).toBe(call.state);
    expect(passed.info).toBe(info);
  });

  it('does not change the caller’s header object', async () => {
    const header = { 'x-request-id': 'r1' };
    const { next } = recordingNext();
    await canonicalHeadersStep.run(callOf(info, { header }), next);
    expect(header).toEqual({ 'x-request-id': 'r1' });
  });

  it('passes a call without headers on unchanged (the same object)', async () => {
    const { next, calls } = recordingNext();
    const call = callOf(info, { query: { Page: 1 } });
    await canonicalHeadersStep.run(call, next);
    expect(calls).toEqual([call]);
    expect(calls[0]).toBe(call);
  });

  it('returns the outcome of next', async () => {
    const { next } = recordingNext();
    const outcome = await canonicalHeadersStep.run(callOf(info), next);
    expect(outcome.kind).toBe('answer');
  });
});

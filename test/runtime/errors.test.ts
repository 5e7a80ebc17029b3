/** The error classes' own behaviour: capped issue lists in messages, and call context added by copy. */
import { describe, expect, it } from 'vitest';
import {
  AuthError,
  ConnectionError,
  issuesInMessage,
  RequestValidationError,
  withCallContext,
  type ValidationIssue,
} from '../../src/runtime/errors.js';

const issues = (count: number): ValidationIssue[] =>
  Array.from({ length: count }, (_, index) => ({ pointer: `/body/items/${index}`, rule: 'type', message: 'must be a string' }));

describe('a validation error message', () => {
  it.each([
    { given: 'a few issues', count: 3, lines: 3, rest: null },
    { given: 'exactly the cap', count: issuesInMessage, lines: issuesInMessage, rest: null },
    {
      given: 'more than the cap',
      count: issuesInMessage + 5,
      lines: issuesInMessage + 1,
      rest: '… and 5 more (error.issues lists every one)',
    },
    {
      given: 'ten thousand issues',
      count: 10_000,
      lines: issuesInMessage + 1,
      rest: `… and ${10_000 - issuesInMessage} more (error.issues lists every one)`,
    },
  ])('with $given shows at most the cap and counts the rest', ({ count, lines, rest }) => {
    const error = new RequestValidationError('feeRules.create', issues(count));
    const body = error.message.split('\n').slice(1);
    expect(body).toHaveLength(lines);
    if (rest) expect(body.at(-1)).toBe(`  ${rest}`);
    expect(error.issues).toHaveLength(count);
  });
});

describe('withCallContext', () => {
  it('copies the error with the call context and leaves the original as it was', () => {
    const cause = new Error('socket hang up');
    const original = new AuthError(
      'core-banking token request refused: invalid credentials',
      'invalid-credentials',
      401,
      { operationId: 'token' },
      cause,
    );
    const copy = withCallContext(original, { operationId: 'invoices.create', attempts: 2, idempotencyKey: 'K1' });
    expect(copy).toBeInstanceOf(AuthError);
    expect(copy).toMatchObject({
      name: 'AuthError',
      reason: 'invalid-credentials',
      status: 401,
      operationId: 'invoices.create',
      attempts: 2,
      idempotencyKey: 'K1',
      outcomeUnknown: false,
      message: original.message,
    });
    expect(copy.cause).toBe(cause);
    expect(original).toMatchObject({ operationId: 'token', attempts: 0 });
    expect(original).not.toHaveProperty('idempotencyKey');
  });

  it('adds a sentence to the message and the stack when asked', () => {
    const original = new ConnectionError('invoices.create: the connection failed before a complete answer', {
      operationId: 'invoices.create',
      attempts: 1,
      idempotencyKey: 'K2',
    });
    const copy = withCallContext(original, { outcomeUnknown: true }, 'the outcome is unknown');
    expect(copy.message).toBe('invoices.create: the connection failed before a complete answer; the outcome is unknown');
    expect(copy.stack?.split('\n')[0]).toBe(`ConnectionError: ${copy.message}`);
    expect(copy).toMatchObject({ outcomeUnknown: true, idempotencyKey: 'K2', attempts: 1 });
  });
});

/** The validate step alone: schema issues, then cross-field issues, scrubbed, in a RequestValidationError with the call's context. */
import { describe, expect, it } from 'vitest';
import type { CrossFieldCheck } from '../../../src/runtime/cross-field.js';
import { RequestValidationError, type ValidationIssue } from '../../../src/runtime/errors.js';
import type { Call, OperationChecks } from '../../../src/runtime/pipeline.js';
import { validateRequest, validateStep } from '../../../src/runtime/steps/validate.js';
import { acceptAll, acceptingChecks, callOf, freshState, operation, recordingNext, refuseWith } from './fixtures.js';

const identity = <T>(value: T): T => value;
const fixedNow = new Date('2026-11-21T10:00:00Z');
const post = operation({ operationId: 'createThing', method: 'post', requestBody: { mediaType: 'application/json', required: true } });

function withChecks(call: Call, checks: Partial<OperationChecks>): Call {
  return { ...call, checks: { ...call.checks, ...checks } };
}

/** Runs the step; returns the error it threw (or undefined) and what next received. */
async function run(call: Call, scrub: <T>(value: T) => T = identity) {
  const { next, calls } = recordingNext();
  let error: unknown;
  try {
    await validateStep(scrub, () => fixedNow).run(call, next);
  } catch (thrown) {
    error = thrown;
  }
  return { error, calls };
}

function crossField(name: string, issues: ValidationIssue[], seen?: { now?: Date; request?: unknown }): CrossFieldCheck {
  return {
    name,
    description: name,
    check: (request, context) => {
      if (seen) {
        seen.now = context.now;
        seen.request = request;
      }
      return issues;
    },
  };
}

describe('validate step: schema issues', () => {
  const minimum = { instancePath: '/amount', keyword: 'minimum', params: { limit: 1 }, message: 'must be >= 1' };
  const required = { instancePath: '', keyword: 'required', params: { missingProperty: 'name' }, message: 'x' };

  it.each([
    {
      given: 'a body below its minimum',
      call: () =>
        withChecks(callOf(post, { body: { amount: 0 } }), {
          validators: { ...acceptingChecks().validators, body: refuseWith(minimum) },
        }),
      want: [{ pointer: '/body/amount', rule: 'minimum' }],
    },
    {
      given: 'a body missing a required member',
      call: () => withChecks(callOf(post, { body: {} }), { validators: { ...acceptingChecks().validators, body: refuseWith(required) } }),
      want: [{ pointer: '/body/name', rule: 'required' }],
    },
    {
      given: 'a query parameter of the wrong type',
      call: () =>
        withChecks(callOf(operation(), { query: { page: 'x' } }), {
          validators: {
            ...acceptingChecks().validators,
            parameters: { query: refuseWith({ instancePath: '/page', keyword: 'type', params: { type: 'integer' } }) },
          },
        }),
      want: [{ pointer: '/query/page', rule: 'type' }],
    },
    {
      given: 'a required body that is missing',
      call: () => callOf(post, {}),
      want: [{ pointer: '/body', rule: 'required' }],
    },
    {
      given: 'a body on an operation that takes none',
      call: () => withChecks(callOf(operation(), { body: { a: 1 } }), { validators: { ...acceptingChecks().validators, body: null } }),
      want: [{ pointer: '/body', rule: 'additionalProperties' }],
    },
    {
      given: 'path parameters on an operation that takes none',
      call: () =>
        withChecks(callOf(operation(), { path: { id: '1' } }), { validators: { ...acceptingChecks().validators, parameters: {} } }),
      want: [{ pointer: '/path', rule: 'additionalProperties' }],
    },
    {
      given: 'issues in two places at once',
      call: () =>
        withChecks(callOf(post, { query: { page: 'x' }, body: { amount: 0 } }), {
          validators: {
            ...acceptingChecks().validators,
            parameters: { query: refuseWith({ instancePath: '/page', keyword: 'type', params: { type: 'integer' } }) },
            body: refuseWith(minimum),
          },
        }),
      want: [
        { pointer: '/query/page', rule: 'type' },
        { pointer: '/body/amount', rule: 'minimum' },
      ],
    },
  ])('$given → RequestValidationError, nothing passed on', async ({ call, want }) => {
    const { error, calls } = await run(call());
    expect(calls).toHaveLength(0);
    expect(error).toBeInstanceOf(RequestValidationError);
    const issues = (error as RequestValidationError).issues;
    expect(issues.map(({ pointer, rule }) => ({ pointer, rule }))).toEqual(want);
    expect((error as RequestValidationError).operationId).toBe(call().info.operationId);
  });

  it('does not run the cross-field rules when the schema failed', async () => {
    const seen: { now?: Date } = {};
    const call = withChecks(callOf(post, {}), { crossField: [crossField('never', [], seen)] });
    const { error } = await run(call);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(seen.now).toBeUndefined();
  });

  it('checks the fields of a multipart body with its binary parts standing in as text', async () => {
    let checked: unknown;
    const body = acceptAll();
    const recording = Object.assign((data: unknown) => ((checked = data), body(data)), { errors: null });
    const info = operation({ method: 'post', requestBody: { mediaType: 'multipart/form-data', required: true } });
    const call = withChecks(callOf(info, { body: { file: new Uint8Array([1, 2]), blob: new Blob(['x']), name: 'doc' } }), {
      validators: { ...acceptingChecks().validators, body: recording },
    });
    const { error, calls } = await run(call);
    expect(error).toBeUndefined();
    expect(checked).toEqual({ file: '(binary)', blob: '(binary)', name: 'doc' });
    expect(calls[0]!.args.body).toBe(call.args.body);
  });
});

describe('validate step: cross-field rules', () => {
  it('reports the rules’ issues once the schema passed, with the rule’s name, and nothing passed on', async () => {
    const seen: { now?: Date; request?: unknown } = {};
    const issue = { pointer: '/body/end', rule: 'period', message: 'must be after start' };
    const call = withChecks(callOf(post, { body: { start: 2, end: 1 } }), { crossField: [crossField('period', [issue], seen)] });
    const { error, calls } = await run(call);
    expect(calls).toHaveLength(0);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues).toEqual([issue]);
    expect(seen.now).toEqual(fixedNow);
    expect(seen.request).toMatchObject({ body: { start: 2, end: 1 } });
  });

  it('passes the call on when every rule finds nothing', async () => {
    const call = withChecks(callOf(post, { body: { a: 1 } }), { crossField: [crossField('quiet', [])] });
    const { error, calls } = await run(call);
    expect(error).toBeUndefined();
    expect(calls).toEqual([call]);
  });
});

describe('validate step: scrubbing', () => {
  const secret = 'hunter2-7f3a';
  const scrub = <T>(value: T): T => (typeof value === 'string' ? (value.split(secret).join('[scrubbed]') as T) : value);

  it.each([
    {
      given: 'a schema issue quoting the value',
      call: () =>
        withChecks(callOf(post, { body: { note: `x ${secret}` } }), {
          validators: {
            ...acceptingChecks().validators,
            body: refuseWith({ instancePath: '/note', keyword: 'maxLength', params: { limit: 3 } }),
          },
        }),
    },
    {
      given: 'a cross-field issue quoting the value in its message and value',
      call: () =>
        withChecks(callOf(post, { body: { note: secret } }), {
          crossField: [crossField('note-rule', [{ pointer: '/body/note', rule: 'note-rule', message: `bad ${secret}`, value: secret }])],
        }),
    },
  ])('$given: the scrub is applied to messages and values', async ({ call }) => {
    const { error } = await run(call(), scrub);
    expect(error).toBeInstanceOf(RequestValidationError);
    const { issues, message } = error as RequestValidationError;
    expect(issues.length).toBeGreaterThan(0);
    expect(JSON.stringify(issues)).not.toContain(secret);
    expect(message).not.toContain(secret);
    expect(JSON.stringify(issues)).toContain('[scrubbed]');
  });

  it('leaves an issue without a value without one', async () => {
    const call = withChecks(callOf(post, { body: {} }), {
      crossField: [crossField('r', [{ pointer: '/body/x', rule: 'r', message: 'missing' }])],
    });
    const { error } = await run(call, scrub);
    expect((error as RequestValidationError).issues[0]).not.toHaveProperty('value');
  });
});

describe('validate step: the error’s context', () => {
  it.each([
    { given: 'no idempotency key', state: freshState(), want: { attempts: 0 } },
    { given: 'an idempotency key', state: freshState({ idempotencyKey: 'key-123' }), want: { attempts: 0, idempotencyKey: 'key-123' } },
  ])('carries the operationId, attempts 0 and $given', async ({ state, want }) => {
    const { error } = await run(callOf(post, {}, undefined, { state }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error).toMatchObject({ operationId: 'createThing', ...want, outcomeUnknown: false });
    // Refused before sending: no retry was in question, and no member of the error is left undefined.
    expect(Object.entries(error as object).filter(([, value]) => value === undefined)).toEqual([]);
    expect(error).not.toHaveProperty('notRetried');
  });
});

describe('validate step: a valid call', () => {
  it.each([
    { given: 'no arguments', info: operation(), args: {} },
    { given: 'parameters and a body', info: post, args: { path: { id: '1' }, query: { q: 'a' }, header: { 'X-A': 'b' }, body: { a: 1 } } },
    { given: 'undeclared headers (headers are open)', info: operation(), args: { header: { 'x-anything': '1' } } },
  ])('with $given reaches next unchanged', async ({ info, args }) => {
    const call = callOf(info, args);
    const { error, calls } = await run(call);
    expect(error).toBeUndefined();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toBe(call);
  });

  it('headers without a header validator are not refused (only path and query are closed)', () => {
    const issues = validateRequest(operation(), { body: null, parameters: {}, responses: {} }, { header: { 'x-a': '1' } });
    expect(issues).toEqual([]);
  });
});

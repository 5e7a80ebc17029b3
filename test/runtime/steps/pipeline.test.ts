/** The pipeline alone: compose runs the steps in order, insertBefore places steps, contextOf, the default order. */
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../src/runtime/rate-limiter.js';
import { type Call, compose, contextOf, insertBefore, type Step } from '../../../src/runtime/pipeline.js';
import { defaultSteps, type StepServices } from '../../../src/runtime/steps/index.js';
import { answer, callOf, freshState, operation } from './fixtures.js';

/** A step that logs entering and leaving and adds its name to the step headers. */
function tracing(name: string, log: string[]): Step {
  return {
    name,
    async run(call, next) {
      log.push(`${name}>`);
      const outcome = await next({ ...call, headers: { ...call.headers, [`x-${name}`]: 'seen' } });
      log.push(`<${name}`);
      return outcome;
    },
  };
}

function answering(name: string, log: string[], seen: Call[]): Step {
  return {
    name,
    async run(call) {
      log.push(name);
      seen.push(call);
      return answer(200, { from: name });
    },
  };
}

const named = (name: string): Step => ({ name, run: (call, next) => next(call) });
const names = (steps: readonly Step[]): string[] => steps.map((step) => step.name);

describe('compose', () => {
  it('runs the steps in list order, each wrapping the rest, and hands each step the call the previous one passed', async () => {
    const log: string[] = [];
    const seen: Call[] = [];
    const run = compose([tracing('a', log), tracing('b', log), answering('send', log, seen)]);
    const outcome = await run(callOf(operation()));
    expect(log).toEqual(['a>', 'b>', 'send', '<b', '<a']);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers).toEqual({ 'x-a': 'seen', 'x-b': 'seen' });
    expect(outcome).toEqual(answer(200, { from: 'send' }));
  });

  it('a step that answers itself ends the pipeline: the steps after it never run', async () => {
    const log: string[] = [];
    const shortCircuit: Step = { name: 'cache', run: async () => answer(304) };
    const run = compose([tracing('a', log), shortCircuit, answering('send', log, [])]);
    const outcome = await run(callOf(operation()));
    expect(log).toEqual(['a>', '<a']);
    expect(outcome.kind === 'answer' && outcome.answer.status).toBe(304);
  });

  it('may be run many times: each run starts again at the first step', async () => {
    const log: string[] = [];
    const run = compose([tracing('a', log), answering('send', log, [])]);
    await run(callOf(operation()));
    await run(callOf(operation()));
    expect(log).toEqual(['a>', 'send', '<a', 'a>', 'send', '<a']);
  });

  it.each([
    { given: 'no steps at all', steps: [] as Step[] },
    { given: 'only steps that pass the call on', steps: [named('a'), named('b')] },
    { given: 'an async step that passes the call on', steps: [{ name: 'a', run: async (call, next) => next(call) } as Step] },
  ])('a pipeline that ends without a sending step throws ($given)', async ({ steps }) => {
    // Wrapped in an async function: the error may come as a thrown exception or as a rejected promise.
    await expect(async () => compose(steps)(callOf(operation()))).rejects.toThrow(
      'the pipeline ended without a step that sends the request',
    );
  });
});

describe('insertBefore', () => {
  const base = [named('a'), named('b'), named('c')];

  it.each([
    { given: 'before the first step', before: 'a', added: ['x'], want: ['x', 'a', 'b', 'c'] },
    { given: 'before a middle step', before: 'b', added: ['x'], want: ['a', 'x', 'b', 'c'] },
    { given: 'before the last step', before: 'c', added: ['x'], want: ['a', 'b', 'x', 'c'] },
    { given: 'several steps, in the order given', before: 'c', added: ['x', 'y'], want: ['a', 'b', 'x', 'y', 'c'] },
    { given: 'an unknown step name: at the end', before: 'nope', added: ['x'], want: ['a', 'b', 'c', 'x'] },
    { given: 'no step to add', before: 'b', added: [], want: ['a', 'b', 'c'] },
  ])('$given', ({ before, added, want }) => {
    const result = insertBefore(base, before, ...added.map(named));
    expect(names(result)).toEqual(want);
  });

  it('leaves the given list unchanged and returns the same step objects', () => {
    const added = named('x');
    const result = insertBefore(base, 'b', added);
    expect(names(base)).toEqual(['a', 'b', 'c']);
    expect(result).not.toBe(base);
    expect(result[1]).toBe(added);
    expect(result[0]).toBe(base[0]);
  });

  it('inserts before the first of two steps with the same name', () => {
    expect(names(insertBefore([named('a'), named('b'), named('b')], 'b', named('x')))).toEqual(['a', 'x', 'b', 'b']);
  });
});

describe('contextOf', () => {
  it.each([
    { given: 'a fresh state', state: freshState(), want: { operationId: 'getThing', attempts: 0 } },
    { given: 'attempts made', state: freshState({ attempts: 3 }), want: { operationId: 'getThing', attempts: 3 } },
    {
      given: 'an idempotency key',
      state: freshState({ attempts: 1, idempotencyKey: 'k-1' }),
      want: { operationId: 'getThing', attempts: 1, idempotencyKey: 'k-1' },
    },
  ])('$given', ({ state, want }) => {
    expect(contextOf({ info: operation(), state })).toEqual(want);
  });
});

describe('defaultSteps', () => {
  const services = (rateLimiter?: RateLimiter): StepServices => ({
    scrub: (value) => value,
    now: () => new Date(0),
    retry: { clock: () => 0, random: () => 0, sleep: async () => undefined },
    auth: {},
    rateLimiter,
    send: { baseUrl: 'http://127.0.0.1:1', send: async () => ({ status: 200, headers: new Headers(), body: '' }) },
  });

  it.each([
    {
      given: 'a rate limiter',
      limiter: new RateLimiter([{ limit: 1, intervalMs: 1 }]),
      want: ['canonical-headers', 'idempotency-key', 'validate', 'retry', 'auth', 'rate-limit', 'timeout', 'send'],
    },
    {
      given: 'no rate limiter',
      limiter: undefined,
      want: ['canonical-headers', 'idempotency-key', 'validate', 'retry', 'auth', 'timeout', 'send'],
    },
  ])('are in the documented order with $given', ({ limiter, want }) => {
    expect(names(defaultSteps(services(limiter)))).toEqual(want);
  });
});

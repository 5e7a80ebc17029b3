/**
 * The idempotency journal in one process: its canonical JSON and payload hash, the outcome each end of a
 * call proves, and every case of test/postgres/fixtures/journal-cases.ts and journal-replay-cases.ts with
 * `memoryIdempotencyJournal()`.
 */
import { describe, expect, it } from 'vitest';
import { createCoreBankingClient } from '../../src/core-banking/index.js';
import { ConfigurationError } from '../../src/runtime/errors.js';
import { canonicalJson, memoryIdempotencyJournal, payloadHashOf } from '../../src/runtime/journal.js';
import type { Outcome } from '../../src/runtime/pipeline.js';
import { defaultSteps, type StepServices } from '../../src/runtime/steps/index.js';
import { journalOutcomeOf } from '../../src/runtime/steps/journal.js';
import { describeJournalCases } from '../postgres/fixtures/journal-cases.js';
import { describeJournalReplayCases } from '../postgres/fixtures/journal-replay-cases.js';

describe('canonicalJson', () => {
  it.each([
    { given: 'members in any order', value: { b: 1, a: { d: [1, 'x'], c: null } }, want: '{"a":{"c":null,"d":[1,"x"]},"b":1}' },
    { given: 'an undefined member (left out, as JSON.stringify does)', value: { a: 1, b: undefined }, want: '{"a":1}' },
    { given: 'an undefined item (null, as JSON.stringify does)', value: [undefined, true], want: '[null,true]' },
    { given: 'a text with quotes and accents', value: { nome: 'João "Jr"' }, want: '{"nome":"João \\"Jr\\""}' },
  ])('writes $given', ({ value, want }) => {
    expect(canonicalJson(value, 'op')).toBe(want);
  });

  it.each([
    { given: 'a Blob', value: { body: { file: new Blob(['x']) } }, want: '/body/file is a Blob' },
    { given: 'bytes', value: { body: [new Uint8Array(1)] }, want: '/body/0 is a Uint8Array' },
    { given: 'NaN', value: { query: { n: Number.NaN } }, want: '/query/n is not a finite number' },
    { given: 'a Date', value: { body: { at: new Date(0) } }, want: '/body/at is a Date' },
    { given: 'a bigint', value: { body: { n: 1n } }, want: '/body/n is a bigint' },
    {
      given: 'a member name with a slash',
      value: { body: { 'a/b': Number.POSITIVE_INFINITY } },
      want: '/body/a~1b is not a finite number',
    },
  ])('refuses $given, naming where and not what', ({ value, want }) => {
    expect(() => canonicalJson(value, 'op')).toThrow(ConfigurationError);
    expect(() => canonicalJson(value, 'op')).toThrow(`op: the journal keeps the arguments to re-send them, and ${want}`);
  });
});

describe('payloadHashOf', () => {
  const args = { path: { accountId: 1 }, header: { 'Idempotency-Key': 'KeyOne' }, body: { amount: 10, RequestId: 'KeyOne' } };
  const hash = (value: object, location = { header: 'Idempotency-Key' }) => payloadHashOf(value, location, 'op');

  it.each([
    { given: 'another key in the header', other: { ...args, header: { 'Idempotency-Key': 'KeyTwo' } }, same: true },
    {
      given: 'another key in the body field',
      other: { ...args, body: { amount: 10, RequestId: 'KeyTwo' } },
      location: { bodyField: 'RequestId' },
      same: true,
    },
    {
      given: 'the members in another order',
      other: { body: { RequestId: 'KeyOne', amount: 10 }, header: args.header, path: args.path },
      same: true,
    },
    { given: 'another amount', other: { ...args, body: { amount: 11, RequestId: 'KeyOne' } }, same: false },
    { given: 'another header besides the key', other: { ...args, header: { ...args.header, 'x-other': 'y' } }, same: false },
    { given: 'another path', other: { ...args, path: { accountId: 2 } }, same: false },
  ])('with $given: same hash $same', ({ other, location, same }) => {
    const base = location ? hash(args, location as never) : hash(args);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect((location ? hash(other, location as never) : hash(other)) === base).toBe(same);
  });
});

describe('journalOutcomeOf: what the end of a call proves', () => {
  const answer = (status: number, body: unknown = {}): Outcome => ({ kind: 'answer', answer: { status, headers: new Headers(), body } });
  const bodiless = (status: number): Outcome => ({ kind: 'answer', answer: { status, headers: new Headers(), body: undefined } });
  const failure = (maybeExecuted: boolean): Outcome => ({
    kind: 'failure',
    error: new ConfigurationError('x'),
    retryable: true,
    beforeSending: !maybeExecuted,
    maybeExecuted,
  });
  it.each([
    {
      given: '201 with a body',
      outcome: answer(201, { id: 1 }),
      earlier: false,
      want: { state: 'succeeded', status: 201, result: { id: 1 } },
    },
    {
      given: '200 with a text (a JWS)',
      outcome: answer(200, 'a.b.c'),
      earlier: false,
      want: { state: 'succeeded', status: 200, result: 'a.b.c' },
    },
    { given: '204 without a body', outcome: bodiless(204), earlier: false, want: { state: 'succeeded', status: 204 } },
    { given: '422', outcome: answer(422), earlier: false, want: { state: 'failed', status: 422 } },
    { given: '429', outcome: answer(429), earlier: false, want: { state: 'failed', status: 429 } },
    { given: '422 after an attempt that may have run', outcome: answer(422), earlier: true, want: undefined },
    { given: '409', outcome: answer(409), earlier: false, want: undefined },
    { given: '500', outcome: answer(500), earlier: false, want: undefined },
    { given: '503', outcome: answer(503), earlier: false, want: undefined },
    { given: 'a failure that cannot have left', outcome: failure(false), earlier: false, want: { state: 'failed' } },
    { given: 'a failure that cannot have left, after one that may have run', outcome: failure(false), earlier: true, want: undefined },
    { given: 'a failure that may have run', outcome: failure(true), earlier: false, want: undefined },
  ])('$given → $want', ({ outcome, earlier, want }) => {
    expect(journalOutcomeOf(outcome, { maybeExecuted: earlier })).toEqual(want);
  });
});

describe('the journal step in the pipeline', () => {
  const services = (journal: StepServices['journal']): StepServices => ({
    scrub: (value) => value,
    now: () => new Date(0),
    retry: { clock: () => 0, random: () => 0, sleep: async () => undefined },
    auth: {},
    journal,
    send: { baseUrl: 'http://127.0.0.1:1', send: async () => ({ status: 200, headers: new Headers(), body: '' }) },
  });
  it.each([
    {
      given: 'a journal',
      journal: { journal: memoryIdempotencyJournal(), scope: 'x', scrub: <T>(value: T) => value },
      want: ['canonical-headers', 'idempotency-key', 'validate', 'journal', 'retry', 'auth', 'timeout', 'send'],
    },
    {
      given: 'no journal',
      journal: undefined,
      want: ['canonical-headers', 'idempotency-key', 'validate', 'retry', 'auth', 'timeout', 'send'],
    },
  ])('comes after validate and before retry with $given', ({ journal, want }) => {
    expect(defaultSteps(services(journal)).map((step) => step.name)).toEqual(want);
  });

  it.each([
    { given: 'an empty object', journal: {}, want: 'missing begin, settle, inDoubt, entry' },
    { given: 'a journal without entry', journal: { begin() {}, settle() {}, inDoubt() {} }, want: 'missing entry' },
    { given: 'null', journal: null, want: 'missing begin, settle, inDoubt, entry' },
  ])('a journal option that is not one is refused at construction: $given', ({ journal, want }) => {
    const create = () =>
      createCoreBankingClient({ baseUrl: 'http://127.0.0.1:1', clientId: 'c', clientSecret: 's', journal: journal as never });
    expect(create).toThrow(ConfigurationError);
    expect(create).toThrow(`journal must be an IdempotencyJournal (${want}), e.g. memoryIdempotencyJournal()`);
  });
  it('a memory journal is accepted', async () => {
    const client = createCoreBankingClient({
      baseUrl: 'http://127.0.0.1:1',
      clientId: 'c',
      clientSecret: 's',
      journal: memoryIdempotencyJournal(),
    });
    expect(typeof client.resumeInDoubt).toBe('function');
    await client.close();
  });
});

describeJournalCases('memory', async () => memoryIdempotencyJournal());
describeJournalReplayCases('memory', async () => memoryIdempotencyJournal());

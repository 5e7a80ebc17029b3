/** Error messages of the validators: pointer, rule and the problem in plain words, secrets redacted. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormatsPlugin from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { ajvFormats } from '../../src/formats/registry.js';
import { check } from '../../src/runtime/validation.js';

const ajv = new Ajv2020({ allErrors: true, strict: true });
ajvFormatsPlugin.default(ajv);
for (const [name, predicate] of Object.entries(ajvFormats)) ajv.addFormat(name, predicate);

const validate = ajv.compile({
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 5 },
    kind: { enum: ['A', 'B'] },
    count: { type: 'integer', minimum: 1, maximum: 9 },
    price: { type: 'number', exclusiveMinimum: 0 },
    key: { type: 'string', pattern: '^[a-zA-Z0-9]{1,50}$' },
    document: { type: 'string', format: 'cpf' },
    at: { type: 'string', format: 'date-time' },
    tags: { type: 'array', uniqueItems: true, maxItems: 2 },
    client_secret: { type: 'string', minLength: 20 },
  },
});
const patterns = { '^[a-zA-Z0-9]{1,50}$': '1 to 50 letters or digits' };

describe('validation messages', () => {
  it.each([
    { given: { name: 'ok' }, want: [] },
    { given: {}, want: ['/name: is required'] },
    { given: { name: '' }, want: ['/name: must have at least 1 character (minLength; got "")'] },
    { given: { name: 'toolong' }, want: ['/name: must have at most 5 characters (maxLength; got "toolong")'] },
    {
      given: { name: 'x', extra: 1 },
      want: ['/extra: is not a field the spec lists here: remove it, or check its spelling (additionalProperties; got 1)'],
    },
    { given: { name: 'x', kind: 'C' }, want: ['/kind: must be one of "A", "B" (enum; got "C")'] },
    { given: { name: 'x', count: 1.5 }, want: ['/count: must be a whole number (type; got 1.5)'] },
    { given: { name: 'x', count: 10 }, want: ['/count: must be at most 9 (maximum; got 10)'] },
    { given: { name: 'x', price: 0 }, want: ['/price: must be above 0 (exclusiveMinimum; got 0)'] },
    { given: { name: 'x', key: 'a-b' }, want: ['/key: must be 1 to 50 letters or digits (pattern; got "a-b")'] },
    {
      given: { name: 'x', document: '52998224724' },
      want: [
        '/document: must be a CPF: 11 digits with valid check digits: the CPF check digits do not match (format cpf; got "***.982.247-**")',
      ],
    },
    {
      given: { name: 'x', at: '2026-11-21 10:00' },
      want: [
        '/at: must be a date and time in RFC 3339 form, e.g. 2026-11-21T10:30:00Z or 2026-11-21T07:30:00-03:00 (format date-time; got "2026-11-21 10:00")',
      ],
    },
    {
      given: { name: 'x', tags: ['a', 'a'] },
      want: ['/tags: must not repeat items (items 0 and 1 are equal) (uniqueItems; got ["a","a"])'],
    },
    {
      given: { name: 'x', client_secret: 'short' },
      want: ['/client_secret: must have at least 20 characters (minLength; got "[redacted]")'],
    },
  ])('$given -> $want', ({ given, want }) => {
    expect(check(validate, given, '', patterns).map((issue) => `${issue.pointer}: ${issue.message}`)).toEqual(want);
  });

  it('prefixes pointers with the part of the request and never throws on odd input', () => {
    expect(check(validate, { name: 5 }, '/body').map((issue) => issue.pointer)).toEqual(['/body/name']);
    for (const odd of [null, 0, 'text', [], () => 1, Symbol('s'), 10n]) expect(() => check(validate, odd)).not.toThrow();
  });

  it('without a description a pattern is quoted as it is', () => {
    expect(check(validate, { name: 'x', key: '!' })[0]?.message).toBe('must match the pattern ^[a-zA-Z0-9]{1,50}$ (got "!")');
  });
});

/** Keywords that ajv words for programmers ("boolean schema is false", "must NOT be valid"), said in plain words. */
const shapes = ajv.compile({
  type: 'object',
  properties: {
    original: { type: 'string', not: { pattern: '^0+\\.00$' } },
    destinationWalletId: false,
    saque: { not: {} },
    txid: { type: 'string', format: 'txid' },
    pair: { type: 'object', dependentRequired: { start: ['end'] } },
    either: { oneOf: [{ type: 'integer' }, { type: 'number' }] },
    named: { type: 'object', properties: { a: { type: 'string' } }, unevaluatedProperties: false },
  },
});
const shapePatterns = { 'not:^0+\\.00$': 'a zero amount (0.00)' };

describe('plain words for every keyword', () => {
  it.each([
    { given: { original: '0.00' }, want: ['/original: must not be a zero amount (0.00) (got "0.00")'] },
    {
      given: { destinationWalletId: 'w1' },
      want: ['/destinationWalletId: must be left out: this member is not allowed in this case (false schema; got "w1")'],
    },
    { given: { saque: {} }, want: ['/saque: must be left out: this member is not allowed in this case (got {})'] },
    { given: { txid: 'short' }, want: ['/txid: must be a txid: 26 to 35 letters or digits (format txid; got "short")'] },
    { given: { pair: { start: 1 } }, want: ['/pair/end: is required when start is given (dependentRequired)'] },
    { given: { either: 1 }, want: ['/either: matches more than one of the shapes allowed here; exactly one must match (oneOf; got 1)'] },
    {
      given: { named: { a: 'x', b: 1 } },
      want: ['/named/b: is not a field the spec lists here: remove it, or check its spelling (unevaluatedProperties; got 1)'],
    },
  ])('$given -> $want', ({ given, want }) => {
    expect(check(shapes, given, '', shapePatterns).map((issue) => `${issue.pointer}: ${issue.message}`)).toEqual(want);
  });

  /** A run of this many words said twice in one message is a repeated phrase. */
  const phraseWords = 4;
  const repeatedPhrase = (message: string): string | undefined => {
    const words = message
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
    const seen = new Set<string>();
    for (let index = 0; index + phraseWords <= words.length; index += 1) {
      const phrase = words.slice(index, index + phraseWords).join(' ');
      if (seen.has(phrase)) return phrase;
      seen.add(phrase);
    }
    return undefined;
  };

  it.each(Object.keys(ajvFormats))('a value refused by the %s format is explained without repeating a phrase', (name) => {
    const validator = ajv.compile({ type: 'string', format: name });
    for (const value of ['', 'x', '0', '00000000000', 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '1234567890123456789012345678901234567890']) {
      for (const issue of check(validator, value)) expect(repeatedPhrase(issue.message), issue.message).toBeUndefined();
    }
  });
});

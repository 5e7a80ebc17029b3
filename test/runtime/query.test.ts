/**
 * Query parameters written and read by their declared style (src/runtime/query.ts): given a parameter's style,
 * explode and value, want the exact query text, and the same value read back from it. The limits of the
 * styles (a separator inside an item, a list for a one-value parameter) are cases of their own.
 */
import { describe, expect, it } from 'vitest';
import type { ParameterInfo, QueryStyle } from '../../src/runtime/contract.js';
import { parseQuery, serializeQuery } from '../../src/runtime/query.js';

const parameter = (name: string, type: string, style?: QueryStyle, explode?: boolean): ParameterInfo => ({
  name,
  in: 'query',
  required: false,
  type,
  ...(style ? { style } : {}),
  ...(explode === undefined ? {} : { explode }),
});

const read = (parameters: readonly ParameterInfo[], text: string): Record<string, unknown> =>
  parseQuery(parameters, new URLSearchParams(text));

const roundTrips: readonly { given: string; parameter: ParameterInfo; value: unknown; want: string }[] = [
  { given: 'text, default style', parameter: parameter('status', 'string'), value: 'ATIVA', want: 'status=ATIVA' },
  { given: 'text with reserved characters', parameter: parameter('q', 'string'), value: 'a&b=c d', want: 'q=a%26b%3Dc%20d' },
  { given: 'a list, form exploded (the default)', parameter: parameter('id', 'array'), value: ['1', '2'], want: 'id=1&id=2' },
  { given: 'a list, form not exploded', parameter: parameter('id', 'array', 'form', false), value: ['1', '2'], want: 'id=1,2' },
  { given: 'a list, spaceDelimited', parameter: parameter('id', 'array', 'spaceDelimited'), value: ['1', '2'], want: 'id=1%202' },
  { given: 'a list, pipeDelimited', parameter: parameter('id', 'array', 'pipeDelimited', false), value: ['1', '2'], want: 'id=1|2' },
  {
    given: 'a list, pipeDelimited exploded (written as form is)',
    parameter: parameter('id', 'array', 'pipeDelimited', true),
    value: ['a|b', 'c'],
    want: 'id=a%7Cb&id=c',
  },
  {
    given: 'a list of one item, form not exploded',
    parameter: parameter('id', 'array', 'form', false),
    value: ['1'],
    want: 'id=1',
  },
  {
    given: 'an object, deepObject',
    parameter: parameter('filter', 'object', 'deepObject', true),
    value: { status: 'ATIVA', chave: 'k' },
    want: 'filter[status]=ATIVA&filter[chave]=k',
  },
  {
    given: 'an object, deepObject, explode left out',
    parameter: parameter('filter', 'object', 'deepObject'),
    value: { 'nome & sobrenome': 'Ana & Bia' },
    want: 'filter[nome%20%26%20sobrenome]=Ana%20%26%20Bia',
  },
];

describe('serializeQuery', () => {
  it.each(roundTrips)('$given → $want', ({ parameter: info, value, want }) => {
    expect(serializeQuery([info], { [info.name]: value })).toBe(want);
  });

  it('leaves out what is absent (undefined, null, an empty list or object) and writes the others in order', () => {
    const infos = [parameter('a', 'string'), parameter('b', 'array', 'form', false), parameter('e', 'array')];
    expect(serializeQuery(infos, { a: undefined, b: ['x'], c: 3, d: null, e: [], f: {}, g: true })).toBe('b=x&c=3&g=true');
  });

  it('writes an object as a deepObject when its parameter declares no style (the one object style read back)', () => {
    expect(serializeQuery([parameter('filter', 'object')], { filter: { a: '1' } })).toBe('filter[a]=1');
  });

  it('writes a member no parameter declares with the defaults: a list repeated, an object as a deepObject', () => {
    expect(serializeQuery([], { tags: ['x', 'y'], where: { a: '1' } })).toBe('tags=x&tags=y&where[a]=1');
  });
});

describe('parseQuery', () => {
  it.each(roundTrips)('$given: $want reads back', ({ parameter: info, value, want }) => {
    expect(read([info], want)).toEqual({ [info.name]: value });
  });

  it('reads a name given twice as a list whatever its parameter says (the schema judges it)', () => {
    expect(read([parameter('status', 'string')], 'status=A&status=B')).toEqual({ status: ['A', 'B'] });
  });

  it('keeps a bracketed name that belongs to no deepObject parameter as it came', () => {
    expect(read([parameter('filter', 'object')], 'filter[x]=1')).toEqual({ 'filter[x]': '1' });
  });

  it('reads a list not exploded that came repeated all the same', () => {
    expect(read([parameter('id', 'array', 'pipeDelimited')], 'id=1|2&id=3')).toEqual({ id: ['1', '2', '3'] });
  });

  it('reads `+` as a space, so a spaceDelimited list written by a form encoder splits too', () => {
    expect(read([parameter('id', 'array', 'spaceDelimited')], 'id=1+2')).toEqual({ id: ['1', '2'] });
  });

  it.each([
    { given: 'a deepObject member given twice: a list, for the schema to refuse', text: 'f[a]=1&f[a]=2', want: { f: { a: ['1', '2'] } } },
    { given: 'the deepObject parameter also given plain, before its member', text: 'f=x&f[a]=1', want: { f: 'x', 'f[a]': '1' } },
    { given: 'the deepObject parameter also given plain, after its member', text: 'f[a]=1&f=x', want: { f: 'x', 'f[a]': '1' } },
  ])('$given', ({ text, want }) => {
    expect(read([parameter('f', 'object', 'deepObject')], text)).toEqual(want);
  });
});

describe('what the styles cannot say', () => {
  // The writer encodes an item's comma (%2C) but URLSearchParams decodes it before the reader splits: a list whose
  // items may hold the separator must be declared exploded, as form is by default.
  it.each([
    { style: 'form', wire: 'id=a%2Cb,c' },
    { style: 'pipeDelimited', wire: 'id=a%7Cb|c' },
    { style: 'spaceDelimited', wire: 'id=a%20b%20c' },
  ] as const)('an item holding the $style separator, not exploded, reads back as two items', ({ style, wire }) => {
    const info = parameter('id', 'array', style, false);
    const separator = { form: ',', pipeDelimited: '|', spaceDelimited: ' ' }[style];
    const value = [`a${separator}b`, 'c'];
    expect(serializeQuery([info], { id: value })).toBe(wire);
    expect(read([info], wire)).toEqual({ id: ['a', 'b', 'c'] });
  });

  it('an item holding the separator round-trips when the list is exploded', () => {
    const info = parameter('id', 'array');
    expect(read([info], serializeQuery([info], { id: ['a,b', 'c'] }))).toEqual({ id: ['a,b', 'c'] });
  });

  // The validate step refuses such a call before sending; the writer does not second-guess it, and the reader
  // gives the schema a list to refuse when it has two items or more.
  it.each([
    { value: ['A', 'B'], wire: 'status=A&status=B', back: ['A', 'B'] },
    { value: ['A'], wire: 'status=A', back: 'A' },
  ])('a list $value for a parameter declared as one value is written as $wire and reads back as $back', ({ value, wire, back }) => {
    const info = parameter('status', 'string');
    expect(serializeQuery([info], { status: value })).toBe(wire);
    expect(read([info], wire)).toEqual({ status: back });
  });
});

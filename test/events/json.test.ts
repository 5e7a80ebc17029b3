/**
 * The recursion-free JSON helpers behind dedupe keys and the nesting limit: stringifyIteratively writes
 * exactly what JSON.stringify writes (property-based, fast-check), at any depth; the depth scan of a
 * text agrees with the depth of its parsed value.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nestsDeeperThan, stringifyIteratively, valueNestsDeeperThan } from '../../src/events/json.js';

describe('stringifyIteratively', () => {
  it('equals JSON.stringify for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => stringifyIteratively(value) === JSON.stringify(value)),
      { numRuns: 500 },
    );
  });

  it('equals JSON.stringify for values JSON.stringify has rules for: undefined, functions, toJSON, holes, boxed values, NaN', () => {
    // biome-ignore lint/suspicious/noSparseArray: a hole is what this case tests.
    const sparse = [1, , 3];
    const value = {
      a: undefined,
      b: () => 1,
      c: new Date(0),
      d: sparse,
      e: [undefined, Symbol('s')],
      f: new Number(2),
      g: Number.NaN,
      h: -0,
      i: { toJSON: (key: string) => `key ${key}` },
    };
    expect(stringifyIteratively(value)).toBe(JSON.stringify(value));
    expect(stringifyIteratively(undefined)).toBe(JSON.stringify(undefined));
  });

  it('refuses a cycle and a BigInt with a TypeError, as JSON.stringify does', () => {
    const cyclic: Record<string, unknown> = { a: [] };
    (cyclic.a as unknown[]).push(cyclic);
    expect(() => stringifyIteratively(cyclic)).toThrow(TypeError);
    expect(() => stringifyIteratively({ n: 1n })).toThrow(TypeError);
    // The same object twice side by side is not a cycle.
    const shared = { x: 1 };
    expect(stringifyIteratively([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });

  it('writes a value nested 100 000 deep', () => {
    const text = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(stringifyIteratively(JSON.parse(text))).toBe(text);
  });
});

describe('nesting depth', () => {
  it('of a JSON text agrees with the depth of its parsed value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.integer({ min: 0, max: 8 }), (value, limit) => {
        const text = JSON.stringify(value);
        return nestsDeeperThan(text, limit) === valueNestsDeeperThan(value, limit);
      }),
      { numRuns: 500 },
    );
  });

  it('reports a cyclic value as too deep instead of walking it forever', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(valueNestsDeeperThan(cyclic, 64)).toBe(true);
  });
});

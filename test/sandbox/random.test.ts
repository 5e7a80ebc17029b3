/** Seeded randomness of the sandbox: the same seed repeats, uuid() is a v4 UUID, draws stay in their ranges. */
import { describe, expect, it } from 'vitest';
import { createSeededRandom } from '../../src/sandbox/random.js';
import type { SeededRandom } from '../../src/sandbox/contract.js';
import { testSeed } from '../helpers/seeded.js';

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A mixed sequence of every kind of draw, to compare two generators. */
const draws = (random: SeededRandom, count: number) =>
  Array.from({ length: count }, (_, index) =>
    [() => random.next(), () => random.uuid(), () => random.integer(-5, 5), () => random.text(8)][index % 4]!(),
  );

describe('createSeededRandom', () => {
  it('gives the same sequence for the same seed, run after run (the first draws of a fixed seed are pinned)', () => {
    // Changing these changes every id a seeded sandbox creates: only with a CHANGELOG entry.
    const random = createSeededRandom('contrato');
    expect([random.uuid(), random.next(), random.integer(1, 6), random.text(12), random.text(6, '0123456789')]).toEqual([
      '222f4b15-c858-48fc-83cc-b2ecea290bda',
      0.2268569527355535,
      5,
      'zXACBPFHPJvM',
      '059888',
    ]);
    expect(random.seed).toBe('contrato');
  });

  it('repeats for a seed chosen at random (printed)', () => {
    const seed = `run-${testSeed('sandbox random', 'SANDBOX_RANDOM_SEED')}`;
    expect(draws(createSeededRandom(seed), 1000)).toEqual(draws(createSeededRandom(seed), 1000));
  });

  it.each([{ given: ['a', 'b'] }, { given: ['', ' '] }, { given: ['seed-1', 'seed-2'] }, { given: ['ação', 'acao'] }])(
    'gives different sequences for different seeds: $given',
    ({ given }) => {
      const [first, second] = given.map((seed) => draws(createSeededRandom(seed!), 20));
      expect(first).not.toEqual(second);
    },
  );

  it('draws valid, distinct version 4 UUIDs (version and variant bits set)', () => {
    const random = createSeededRandom('uuids');
    const ids = Array.from({ length: 10_000 }, () => random.uuid());
    expect(ids.filter((id) => !uuidV4.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('draws numbers in [0, 1) spread evenly over ten buckets', () => {
    const random = createSeededRandom('spread');
    const buckets = new Array<number>(10).fill(0);
    for (let index = 0; index < 100_000; index += 1) {
      const value = random.next();
      expect(value >= 0 && value < 1).toBe(true);
      buckets[Math.floor(value * 10)]! += 1;
    }
    // 10 000 expected per bucket; a fair generator stays within ±3% at this size (fixed seed: no flakiness).
    for (const count of buckets) expect(Math.abs(count - 10_000)).toBeLessThan(300);
  });

  it.each([
    { given: { min: 1, max: 6 } },
    { given: { min: -3, max: 3 } },
    { given: { min: 0, max: 0 } },
    { given: { min: 4_000_000_000, max: 4_000_000_003 } },
  ])('draws integers within [$given.min, $given.max], each end included', ({ given }) => {
    const random = createSeededRandom('integers');
    const seen = new Set<number>();
    for (let index = 0; index < 2000; index += 1) seen.add(random.integer(given.min, given.max));
    const want = Array.from({ length: given.max - given.min + 1 }, (_, index) => given.min + index);
    expect([...seen].sort((a, b) => a - b)).toEqual(want);
  });

  it('draws integers across the whole safe range', () => {
    const random = createSeededRandom('wide');
    const values = Array.from({ length: 1000 }, () => random.integer(0, Number.MAX_SAFE_INTEGER));
    expect(values.every((value) => Number.isSafeInteger(value) && value >= 0)).toBe(true);
    expect(values.some((value) => value > 2 ** 52)).toBe(true);
  });

  it.each([
    { given: [6, 1], want: /min <= max/ },
    { given: [0.5, 2], want: /safe integers/ },
    { given: [0, Number.POSITIVE_INFINITY], want: /safe integers/ },
    { given: [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER], want: /wider than 2\^53/ },
  ])('refuses integer($given.0, $given.1)', ({ given, want }) => {
    expect(() => createSeededRandom('x').integer(given[0]!, given[1]!)).toThrow(want);
  });

  it.each([
    { given: { length: 0 }, want: /^$/ },
    { given: { length: 40 }, want: /^[A-Za-z0-9]{40}$/ },
    { given: { length: 12, alphabet: '0123456789' }, want: /^[0-9]{12}$/ },
    { given: { length: 5, alphabet: 'x' }, want: /^x{5}$/ },
  ])('draws text of $given.length characters of its alphabet', ({ given, want }) => {
    expect(createSeededRandom('text').text(given.length, given.alphabet)).toMatch(want);
  });

  it('uses every letter and digit of the default alphabet', () => {
    const text = createSeededRandom('alphabet').text(20_000);
    expect(new Set(text).size).toBe(62);
  });

  it.each([
    { given: { length: -1, alphabet: undefined }, want: /integer >= 0/ },
    { given: { length: 2.5, alphabet: undefined }, want: /integer >= 0/ },
    { given: { length: 3, alphabet: '' }, want: /non-empty alphabet/ },
  ])('refuses text($given.length, $given.alphabet)', ({ given, want }) => {
    expect(() => createSeededRandom('x').text(given.length, given.alphabet)).toThrow(want);
  });
});

/**
 * Seeded randomness of the sandbox: ids, txids, tokens and OTPs come from here, so a run with the same seed
 * creates the same resources, run after run (issue 18, point 5: seeds make runs repeatable).
 *
 * The seed text is hashed with cyrb128 into four 32-bit words that seed sfc32 ("small fast counting"
 * generator, from the PractRand suite): both are small, public-domain and well studied, and written out
 * here so the sequence of a seed never changes with a dependency. Not for secrets: anyone with the seed
 * can replay it, which is the point of a sandbox.
 */
import type { SeededRandom } from './contract.js';

const lettersAndDigits = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function createSeededRandom(seed: string): SeededRandom {
  const nextWord = sfc32(...cyrb128(seed));

  /** 53 random bits in [0, 1): integers up to Number.MAX_SAFE_INTEGER wide are then drawn without gaps. */
  const next = (): number => ((nextWord() >>> 5) * 2 ** 26 + (nextWord() >>> 6)) / 2 ** 53;

  const integer = (min: number, max: number): number => {
    if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min > max)
      throw new RangeError(`integer(min, max) needs safe integers with min <= max, got ${min} and ${max}`);
    const span = max - min + 1;
    // next() has 53 bits: a range of up to 2^53 values is drawn without gaps.
    if (span > 2 ** 53) throw new RangeError(`integer(${min}, ${max}): the range is wider than 2^53`);
    return min + Math.floor(next() * span);
  };

  return {
    seed,
    next,
    integer,
    text(length: number, alphabet: string = lettersAndDigits): string {
      if (!Number.isSafeInteger(length) || length < 0) throw new RangeError(`text(length) needs an integer >= 0, got ${length}`);
      const characters = [...alphabet];
      if (characters.length === 0) throw new RangeError('text(length, alphabet) needs a non-empty alphabet');
      let text = '';
      for (let index = 0; index < length; index += 1) text += characters[integer(0, characters.length - 1)];
      return text;
    },
    uuid(): string {
      const words = [nextWord(), nextWord(), nextWord(), nextWord()];
      // RFC 9562: version 4 in the high nibble of byte 6, variant 10 in the two high bits of byte 8.
      words[1] = ((words[1]! & 0xffff0fff) | 0x00004000) >>> 0;
      words[2] = ((words[2]! & 0x3fffffff) | 0x80000000) >>> 0;
      const hex = words.map((word) => word.toString(16).padStart(8, '0')).join('');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
  };
}

/** cyrb128 (bryc, public domain): a 128-bit hash of a text, as four 32-bit words. */
function cyrb128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    h1 = h2 ^ Math.imul(h1 ^ code, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ code, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ code, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ code, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** sfc32 (Chris Doty-Humphrey, public domain): 32-bit unsigned words from a 128-bit state. */
function sfc32(seedA: number, seedB: number, seedC: number, seedD: number): () => number {
  let a = seedA;
  let b = seedB;
  let c = seedC;
  let d = seedD;
  const word = (): number => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return t >>> 0;
  };
  // The first outputs still carry the seed's structure: discard a few, as the reference implementation advises.
  for (let round = 0; round < 15; round += 1) word();
  return word;
}

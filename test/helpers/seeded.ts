/** Seeded randomness for the tests that inject faults or interleavings, so a failing run can be replayed. */

/** mulberry32: a small deterministic generator of numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed of this run: the variable `replayVariable` replays one, else the clock; printed either way. */
export function testSeed(label: string, replayVariable: string): number {
  const given = process.env[replayVariable];
  const seed = given ? Number(given) : Date.now() % 2 ** 31;
  console.log(`${label}: random seed ${seed} (replay with ${replayVariable}=${seed})`);
  return seed;
}

/**
 * memoryDeliveryStore against the DeliveryStore contract: one claim at a time per key, leases that
 * expire on the injected clock, release only by the claim's own token, handled keys bounded in number.
 */
import { describe, expect, it } from 'vitest';
import { memoryDeliveryStore } from '../../src/events/index.js';

const lease = (token: string, leaseMs = 1000) => ({ token, leaseMs });

describe('memoryDeliveryStore', () => {
  it('lets one claim through; the others see in-progress, then handled once it completed', () => {
    const store = memoryDeliveryStore();
    expect(store.claim('k', lease('a'))).toBe('claimed');
    expect(store.claim('k', lease('b'))).toBe('in-progress');
    expect(store.claim('other', lease('c'))).toBe('claimed');
    store.complete('k', 'a');
    expect(store.claim('k', lease('d'))).toBe('handled');
  });

  it('expires a lease on its clock, and the next claim takes the key over', () => {
    let now = 0;
    const store = memoryDeliveryStore({ now: () => now });
    expect(store.claim('k', lease('crashed', 500))).toBe('claimed');
    now = 499;
    expect(store.claim('k', lease('early'))).toBe('in-progress');
    now = 500;
    expect(store.claim('k', lease('takes-over'))).toBe('claimed');
    expect(store.claim('k', lease('later'))).toBe('in-progress');
  });

  it('releases only the claim of the token that made it', () => {
    let now = 0;
    const store = memoryDeliveryStore({ now: () => now });
    store.claim('k', lease('slow', 100));
    now = 100;
    store.claim('k', lease('second', 100));
    store.release('k', 'slow'); // the first holder gave up after its lease: not its claim any more
    expect(store.claim('k', lease('third'))).toBe('in-progress');
    store.release('k', 'second');
    expect(store.claim('k', lease('third'))).toBe('claimed');
  });

  it('forgets the oldest handled keys beyond its capacity', () => {
    const store = memoryDeliveryStore({ capacity: 2 });
    for (const key of ['a', 'b', 'c']) {
      store.claim(key, lease(key));
      store.complete(key, key);
    }
    expect(['a', 'b', 'c'].map((key) => store.claim(key, lease('again')))).toEqual(['claimed', 'handled', 'handled']);
  });

  it('sweeps only expired claims when claims outnumber its capacity', () => {
    let now = 0;
    const store = memoryDeliveryStore({ capacity: 2, now: () => now });
    store.claim('hung-1', lease('x', 10));
    store.claim('live', lease('y', 1000));
    now = 10;
    store.claim('fresh', lease('z', 10)); // three claims > capacity: the expired one goes, the live ones stay
    expect(store.claim('live', lease('w'))).toBe('in-progress');
    expect(store.claim('fresh', lease('w'))).toBe('in-progress');
    expect(store.claim('hung-1', lease('v'))).toBe('claimed');
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => memoryDeliveryStore({ capacity: 0 })).toThrow(/capacity must be a positive integer/);
  });
});

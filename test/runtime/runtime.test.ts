/** Interface-agnostic pieces of the runtime, table-driven. */
import { describe, expect, it } from 'vitest';
import { TokenCache } from '../../src/runtime/token-cache.js';
import { checkBaseUrl } from '../../src/runtime/transport.js';
import { ConfigurationError } from '../../src/runtime/errors.js';

describe('checkBaseUrl', () => {
  it.each([
    { given: 'https://banking.example.com', want: 'https://banking.example.com' },
    { given: 'https://banking.example.com/', want: 'https://banking.example.com' },
    { given: 'http://127.0.0.1:4014', want: 'http://127.0.0.1:4014' },
    { given: 'http://localhost:8080/', want: 'http://localhost:8080' },
    { given: 'http://[::1]:8080', want: 'http://[::1]:8080' },
  ])('accepts $given', ({ given, want }) => {
    expect(checkBaseUrl(given)).toBe(want);
  });

  it.each([
    { given: 'http://banking.example.com', want: /only https is allowed outside loopback/ },
    { given: 'https://user:pass@banking.example.com', want: /must not carry credentials/ },
    { given: 'ftp://banking.example.com', want: /not http/ },
    { given: 'banking.example.com', want: /not a URL/ },
  ])('refuses $given', ({ given, want }) => {
    expect(() => checkBaseUrl(given)).toThrow(ConfigurationError);
    expect(() => checkBaseUrl(given)).toThrow(want);
  });
});

describe('TokenCache', () => {
  function cacheWithClock(expiresIn: number, skewSeconds: number) {
    let now = 0;
    let issued = 0;
    const cache = new TokenCache({
      skewSeconds,
      now: () => now,
      issue: async () => ({ accessToken: `t${(issued += 1)}`, expiresIn }),
    });
    return { cache, advance: (ms: number) => (now += ms), issuedCount: () => issued };
  }

  it('renews skew seconds before expiry, not earlier', async () => {
    const { cache, advance, issuedCount } = cacheWithClock(3600, 60);
    expect(await cache.get()).toBe('t1');
    advance(3539_000);
    expect(await cache.get()).toBe('t1');
    advance(1_000);
    expect(await cache.get()).toBe('t2');
    expect(issuedCount()).toBe(2);
  });

  it('shares one refresh among concurrent callers', async () => {
    const { cache, issuedCount } = cacheWithClock(3600, 60);
    const tokens = await Promise.all(Array.from({ length: 100 }, () => cache.get()));
    expect(new Set(tokens)).toEqual(new Set(['t1']));
    expect(issuedCount()).toBe(1);
  });

  it('invalidate drops only the token it names', async () => {
    const { cache } = cacheWithClock(3600, 60);
    await cache.get();
    cache.invalidate('other');
    expect(await cache.get()).toBe('t1');
    cache.invalidate('t1');
    expect(await cache.get()).toBe('t2');
  });

  it('a failed refresh is not cached: the next call tries again', async () => {
    let attempts = 0;
    const cache = new TokenCache({
      issue: async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('bank down');
        return { accessToken: 'ok', expiresIn: 3600 };
      },
    });
    await expect(cache.get()).rejects.toThrow('bank down');
    await expect(cache.get()).resolves.toBe('ok');
  });
});

/** Retry timing, idempotency keys, the rate limiter and log redaction, table-driven. */
import { describe, expect, it } from 'vitest';
import { generateIdempotencyKey } from '../../src/runtime/idempotency.js';
import { maskDocuments, redact } from '../../src/runtime/logging.js';
import { RateLimiter } from '../../src/runtime/rate-limiter.js';
import { backoffMs, defaultRetryPolicy, mayRetry, retryAfterMs } from '../../src/runtime/retry.js';

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-21T10:00:00Z');
  it.each([
    { given: '0', want: 0 },
    { given: '7', want: 7000 },
    { given: ' 12 ', want: 12_000 },
    { given: 'Sat, 21 Nov 2026 10:00:30 GMT', want: 30_000 },
    { given: 'Sat, 21 Nov 2026 09:59:00 GMT', want: 0 },
    { given: 'soon', want: undefined },
    { given: '-5', want: undefined },
    { given: null, want: undefined },
  ])('$given -> $want', ({ given, want }) => expect(retryAfterMs(given, now)).toBe(want));
});

describe('backoff and retry eligibility', () => {
  it('full jitter stays between 0 and the doubling ceiling, capped', () => {
    for (let retry = 0; retry < 10; retry += 1) {
      const ceiling = Math.min(defaultRetryPolicy.maxDelayMs, defaultRetryPolicy.baseDelayMs * 2 ** retry);
      expect(backoffMs(retry, defaultRetryPolicy, () => 0)).toBe(0);
      expect(backoffMs(retry, defaultRetryPolicy, () => 0.999999)).toBe(ceiling - 1);
    }
  });

  it.each([
    { method: 'get', keyed: false, want: true },
    { method: 'put', keyed: false, want: true },
    { method: 'delete', keyed: false, want: true },
    { method: 'post', keyed: false, want: false },
    { method: 'patch', keyed: false, want: false },
    { method: 'post', keyed: true, want: true },
  ])('$method (key: $keyed) -> $want', ({ method, keyed, want }) => expect(mayRetry(method, keyed)).toBe(want));
});

describe('generateIdempotencyKey fits each header rule of section 8', () => {
  it.each([
    {
      given: 'x-idempotency-key [a-zA-Z0-9]{1,50}',
      rule: { header: 'x-idempotency-key', minLength: 1, maxLength: 50, pattern: '^[a-zA-Z0-9]{1,50}$' },
    },
    { given: 'invoice key, 1 to 50 characters', rule: { header: 'x-idempotency-key', minLength: 1, maxLength: 50, pattern: null } },
    { given: 'core Idempotency-Key, 1 to 160', rule: { header: 'Idempotency-Key', minLength: 1, maxLength: 160, pattern: null } },
    { given: 'CaaS Idempotency-Key, at most 128', rule: { header: 'Idempotency-Key', minLength: null, maxLength: 128, pattern: null } },
    { given: 'a short maximum of 10', rule: { header: 'k', minLength: 1, maxLength: 10, pattern: null } },
  ])('$given', ({ rule }) => {
    const keys = Array.from({ length: 200 }, () => generateIdempotencyKey(rule));
    for (const key of keys) {
      expect(key.length).toBeGreaterThanOrEqual(rule.minLength ?? 1);
      expect(key.length).toBeLessThanOrEqual(rule.maxLength ?? 160);
      if (rule.pattern) expect(key).toMatch(new RegExp(rule.pattern));
    }
    expect(new Set(keys).size).toBe(200);
  });

  it('refuses to guess a key for a pattern it cannot meet', () => {
    expect(() => generateIdempotencyKey({ header: 'k', minLength: 1, maxLength: 5, pattern: '^\\d{5}$' })).toThrow(
      /pass one with \{ idempotencyKey \}/,
    );
  });
});

describe('RateLimiter', () => {
  it('lets `limit` calls through per window and makes the next wait for the oldest to leave it', async () => {
    let now = 0;
    const waits: number[] = [];
    const limiter = new RateLimiter(
      [
        { limit: 3, intervalMs: 1000 },
        { limit: 5, intervalMs: 10_000 },
      ],
      () => now,
      async (ms) => {
        waits.push(ms);
        now += ms;
      },
    );
    for (let call = 0; call < 3; call += 1) await limiter.acquire();
    expect(waits).toEqual([]);
    await limiter.acquire();
    expect(waits).toEqual([1000]);
    await limiter.acquire();
    await limiter.acquire();
    // The hour-like window (5 per 10 s) now binds: the 6th waits until the first call is 10 s old.
    expect(waits.at(-1)).toBe(9000);
    expect(now).toBe(10_000);
  });
});

describe('log redaction', () => {
  it.each([
    { given: 'CPF 52998224725 in text', want: 'CPF ***.982.247-** in text' },
    { given: '12ABC34501DE35', want: '12.ABC.345/****-**' },
    { given: 'not a cnpj ABCDEFGHIJKL99', want: 'not a cnpj ABCDEFGHIJKL99' },
    { given: 'phone +5511987654321', want: 'phone +5511987654321' },
  ])('$given -> $want', ({ given, want }) => expect(maskDocuments(given)).toBe(want));

  it('replaces secret members and scrubs known secret values anywhere', () => {
    const value = {
      headers: { Authorization: 'Bearer abc', 'svc-token': 'svc', accept: 'application/json' },
      body: { client_secret: 's3cr3t', clientSecret: 's3cr3t', passphrase: 'p', document: '52998224725', note: 'token is tok-12345678' },
      list: ['tok-12345678'],
    };
    expect(redact(value, { secrets: ['tok-12345678'] })).toEqual({
      headers: { Authorization: '[redacted]', 'svc-token': '[redacted]', accept: 'application/json' },
      body: {
        client_secret: '[redacted]',
        clientSecret: '[redacted]',
        passphrase: '[redacted]',
        document: '***.982.247-**',
        note: 'token is [redacted]',
      },
      list: ['[redacted]'],
    });
    expect(redact({ document: '52998224725' }, { maskDocuments: false })).toEqual({ document: '52998224725' });
  });
});

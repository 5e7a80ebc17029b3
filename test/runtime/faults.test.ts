/**
 * Fault injection: 500 invoice creations (POST with an Idempotency-Key) against a loopback server that,
 * at random, fails before processing (503), processes and then drops the connection, or answers 429 with
 * Retry-After. The server counts executions per key: nothing is executed twice, every success was
 * executed exactly once, every call ends in a result or a typed error, and retries stay within budget.
 */
import { describe, expect, it } from 'vitest';
import { ConnectionError, type ContratoError, createCoreBankingClient, HttpError } from '../../src/core-banking/index.js';
import { sendJson, startLoopbackServer } from '../helpers/loopback.js';
import { seededRandom } from '../helpers/seeded.js';

const invoice = (n: number) => ({
  customerId: 1000 + n,
  pixKey: 'financeiro@padaria.com.br',
  dueDate: '2026-12-10',
  amount: 10 + n / 100,
  type: 'IMMEDIATE' as const,
});
const maxRetries = 4;

describe('retries under faults never pay twice', () => {
  it('500 keyed payments: executed at most once, exactly once when the call succeeded', async () => {
    const random = seededRandom(20261121);
    const executions = new Map<string, number>();
    const attemptsByKey = new Map<string, number>();
    const stored = new Map<string, { body: string; response: unknown }>();
    let nextId = 1;
    const faults = { before503: 0, dropAfter: 0, rateLimited: 0 };
    const server = await startLoopbackServer((request, response) => {
      if (request.path === '/auth/token') return sendJson(response, 200, { access_token: 't', token_type: 'Bearer', expires_in: 3600 });
      const key = String(request.headers['idempotency-key']);
      attemptsByKey.set(key, (attemptsByKey.get(key) ?? 0) + 1);
      const roll = random();
      if (roll < 0.15) {
        faults.before503 += 1;
        return sendJson(response, 503, { title: 'Unavailable', status: 503 }, 'application/problem+json');
      }
      if (roll < 0.25) {
        faults.rateLimited += 1;
        response.setHeader('retry-after', roll < 0.2 ? '0' : new Date(Date.now() - 1000).toUTCString());
        return sendJson(response, 429, { title: 'Too many requests', status: 429 }, 'application/problem+json');
      }
      const previous = stored.get(key);
      if (previous) {
        // Replay with the same payload returns the original; a different payload gives 409 (section 4.10).
        if (previous.body !== request.body)
          return sendJson(response, 409, { title: 'Idempotency key reused', status: 409 }, 'application/problem+json');
        return sendJson(response, 201, previous.response);
      }
      executions.set(key, (executions.get(key) ?? 0) + 1);
      const created = { id: nextId++, amount: (JSON.parse(request.body) as { amount: number }).amount, status: 'REGISTERING' };
      stored.set(key, { body: request.body, response: created });
      if (roll < 0.35) {
        faults.dropAfter += 1;
        response.socket?.destroy();
        return;
      }
      sendJson(response, 201, created);
    });
    try {
      const client = createCoreBankingClient({
        baseUrl: server.url,
        clientId: 'baas_x',
        clientSecret: 'secret',
        retry: { maxRetries, baseDelayMs: 1, maxDelayMs: 10 },
        rateLimit: false,
      });
      const outcomes: { key: string | undefined; ok: boolean; error?: unknown }[] = [];
      for (let batch = 0; batch < 500; batch += 25) {
        const calls = Array.from({ length: 25 }, (_, index) => batch + index).map((n) =>
          client.invoices
            .create({ path: { accountId: 1 }, body: invoice(n) })
            .withResponse()
            .then(
              ({ response }) => ({ key: response.idempotencyKey, ok: true }),
              (error: unknown) => ({ key: (error as ContratoError).idempotencyKey, ok: false, error }),
            ),
        );
        outcomes.push(...(await Promise.all(calls)));
      }

      expect(faults.before503).toBeGreaterThan(30);
      expect(faults.dropAfter).toBeGreaterThan(30);
      expect(faults.rateLimited).toBeGreaterThan(30);
      expect(new Set(outcomes.map((o) => o.key)).size).toBe(500);
      for (const outcome of outcomes) {
        expect(outcome.key).toMatch(/^[A-Za-z0-9]{32}$/);
        const executed = executions.get(outcome.key!) ?? 0;
        expect(executed).toBeLessThanOrEqual(1);
        if (outcome.ok) expect(executed).toBe(1);
        else expect(outcome.error).toSatisfy((error: unknown) => error instanceof HttpError || error instanceof ConnectionError);
        expect(attemptsByKey.get(outcome.key!)).toBeLessThanOrEqual(1 + maxRetries);
      }
      // A key the caller never saw would be a payment made behind its back (e.g. a new key per attempt).
      const keys = new Set(outcomes.map((o) => o.key));
      expect([...executions.keys()].filter((key) => !keys.has(key))).toEqual([]);
      expect(outcomes.filter((o) => o.ok).length).toBeGreaterThan(480);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('a POST without an idempotency key is never retried; an idempotent PUT is', async () => {
    let posts = 0;
    let puts = 0;
    const server = await startLoopbackServer((request, response) => {
      if (request.path === '/auth/token') return sendJson(response, 200, { access_token: 't', token_type: 'Bearer', expires_in: 3600 });
      if (request.method === 'POST') {
        posts += 1;
        return response.socket?.destroy();
      }
      puts += 1;
      if (puts < 3) return sendJson(response, 503, { title: 'Unavailable', status: 503 }, 'application/problem+json');
      sendJson(response, 200, { id: '0e3ec47e-2fc8-4c4c-bdee-0eb80eb91a50', name: 'x', percent: 1, minAmount: 0, maxAmount: 1, weight: 1 });
    });
    try {
      const client = createCoreBankingClient({
        baseUrl: server.url,
        clientId: 'c',
        clientSecret: 's',
        retry: { baseDelayMs: 1 },
        rateLimit: false,
      });
      const failure = await client.feeRules
        .create({ body: { name: 'x', percent: 1, minAmount: 0, maxAmount: 1 } })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ConnectionError);
      expect((failure as ConnectionError).attempts).toBe(1);
      expect(posts).toBe(1);
      await client.feeRules.update({
        path: { id: '0e3ec47e-2fc8-4c4c-bdee-0eb80eb91a50' },
        body: { percent: 1, minAmount: 0, maxAmount: 1 },
      });
      expect(puts).toBe(3);
    } finally {
      await server.close();
    }
  });
});

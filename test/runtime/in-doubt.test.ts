/**
 * Calls whose outcome the client cannot see, over mutual TLS against a payment server that commits and
 * then drops the connection or restarts: never an AuthError, never a second execution; an error that
 * ends such a call carries the operation, the attempts and the key and says the outcome is unknown; a
 * call again with that key gets the original. Then the same properties under random faults (seed printed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthError,
  ConnectionError,
  type ContratoError,
  createCoreBankingClient,
  HttpError,
  TimeoutError,
} from '../../src/core-banking/index.js';
import { createTestPki, type TestPki } from '../helpers/certificates.js';
import { startPaymentServer, type Fault, type PaymentServer } from '../helpers/payment-server.js';
import { sendJson, startLoopbackServer } from '../helpers/loopback.js';
import { freePort } from '../helpers/ports.js';
import { seededRandom, testSeed } from '../helpers/seeded.js';

let pki: TestPki;
let server: PaymentServer;
beforeAll(async () => {
  pki = createTestPki();
  server = await startPaymentServer(pki);
});
afterAll(async () => {
  await server.close();
  pki.dispose();
});

const invoice = (n: number) => ({
  customerId: 1000 + n,
  pixKey: 'financeiro@padaria.com.br',
  dueDate: '2026-12-10',
  amount: 10 + n / 100,
  type: 'IMMEDIATE' as const,
});
const clientOf = (baseUrl: string, retry: { maxRetries: number; baseDelayMs?: number; maxDelayMs?: number }, timeoutMs = 10_000) =>
  createCoreBankingClient({
    baseUrl,
    clientId: 'partner',
    clientSecret: 'fault-secret',
    tls: { ...pki.client, ca: pki.ca },
    retry: { baseDelayMs: 50, maxDelayMs: 200, ...retry },
    timeoutMs,
    rateLimit: false,
  });
const failureOf = (call: Promise<unknown>): Promise<ContratoError> =>
  call.then(
    () => expect.unreachable('the call must fail'),
    (error: unknown) => error as ContratoError,
  );

describe('a payment whose server commits and then fails', () => {
  it('restart after commit, no retries: a ConnectionError with the key saying the outcome is unknown; the same key again gets the original', async () => {
    server.faults = [{ kind: 'restart-after-commit', downMs: 1_500 }];
    const client = clientOf(server.url, { maxRetries: 0 });
    const error = await failureOf(client.invoices.create({ path: { accountId: 1 }, body: invoice(1) }));
    expect(error).not.toBeInstanceOf(AuthError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ operationId: 'invoices.create', attempts: 1, outcomeUnknown: true });
    expect(error.idempotencyKey).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(error.message).toContain(`may have been executed; call again with idempotency key ${error.idempotencyKey}`);
    expect(server.executions.get(error.idempotencyKey!)).toBe(1);

    await server.up();
    const again = await client.invoices
      .create({ path: { accountId: 1 }, body: invoice(1) }, { idempotencyKey: error.idempotencyKey! })
      .withResponse();
    expect(again.response.idempotencyKey).toBe(error.idempotencyKey);
    expect(server.executions.get(error.idempotencyKey!)).toBe(1);
    await client.close();
  }, 30_000);

  it('restart after commit, with retries: success with the same key executed once, or a ConnectionError saying so', async () => {
    server.faults = [{ kind: 'restart-after-commit', downMs: 1_500 }];
    const client = clientOf(server.url, { maxRetries: 6, baseDelayMs: 200, maxDelayMs: 800 });
    const outcome = await client.invoices
      .create({ path: { accountId: 1 }, body: invoice(2) })
      .withResponse()
      .then(
        ({ response }) => ({ key: response.idempotencyKey }),
        (error: ContratoError) => ({ key: error.idempotencyKey, error }),
      );
    if ('error' in outcome) expect(outcome.error).toMatchObject({ name: 'ConnectionError', outcomeUnknown: true });
    expect(server.executions.get(outcome.key!)).toBe(1);
    await server.up();
    await client.close();
  }, 30_000);

  it('a reset over TLS with a short timeout is a ConnectionError at once, not a TimeoutError after a diagnosis', async () => {
    const client = clientOf(server.url, { maxRetries: 0 }, 300);
    // The token and a connection first, so the short timeout covers only the payment.
    await client.accounts.list({});
    server.faults = [{ kind: 'reset-during-body' }];
    const error = await failureOf(client.invoices.create({ path: { accountId: 1 }, body: invoice(3) }));
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.idempotencyKey).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(server.executions.get(error.idempotencyKey!)).toBeUndefined();
    await client.close();
  });

  it('a refused connection: nothing was sent, so the outcome is known', async () => {
    const client = createCoreBankingClient({
      baseUrl: `http://127.0.0.1:${await freePort()}`,
      clientId: 'c',
      clientSecret: 's',
      retry: { maxRetries: 1, baseDelayMs: 1 },
      rateLimit: false,
    });
    const error = await failureOf(client.invoices.create({ path: { accountId: 1 }, body: invoice(4) }, { idempotencyKey: 'K4refused' }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ operationId: 'invoices.create', idempotencyKey: 'K4refused', outcomeUnknown: false });
  });

  it('a keyed call that fails at the token step keeps its operation, attempts and key', async () => {
    const platform = await startLoopbackServer((_request, response) =>
      sendJson(response, 503, { title: 'Unavailable', status: 503 }, 'application/problem+json'),
    );
    try {
      const client = createCoreBankingClient({
        baseUrl: platform.url,
        clientId: 'c',
        clientSecret: 's',
        retry: { maxRetries: 1, baseDelayMs: 1 },
        rateLimit: false,
      });
      const error = await failureOf(client.invoices.create({ path: { accountId: 1 }, body: invoice(5) }, { idempotencyKey: 'K5token' }));
      expect(error).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({ operationId: 'invoices.create', idempotencyKey: 'K5token', attempts: 2, outcomeUnknown: false });
    } finally {
      await platform.close();
    }
  });

  it('a certificate the server refuses is an AuthError that carries the call', async () => {
    const client = createCoreBankingClient({
      baseUrl: server.url,
      clientId: 'c',
      clientSecret: 's',
      tls: { ...pki.rogueClient, ca: pki.ca },
      retry: { maxRetries: 0 },
      rateLimit: false,
    });
    // The token request is the first to meet the refusal; the call's error still names the call.
    const error = await failureOf(client.invoices.create({ path: { accountId: 1 }, body: invoice(6) }, { idempotencyKey: 'K6rogue' }));
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ operationId: 'invoices.create', idempotencyKey: 'K6rogue', attempts: 1 });
  });
});

describe('random faults over mutual TLS', () => {
  it('30 keyed payments: never executed twice, never an AuthError; an error says whether it may have run; the key again settles it', async () => {
    const random = seededRandom(testSeed('fault injection', 'FAULT_SEED'));
    const pick = (): Fault => {
      const roll = random();
      if (roll < 0.2) return { kind: 'drop-after-commit' };
      if (roll < 0.3) return { kind: 'restart-after-commit', downMs: 100 + Math.floor(random() * 400) };
      if (roll < 0.45) return { kind: 'reset-during-body' };
      if (roll < 0.6) return { kind: 'unavailable-before' };
      return { kind: 'none' };
    };
    const client = clientOf(server.url, { maxRetries: 3, baseDelayMs: 50, maxDelayMs: 200 }, 2_000);
    const outcomes: { n: number; key: string; error?: ContratoError }[] = [];
    for (let batch = 0; batch < 30; batch += 5) {
      // Faults for this batch's attempts and retries; whatever is left over is cleared before the next.
      server.faults = Array.from({ length: 20 }, pick);
      const calls = Array.from({ length: 5 }, (_, index) => batch + index).map((n) =>
        client.invoices
          .create({ path: { accountId: 1 }, body: invoice(100 + n) })
          .withResponse()
          .then(
            ({ response }) => ({ n, key: response.idempotencyKey! }),
            (error: ContratoError) => ({ n, key: error.idempotencyKey!, error }),
          ),
      );
      outcomes.push(...(await Promise.all(calls)));
      await server.up();
    }
    server.faults = [];
    for (const { n, key, error } of outcomes) {
      const executed = server.executions.get(key) ?? 0;
      expect(executed, `payment ${n}`).toBeLessThanOrEqual(1);
      if (!error) {
        expect(executed, `payment ${n}`).toBe(1);
        continue;
      }
      expect(error).not.toBeInstanceOf(AuthError);
      expect(error).toMatchObject({ operationId: 'invoices.create', idempotencyKey: key });
      expect(error.attempts).toBeGreaterThanOrEqual(1);
      // An error that does not say "unknown" says "not executed", and must be right.
      if (!error.outcomeUnknown) expect(executed, `payment ${n}: ${error.message}`).toBe(0);
      // Calling again with the key settles it: executed exactly once in the end.
      await client.invoices.create({ path: { accountId: 1 }, body: invoice(100 + n) }, { idempotencyKey: key });
      expect(server.executions.get(key), `payment ${n}`).toBe(1);
    }
    await client.close();
  }, 90_000);
});

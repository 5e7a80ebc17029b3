/**
 * The `rateLimiter` client option: a limiter from outside (a shared one, e.g. contrato/postgres) takes the
 * place of the client's memory limiter. Refused together with `rateLimit`, refused without `acquire`; the
 * memory windows are checked too. Through a real core banking client against a loopback server: no request
 * leaves before the limiter lets it, each attempt (a retry included) asks the limiter again, and the
 * caller's signal reaches the limiter's wait.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  type CoreBankingClientOptions,
  ConfigurationError,
  createCoreBankingClient,
  type RequestLimiter,
} from '../../src/core-banking/index.js';
import { type LoopbackServer, sendJson, startLoopbackServer } from '../helpers/loopback.js';

const common = { baseUrl: 'http://127.0.0.1:9', clientId: 'client', clientSecret: 'secret-value' };
const admitAll: RequestLimiter = { acquire: async () => {} };

describe('rateLimit and rateLimiter options', () => {
  it.each([
    { given: 'rateLimiter alone', options: { rateLimiter: admitAll }, want: undefined },
    { given: 'rateLimit windows alone', options: { rateLimit: [{ limit: 5, intervalMs: 1_000 }] }, want: undefined },
    { given: 'rateLimit false alone', options: { rateLimit: false }, want: undefined },
    { given: 'neither (the published windows)', options: {}, want: undefined },
    {
      given: 'rateLimit windows and rateLimiter',
      options: { rateLimit: [{ limit: 5, intervalMs: 1_000 }], rateLimiter: admitAll },
      want: /rateLimit and rateLimiter exclude each other/,
    },
    { given: 'rateLimit false and rateLimiter', options: { rateLimit: false, rateLimiter: admitAll }, want: /exclude each other/ },
    { given: 'a rateLimiter without acquire', options: { rateLimiter: {} }, want: /rateLimiter must have an acquire/ },
    { given: 'a window of limit 0', options: { rateLimit: [{ limit: 0, intervalMs: 1_000 }] }, want: /rateLimit\[0\]\.limit must be/ },
    { given: 'a fractional limit', options: { rateLimit: [{ limit: 1.5, intervalMs: 1_000 }] }, want: /rateLimit\[0\]\.limit must be/ },
    {
      given: 'an empty interval in the second window',
      options: {
        rateLimit: [
          { limit: 5, intervalMs: 1_000 },
          { limit: 5, intervalMs: 0 },
        ],
      },
      want: /rateLimit\[1\]\.intervalMs must be/,
    },
  ])('$given', ({ options, want }) => {
    const create = () => createCoreBankingClient({ ...common, ...(options as Partial<CoreBankingClientOptions>) });
    if (want === undefined) expect(create).not.toThrow();
    else {
      expect(create).toThrow(ConfigurationError);
      expect(create).toThrow(want);
    }
  });
});

/** A limiter that holds each acquire until the test releases it, and records the signals it was given. */
function heldLimiter() {
  const waiting: { release: () => void; signal: AbortSignal | undefined }[] = [];
  const limiter: RequestLimiter = {
    acquire: (signal) =>
      new Promise<void>((resolve, reject) => {
        waiting.push({ release: resolve, signal });
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      }),
  };
  return { limiter, waiting };
}

/** Waits (bounded) until `condition` holds. */
async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('a client with a rateLimiter of its own', () => {
  let server: LoopbackServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const balance = { accountId: '7', balance: 1, currency: 'BRL', lastUpdated: '2026-11-20T10:00:00Z' };
  const apiRequests = () => server!.requests.filter((request) => request.path !== '/auth/token');

  it('sends nothing until the limiter admits, and asks it again for a retry', async () => {
    let answered = 0;
    server = await startLoopbackServer((request, response) => {
      if (request.path === '/auth/token') return sendJson(response, 200, { access_token: 'tok', token_type: 'Bearer', expires_in: 3600 });
      answered += 1;
      if (answered === 1) return sendJson(response, 503, { title: 'Unavailable', status: 503 }, 'application/problem+json');
      sendJson(response, 200, balance);
    });
    const { limiter, waiting } = heldLimiter();
    const client = createCoreBankingClient({
      ...common,
      baseUrl: server.url,
      rateLimiter: limiter,
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
    });
    const call = client.accounts.balance({ path: { id: 7 } });
    await until(() => waiting.length === 1);
    expect(apiRequests()).toHaveLength(0);
    waiting[0]!.release();
    await until(() => waiting.length === 2);
    expect(apiRequests()).toHaveLength(1);
    waiting[1]!.release();
    await expect(call).resolves.toEqual(balance);
    expect(apiRequests()).toHaveLength(2);
    await client.close();
  });

  it("hands the caller's signal to the limiter: an abort while waiting ends the call, nothing sent", async () => {
    server = await startLoopbackServer((request, response) => {
      if (request.path === '/auth/token') return sendJson(response, 200, { access_token: 'tok', token_type: 'Bearer', expires_in: 3600 });
      sendJson(response, 200, balance);
    });
    const { limiter, waiting } = heldLimiter();
    const client = createCoreBankingClient({ ...common, baseUrl: server.url, rateLimiter: limiter });
    const controller = new AbortController();
    const call = client.accounts.balance({ path: { id: 7 } }, { signal: controller.signal });
    await until(() => waiting.length === 1);
    expect(waiting[0]!.signal).toBe(controller.signal);
    controller.abort(new Error('caller gave up'));
    await expect(call).rejects.toThrow('caller gave up');
    expect(apiRequests()).toHaveLength(0);
    await client.close();
  });
});

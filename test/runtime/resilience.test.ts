/**
 * The core banking client on a bad day, against loopback servers: expired tokens under load, timeouts,
 * aborts, long Retry-After, bodies that are not JSON or stop halfway, and the ids errors must carry.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  ConnectionError,
  createCoreBankingClient,
  HttpError,
  ProblemError,
  RateLimitError,
  ResponseValidationError,
  TimeoutError,
  type CoreBankingClientOptions,
  type LogEvent,
} from '../../src/core-banking/index.js';
import { sendJson, startLoopbackServer, type Handler, type LoopbackServer } from '../helpers/loopback.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const token = { access_token: 'tok', token_type: 'Bearer', expires_in: 3600 };
const balance = { accountId: '7', balance: 1, currency: 'BRL', lastUpdated: '2026-11-20T10:00:00Z' };

async function bank(handler: Handler, options: Partial<CoreBankingClientOptions> = {}) {
  server = await startLoopbackServer((request, response) => {
    if (request.path === '/auth/token') return sendJson(response, 200, token);
    handler(request, response);
  });
  const client = createCoreBankingClient({
    baseUrl: server.url,
    clientId: 'c',
    clientSecret: 's',
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    rateLimit: false,
    ...options,
  });
  return { client, server };
}

describe('core-banking client resilience', () => {
  it('100 concurrent calls on an expired token make exactly one token request', async () => {
    let tokens = 0;
    server = await startLoopbackServer((request, response) => {
      if (request.path === '/auth/token') {
        tokens += 1;
        return sendJson(response, 200, { ...token, access_token: `tok-${tokens}`, expires_in: 1 });
      }
      sendJson(response, 200, balance);
    });
    const client = createCoreBankingClient({
      baseUrl: server.url,
      clientId: 'c',
      clientSecret: 's',
      tokenSkewSeconds: 0,
      rateLimit: false,
    });
    await client.accounts.balance({ path: { id: 7 } });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await Promise.all(Array.from({ length: 100 }, () => client.accounts.balance({ path: { id: 7 } })));
    expect(tokens).toBe(2);
    expect(server.requests.filter((r) => r.path !== '/auth/token').at(-1)!.headers.authorization).toBe('Bearer tok-2');
  });

  it('a slow answer is a TimeoutError; a GET is retried and succeeds once the server is quick again', async () => {
    let calls = 0;
    const { client } = await bank(
      (_request, response) => {
        calls += 1;
        if (calls === 1) setTimeout(() => sendJson(response, 200, balance), 500);
        else sendJson(response, 200, balance);
      },
      { timeoutMs: 100 },
    );
    await expect(client.accounts.balance({ path: { id: 7 } })).resolves.toEqual(balance);
    expect(calls).toBe(2);
    const slow = await bank((_request, response) => setTimeout(() => sendJson(response, 200, balance), 500), {
      timeoutMs: 50,
      retry: { maxRetries: 0 },
    });
    const error = await slow.client.accounts.balance({ path: { id: 7 } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).attempts).toBe(1);
  });

  it("an AbortSignal cancels the call and its retries with the caller's reason", async () => {
    const { client, server: bankServer } = await bank(
      (_request, response) => sendJson(response, 503, { title: 'Unavailable', status: 503 }, 'application/problem+json'),
      {
        retry: { baseDelayMs: 200, maxDelayMs: 200, maxRetries: 5 },
      },
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user cancelled')), 50);
    await expect(client.accounts.balance({ path: { id: 7 } }, { signal: controller.signal })).rejects.toThrow('user cancelled');
    expect(bankServer.requests.filter((r) => r.path !== '/auth/token').length).toBeLessThanOrEqual(2);
  });

  it('honours Retry-After, and a Retry-After beyond the cap ends in a RateLimitError saying how long', async () => {
    let calls = 0;
    const { client } = await bank((_request, response) => {
      calls += 1;
      response.setHeader('retry-after', calls === 1 ? '1' : '3600');
      sendJson(
        response,
        429,
        { title: 'Too many requests', status: 429, correlationId: '11111111-2222-4333-8444-555555555555' },
        'application/problem+json',
      );
    });
    const started = Date.now();
    const error = await client.accounts.balance({ path: { id: 7 } }).catch((caught: unknown) => caught);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({
      status: 429,
      retryAfterSeconds: 3600,
      attempts: 2,
      correlationId: '11111111-2222-4333-8444-555555555555',
    });
  });

  it.each([
    {
      given: 'a plain-text error body',
      handler: ((_request, response) => response.writeHead(500, { 'content-type': 'text/html' }).end('<h1>oops</h1>')) as Handler,
      check: (error: unknown) => {
        expect(error).toBeInstanceOf(HttpError);
        expect(error).not.toBeInstanceOf(ProblemError);
        expect((error as HttpError).body).toBe('<h1>oops</h1>');
      },
    },
    {
      given: 'a problem body cut in the middle',
      handler: ((_request, response) => {
        response.writeHead(500, { 'content-type': 'application/problem+json', 'content-length': '200' });
        response.write('{"title":"Internal');
        setTimeout(() => response.socket?.destroy(), 10);
      }) as Handler,
      check: (error: unknown) => expect(error).toBeInstanceOf(ConnectionError),
    },
    {
      given: 'a success body that is not JSON',
      handler: ((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"balance": 1')) as Handler,
      check: (error: unknown) => {
        expect(error).toBeInstanceOf(ResponseValidationError);
        expect((error as ResponseValidationError).issues[0]).toMatchObject({ rule: 'json' });
      },
    },
    {
      given: 'a problem with violacoes, an error type and a correlation header',
      handler: ((_request, response) => {
        response.setHeader('x-request-id', 'req-42');
        sendJson(
          response,
          400,
          {
            type: 'https://pix.example.com/api/v2/error/CobOperacaoInvalida',
            title: 'Cobrança inválida',
            status: 400,
            violacoes: [{ razao: 'valor.original inválido', propriedade: 'valor.original' }],
          },
          'application/problem+json',
        );
      }) as Handler,
      check: (error: unknown) => {
        expect(error).toBeInstanceOf(ProblemError);
        expect(error).toMatchObject({
          errorType: 'CobOperacaoInvalida',
          correlationId: 'req-42',
          violacoes: [{ razao: 'valor.original inválido', propriedade: 'valor.original' }],
        });
      },
    },
  ])('$given -> a typed error', async ({ handler, check }) => {
    const { client } = await bank(handler, { retry: { maxRetries: 0 } });
    check(await client.accounts.balance({ path: { id: 7 } }).catch((caught: unknown) => caught));
  });

  it('a token request that meets a 503 is tried again, even for a call that may not be retried', async () => {
    let tokenCalls = 0;
    server = await startLoopbackServer((request, response) => {
      if (request.path === '/auth/token') {
        tokenCalls += 1;
        return tokenCalls === 1
          ? sendJson(response, 503, { title: 'Unavailable', status: 503 }, 'application/problem+json')
          : sendJson(response, 200, token);
      }
      sendJson(response, 201, { id: '0e3ec47e-2fc8-4c4c-bdee-0eb80eb91a50', name: 'x', percent: 1, minAmount: 0, maxAmount: 1, weight: 1 });
    });
    const client = createCoreBankingClient({
      baseUrl: server.url,
      clientId: 'c',
      clientSecret: 's',
      retry: { baseDelayMs: 1 },
      rateLimit: false,
    });
    await expect(client.feeRules.create({ body: { name: 'x', percent: 1, minAmount: 0, maxAmount: 1 } })).resolves.toMatchObject({
      weight: 1,
    });
    expect(tokenCalls).toBe(2);
  });

  it('response validation: warn logs a broken contract and returns; strict throws; both accept 9.3 additions', async () => {
    const broken = { ...balance, balance: 'lots' };
    const events: LogEvent[] = [];
    const warn = await bank((_request, response) => sendJson(response, 200, broken), {
      responseValidation: 'warn',
      logger: (event) => events.push(event),
    });
    await expect(warn.client.accounts.balance({ path: { id: 7 } })).resolves.toEqual(broken);
    expect(events.find((event) => event.event === 'response-contract')).toMatchObject({ level: 'warn', data: { status: 200 } });
    await warn.server.close();
    server = undefined;
    const strict = await bank((_request, response) => sendJson(response, 200, broken), { responseValidation: 'strict' });
    await expect(strict.client.accounts.balance({ path: { id: 7 } })).rejects.toBeInstanceOf(ResponseValidationError);
  });
});

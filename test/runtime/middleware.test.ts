/**
 * The client option `middleware` against a loopback server: the hooks see every attempt after the token is
 * added, may add headers, observe answers and failures without an answer; a malformed option is refused
 * with a ConfigurationError naming what is wrong.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationError, ConnectionError, createCoreBankingClient, type Middleware } from '../../src/core-banking/index.js';
import { sendJson, startLoopbackServer, type LoopbackServer, withTokenEndpoint } from '../helpers/loopback.js';

const balance = { accountId: '7', balance: 1, currency: 'BRL', lastUpdated: '2026-11-20T10:00:00Z' };

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const options = (baseUrl: string) => ({
  baseUrl,
  clientId: 'baas_partner',
  clientSecret: 's3cr3t-value',
  rateLimit: false as const,
  retry: { baseDelayMs: 1, maxDelayMs: 2 },
});

describe('middleware on every attempt', () => {
  it('adds a header to each attempt (retries and the resend after a token renewal) and sees each answer', async () => {
    let calls = 0;
    server = await startLoopbackServer(
      withTokenEndpoint((request, response) => {
        calls += 1;
        if (calls === 1) return sendJson(response, 503, { status: 503 });
        if (request.headers.authorization === 'Bearer tok-1') return sendJson(response, 401, { status: 401 });
        sendJson(response, 200, balance);
      }),
    );
    const seen: string[] = [];
    const audit: Middleware = {
      onRequest(request) {
        request.headers.set('x-audit-attempt', String(request.attempt));
        seen.push(`request ${request.attempt} ${request.method} ${new URL(request.url).pathname} ${request.headers.get('authorization')}`);
      },
      onResponse(response) {
        seen.push(`response ${response.attempt} ${response.status} ${response.durationMs >= 0}`);
      },
    };
    const client = createCoreBankingClient({ ...options(server.url), middleware: [audit] });
    await expect(client.accounts.balance({ path: { id: 7 } })).resolves.toEqual(balance);
    await client.close();
    expect(seen).toEqual([
      'request 1 GET /accounts/7/balance Bearer tok-1',
      'response 1 503 true',
      'request 2 GET /accounts/7/balance Bearer tok-1',
      'response 2 401 true',
      'request 3 GET /accounts/7/balance Bearer tok-2',
      'response 3 200 true',
    ]);
    const sent = server.requests.filter((request) => request.path !== '/auth/token').map((request) => request.headers['x-audit-attempt']);
    expect(sent).toEqual(['1', '2', '3']);
    // The token request is the client's own: no middleware runs on it.
    expect(server.requests.find((request) => request.path === '/auth/token')!.headers['x-audit-attempt']).toBeUndefined();
  });

  it('runs the hooks in the order given, each seeing the headers the one before left', async () => {
    server = await startLoopbackServer((request, response) => {
      if (request.path === '/auth/token') return sendJson(response, 200, { access_token: 'tok', token_type: 'Bearer', expires_in: 3600 });
      sendJson(response, 200, balance);
    });
    const first: Middleware = { onRequest: (request) => request.headers.set('x-trail', 'first') };
    const second: Middleware = { onRequest: (request) => request.headers.set('x-trail', `${request.headers.get('x-trail')},second`) };
    const client = createCoreBankingClient({ ...options(server.url), middleware: [first, second] });
    await client.accounts.balance({ path: { id: 7 } });
    await client.close();
    expect(server.requests.at(-1)!.headers['x-trail']).toBe('first,second');
  });

  it('is told of an attempt that got no answer, then of the retry that did', async () => {
    let calls = 0;
    server = await startLoopbackServer((request, response) => {
      if (request.path === '/auth/token') return sendJson(response, 200, { access_token: 'tok', token_type: 'Bearer', expires_in: 3600 });
      calls += 1;
      if (calls === 1) return void response.socket?.destroy();
      sendJson(response, 200, balance);
    });
    const failures: unknown[] = [];
    const statuses: number[] = [];
    const client = createCoreBankingClient({
      ...options(server.url),
      middleware: [
        { onError: (failure) => void failures.push(failure.error), onResponse: (response) => void statuses.push(response.status) },
      ],
    });
    await expect(client.accounts.balance({ path: { id: 7 } })).resolves.toEqual(balance);
    await client.close();
    expect(failures).toHaveLength(1);
    expect(failures[0]).toBeInstanceOf(ConnectionError);
    expect(statuses).toEqual([200]);
  });

  it('ends the call with the error a hook throws, and sends nothing after it', async () => {
    server = await startLoopbackServer((request, response) => {
      if (request.path === '/auth/token') return sendJson(response, 200, { access_token: 'tok', token_type: 'Bearer', expires_in: 3600 });
      sendJson(response, 200, balance);
    });
    const refusal = new Error('audit store down');
    const client = createCoreBankingClient({
      ...options(server.url),
      middleware: [
        {
          onRequest() {
            throw refusal;
          },
        },
      ],
    });
    await expect(client.accounts.balance({ path: { id: 7 } })).rejects.toBe(refusal);
    await client.close();
    expect(server.requests.filter((request) => request.path !== '/auth/token')).toEqual([]);
  });
});

describe('a malformed middleware option', () => {
  const cases: readonly { given: string; middleware: unknown; want: RegExp }[] = [
    { given: 'not an array', middleware: { onRequest() {} }, want: /^middleware must be an array/ },
    { given: 'an entry that is no object', middleware: ['log'], want: /^middleware\[0\] is not an object/ },
    { given: 'an entry without hooks', middleware: [{}], want: /^middleware\[0\] has no hook/ },
    {
      given: 'a misspelt hook',
      middleware: [{ onResponce() {} }],
      want: /^middleware\[0\]\.onResponce is not a hook: .*onRequest, onResponse, onError/,
    },
    {
      given: 'a hook that is no function',
      middleware: [{ onError() {} }, { onRequest: 'x' }],
      want: /^middleware\[1\]\.onRequest must be a function, got string/,
    },
  ];
  it.each(cases)('$given is refused', ({ middleware, want }) => {
    const create = () => createCoreBankingClient({ ...options('http://127.0.0.1:1'), middleware: middleware as never });
    expect(create).toThrow(ConfigurationError);
    expect(create).toThrow(want);
  });

  it('a well-formed one is taken', () => {
    expect(() => createCoreBankingClient({ ...options('http://127.0.0.1:1'), middleware: [{ onError() {} }] })).not.toThrow();
  });
});

describe('a malformed telemetry option', () => {
  const cases: readonly { given: string; telemetry: unknown }[] = [
    { given: 'a string', telemetry: 'on' },
    { given: 'an unknown member', telemetry: { propagate: true } },
    { given: 'a member that is no boolean', telemetry: { propagateTraceContext: 'yes' } },
  ];
  it.each(cases)('$given is refused', ({ telemetry }) => {
    const create = () => createCoreBankingClient({ ...options('http://127.0.0.1:1'), telemetry: telemetry as never });
    expect(create).toThrow(ConfigurationError);
    expect(create).toThrow(/^telemetry takes true \(the default\), false/);
  });

  it.each([true, false, { propagateTraceContext: true }])('%o is taken', (telemetry) => {
    expect(() => createCoreBankingClient({ ...options('http://127.0.0.1:1'), telemetry })).not.toThrow();
  });
});

/**
 * Errors that explain themselves (issue 19, part 3), each against a real loopback server, a closed port,
 * a server that never answers, or a TLS server with a certificate the client must refuse:
 * - a ConnectionError or TimeoutError names its root cause in one line: the code, host:port, the TLS reason;
 * - `attempts` is a number on every error a call produces (0 when it was refused before sending);
 * - a call that failed and was not tried again says why, in `notRetried` and in words;
 * - an error of no call prints no `undefined` member in any rendering or structured log;
 * and none of them shows the client secret.
 */
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import type { ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreBankingTokenRequest } from '../../src/core-banking/token.js';
import {
  AuthError,
  ConfigurationError,
  ConnectionError,
  type ContratoError,
  createCoreBankingClient,
  HttpError,
  type NotRetried,
  ProblemError,
  RateLimitError,
  TimeoutError,
} from '../../src/core-banking/index.js';
import { createMessagesClient } from '../../src/messages/index.js';
import { notRetriedWords, RequestValidationError, ValidationError } from '../../src/runtime/errors.js';
import { redact } from '../../src/runtime/logging.js';
import { requestToken } from '../../src/runtime/token-request.js';
import { checkBaseUrl, Transport } from '../../src/runtime/transport.js';
import { createTestPki, type TestPki } from '../helpers/certificates.js';
import { startMutualTlsServer } from '../helpers/https-server.js';
import { type RecordedRequest, sendJson, startLoopbackServer } from '../helpers/loopback.js';
import { freePort } from '../helpers/ports.js';

const clientSecret = 'cs_live_Explain7Qm2Xw9Lp4';
const token = { access_token: 'tok-Explain-Hq3Jv8Nc5Bd1', token_type: 'Bearer', expires_in: 3600 };
const invoice = { customerId: 1, pixKey: 'financeiro@padaria.com.br', dueDate: '2026-12-10', amount: 10, type: 'IMMEDIATE' } as const;
const feeRule = { name: 'Tarifa Pix recebido', percent: 0.99, minAmount: 0.5, maxAmount: 15 };

let pki: TestPki;
beforeAll(() => {
  pki = createTestPki();
});
afterAll(() => pki.dispose());

type Options = Partial<Parameters<typeof createCoreBankingClient>[0]>;
const clientOf = (baseUrl: string, options: Options = {}) =>
  createCoreBankingClient({
    baseUrl,
    clientId: 'partner',
    clientSecret,
    rateLimit: false,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    ...options,
  });

async function failureOf(run: () => Promise<unknown>): Promise<ContratoError> {
  return run().then(
    () => expect.unreachable('the call must fail'),
    (error: unknown) => error as ContratoError,
  );
}

/** A platform on loopback: the token endpoint answers a token, everything else goes to `answer`. */
async function platform(answer: (request: RecordedRequest, response: ServerResponse) => void) {
  const server = await startLoopbackServer((request, response) => {
    if (request.path === '/auth/token') sendJson(response, 200, token);
    else answer(request, response);
  });
  return { server, port: new URL(server.url).port, calls: () => server.requests.filter((r) => r.path !== '/auth/token').length };
}

/** Every way an error is shown or logged. */
const renderings = (error: unknown): Record<string, string> => ({
  String: String(error),
  'util.inspect': inspect(error, { depth: Infinity }),
  'JSON.stringify': JSON.stringify(error),
  'redact (the log redaction)': JSON.stringify(redact(error)),
  spread: inspect({ ...(error as object) }),
});

/** Renderings that show an `undefined` member or the client secret (there must be none). */
function flaws(error: unknown): string[] {
  return Object.entries(renderings(error)).flatMap(([name, text]) => [
    ...(/\bundefined\b/.test(text) ? [`undefined in ${name}`] : []),
    ...(text.includes(clientSecret) ? [`secret in ${name}`] : []),
  ]);
}

describe('a ConnectionError names its root cause in one line', () => {
  it('given the token request to a closed port (the reproduction), want ECONNREFUSED host:port, attempts and why it stopped', async () => {
    const port = await freePort();
    const client = clientOf(`http://127.0.0.1:${port}`);
    const error = await failureOf(() => client.accounts.balance({ path: { id: 7 } }));
    await client.close();
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toBe(
      `core-banking token request got no answer: ECONNREFUSED 127.0.0.1:${port} (connection refused: nothing listens there); ` +
        'accounts.balance was not sent; not retried: attempts exhausted (3 attempts made, retry.maxRetries 2)',
    );
    expect(error).toMatchObject({
      operationId: 'accounts.balance',
      attempts: 3,
      code: 'ECONNREFUSED',
      target: `127.0.0.1:${port}`,
      outcomeUnknown: false,
      notRetried: { reason: 'attempts-exhausted', maxRetries: 2 },
    });
    expect(flaws(error)).toEqual([]);
  });

  it('given the token request alone to a closed port, want the root cause and one attempt', async () => {
    const port = await freePort();
    const transport = new Transport();
    const error = await failureOf(() =>
      requestToken(transport.send, coreBankingTokenRequest(`http://127.0.0.1:${port}`, { clientId: 'partner', clientSecret })),
    );
    await transport.close();
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toBe(
      `core-banking token request got no answer: ECONNREFUSED 127.0.0.1:${port} (connection refused: nothing listens there)`,
    );
    expect(error).toMatchObject({ operationId: 'token', attempts: 1, code: 'ECONNREFUSED' });
    expect(flaws(error)).toEqual([]);
  });

  it('given a call to a port that closed after the token was issued, want ECONNREFUSED on the call itself', async () => {
    const { server, port } = await platform((_request, response) => sendJson(response, 200, { accountId: '7', balance: 1 }));
    const client = clientOf(server.url, { retry: { maxRetries: 1, baseDelayMs: 1 } });
    await client.accounts.balance({ path: { id: 7 } });
    await server.close();
    const error = await failureOf(() => client.accounts.balance({ path: { id: 7 } }));
    await client.close();
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toBe(
      `accounts.balance: the connection failed before a complete answer: ECONNREFUSED 127.0.0.1:${port} (connection refused: nothing listens there); ` +
        'not retried: attempts exhausted (2 attempts made, retry.maxRetries 1)',
    );
    expect(error).toMatchObject({ attempts: 2, code: 'ECONNREFUSED', target: `127.0.0.1:${port}` });
  });

  it('given a server that resets the connection after reading a POST without a key, want ECONNRESET and why it was not repeated', async () => {
    const { server, port, calls } = await platform((_request, response) => response.socket?.destroy());
    const client = clientOf(server.url);
    const error = await failureOf(() => client.feeRules.create({ body: feeRule }));
    await client.close();
    await server.close();
    expect(calls()).toBe(1);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message.split('\n')).toHaveLength(1);
    expect(error.message).toMatch(
      new RegExp(
        `^feeRules\\.create: the connection failed before a complete answer: (ECONNRESET|UND_ERR_SOCKET) 127\\.0\\.0\\.1:${port} \\(`,
      ),
    );
    // The advice of an unknown outcome already says why a call without a key was not repeated: said once.
    expect(error.message).toMatch(/it was not retried because it carries no idempotency key; check its effect before calling it again$/);
    expect(error).toMatchObject({
      attempts: 1,
      outcomeUnknown: true,
      notRetried: { reason: 'non-idempotent-without-key', method: 'post' },
    });
  });

  it('given a TLS server that hangs up during the handshake, want ECONNRESET and that it was the handshake', async () => {
    const tcp: TcpServer = createTcpServer((socket) => socket.once('data', () => socket.destroy()));
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    const port = (tcp.address() as { port: number }).port;
    const client = clientOf(`https://127.0.0.1:${port}`, { retry: { maxRetries: 0 } });
    const error = await failureOf(() => client.accounts.balance({ path: { id: 7 } }));
    await client.close();
    await new Promise<void>((resolve) => tcp.close(() => resolve()));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toBe(
      `core-banking token request got no answer: ECONNRESET 127.0.0.1:${port} (the connection was reset by the other side, during the TLS handshake); ` +
        'accounts.balance was not sent; not retried: attempts exhausted (1 attempt made, retry.maxRetries 0)',
    );
    expect(flaws(error)).toEqual([]);
  });
});

describe('a TLS refusal names the host, the port and the reason', () => {
  it.each([
    {
      given: 'a server certificate of a CA the client was not given',
      tls: () => ({ ...pki.client }),
      host: '127.0.0.1',
      reason: 'server-untrusted',
      words:
        /^TLS handshake with 127\.0\.0\.1:\d+ failed: the server's certificate is not trusted \(pass the issuing CA in tls\.ca\) \((UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|SELF_SIGNED_CERT_IN_CHAIN)\); /,
    },
    {
      given: 'a server certificate that does not name the host',
      tls: () => ({ ...pki.client, ca: pki.ca }),
      host: 'localhost',
      reason: 'server-untrusted',
      words:
        /^TLS handshake with localhost:\d+ failed: the server's certificate does not name this host \(ERR_TLS_CERT_ALTNAME_INVALID\); /,
    },
  ])('given $given, want an AuthError saying so, with attempts and why it was not retried', async ({ tls, host, reason, words }) => {
    const server = await startMutualTlsServer(pki, (_request, response) => response.end('{}'));
    const port = new URL(server.url).port;
    const client = clientOf(`https://${host}:${port}`, { tls: tls() });
    const error = await failureOf(() => client.invoices.create({ path: { accountId: 1 }, body: invoice }, { idempotencyKey: 'K19tls' }));
    await client.close();
    await server.close();
    expect(error).toBeInstanceOf(AuthError);
    expect(error.message).toMatch(words);
    expect(error.message).toMatch(
      /; invoices\.create was not sent; not retried: trying again cannot mend this failure \(1 attempt made\)$/,
    );
    expect(error).toMatchObject({ reason, attempts: 1, idempotencyKey: 'K19tls', notRetried: { reason: 'not-retryable-failure' } });
    expect(flaws(error)).toEqual([]);
  });
});

describe('a TimeoutError says from where no answer came', () => {
  it('given a server that never answers a POST without a key, want host:port, the limit, one attempt and why', async () => {
    const { server, port, calls } = await platform(() => undefined);
    const client = clientOf(server.url, { timeoutMs: 100 });
    const error = await failureOf(() => client.feeRules.create({ body: feeRule }));
    await client.close();
    await server.close();
    expect(calls()).toBe(1);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toBe(
      `feeRules.create: no answer within 100 ms from 127.0.0.1:${port}; the outcome is unknown: the operation may have been executed, ` +
        'and it was not retried because it carries no idempotency key; check its effect before calling it again',
    );
    expect(error).toMatchObject({
      attempts: 1,
      target: `127.0.0.1:${port}`,
      timeoutMs: 100,
      notRetried: { reason: 'non-idempotent-without-key', method: 'post' },
    });
    expect(flaws(error)).toEqual([]);
  });

  it('given a server that never answers a GET, want every attempt made and counted', async () => {
    const { server, port, calls } = await platform(() => undefined);
    const client = clientOf(server.url, { timeoutMs: 60, retry: { maxRetries: 1, baseDelayMs: 1 } });
    const error = await failureOf(() => client.accounts.balance({ path: { id: 7 } }));
    await client.close();
    await server.close();
    expect(calls()).toBe(2);
    expect(error.message).toBe(
      `accounts.balance: no answer within 60 ms from 127.0.0.1:${port}; not retried: attempts exhausted (2 attempts made, retry.maxRetries 1)`,
    );
    expect(error).toMatchObject({ attempts: 2, notRetried: { reason: 'attempts-exhausted', maxRetries: 1 } });
  });

  it('given a server that sends its headers and stalls the body, want that the answer began', async () => {
    const { server, port } = await platform((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"accountId":');
    });
    const client = clientOf(server.url, { timeoutMs: 100, retry: { maxRetries: 0 } });
    const error = await failureOf(() => client.accounts.balance({ path: { id: 7 } }));
    await client.close();
    await server.close();
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toBe(
      `accounts.balance: the answer from 127.0.0.1:${port} began (status 200) but its body did not complete within 100 ms; ` +
        'not retried: attempts exhausted (1 attempt made, retry.maxRetries 0)',
    );
  });
});

describe('a call that was not retried says why', () => {
  const problem = (status: number) => ({ title: 'Unavailable', status });
  const answering =
    (status: number, headers: Record<string, string> = {}) =>
    (_request: RecordedRequest, response: ServerResponse) => {
      for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
      sendJson(response, status, problem(status), 'application/problem+json');
    };

  interface Case {
    readonly given: string;
    readonly answer: (request: RecordedRequest, response: ServerResponse) => void;
    readonly options?: Options;
    readonly call: (client: ReturnType<typeof clientOf>) => Promise<unknown>;
    readonly want: {
      readonly class: abstract new (...args: never[]) => HttpError;
      readonly calls: number;
      readonly notRetried: NotRetried;
      readonly words: string;
    };
  }
  const balance = (client: ReturnType<typeof clientOf>) => client.accounts.balance({ path: { id: 7 } });
  const cases: Case[] = [
    {
      // The reproduction: 60 s fit the cap (60 s), but after them the deadline (60 s from the first attempt) has come.
      given: 'a 503 asking Retry-After: 60 under the default policy',
      answer: answering(503, { 'retry-after': '60' }),
      call: balance,
      want: {
        class: ProblemError,
        calls: 1,
        notRetried: { reason: 'deadline', waitSeconds: 60, retryAfter: true, deadlineSeconds: 60 },
        words:
          "not retried: after a wait of 60 s (Retry-After) no time would be left for another attempt within the call's deadline of 60 s (retry.deadlineMs) (1 attempt made)",
      },
    },
    {
      given: 'a 503 asking Retry-After: 60 beyond a cap of 30 s',
      answer: answering(503, { 'retry-after': '60' }),
      options: { retry: { maxRetryAfterMs: 30_000 } },
      call: balance,
      want: {
        class: ProblemError,
        calls: 1,
        notRetried: { reason: 'retry-after-beyond-cap', retryAfterSeconds: 60, capSeconds: 30 },
        words:
          'not retried: the server asked to wait 60 s (Retry-After), longer than the 30 s the client waits at most (retry.maxRetryAfterMs) (1 attempt made)',
      },
    },
    {
      given: 'a 429 asking Retry-After: 120',
      answer: answering(429, { 'retry-after': '120' }),
      call: balance,
      want: {
        class: RateLimitError,
        calls: 1,
        notRetried: { reason: 'retry-after-beyond-cap', retryAfterSeconds: 120, capSeconds: 60 },
        words:
          'not retried: the server asked to wait 120 s (Retry-After), longer than the 60 s the client waits at most (retry.maxRetryAfterMs) (1 attempt made)',
      },
    },
    {
      given: '503 on every attempt',
      answer: answering(503),
      options: { retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2 } },
      call: balance,
      want: {
        class: ProblemError,
        calls: 3,
        notRetried: { reason: 'attempts-exhausted', maxRetries: 2 },
        words: 'not retried: attempts exhausted (3 attempts made, retry.maxRetries 2)',
      },
    },
    {
      given: 'a 503 to a POST without an idempotency key',
      answer: answering(503),
      call: (client) => client.feeRules.create({ body: feeRule }),
      want: {
        class: ProblemError,
        calls: 1,
        notRetried: { reason: 'non-idempotent-without-key', method: 'post' },
        words: 'not retried: a POST without an idempotency key could be executed twice (1 attempt made)',
      },
    },
    {
      given: 'a 404',
      answer: answering(404),
      call: balance,
      want: {
        class: ProblemError,
        calls: 1,
        notRetried: { reason: 'not-retryable-status', status: 404 },
        words: 'not retried: status 404 is final, only 429, 500, 502, 503 and 504 are retried (1 attempt made)',
      },
    },
  ];

  it.each(cases)('given $given, want notRetried $want.notRetried.reason and the words', async ({ answer, options, call, want }) => {
    const { server, calls } = await platform(answer);
    const client = clientOf(server.url, options);
    const error = await failureOf(() => call(client));
    await client.close();
    await server.close();
    expect(error).toBeInstanceOf(want.class);
    expect(calls()).toBe(want.calls);
    expect(error.attempts).toBe(want.calls);
    expect(error.notRetried).toEqual(want.notRetried);
    expect(error.message.endsWith(`; ${want.words}`)).toBe(true);
    expect(notRetriedWords(want.notRetried, want.calls)).toBe(want.words);
    expect(flaws(error)).toEqual([]);
  });
});

describe('attempts is a number on every error a call produces', () => {
  it('given a request refused before sending, want attempts 0 and no retry in question', async () => {
    const client = clientOf('http://127.0.0.1:9');
    const error = await failureOf(() => client.feeRules.create({ body: { ...feeRule, percent: 'lots' } as never }));
    await client.close();
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.attempts).toBe(0);
    expect(error).not.toHaveProperty('notRetried');
    expect(flaws(error)).toEqual([]);
  });
});

describe('an error of no call prints no undefined member', () => {
  const cases: { given: string; error: () => unknown }[] = [
    // The reproduction: logging a ConfigurationError printed `operationId: undefined, idempotencyKey: undefined, …`.
    { given: 'a ConfigurationError of a base URL', error: () => captured(() => checkBaseUrl('http://bank.example.com')) },
    {
      given: 'a ConfigurationError of a client option',
      error: () =>
        captured(() => createCoreBankingClient({ baseUrl: 'https://bank.example.com', clientId: 'a', clientSecret, retyr: {} } as never)),
    },
    {
      given: 'a ConfigurationError of a client without its certificate',
      error: () =>
        captured(() =>
          createMessagesClient({ baseUrl: 'https://cloud.example.com', login: { clientId: 'a', clientSecret }, tls: { ca: 'x' } }),
        ),
    },
    {
      given: 'an AuthError of an unreadable PFX',
      error: () => captured(() => new Transport({ pfx: Buffer.from('not a pfx'), passphrase: clientSecret })),
    },
    {
      given: 'a ValidationError made by hand',
      error: () => new ValidationError('payload', [{ pointer: '/a', rule: 'type', message: 'must be a number' }]),
    },
    { given: 'a ConnectionError made by hand', error: () => new ConnectionError('no answer') },
    { given: 'an HttpError without a body', error: () => new HttpError(502, undefined, {}) },
    { given: 'a ProblemError with a title only', error: () => new ProblemError(400, { title: 'Bad request' }, {}) },
    { given: 'a RateLimitError without Retry-After', error: () => new RateLimitError({}, undefined, {}) },
  ];

  function captured(run: () => unknown): unknown {
    try {
      run();
    } catch (error) {
      return error;
    }
    return expect.unreachable('must throw');
  }

  it.each(cases)('given $given, want attempts 0 and no undefined in any rendering', ({ error }) => {
    const value = error() as ContratoError;
    expect(value.attempts).toBe(0);
    expect(flaws(value)).toEqual([]);
    // The structured log keeps the name and the words.
    expect(JSON.parse(JSON.stringify(value))).toMatchObject({
      name: value.name,
      message: value.message,
      attempts: 0,
      outcomeUnknown: false,
    });
  });

  it('given the ConfigurationError of the reproduction, want it rendered without a call', () => {
    const value = captured(() => checkBaseUrl('http://bank.example.com')) as ConfigurationError;
    expect(value).toBeInstanceOf(ConfigurationError);
    expect(String(value)).toBe(
      'ConfigurationError: baseUrl http://bank.example.com uses plain http; only https is allowed outside loopback',
    );
    expect(Object.keys(value).sort()).toEqual(['attempts', 'name', 'outcomeUnknown']);
  });
});

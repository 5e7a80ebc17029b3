/** Token flows of every interface against loopback servers, and how refusals are told apart. */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { accountsTokenRequest, lifetimeFromExpiresAt } from '../../src/accounts/token.js';
import { coreBankingTokenRequest } from '../../src/core-banking/token.js';
import { messagesLoginRequest } from '../../src/messages/token.js';
import { pixTokenRequest } from '../../src/pix/token.js';
import { refusalOf, requestToken, type TokenRequest } from '../../src/runtime/token-request.js';
import type { OutgoingRequest, Send } from '../../src/runtime/transport.js';
import { AuthError, ConnectionError, ContratoError, HttpError } from '../../src/runtime/errors.js';
import { Transport } from '../../src/runtime/transport.js';
import { sendJson, startLoopbackServer, type Handler, type RecordedRequest } from '../helpers/loopback.js';

async function withServer<T>(
  handler: Handler,
  run: (url: string, requests: { headers: Record<string, unknown>; body: string; path: string }[]) => Promise<T>,
): Promise<T> {
  const server = await startLoopbackServer(handler);
  try {
    return await run(server.url, server.requests as never);
  } finally {
    await server.close();
  }
}

const credentials = { clientId: 'client-1', clientSecret: 'secret:with/odd&chars' };

/** Each interface's token request, sent through a transport's `send`. */
const flowOf =
  <A extends unknown[]>(request: (...args: A) => TokenRequest) =>
  (...args: A) =>
  (send: Send) =>
    requestToken(send, request(...args));
const coreBankingTokenFlow = flowOf(coreBankingTokenRequest);
const accountsTokenFlow = flowOf(accountsTokenRequest);
const pixTokenFlow = flowOf(pixTokenRequest);
const messagesLoginFlow = flowOf(messagesLoginRequest);

/** A send over the platform's global fetch, as a caller's own transport would be. */
const sendWithFetch: Send = async (request: OutgoingRequest) => {
  const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
  return { status: response.status, headers: response.headers, body: await response.text() };
};
const transport = new Transport();

describe('token flows', () => {
  it('core-banking: JSON snake_case to /auth/token', async () => {
    await withServer(
      (_request, response) => sendJson(response, 200, { access_token: 'core-token', token_type: 'Bearer', expires_in: 3600 }),
      async (url, requests) => {
        await expect(coreBankingTokenFlow(url, credentials)(transport.send)).resolves.toEqual({
          accessToken: 'core-token',
          expiresIn: 3600,
        });
        expect(requests[0]!.path).toBe('/auth/token');
        expect(JSON.parse(requests[0]!.body)).toEqual({
          client_id: 'client-1',
          client_secret: 'secret:with/odd&chars',
          grant_type: 'client_credentials',
        });
      },
    );
  });

  it('accounts: JSON camelCase with scope; expiresAt read as an instant or a lifetime', async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 1800;
    await withServer(
      (_request, response) =>
        sendJson(response, 200, {
          accessToken: 'acc-token',
          tokenType: 'Bearer',
          expiresAt,
          refreshExpiresIn: 0,
          notBeforePolicy: 0,
          scope: 'pix.read',
        }),
      async (url, requests) => {
        const token = await accountsTokenFlow(url, { ...credentials, scope: 'pix.read', tokenPath: '/api/v2/auth/token' })(transport.send);
        expect(token.accessToken).toBe('acc-token');
        expect(token.expiresIn).toBeGreaterThan(1790);
        expect(token.expiresIn).toBeLessThanOrEqual(1800);
        expect(requests[0]!.path).toBe('/api/v2/auth/token');
        expect(JSON.parse(requests[0]!.body)).toEqual({
          clientId: 'client-1',
          clientSecret: 'secret:with/odd&chars',
          grantType: 'client_credentials',
          scope: 'pix.read',
        });
      },
    );
    expect(lifetimeFromExpiresAt(3600)).toBe(3600);
    expect(lifetimeFromExpiresAt(2_000_000_000_000, 1_999_999_000_000)).toBe(1000);
  });

  it('pix: OAuth 2.0 client credentials with HTTP Basic client authentication and a form body', async () => {
    await withServer(
      (_request, response) =>
        sendJson(response, 200, { access_token: 'pix-token', token_type: 'Bearer', expires_in: 3600, scope: 'cob.read cob.write' }),
      async (url, requests) => {
        await expect(pixTokenFlow(url, { ...credentials, scope: 'cob.read cob.write' })(transport.send)).resolves.toEqual({
          accessToken: 'pix-token',
          expiresIn: 3600,
        });
        const request = requests[0]!;
        expect(request.path).toBe('/oauth/token');
        const [user, password] = Buffer.from(String(request.headers.authorization).replace(/^Basic /, ''), 'base64')
          .toString()
          .split(':');
        expect([decodeURIComponent(user!), decodeURIComponent(password!)]).toEqual(['client-1', 'secret:with/odd&chars']);
        expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
        expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({
          grant_type: 'client_credentials',
          scope: 'cob.read cob.write',
        });
      },
    );
  });

  it('messages: the svc-token comes back in a header or in the body', async () => {
    await withServer(
      (_request, response) => response.writeHead(200, { 'svc-token': 'svc-from-header', 'content-type': 'application/json' }).end('{}'),
      async (url) =>
        expect(messagesLoginFlow(url, credentials)(transport.send)).resolves.toEqual({ accessToken: 'svc-from-header', expiresIn: 3600 }),
    );
    await withServer(
      (_request, response) => sendJson(response, 200, { 'svc-token': 'svc-from-body' }),
      async (url) =>
        expect(messagesLoginFlow(url, { ...credentials, tokenLifetimeSeconds: 600 })(transport.send)).resolves.toEqual({
          accessToken: 'svc-from-body',
          expiresIn: 600,
        }),
    );
  });

  it.each([
    { status: 401, body: { title: 'Unauthorized', detail: 'invalid client credentials' }, want: 'invalid-credentials' },
    { status: 401, body: { title: 'Unauthorized', detail: 'credential is inactive' }, want: 'inactive-credential' },
    { status: 401, body: 'credencial inativa', want: 'inactive-credential' },
    { status: 401, body: { detail: 'invalid client certificate' }, want: 'certificate-refused' },
    { status: 403, body: { detail: 'ip 10.0.0.1 not allowed' }, want: 'ip-not-allowed' },
  ])('a $status saying $body is $want', async ({ status, body, want }) => {
    expect(refusalOf(status, body).reason).toBe(want);
    await withServer(
      (_request, response) => sendJson(response, status, body, 'application/problem+json'),
      async (url) => {
        const error = await coreBankingTokenFlow(url, credentials)(transport.send).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(AuthError);
        expect((error as AuthError).reason).toBe(want);
        expect(String((error as Error).message)).not.toContain('secret:with');
      },
    );
  });

  it('a server error on the token request is an HttpError the caller may retry, not a refusal', async () => {
    await withServer(
      (_request, response) => sendJson(response, 503, { title: 'Unavailable', status: 503 }, 'application/problem+json'),
      async (url) => {
        const error = await pixTokenFlow(url, credentials)(transport.send).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(HttpError);
        expect(error).not.toBeInstanceOf(AuthError);
      },
    );
  });
});

/**
 * Some gateways answer a refused token request by echoing it: headers and body, as JSON or as text. The
 * client secret (and pix's Basic credentials) must not survive in what the error keeps, in any rendering.
 */
describe('token request errors never hold the credentials', () => {
  // Characters that JSON, util.inspect, URI and form encodings each write differently, around a core of
  // letters and digits that every encoding (escaped once or twice) leaves as it is.
  const secretCore = 'Zq9Kp2Lm7Wv4Tn8R';
  const secret = `sec"ret:with/odd&chars \\ back+plus é-${secretCore}`;
  const clientId = 'client-echo';
  const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64');
  const echoed = { clientId, clientSecret: secret };

  /** What betrays the secret in any rendering: its core, and the runs of the Basic value that no encoding touches. */
  const betrayals = [secretCore, ...basic.split(/[+/=]/).filter((run) => run.length >= 12)];

  function renderings(error: unknown): string {
    return [
      String(error),
      (error as Error).message,
      (error as Error).stack ?? '',
      JSON.stringify(error),
      inspect(error, { depth: Infinity }),
    ].join('\n');
  }

  const flows = [
    { flow: 'accounts', issue: (url: string) => accountsTokenFlow(url, { ...echoed, scope: 'pix.read' }) },
    { flow: 'core-banking', issue: (url: string) => coreBankingTokenFlow(url, echoed) },
    { flow: 'pix', issue: (url: string) => pixTokenFlow(url, echoed) },
    { flow: 'messages', issue: (url: string) => messagesLoginFlow(url, echoed) },
  ];

  /** How a gateway may echo the request it refuses. */
  const echoes: Record<string, (request: RecordedRequest, status: number) => { contentType: string; body: string }> = {
    'problem+json': (request, status) => ({
      contentType: 'application/problem+json',
      body: JSON.stringify({
        title: 'Refused',
        status,
        detail: `refused ${request.method} ${request.path} with authorization ${String(request.headers.authorization ?? '')} and body ${request.body}`,
        request: { headers: request.headers, body: request.body, parsed: parsed(request.body) },
        // Decoded Basic credentials, as some gateways print them, under a harmless name.
        caller: decodedBasic(request.headers.authorization),
      }),
    }),
    json: (request) => ({
      contentType: 'application/json',
      body: JSON.stringify({
        echo: { headers: Object.entries(request.headers), body: request.body },
        caller: decodedBasic(request.headers.authorization),
      }),
    }),
    text: (request) => ({
      contentType: 'text/plain; charset=utf-8',
      body: `${request.method} ${request.path}\n${Object.entries(request.headers)
        .map(([name, value]) => `${name}: ${String(value)}`)
        .join('\n')}\n\n${request.body}\n${decodedBasic(request.headers.authorization)}`,
    }),
  };
  const fetchers = [
    { fetcher: 'Transport', fetch: transport.send },
    { fetcher: 'plain fetch', fetch: sendWithFetch },
  ];

  const cases = flows.flatMap((flow) =>
    [400, 401, 403, 500, 503].flatMap((status) =>
      Object.keys(echoes).flatMap((echo) => fetchers.map((fetcher) => ({ ...flow, status, echo, ...fetcher }))),
    ),
  );

  it.each(cases)('$flow answering $status with a $echo echo ($fetcher)', async ({ issue, status, echo, fetch: send }) => {
    await withServer(
      (request, response) => {
        const { contentType, body } = echoes[echo]!(request as RecordedRequest, status);
        response.writeHead(status, { 'content-type': contentType }).end(body);
      },
      async (url, requests) => {
        const error = await issue(url)(send).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(ContratoError);
        // The echo did carry the secret: the test would prove nothing otherwise.
        expect(`${requests[0]!.body} ${String(requests[0]!.headers.authorization)}`).toMatch(/sec|Basic/);
        const rendered = renderings(error);
        for (const betrayal of betrayals) expect(rendered).not.toContain(betrayal);
        if (status === 401 || status === 403) expect(error).toBeInstanceOf(AuthError);
        else expect((error as HttpError).status).toBe(status);
      },
    );
  });

  it.each(flows)('$flow: a fetch failure that carries the request keeps neither it nor its body in the cause', async ({ issue }) => {
    // Instrumented fetches (and some polyfills) attach the request, and quote its body, in what they throw.
    const failing: Send = async (request) => {
      const body = String(request.body);
      throw Object.assign(new Error(`upstream refused ${request.url} ${String(request.headers.authorization)} ${body}`), {
        request,
        body,
        code: 'ECONNRESET',
      });
    };
    const error = await issue('http://127.0.0.1:9')(failing).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    const rendered = renderings(error);
    for (const betrayal of betrayals) expect(rendered).not.toContain(betrayal);
    expect(rendered).not.toContain('headers:');
    // What explains the failure stays: the code of the cause.
    expect((error as Error & { cause?: { code?: string } }).cause?.code).toBe('ECONNRESET');
  });

  it.each(flows)('$flow: a refused connection is a ConnectionError whose cause says why, without the request', async ({ issue }) => {
    const server = await startLoopbackServer(() => undefined);
    const closedUrl = server.url;
    await server.close();
    const error = await issue(closedUrl)(transport.send).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    const rendered = renderings(error);
    for (const betrayal of betrayals) expect(rendered).not.toContain(betrayal);
    expect(rendered).toContain('ECONNREFUSED');
  });
});

function parsed(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return Object.fromEntries(new URLSearchParams(body));
  }
}

function decodedBasic(authorization: unknown): string {
  const value = typeof authorization === 'string' ? authorization.replace(/^Basic /, '') : '';
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  return `${decoded} (${decodeURIComponent(decoded)})`;
}

/** Token flows of every interface against loopback servers, and how refusals are told apart. */
import { describe, expect, it } from 'vitest';
import { accountsTokenFlow, coreBankingTokenFlow, lifetimeFromExpiresAt, messagesLoginFlow, pixTokenFlow, refusalOf } from '../../src/runtime/auth-flows.js';
import { AuthError, HttpError } from '../../src/runtime/errors.js';
import { Transport } from '../../src/runtime/transport.js';
import { sendJson, startLoopbackServer, type Handler } from '../helpers/loopback.js';

async function withServer<T>(handler: Handler, run: (url: string, requests: { headers: Record<string, unknown>; body: string; path: string }[]) => Promise<T>): Promise<T> {
  const server = await startLoopbackServer(handler);
  try {
    return await run(server.url, server.requests as never);
  } finally {
    await server.close();
  }
}

const credentials = { clientId: 'client-1', clientSecret: 'secret:with/odd&chars' };
const transport = new Transport();

describe('token flows', () => {
  it('core-banking: JSON snake_case to /auth/token', async () => {
    await withServer(
      (_request, response) => sendJson(response, 200, { access_token: 'core-token', token_type: 'Bearer', expires_in: 3600 }),
      async (url, requests) => {
        await expect(coreBankingTokenFlow(url, credentials)(transport.fetch)).resolves.toEqual({ accessToken: 'core-token', expiresIn: 3600 });
        expect(requests[0]!.path).toBe('/auth/token');
        expect(JSON.parse(requests[0]!.body)).toEqual({ client_id: 'client-1', client_secret: 'secret:with/odd&chars', grant_type: 'client_credentials' });
      },
    );
  });

  it('accounts: JSON camelCase with scope; expiresAt read as an instant or a lifetime', async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 1800;
    await withServer(
      (_request, response) => sendJson(response, 200, { accessToken: 'acc-token', tokenType: 'Bearer', expiresAt, refreshExpiresIn: 0, notBeforePolicy: 0, scope: 'pix.read' }),
      async (url, requests) => {
        const token = await accountsTokenFlow(url, { ...credentials, scope: 'pix.read', tokenPath: '/api/v2/auth/token' })(transport.fetch);
        expect(token.accessToken).toBe('acc-token');
        expect(token.expiresIn).toBeGreaterThan(1790);
        expect(token.expiresIn).toBeLessThanOrEqual(1800);
        expect(requests[0]!.path).toBe('/api/v2/auth/token');
        expect(JSON.parse(requests[0]!.body)).toEqual({ clientId: 'client-1', clientSecret: 'secret:with/odd&chars', grantType: 'client_credentials', scope: 'pix.read' });
      },
    );
    expect(lifetimeFromExpiresAt(3600)).toBe(3600);
    expect(lifetimeFromExpiresAt(2_000_000_000_000, 1_999_999_000_000)).toBe(1000);
  });

  it('pix: OAuth 2.0 client credentials with HTTP Basic client authentication and a form body', async () => {
    await withServer(
      (_request, response) => sendJson(response, 200, { access_token: 'pix-token', token_type: 'Bearer', expires_in: 3600, scope: 'cob.read cob.write' }),
      async (url, requests) => {
        await expect(pixTokenFlow(url, { ...credentials, scope: 'cob.read cob.write' })(transport.fetch)).resolves.toEqual({ accessToken: 'pix-token', expiresIn: 3600 });
        const request = requests[0]!;
        expect(request.path).toBe('/oauth/token');
        const [user, password] = Buffer.from(String(request.headers.authorization).replace(/^Basic /, ''), 'base64').toString().split(':');
        expect([decodeURIComponent(user!), decodeURIComponent(password!)]).toEqual(['client-1', 'secret:with/odd&chars']);
        expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
        expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({ grant_type: 'client_credentials', scope: 'cob.read cob.write' });
      },
    );
  });

  it('messages: the svc-token comes back in a header or in the body', async () => {
    await withServer(
      (_request, response) => response.writeHead(200, { 'svc-token': 'svc-from-header', 'content-type': 'application/json' }).end('{}'),
      async (url) => expect(messagesLoginFlow(url, credentials)(transport.fetch)).resolves.toEqual({ accessToken: 'svc-from-header', expiresIn: 3600 }),
    );
    await withServer(
      (_request, response) => sendJson(response, 200, { 'svc-token': 'svc-from-body' }),
      async (url) => expect(messagesLoginFlow(url, { ...credentials, tokenLifetimeSeconds: 600 })(transport.fetch)).resolves.toEqual({ accessToken: 'svc-from-body', expiresIn: 600 }),
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
        const error = await coreBankingTokenFlow(url, credentials)(transport.fetch).catch((caught: unknown) => caught);
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
        const error = await pixTokenFlow(url, credentials)(transport.fetch).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(HttpError);
        expect(error).not.toBeInstanceOf(AuthError);
      },
    );
  });
});

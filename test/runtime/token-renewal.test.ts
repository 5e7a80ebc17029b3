/** The token flow of the core banking client against a loopback server: caching, expiry, renewal, refusal. */
import { afterEach, describe, expect, it } from 'vitest';
import { AuthError, createCoreBankingClient, ProblemError } from '../../src/core-banking/index.js';
import { sendJson, startLoopbackServer, type LoopbackServer, type RecordedRequest } from '../helpers/loopback.js';

const accountId = 1234;
const balance = { accountId: String(accountId), balance: 1520.75, currency: 'BRL', lastUpdated: '2026-11-20T14:03:00Z' };
const problem = (status: number, title: string) => ({
  type: `https://banking.example.com/errors/${title.toLowerCase().replace(/\s+/g, '-')}`,
  title,
  status,
  detail: `${title} (test server)`,
  instance: '/accounts/1234/balance',
  correlationId: '0f8d6c0e-3b7a-4c55-9a0f-6d1f2a9b7c31',
});

interface TokenServerOptions {
  readonly expiresIn?: number;
  /** Answer the token request with this body instead of a valid token. */
  readonly tokenBody?: unknown;
  /** Tokens the API answers 401 to, as if revoked. */
  readonly revoked?: Set<string>;
  readonly tokenStatus?: number;
}

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function startBank(options: TokenServerOptions = {}): Promise<LoopbackServer> {
  let issued = 0;
  server = await startLoopbackServer((request, response) => {
    if (request.method === 'POST' && request.path === '/auth/token') {
      if (options.tokenStatus)
        return sendJson(response, options.tokenStatus, problem(options.tokenStatus, 'Token refused'), 'application/problem+json');
      issued += 1;
      if (options.tokenBody) return sendJson(response, 200, options.tokenBody);
      return sendJson(response, 200, { access_token: `token-${issued}`, token_type: 'Bearer', expires_in: options.expiresIn ?? 3600 });
    }
    if (request.method === 'GET' && request.path === `/accounts/${accountId}/balance`) {
      const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
      if (!token || options.revoked?.has(token)) return sendJson(response, 401, problem(401, 'Unauthorized'), 'application/problem+json');
      return sendJson(response, 200, balance);
    }
    sendJson(response, 404, problem(404, 'Not found'), 'application/problem+json');
  });
  return server;
}

const tokenRequests = (bank: LoopbackServer): RecordedRequest[] => bank.requests.filter((r) => r.path === '/auth/token');
const client = (bank: LoopbackServer, extra: { tokenSkewSeconds?: number } = {}) =>
  createCoreBankingClient({ baseUrl: bank.url, clientId: 'baas_partner', clientSecret: 's3cr3t-value', ...extra });

describe('core-banking token flow', () => {
  it('requests a token with the snake_case client-credentials body and sends it as a Bearer header', async () => {
    const bank = await startBank();
    await expect(client(bank).accounts.balance({ path: { id: accountId } })).resolves.toEqual(balance);
    const [tokenRequest] = tokenRequests(bank);
    expect(JSON.parse(tokenRequest!.body)).toEqual({
      client_id: 'baas_partner',
      client_secret: 's3cr3t-value',
      grant_type: 'client_credentials',
    });
    expect(bank.requests.at(-1)!.headers.authorization).toBe('Bearer token-1');
  });

  it('reuses a cached token until it nears expiry', async () => {
    const bank = await startBank();
    const core = client(bank);
    for (let call = 0; call < 3; call += 1) await core.accounts.balance({ path: { id: accountId } });
    expect(tokenRequests(bank)).toHaveLength(1);
  });

  it('makes one token request for many concurrent calls', async () => {
    const bank = await startBank();
    const core = client(bank);
    await Promise.all(Array.from({ length: 25 }, () => core.accounts.balance({ path: { id: accountId } })));
    expect(tokenRequests(bank)).toHaveLength(1);
  });

  it('renews the token once it has expired', async () => {
    const bank = await startBank({ expiresIn: 1 });
    const core = client(bank, { tokenSkewSeconds: 0 });
    await core.accounts.balance({ path: { id: accountId } });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await core.accounts.balance({ path: { id: accountId } });
    expect(tokenRequests(bank)).toHaveLength(2);
    expect(bank.requests.at(-1)!.headers.authorization).toBe('Bearer token-2');
  });

  it('renews before expiry by the configured skew', async () => {
    const bank = await startBank({ expiresIn: 3600 });
    const core = client(bank, { tokenSkewSeconds: 3600 });
    await core.accounts.balance({ path: { id: accountId } });
    await core.accounts.balance({ path: { id: accountId } });
    // A skew as long as the lifetime is capped at half of it, so the token is still reused.
    expect(tokenRequests(bank)).toHaveLength(1);
  });

  it('on 401 renews the token once and retries once', async () => {
    const bank = await startBank({ revoked: new Set(['token-1']) });
    await expect(client(bank).accounts.balance({ path: { id: accountId } })).resolves.toEqual(balance);
    expect(tokenRequests(bank)).toHaveLength(2);
  });

  it('gives up with a ProblemError when the renewed token is refused too', async () => {
    const bank = await startBank({ revoked: new Set(['token-1', 'token-2']) });
    const failure = client(bank).accounts.balance({ path: { id: accountId } });
    await expect(failure).rejects.toBeInstanceOf(ProblemError);
    await expect(failure).rejects.toMatchObject({ status: 401, correlationId: '0f8d6c0e-3b7a-4c55-9a0f-6d1f2a9b7c31' });
    expect(tokenRequests(bank)).toHaveLength(2);
  });

  it.each([
    { status: 401, want: /invalid credentials: wrong client id or secret/ },
    { status: 403, want: /source IP is not allowed/ },
  ])('a refused token request ($status) is an AuthError that never shows the secret', async ({ status, want }) => {
    const bank = await startBank({ tokenStatus: status });
    const error = await client(bank)
      .accounts.balance({ path: { id: accountId } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).status).toBe(status);
    expect((error as AuthError).message).toMatch(want);
    expect(JSON.stringify(error) + String(error) + (error as Error).stack).not.toContain('s3cr3t-value');
  });

  it('a token response without access_token is an AuthError, and the token is never sent', async () => {
    const bank = await startBank({ tokenBody: { token_type: 'Bearer', expires_in: 3600, accessToken: 'camelCase-by-mistake' } });
    const error = await client(bank)
      .accounts.balance({ path: { id: accountId } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).message).toMatch(/token response has no usable token/);
    expect((error as AuthError).reason).toBe('token-response-invalid');
    expect(bank.requests.filter((r) => r.path !== '/auth/token')).toEqual([]);
  });
});

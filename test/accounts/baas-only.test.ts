/**
 * R-A-credential-baas-only (section 4.3): the accounts client refuses credential issuing to an account
 * credential before anything is sent — no token request, no call — and lets a BaaS credential through.
 * Against a loopback server that records every request.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { operationTable } from '../../generated/accounts/operations.js';
import { baasOnlyStep, credentialIssuingScopes, issuesCredentials } from '../../src/accounts/baas-only.js';
import { ConfigurationError, createAccountsClient } from '../../src/accounts/index.js';
import { sendJson, startLoopbackServer, type LoopbackServer } from '../helpers/loopback.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const token = { tokenType: 'Bearer', accessToken: 'tok-baas', expiresAt: 3600, refreshExpiresIn: 0, notBeforePolicy: 0, scope: '' };
const issued = { clientId: '4b8e2d6f-1a3c-4e5b-9d7f-0c2e4a6b8d1f', clientSecret: 'one-time-secret', id: 3107, allowedIps: [] };
const body = { accountId: 48213, scopes: ['pix.read' as const] };

async function clientWith(clientId: string) {
  server = await startLoopbackServer((request, response) =>
    request.path === '/auth/token' ? sendJson(response, 200, token) : sendJson(response, 201, issued),
  );
  return createAccountsClient({ baseUrl: server.url, clientId, clientSecret: 'secret', retry: { maxRetries: 0 } });
}

describe('R-A-credential-baas-only: credential issuing takes a BaaS credential (section 4.3)', () => {
  it('R-A-credential-baas-only: an account credential is refused with a ConfigurationError and the server receives nothing', async () => {
    const client = await clientWith('a7c1e0f2-padaria');
    const error = await client.credentials.create({ body }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as ConfigurationError).operationId).toBe('credentials.create');
    expect((error as ConfigurationError).message).toMatch(
      /^credentials\.create issues API credentials, which only a BaaS credential \(client id baas_…\) may do \(R-A-credential-baas-only, section 4\.3\); .*client created with the BaaS partner's credential$/,
    );
    expect((error as ConfigurationError).message).not.toContain('\n');
    expect(server!.requests).toEqual([]);
  });

  it('R-A-credential-baas-only: a BaaS credential (baas_…) sends the call', async () => {
    const client = await clientWith('baas_padaria');
    const created = await client.credentials.create({ body });
    expect(created.id).toBe(3107);
    expect(server!.requests.map((request) => [request.method, request.path])).toEqual([
      ['POST', '/auth/token'],
      ['POST', '/credentials'],
    ]);
    expect(JSON.parse(server!.requests[1]!.body)).toEqual(body);
  });

  it('R-A-credential-baas-only: an account credential still makes the other calls', async () => {
    const client = await clientWith('a7c1e0f2-padaria');
    server!.requests.length = 0;
    await client.childAccounts.list().catch(() => undefined);
    expect(server!.requests.map((request) => request.path.split('?')[0])).toEqual(['/auth/token', '/accounts']);
  });

  it('R-A-credential-baas-only: the operations that issue credentials come from the operation table by scope', () => {
    const issuing = Object.values(operationTable)
      .filter((info) => issuesCredentials(info.scopes))
      .map((info) => info.operationId);
    expect(issuing).toEqual(['credentials.create']);
    expect(credentialIssuingScopes).toEqual(['baas.credentials.write']);
  });

  it.each([
    { given: 'account credential, credential issuing', clientId: 'a7c1e0f2', scopes: ['baas.credentials.write'], want: 'refused' },
    { given: 'BaaS credential, credential issuing', clientId: 'baas_x', scopes: ['baas.credentials.write'], want: 'passed' },
    { given: 'account credential, another operation', clientId: 'a7c1e0f2', scopes: ['pix.read'], want: 'passed' },
    { given: 'a client id with baas_ inside, not as prefix', clientId: 'x_baas_1', scopes: ['baas.credentials.write'], want: 'refused' },
  ])('R-A-credential-baas-only: the step alone, $given → $want', async ({ clientId, scopes, want }) => {
    const step = baasOnlyStep(clientId);
    let reached = false;
    const call = { info: { ...operationTable['credentials.create'], scopes } } as unknown as Parameters<typeof step.run>[0];
    const outcome = Promise.resolve()
      .then(() =>
        step.run(call, async () => {
          reached = true;
          return { kind: 'answer', answer: { status: 201, headers: new Headers(), body: {} } };
        }),
      )
      .then(
        () => 'passed',
        (error: unknown) => (error instanceof ConfigurationError ? 'refused' : 'other'),
      );
    expect(await outcome).toBe(want);
    expect(reached).toBe(want === 'passed');
  });
});

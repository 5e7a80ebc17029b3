/**
 * Mutual TLS (section 5) against a real HTTPS server on 127.0.0.1 that demands client certificates
 * (openssl-made PKI): PEM and PFX work and carry the token request and the call; rotation switches the
 * certificate without a new client; every wrong certificate ends as an AuthError whose `reason` says which.
 */
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthError, createCoreBankingClient } from '../../src/core-banking/index.js';
import type { TlsOptions } from '../../src/runtime/transport.js';
import { createTestPki, type TestPki } from '../helpers/certificates.js';
import { startMutualTlsServer, type HttpsTestServer } from '../helpers/https-server.js';

let pki: TestPki;
let server: HttpsTestServer;
let baseUrl: string;
const seen: { path: string; clientCn: string }[] = [];

beforeAll(async () => {
  pki = createTestPki();
  server = await startMutualTlsServer(pki, (request, response) => {
    const peer = (request.socket as TLSSocket).getPeerCertificate();
    seen.push({ path: request.url ?? '', clientCn: String(peer.subject?.CN ?? '') });
    response.setHeader('content-type', 'application/json');
    if (request.url === '/auth/token') {
      response.end(JSON.stringify({ access_token: 'mtls-token', token_type: 'Bearer', expires_in: 3600 }));
    } else {
      response.end(JSON.stringify({ accountId: '77', balance: 10.5, currency: 'BRL', lastUpdated: '2026-11-20T10:00:00Z' }));
    }
  });
  baseUrl = server.url;
});

afterAll(async () => {
  await server.close();
  pki.dispose();
});

const clientWith = (tls: TlsOptions) =>
  createCoreBankingClient({ baseUrl, clientId: 'partner', clientSecret: 'mtls-secret', tls, retry: { maxRetries: 0 } });
const balance = (client: ReturnType<typeof clientWith>) => client.accounts.balance({ path: { id: 77 } });

async function authFailureOf(run: () => Promise<unknown>): Promise<AuthError> {
  const error = await Promise.resolve()
    .then(run)
    .then(
      () => expect.unreachable('the call must fail'),
      (caught: unknown) => caught,
    );
  expect(error).toBeInstanceOf(AuthError);
  expect((error as Error).message).not.toContain('mtls-secret');
  expect((error as Error).message).not.toContain(pki.pfxPassphrase);
  return error as AuthError;
}

describe('core-banking over mutual TLS', () => {
  it('a PEM certificate carries the token request and the call', async () => {
    seen.length = 0;
    await expect(balance(clientWith({ ...pki.client, ca: pki.ca }))).resolves.toMatchObject({ balance: 10.5 });
    expect(seen).toEqual([
      { path: '/auth/token', clientCn: 'partner-client' },
      { path: '/accounts/77/balance', clientCn: 'partner-client' },
    ]);
  });

  it('a PFX bundle with its passphrase works the same', async () => {
    seen.length = 0;
    await expect(balance(clientWith({ pfx: pki.clientPfx, passphrase: pki.pfxPassphrase, ca: pki.ca }))).resolves.toMatchObject({
      balance: 10.5,
    });
    expect(seen.map((entry) => entry.clientCn)).toEqual(['partner-client', 'partner-client']);
  });

  it('rotateCertificate presents the new certificate on the next calls, and refuses an expired one', async () => {
    const client = clientWith({ ...pki.client, ca: pki.ca });
    seen.length = 0;
    await balance(client);
    client.rotateCertificate({ ...pki.otherClient, ca: pki.ca });
    await balance(client);
    expect(seen.at(-1)).toEqual({ path: '/accounts/77/balance', clientCn: 'other-client' });
    expect(() => client.rotateCertificate({ ...pki.expiredClient, ca: pki.ca })).toThrow(AuthError);
    await balance(client);
    expect(seen.at(-1)?.clientCn).toBe('other-client');
    await client.close();
  });

  it.each([
    {
      given: 'no client certificate',
      tls: () => ({ ca: pki.ca }),
      reason: 'certificate-refused',
      want: /requires a client certificate|no client certificate was configured/,
    },
    {
      given: 'a certificate from a CA the server does not trust',
      tls: () => ({ ...pki.rogueClient, ca: pki.ca }),
      reason: 'certificate-refused',
      want: /rejected the client certificate|refuses the client certificate/,
    },
    {
      given: 'an expired certificate',
      tls: () => ({ ...pki.expiredClient, ca: pki.ca }),
      reason: 'certificate-expired',
      want: /expired on 2020-01-02/,
    },
    {
      given: 'a key that does not match the certificate',
      tls: () => ({ cert: pki.client.cert, key: pki.otherClient.key, ca: pki.ca }),
      reason: 'key-mismatch',
      want: /do not match/,
    },
    {
      given: 'a PFX with the wrong passphrase',
      tls: () => ({ pfx: pki.clientPfx, passphrase: 'wrong', ca: pki.ca }),
      reason: 'pfx-unreadable',
      want: /wrong passphrase/,
    },
    {
      given: 'a server the client does not trust',
      tls: () => ({ ...pki.client }),
      reason: 'server-untrusted',
      want: /server's certificate is not trusted/,
    },
  ] as const)('$given -> AuthError $reason', async ({ tls, reason, want }) => {
    seen.length = 0;
    const error = await authFailureOf(() => balance(clientWith(tls())));
    expect(error.reason).toBe(reason);
    expect(error.message).toMatch(want);
    expect(seen).toEqual([]);
  });
});

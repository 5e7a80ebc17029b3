/**
 * Mutual TLS (section 5) against a real HTTPS server on 127.0.0.1 that demands client certificates:
 * the same certificate carries the token request and the call; a missing, untrusted or mismatched
 * certificate, or an untrusted server, ends in an AuthError that says which.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthError, createCoreBankingClient } from '../../src/core-banking/index.js';
import type { TlsOptions } from '../../src/runtime/transport.js';
import { createTestPki, type TestPki } from '../helpers/certificates.js';

let pki: TestPki;
let server: Server;
let baseUrl: string;
const seen: { path: string; clientCn: string }[] = [];

beforeAll(async () => {
  pki = createTestPki();
  server = createServer({ ...pki.server, ca: pki.ca, requestCert: true, rejectUnauthorized: true }, (request, response) => {
    const peer = (request.socket as TLSSocket).getPeerCertificate();
    seen.push({ path: request.url ?? '', clientCn: String(peer.subject?.CN ?? '') });
    response.setHeader('content-type', 'application/json');
    if (request.url === '/auth/token') {
      response.end(JSON.stringify({ access_token: 'mtls-token', token_type: 'Bearer', expires_in: 3600 }));
    } else {
      response.end(JSON.stringify({ accountId: '77', balance: 10.5, currency: 'BRL', lastUpdated: '2026-11-20T10:00:00Z' }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  pki.dispose();
});

const balanceWith = (tls: TlsOptions | undefined) =>
  createCoreBankingClient({ baseUrl, clientId: 'partner', clientSecret: 'mtls-secret', ...(tls ? { tls } : {}) }).accounts.balance({ path: { id: 77 } });

describe('core-banking over mutual TLS', () => {
  it('presents the same client certificate on the token request and on the call', async () => {
    seen.length = 0;
    await expect(balanceWith({ ...pki.client, ca: pki.ca })).resolves.toMatchObject({ balance: 10.5 });
    expect(seen).toEqual([
      { path: '/auth/token', clientCn: 'partner-client' },
      { path: '/accounts/77/balance', clientCn: 'partner-client' },
    ]);
  });

  it.each([
    { given: 'no client certificate', tls: () => ({ ca: pki.ca }) as unknown as TlsOptions, want: /requires a client certificate|no client certificate was configured/ },
    { given: 'a certificate from an untrusted CA', tls: () => ({ ...pki.rogueClient, ca: pki.ca }), want: /rejected the client certificate|refused the client certificate/ },
    { given: 'a key that does not match the certificate', tls: () => ({ cert: pki.client.cert, key: pki.otherKey, ca: pki.ca }), want: /do not match/ },
    { given: 'a server the client does not trust', tls: () => ({ ...pki.client }), want: /server's certificate is not trusted/ },
  ])('$given -> AuthError', async ({ tls, want }) => {
    seen.length = 0;
    const error = await balanceWith(tls()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).message).toMatch(want);
    expect((error as AuthError).message).not.toContain('mtls-secret');
    expect(seen).toEqual([]);
  });
});

/**
 * Secret leaks: every flow runs with the most verbose logging, over mutual TLS with a passphrase-protected
 * PFX, through token issue, success, validation failure, problem answers, retries and refusals. Neither the
 * client secret, the access token, the PFX passphrase nor an unmasked CPF appears in any log line or error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCoreBankingClient, type LogEvent } from '../../src/core-banking/index.js';
import { createTestPki, type TestPki } from '../helpers/certificates.js';
import { startMutualTlsServer, type HttpsTestServer } from '../helpers/https-server.js';

const clientSecret = 'cs_live_9f8e7d6c5b4a39281706f5e4';
const accessToken = 'eyJhbGciOiJIUzI1NiJ9.very-secret-token.sig';
const cpf = '52998224725';

let pki: TestPki;
let server: HttpsTestServer;
let baseUrl: string;
let tokenRefused = false;

beforeAll(async () => {
  pki = createTestPki();
  server = await startMutualTlsServer(pki, (request, response) => {
    response.setHeader('content-type', 'application/json');
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = request.url ?? '';
      if (url === '/auth/token') {
        if (tokenRefused)
          return response.writeHead(401).end(JSON.stringify({ title: 'Unauthorized', detail: `invalid secret ${clientSecret}` }));
        return response.end(JSON.stringify({ access_token: accessToken, token_type: 'Bearer', expires_in: 3600 }));
      }
      if (url.startsWith('/accounts/1/invoices') && request.method === 'POST') {
        response.writeHead(503, { 'content-type': 'application/problem+json', 'retry-after': '0' });
        return response.end(JSON.stringify({ title: 'Unavailable', status: 503, detail: `customer ${cpf} could not be billed` }));
      }
      response.end(JSON.stringify({ id: '7', number: cpf, type: 'CHECKING', status: 'ACTIVE', person: { document: cpf } }));
    });
  });
  baseUrl = server.url;
});

afterAll(async () => {
  await server.close();
  pki.dispose();
});

describe('no secret leaves the client', () => {
  it('in any log line or error of any flow', async () => {
    const lines: string[] = [];
    const logger = (event: LogEvent): void => {
      lines.push(JSON.stringify(event));
    };
    const options = {
      baseUrl,
      clientId: 'baas_partner',
      clientSecret,
      tls: { pfx: pki.clientPfx, passphrase: pki.pfxPassphrase, ca: pki.ca },
      logger,
      retry: { baseDelayMs: 1 },
      rateLimit: false,
    } as const;
    const client = createCoreBankingClient(options);
    const errors: unknown[] = [];
    const attempt = (run: () => Promise<unknown>) => run().catch((error: unknown) => errors.push(error));

    await attempt(() => client.accounts.get({ path: { id: 7 } }));
    await attempt(() =>
      client.invoices.create({
        path: { accountId: 1 },
        body: { customerId: 1, pixKey: cpf, dueDate: '2026-12-10', amount: 10, type: 'IMMEDIATE' },
      }),
    );
    await attempt(() => client.auth.token({ body: { client_id: 'x', client_secret: clientSecret, grant_type: 'password' as never } }));
    await attempt(() =>
      client.feeRules.create({ body: { name: '', percent: 1, minAmount: 0, maxAmount: 1, note: clientSecret } as never }),
    );
    tokenRefused = true;
    await attempt(() => createCoreBankingClient(options).accounts.get({ path: { id: 7 } }));
    await attempt(async () =>
      createCoreBankingClient({ ...options, tls: { pfx: pki.clientPfx, passphrase: `${pki.pfxPassphrase}-wrong`, ca: pki.ca } }),
    );

    expect(lines.length).toBeGreaterThan(5);
    expect(errors.length).toBe(5);
    const everything = [
      ...lines,
      ...errors.map(
        (error) =>
          `${String(error)} ${(error as Error).stack ?? ''} ${JSON.stringify(error)} ${JSON.stringify((error as { issues?: unknown }).issues ?? null)}`,
      ),
    ].join('\n');
    for (const secret of [clientSecret, accessToken, pki.pfxPassphrase]) expect(everything).not.toContain(secret);
    expect(lines.join('\n')).not.toContain(cpf);
    expect(lines.join('\n')).toContain('***.982.247-**');
  });
});

/**
 * The accounts client against a loopback server: x-account-id by conventions 1 and 2, the key challenge
 * flow within its expiry, the crypto-risk 202 → ingest → 201 flow, checked image uploads, offset pages,
 * statement periods checked before sending, and overridable provisional routes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  ChallengeExpiredError,
  ConfigurationError,
  createAccountsClient,
  ProblemError,
  RequestValidationError,
  TimeoutError,
  type AccountsClientOptions,
} from '../../src/accounts/index.js';
import { todayInSaoPaulo } from '../../src/rules/cross-field.js';
import { sendJson, startLoopbackServer, type Handler, type LoopbackServer } from '../helpers/loopback.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const token = {
  tokenType: 'Bearer',
  accessToken: 'tok-accounts',
  expiresAt: 3600,
  refreshExpiresIn: 0,
  notBeforePolicy: 0,
  scope: 'pix.read',
};
const keyRecord = {
  key: 'financeiro@padaria.com.br',
  keyType: 'EMAIL',
  branch: '0001',
  accountNumber: '48213',
  accountType: 'CACC',
  name: 'Padaria Boa Vista',
  taxIdNumber: '11222333000181',
  creationDate: '2025-04-10T12:00:00Z',
};
const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]);

async function platform(handler: Handler, options: Partial<AccountsClientOptions> = {}) {
  server = await startLoopbackServer((request, response) => {
    if (request.path === '/auth/token') return sendJson(response, 200, token);
    handler(request, response);
  });
  const client = createAccountsClient({
    baseUrl: server.url,
    clientId: 'baas_padaria',
    clientSecret: 'secret',
    retry: { maxRetries: 0 },
    ...options,
  });
  const calls = () => server!.requests.filter((r) => r.path !== '/auth/token');
  return { client, calls };
}

describe('x-account-id (conventions 1 and 2 of section 1)', () => {
  const ok: Handler = (request, response) =>
    sendJson(
      response,
      200,
      request.path.startsWith('/accounts/keys') ? { data: [] } : { meta: { total: 0, limit: 20, offset: 0 }, data: [] },
    );

  it('a BaaS credential sends its child account on account-operational endpoints only', async () => {
    const { client, calls } = await platform(ok, { accountId: 48213 });
    await client.keys.list();
    await client.childAccounts.list();
    expect(calls().map((r) => [r.path.split('?')[0], r.headers['x-account-id']])).toEqual([
      ['/accounts/keys', '48213'],
      ['/accounts', undefined],
    ]);
  });

  it('a call may name another child account, and forAccount binds one', async () => {
    const { client, calls } = await platform(ok, { accountId: 48213 });
    await client.keys.list({ header: { 'x-account-id': 50001 } });
    await client.forAccount(50002).keys.list();
    expect(calls().map((r) => r.headers['x-account-id'])).toEqual(['50001', '50002']);
  });

  it('a BaaS credential without an account fails before sending on an account-operational endpoint', async () => {
    const { client, calls } = await platform(ok);
    await expect(client.keys.list()).rejects.toThrow(ConfigurationError);
    await expect(client.keys.list()).rejects.toThrow(/keys\.list operates an account: a BaaS credential must name the child account/);
    await client.childAccounts.list();
    expect(calls().map((r) => r.path.split('?')[0])).toEqual(['/accounts']);
  });

  it('an account credential never sends x-account-id, and may not ask to', async () => {
    const { client, calls } = await platform(ok, { clientId: 'a7c1e0f2-padaria' });
    await client.keys.list();
    expect(calls()[0]!.headers['x-account-id']).toBeUndefined();
    await expect(client.keys.list({ header: { 'x-account-id': 1 } })).rejects.toThrow(/only BaaS credentials/);
    expect(() => createAccountsClient({ baseUrl: server!.url, clientId: 'a7c1e0f2-padaria', clientSecret: 's', accountId: 1 })).toThrow(
      ConfigurationError,
    );
  });

  it('a BaaS-scope endpoint refuses an x-account-id', async () => {
    const { client, calls } = await platform(ok, { accountId: 48213 });
    await expect(client.childAccounts.list({ header: { 'x-account-id': 1 } } as never)).rejects.toThrow(
      /BaaS-scope operation: it takes no x-account-id/,
    );
    expect(calls()).toEqual([]);
  });
});

describe('keys.createWithChallenge (section 4.1 rules 2 to 6)', () => {
  it('challenges, asks for the code, and creates the same key with the hash and the code', async () => {
    const hash = '6f0b8f5e-3a55-4d55-9d41-1f3f3f0b9a11';
    const { client, calls } = await platform(
      (request, response) =>
        request.path === '/accounts/keys/challenge'
          ? sendJson(response, 200, { validationHash: hash, expiresIn: 300 })
          : sendJson(response, 200, keyRecord),
      { accountId: 48213 },
    );
    const asked: unknown[] = [];
    const created = await client.keys.createWithChallenge({
      keyType: 'EMAIL',
      key: 'financeiro@padaria.com.br',
      getCode: async (challenge) => {
        asked.push({ key: challenge.key, expiresInMs: challenge.expiresAt.getTime() - Date.now() });
        return '482913';
      },
    });
    expect(created).toEqual(keyRecord);
    expect(calls().map((r) => [r.path, JSON.parse(r.body)])).toEqual([
      ['/accounts/keys/challenge', { keyType: 'EMAIL', key: 'financeiro@padaria.com.br' }],
      ['/accounts/keys', { keyType: 'EMAIL', key: 'financeiro@padaria.com.br', validationHash: hash, validationCode: '482913' }],
    ]);
    expect((asked[0] as { expiresInMs: number }).expiresInMs).toBeGreaterThan(290_000);
  });

  it('does not send the creation when the code came after the 300 s', async () => {
    let clock = Date.parse('2025-04-10T12:00:00Z');
    const { client, calls } = await platform(
      (_request, response) => sendJson(response, 200, { validationHash: '6f0b8f5e-3a55-4d55-9d41-1f3f3f0b9a11', expiresIn: 300 }),
      { accountId: 48213 },
    );
    const outcome = client.keys.createWithChallenge({
      keyType: 'PHONE',
      key: '+5511987654321',
      now: () => clock,
      getCode: async () => {
        clock += 301_000;
        return '1234';
      },
    });
    await expect(outcome).rejects.toThrow(ChallengeExpiredError);
    expect(calls().map((r) => r.path)).toEqual(['/accounts/keys/challenge']);
  });

  it('stops waiting for the code when the challenge expires', async () => {
    const { client, calls } = await platform(
      (_request, response) => sendJson(response, 200, { validationHash: '6f0b8f5e-3a55-4d55-9d41-1f3f3f0b9a11', expiresIn: 1 }),
      { accountId: 48213 },
    );
    let aborted = false;
    const outcome = client.keys.createWithChallenge({
      keyType: 'EMAIL',
      key: 'financeiro@padaria.com.br',
      getCode: ({ signal }) =>
        new Promise<string>((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(signal.reason);
          });
        }),
    });
    await expect(outcome).rejects.toThrow(/challenge for this key expired after 1 s/);
    expect(aborted).toBe(true);
    expect(calls()).toHaveLength(1);
  });

  it('refuses a challenge for a key type without OTP, before sending', async () => {
    const { client, calls } = await platform((_request, response) => sendJson(response, 500, {}), { accountId: 48213 });
    await expect(
      client.keys.createWithChallenge({ keyType: 'CPF' as 'EMAIL', key: '79803432559', getCode: async () => '1' }),
    ).rejects.toThrow(RequestValidationError);
    expect(calls()).toEqual([]);
  });
});

describe('cryptoRisk.analyze (section 4.7)', () => {
  const snapshot = {
    data: {
      id: '9001',
      network: 'ETHEREUM',
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      riskScore: 12,
      confidence: 'HIGH',
      historyCovered: true,
      events: [],
    },
  };

  it('on 202 follows the ingest until IDLE with persisted not null, then POSTs again for the 201', async () => {
    const ingest = [
      { status: 'RUNNING', persisted: null },
      { status: 'IDLE', persisted: null },
      { status: 'IDLE', persisted: 0 },
    ];
    let posts = 0;
    const { client, calls } = await platform(
      (request, response) => {
        if (request.method === 'POST') return (posts += 1) === 1 ? sendJson(response, 202, {}) : sendJson(response, 201, snapshot);
        sendJson(response, 200, { data: ingest.shift() });
      },
      { accountId: 48213 },
    );
    const progress: unknown[] = [];
    const result = await client.cryptoRisk.analyze({
      network: 'ETHEREUM',
      address: snapshot.data.address,
      pollIntervalMs: 1,
      onProgress: (p) => progress.push(p),
    });
    expect(result).toEqual(snapshot);
    expect(calls().map((r) => `${r.method} ${r.path.split('?')[0]}`)).toEqual([
      'POST /crypto-risk/analyses',
      'GET /crypto-risk/ingest',
      'GET /crypto-risk/ingest',
      'GET /crypto-risk/ingest',
      'POST /crypto-risk/analyses',
    ]);
    expect(progress).toEqual([
      { status: 'RUNNING', persisted: null },
      { status: 'IDLE', persisted: null },
      { status: 'IDLE', persisted: 0 },
    ]);
  });

  it('returns the 201 at once when the history is already ingested', async () => {
    const { client, calls } = await platform((_request, response) => sendJson(response, 201, snapshot), { accountId: 48213 });
    expect(await client.cryptoRisk.analyze({ network: 'TRON', address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7' })).toEqual(snapshot);
    expect(calls()).toHaveLength(1);
  });

  it('surfaces the 409 of another wallet being ingested', async () => {
    const problem = {
      type: 'https://api.example.com/errors/conflict',
      title: 'Conflict',
      status: 409,
      detail: 'An ingest of another wallet is running.',
    };
    const { client } = await platform((_request, response) => sendJson(response, 409, problem, 'application/problem+json'), {
      accountId: 48213,
    });
    const error = await client.cryptoRisk
      .analyze({ network: 'ETHEREUM', address: snapshot.data.address })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProblemError);
    expect((error as ProblemError).status).toBe(409);
  });

  it('gives up at the deadline', async () => {
    let clock = 0;
    const { client } = await platform(
      (request, response) =>
        request.method === 'POST' ? sendJson(response, 202, {}) : sendJson(response, 200, { data: { status: 'RUNNING', persisted: null } }),
      { accountId: 48213 },
    );
    const outcome = client.cryptoRisk.analyze({
      network: 'ETHEREUM',
      address: snapshot.data.address,
      deadlineMs: 10_000,
      pollIntervalMs: 2_000,
      now: () => clock,
      sleep: async (ms) => void (clock += ms),
    });
    await expect(outcome).rejects.toThrow(TimeoutError);
  });

  it('refuses BITCOIN before any call (422 upstream)', async () => {
    const { client, calls } = await platform((_request, response) => sendJson(response, 500, {}), { accountId: 48213 });
    await expect(
      client.cryptoRisk.analyze({ network: 'BITCOIN' as 'ETHEREUM', address: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh' }),
    ).rejects.toThrow(/\/body\/network/);
    expect(calls()).toEqual([]);
  });
});

describe('onboarding.uploadImage (sections 2.4 and 4.3)', () => {
  const uploaded = { image: { type: 'FRONT', url: 'https://files.example.com/onboarding/front.png' } };

  it('sends a PNG as a multipart part typed by its bytes', async () => {
    const { client, calls } = await platform((_request, response) => sendJson(response, 200, uploaded));
    await client.onboarding.uploadImage({ path: { id: '3f1c0a52-8d0e-4b7a-9a44-2b1f5e0c7d31' }, body: { type: 'FRONT', file: png } });
    const [request] = calls();
    expect(request!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(request!.body).toMatch(/name="type"\r\n\r\nFRONT/);
    expect(request!.body).toMatch(/name="file"; filename="front.png"\r\nContent-Type: image\/png/);
  });

  it.each([
    ['a GIF', Uint8Array.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61]), /must be a JPG or PNG image/],
    ['an empty file', new Uint8Array(0), /is empty/],
    [
      'a JPEG one byte over 10 MB',
      (() => {
        const big = new Uint8Array(10 * 1024 * 1024 + 1);
        big.set(jpeg);
        return big;
      })(),
      /must be at most 10 MB/,
    ],
  ])('refuses %s before uploading', async (_label, file, reason) => {
    const { client, calls } = await platform((_request, response) => sendJson(response, 200, uploaded));
    await expect(
      client.onboarding.uploadImage({ path: { id: '3f1c0a52-8d0e-4b7a-9a44-2b1f5e0c7d31' }, body: { type: 'SELFIE', file } }),
    ).rejects.toThrow(reason);
    expect(calls()).toEqual([]);
  });

  it('accepts a JPEG of exactly 10 MB and a File keeps its name', async () => {
    const { client, calls } = await platform((_request, response) => sendJson(response, 200, uploaded));
    const big = new Uint8Array(10 * 1024 * 1024);
    big.set(jpeg);
    await client.onboarding.uploadImage({
      path: { id: '3f1c0a52-8d0e-4b7a-9a44-2b1f5e0c7d31' },
      body: { type: 'BACK', file: new File([big], 'rg-verso.jpg') },
    });
    expect(calls()[0]!.body).toMatch(/filename="rg-verso.jpg"\r\nContent-Type: image\/jpeg/);
  });
});

describe('offset pages of GET /accounts/transactions', () => {
  it('follows page_offset by the items received until the total', async () => {
    const item = (n: number) => ({
      eventDate: '2025-04-10T12:00:00Z',
      id: `0e3ec47e-2fc8-4c4c-bdee-0eb80eb91a${String(n).padStart(2, '0')}`,
      status: 'LIQUIDATED',
      creditDebitType: 'CREDIT',
      transactionType: 'PIX',
      transactionAmount: { currency: 'BRL', available: n },
    });
    const { client, calls } = await platform(
      (request, response) => {
        const offset = Number(new URL(request.path, 'http://x').searchParams.get('page_offset'));
        sendJson(response, 200, {
          meta: { total: 5, limit: 2, offset },
          data: [0, 1]
            .map((i) => offset + i)
            .filter((n) => n < 5)
            .map(item),
        });
      },
      { accountId: 48213 },
    );
    const ids: unknown[] = [];
    for await (const transaction of client.transactions.listItems({
      query: { event_date_start: '2025-04-01T00:00:00Z', event_date_end: '2025-04-30T23:59:59Z', page_limit: 2 },
    }))
      ids.push(transaction.transactionAmount?.available);
    expect(ids).toEqual([0, 1, 2, 3, 4]);
    expect(calls().map((r) => new URL(r.path, 'http://x').searchParams.get('page_offset'))).toEqual(['0', '2', '4']);
  });
});

describe('rules checked before sending', () => {
  const today = todayInSaoPaulo(new Date());
  it.each([
    ['a MONTH statement over 13 months', { groupBy: 'MONTH', initialDate: '2024-01-01', finalDate: '2025-01-31' }, /at most 12 months/],
    ['a DAY statement ending today', { groupBy: 'DAY', initialDate: today, finalDate: today }, /must be before today/],
  ] as const)('refuses %s', async (_label, body, reason) => {
    const { client, calls } = await platform((_request, response) => sendJson(response, 200, { data: [] }), { accountId: 48213 });
    await expect(client.statements.summaryByPeriod({ body: { ...body } })).rejects.toThrow(reason);
    expect(calls()).toEqual([]);
  });

  it('refuses a crypto-risk list by address without a network', async () => {
    const { client, calls } = await platform((_request, response) => sendJson(response, 200, { data: [] }), { accountId: 48213 });
    await expect(client.cryptoRiskAnalyses.list({ query: { address: '0x52908400098527886E0F7030069857D2E4169EE7' } })).rejects.toThrow(
      /\/query\/network: is required when address is given/,
    );
    expect(calls()).toEqual([]);
  });
});

describe('provisional routes', () => {
  it('can be overridden at construction; shown routes cannot', async () => {
    const { calls } = await platform((_request, response) => sendJson(response, 200, { data: [] }), { accountId: 48213 });
    const client = createAccountsClient({
      baseUrl: server!.url,
      clientId: 'baas_padaria',
      clientSecret: 's',
      accountId: 48213,
      routes: { 'balance.get': '/accounts/balances' },
    });
    await client.balance.get();
    expect(calls().map((r) => r.path)).toEqual(['/accounts/balances']);
    expect(() =>
      createAccountsClient({ baseUrl: server!.url, clientId: 'baas_padaria', clientSecret: 's', routes: { 'keys.list': '/keys' } }),
    ).toThrow(/only provisional routes can be overridden/);
    expect(() =>
      createAccountsClient({ baseUrl: server!.url, clientId: 'baas_padaria', clientSecret: 's', routes: { 'ted.getById': '/ted' } }),
    ).toThrow(/must have the path parameters/);
  });

  it('the token route follows auth.token', async () => {
    server = await startLoopbackServer((request, response) =>
      request.path === '/oauth2/token' ? sendJson(response, 200, token) : sendJson(response, 200, { data: [] }),
    );
    const client = createAccountsClient({
      baseUrl: server.url,
      clientId: 'baas_padaria',
      clientSecret: 's',
      accountId: 1,
      routes: { 'auth.token': '/oauth2/token' },
    });
    await client.keys.list();
    expect(server.requests.map((r) => r.path)).toEqual(['/oauth2/token', '/accounts/keys']);
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ clientId: 'baas_padaria', clientSecret: 's', grantType: 'client_credentials' });
  });
});

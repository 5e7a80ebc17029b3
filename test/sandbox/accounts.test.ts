/**
 * The accounts sandbox (interface A) as an integrator uses it, with the package's own client and every
 * answer checked strictly against the contract: the token and the x-account-id rules of conventions 1
 * and 2, balance, transactions and statements derived from what happened, and Pix keys with the
 * EMAIL/PHONE challenge whose code is read through the control plane.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountsClient, ConfigurationError } from '../../src/accounts/index.js';
import { todayInSaoPaulo } from '../../src/rules/cross-field.js';
import { accountsSandbox } from '../../src/sandbox/accounts/index.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { accountsConnector, closeAll, control, expectNoNewDrifts, problemOf, rawAccountsCall, startSeeded } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let client: AccountsClient;
let baas: AccountsClient;
const clients: AccountsClient[] = [];
const connect = accountsConnector(() => sandbox, clients);

beforeAll(async () => {
  sandbox = await startSeeded('accounts', [accountsSandbox]);
  client = connect('sandbox-account');
  baas = connect('baas_sandbox', { accountId: 2001 });
});
afterAll(() => closeAll(sandbox, clients));
expectNoNewDrifts(() => sandbox);

describe('token and x-account-id (section 5.5, conventions 1 and 2)', () => {
  it('issues a token to a known credential; a wrong secret is 401, a scope the credential lacks 403', async () => {
    const url = `${sandbox.urlOf('accounts')}/auth/token`;
    const ask = (body: unknown) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const issued = await ask({ clientId: 'sandbox-account', clientSecret: 'sandbox-secret', grantType: 'client_credentials' });
    expect(issued.status).toBe(200);
    expect(await issued.json()).toMatchObject({ tokenType: 'Bearer', expiresAt: 3600 });
    const wrong = await ask({ clientId: 'sandbox-account', clientSecret: 'nope', grantType: 'client_credentials' });
    expect(wrong.status).toBe(401);
    // A credential of another interface (the API Pix's) is not one of the accounts API.
    const other = await ask({ clientId: 'sandbox-pix', clientSecret: 'sandbox-secret', grantType: 'client_credentials' });
    expect(other.status).toBe(401);
    const scope = await ask({
      clientId: 'sandbox-account',
      clientSecret: 'sandbox-secret',
      grantType: 'client_credentials',
      scope: 'baas.accounts.read',
    });
    expect(scope.status).toBe(403);
  });

  it('an account credential operates its own account; x-account-id naming another is 403', async () => {
    const balance = await client.balance.get();
    expect(balance.data?.[0]?.balanceAmount).toMatchObject({ currency: 'BRL', available: 100000, blocked: 0 });
    expect((await rawAccountsCall(sandbox, 'sandbox-account', 'GET', '/accounts/balance', { 'x-account-id': '1001' })).status).toBe(200);
    const other = await rawAccountsCall(sandbox, 'sandbox-account', 'GET', '/accounts/balance', { 'x-account-id': '2001' });
    expect(other.status).toBe(403);
    expect(other.body.type).toMatch(/\/errors\/forbidden$/);
  });

  it('a BaaS credential must name a child account: none, the owner or a stranger 403', async () => {
    expect((await baas.balance.get()).data).toHaveLength(1);
    await expect(connect('baas_sandbox').balance.get()).rejects.toThrow(ConfigurationError);
    const missing = await rawAccountsCall(sandbox, 'baas_sandbox', 'GET', '/accounts/balance');
    expect(missing.status).toBe(403);
    expect(missing.body.detail).toMatch(/x-account-id/);
    for (const accountId of [2000, 1001]) {
      const problem = await problemOf(baas.forAccount(accountId).balance.get());
      expect(problem.status).toBe(403);
    }
  });

  it('BaaS-scope endpoints need no x-account-id; an account credential gets 403 there', async () => {
    const children = await connect('baas_sandbox').childAccounts.list();
    expect(children.data?.map((child) => child.id)).toEqual([2001, 2002, 2003]);
    const problem = await problemOf(client.childAccounts.list());
    expect(problem.status).toBe(403);
  });
});

describe('balance, transactions and statements are derived from what happened', () => {
  it('a Pix received moves the balance, is listed and detailed; an unknown transaction is 404', async () => {
    const account = connect('baas_sandbox', { accountId: 2002 });
    const before = (await account.balance.get()).data![0]!.balanceAmount!.available!;
    const received = await control(sandbox, '/accounts/receive', { accountId: 2002, amount: 250.75 });
    const after = (await account.balance.get()).data![0]!.balanceAmount!.available!;
    expect(after).toBeCloseTo(before + 250.75, 2);
    const now = sandbox.env.clock.nowMs();
    const listed = await account.transactions.list({
      query: { event_date_start: new Date(now - 60_000).toISOString(), event_date_end: new Date(now + 60_000).toISOString() },
    });
    expect(listed.data).toEqual([
      expect.objectContaining({
        creditDebitType: 'CREDIT',
        transactionType: 'PIX',
        transactionAmount: { currency: 'BRL', available: 250.75 },
      }),
    ]);
    const [detail] = await account.transactions.details({ path: { transactionId: received.transactionId } });
    expect(detail).toMatchObject({ id: received.transactionId, status: 'LIQUIDATED', payment: { amount: 250.75 } });
    expect((await problemOf(account.transactions.details({ path: { transactionId: 1 } }))).status).toBe(404);
    // Another account's transaction is 404 too.
    expect((await problemOf(client.transactions.details({ path: { transactionId: received.transactionId } }))).status).toBe(404);
  });

  it('statements sum the ledger per day and per hour; a period the rules forbid is 400', async () => {
    const account = connect('baas_sandbox', { accountId: 2003 });
    await control(sandbox, '/accounts/receive', { accountId: 2003, amount: 10 });
    const today = todayInSaoPaulo(new Date(sandbox.env.clock.nowMs()));
    const day = (offset: number) => new Date(Date.parse(`${today}T12:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
    const byDay = await account.statements.summaryByPeriod({ body: { groupBy: 'DAY', initialDate: day(-40), finalDate: day(-1) } });
    expect(byDay.data).toHaveLength(40);
    const opening = byDay.data!.find((item) => item.movementCount === 1)!;
    expect(opening).toMatchObject({ creditAmount: 100000, debitAmount: 0, initialBalance: 0, finalBalance: 100000 });
    expect(byDay.data!.at(-1)).toMatchObject({ finalBalance: 100000 });
    const hourly = await account.statements.summaryByHour({ body: { date: today } });
    expect(hourly.data).toHaveLength(24);
    expect(hourly.data!.reduce((sum, item) => sum + item.creditAmount!, 0)).toBe(10);
    expect(hourly.data!.at(-1)!.finalBalance).toBe(100010);
    const error = await account.statements
      .summaryByPeriod({ body: { groupBy: 'DAY', initialDate: day(-1), finalDate: today } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
  });
});

describe('Pix keys (section 4.1)', () => {
  it('key challenge → OTP from the control plane → EMAIL key created and listed', async () => {
    const key = 'financeiro@padariaboavista.example.com';
    const created = await client.keys.createWithChallenge({
      keyType: 'EMAIL',
      key,
      getCode: async () => (await control(sandbox, '/accounts/otp', { key })).code,
    });
    expect(created).toMatchObject({ key, keyType: 'EMAIL', taxIdNumber: '45723174000110', accountType: 'CACC' });
    expect((await client.keys.list()).data?.map((entry) => entry.key)).toContain(key);
    const lookup = await client.pixKeys.lookup({ path: { key } });
    expect(lookup).toMatchObject({ key, name: 'Padaria Boa Vista Ltda', keyType: 'EMAIL' });
  });

  it.each([
    { given: 'a replaced hash', code: 'old', want: /newer challenge/ },
    { given: 'a wrong code', code: 'wrong', want: /not the code/ },
    { given: 'an expired code', code: 'expired', want: /expired after 300 s/ },
  ])('refuses $given with 422 invalid-otp', async ({ code, want }) => {
    const key = `+55119${String(Date.now()).slice(-8)}`;
    const first = await client.keys.challenge({ body: { keyType: 'PHONE', key } });
    let hash = first.validationHash!;
    let otp: string = (await control(sandbox, '/accounts/otp', { key })).code;
    if (code === 'old') await client.keys.challenge({ body: { keyType: 'PHONE', key } });
    if (code === 'wrong') otp = otp === '000000' ? '111111' : '000000';
    if (code === 'expired') await control(sandbox, '/clock', { advanceSeconds: 301 });
    if (code !== 'old') hash = first.validationHash!;
    const problem = await problemOf(client.keys.create({ body: { keyType: 'PHONE', key, validationHash: hash, validationCode: otp } }));
    expect(problem.status).toBe(422);
    expect(problem.errorType).toBe('invalid-otp');
    expect(problem.detail).toMatch(want);
  });

  it('a code is used once; the key of the creation must be the challenge key', async () => {
    const key = 'contato@padariaboavista.example.com';
    const { validationHash } = await client.keys.challenge({ body: { keyType: 'EMAIL', key } });
    const { code } = await control(sandbox, '/accounts/otp', { key });
    const other = await problemOf(
      client.keys.create({ body: { keyType: 'EMAIL', key: 'outro@example.com', validationHash: validationHash!, validationCode: code } }),
    );
    expect(other.detail).toMatch(/same key/);
    await client.keys.create({ body: { keyType: 'EMAIL', key, validationHash: validationHash!, validationCode: code } });
    const again = await problemOf(
      client.keys.create({ body: { keyType: 'EMAIL', key, validationHash: validationHash!, validationCode: code } }),
    );
    expect(again.status).toBe(422);
  });

  it('CNPJ key equal to the holder document; CPF on a legal person or another document is 422; EVP generated', async () => {
    expect(await client.keys.create({ body: { keyType: 'CNPJ', key: '45723174000110' } })).toMatchObject({ keyType: 'CNPJ' });
    expect((await problemOf(client.keys.create({ body: { keyType: 'CPF', key: '52998224725' } }))).status).toBe(422);
    const person = connect('baas_sandbox', { accountId: 2001 });
    expect((await problemOf(person.keys.create({ body: { keyType: 'CPF', key: '39053344705' } }))).errorType).toBe('key-holder-mismatch');
    expect(await person.keys.create({ body: { keyType: 'CPF', key: '52998224725' } })).toMatchObject({
      keyType: 'CPF',
      name: 'Mariana Costa Ribeiro',
    });
    const evp = await client.keys.create({ body: { keyType: 'EVP' } });
    expect(evp.key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a key is removed from its account only; an unknown one is 404 and lookups fail after', async () => {
    const evp = await client.keys.create({ body: { keyType: 'EVP' } });
    expect((await problemOf(baas.keys.delete({ path: { key: evp.key! } }))).status).toBe(404);
    expect(await client.keys.delete({ path: { key: evp.key! } })).toEqual({});
    expect((await problemOf(client.pixKeys.lookup({ path: { key: evp.key! } }))).status).toBe(404);
    expect(await client.pixKeys.lookup({ path: { key: '11144477735' } })).toMatchObject({ ispb: '99999020', keyType: 'CPF' });
  });
});

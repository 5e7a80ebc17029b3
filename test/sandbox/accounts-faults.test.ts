/**
 * A payment survives the fault clients fear most: the platform executes a keyed TED and the connection drops
 * before the answer (a planned `reset-after-processing`). The accounts client retries with the same
 * x-idempotency-key, the sandbox answers the original, and the account holds one TED and one debit. A 503
 * planned before processing is retried as well, with the key the client generated.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type AccountsClient, createAccountsClient } from '../../src/accounts/index.js';
import { accountsSandbox } from '../../src/sandbox/accounts/index.js';
import type { AccountsState } from '../../src/sandbox/accounts/state.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';

const seed = `accounts-faults-${Date.now()}`;
console.log(`sandbox seed: ${seed}`);
let sandbox: RunningSandbox;
let client: AccountsClient;
const creditor = {
  ispb: '99999020',
  issuer: '0001',
  number: '774411',
  accountType: 'CACC' as const,
  document: '11144477735',
  name: 'Carlos Eduardo Lima',
};
const plan = (fault: Record<string, unknown>) =>
  fetch(`${sandbox.url}/_sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fault) });
const tedsWithKey = (key: string) =>
  sandbox.stateOf<AccountsState>('accounts').teds.filter((ted) => JSON.stringify(ted).includes(`"${key}"`));

beforeAll(async () => {
  sandbox = await startSandbox({ modules: [accountsSandbox], seed, strict: true });
  client = createAccountsClient({
    baseUrl: sandbox.urlOf('accounts'),
    clientId: 'sandbox-account',
    clientSecret: 'sandbox-secret',
    responseValidation: 'strict',
    retry: { maxRetries: 2, baseDelayMs: 10, maxDelayMs: 50 },
  });
});
afterEach(() => expect(sandbox.drifts()).toEqual([]));
afterAll(async () => {
  await client.close();
  await sandbox.stop();
});

describe('a keyed payment under faults', () => {
  it('executed, answer lost, retried with the same key: one TED, one debit, the original answered', async () => {
    const before = (await client.balance.get()).data![0]!.balanceAmount!.available!;
    expect((await plan({ operationId: 'ted.create', kind: 'reset-after-processing', count: 1 })).status).toBe(201);
    const body = { creditorAccount: creditor, payment: { currency: 'BRL' as const, amount: 42.5 }, remittanceInformation: 'Fatura 3321' };
    const answer = await client.ted.create({ body }, { idempotencyKey: 'tedfault0001' }).withResponse();
    expect(answer.response.attempts).toBe(2);
    expect(answer.response.idempotencyKey).toBe('tedfault0001');
    expect(answer.data.data).toMatchObject({ idempotencyKey: 'tedfault0001', status: 'PROCESSING' });
    expect(tedsWithKey('tedfault0001')).toHaveLength(1);
    const after = (await client.balance.get()).data![0]!.balanceAmount!.available!;
    expect(after).toBeCloseTo(before - 42.5, 2);
  });

  it('a key the client generates is kept across the retry of a planned 503', async () => {
    await plan({ operationId: 'ted.create', kind: 'unavailable', retryAfterSeconds: 0, count: 1 });
    const body = { creditorAccount: creditor, payment: { currency: 'BRL' as const, amount: 7 } };
    const answer = await client.ted.create({ body }).withResponse();
    expect(answer.response.attempts).toBe(2);
    const key = answer.response.idempotencyKey!;
    expect(key).toMatch(/^[a-zA-Z0-9]{1,50}$/);
    expect(tedsWithKey(key)).toHaveLength(1);
  });
});

/**
 * A payment survives the fault clients fear most: the platform executes a keyed TED and the connection drops
 * before the answer (a planned `reset-after-processing`). The accounts client retries with the same
 * x-idempotency-key, the sandbox answers the original, and the account holds one TED and one debit. A 503
 * planned before processing is retried as well, with the key the client generated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountsClient } from '../../src/accounts/index.js';
import { accountsSandbox } from '../../src/sandbox/accounts/index.js';
import type { AccountsState } from '../../src/sandbox/accounts/state.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import {
  accountsClientOf,
  closeAll,
  expectNoNewDrifts,
  planFault,
  quickRetries,
  startSeeded,
  tedCreditor as creditor,
} from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let client: AccountsClient;
const plan = (fault: Record<string, unknown>) => planFault(sandbox, fault);
const tedsWithKey = (key: string) =>
  sandbox.stateOf<AccountsState>('accounts').teds.filter((ted) => JSON.stringify(ted).includes(`"${key}"`));

beforeAll(async () => {
  sandbox = await startSeeded('accounts-faults', [accountsSandbox]);
  client = accountsClientOf(sandbox, 'sandbox-account', { retry: quickRetries });
});
expectNoNewDrifts(() => sandbox);
afterAll(() => closeAll(sandbox, [client]));

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

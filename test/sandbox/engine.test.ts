/**
 * What the engine does for every module, seen through real clients: a token is good only at the interface
 * that issued it; planned faults (503 with Retry-After, a reset after the call was processed) are survived by
 * the client's retries, and the state shows the call executed once per attempt the server processed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTxid } from '../../src/formats/pix.js';
import type { PixClient } from '../../src/pix/index.js';
import { messagesSandbox } from '../../src/sandbox/messages/index.js';
import { pixSandbox } from '../../src/sandbox/pix/index.js';
import type { PixState } from '../../src/sandbox/pix/state.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { closeAll, expectNoNewDrifts, pixClientOf, planFault, quickRetries, startSeeded } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let client: PixClient;
const charge = { calendario: {}, valor: { original: '9.90' }, chave: 'cobrancas@sandbox.example.com' };
const plan = (fault: Record<string, unknown>) => planFault(sandbox, fault);

beforeAll(async () => {
  sandbox = await startSeeded('engine', [pixSandbox, messagesSandbox]);
  client = pixClientOf(sandbox, { retry: quickRetries });
});
expectNoNewDrifts(() => sandbox);
afterAll(() => closeAll(sandbox, [client]));

describe('the sandbox engine', () => {
  it('a token of interface B is refused by interface C, and C refuses a call without its svc-token', async () => {
    const { access_token: token } = await client.auth.token({ body: { grant_type: 'client_credentials' } });
    const withPixToken = await fetch(`${sandbox.urlOf('messages')}/messages/pull/start`, { headers: { 'svc-token': token } });
    expect(withPixToken.status).toBe(401);
    const withNone = await fetch(`${sandbox.urlOf('messages')}/messages/pull/start`);
    expect(withNone.status).toBe(401);
    const pixAgain = await fetch(`${sandbox.urlOf('pix')}/cob/${generateTxid()}`, { headers: { authorization: `Bearer ${token}` } });
    expect(pixAgain.status).toBe(404);
  });

  it('a 503 with Retry-After planned on the idempotent PUT is retried by the client, which then creates the charge once', async () => {
    expect((await plan({ operationId: 'cob.replace', kind: 'unavailable', retryAfterSeconds: 0, count: 1 })).status).toBe(201);
    const txid = generateTxid();
    const created = await client.cob.replace({ path: { txid }, body: charge }).withResponse();
    expect(created.response.attempts).toBe(2);
    expect(created.data.status).toBe('ATIVA');
    expect(Object.keys(sandbox.stateOf<PixState>('pix').charges).filter((id) => id === txid)).toHaveLength(1);
  });

  it('a reset after processing a PUT: the client retries the idempotent PUT, the charge exists once, replaced by the retry', async () => {
    await plan({ operationId: 'cob.replace', kind: 'reset-after-processing', count: 1 });
    const txid = generateTxid();
    const answer = await client.cob.replace({ path: { txid }, body: charge }).withResponse();
    expect(answer.response.attempts).toBe(2);
    // The first attempt created it (lost answer), the retry replaced it: one charge, revisao 1, as the server saw it.
    expect(answer.response.status).toBe(200);
    expect(answer.data).toMatchObject({ txid, revisao: 1, status: 'ATIVA' });
  });

  it('a 503 planned on the POST that creates a charge is not retried: without an idempotency key it could pay twice', async () => {
    await plan({ operationId: 'cob.create', kind: 'unavailable', count: 1 });
    const txid = generateTxid();
    const error = await client.cob.create({ path: { txid }, body: charge }).catch((caught: unknown) => caught);
    expect((error as { status?: number }).status).toBe(503);
    expect(sandbox.stateOf<PixState>('pix').charges[txid]).toBeUndefined();
  });

  it('an optional request body may be left out (POST /locrec without one), and a required one may not', async () => {
    const created = await client.locrec.create({}).withResponse();
    expect(created.response.status).toBe(201);
    const { access_token: token } = await client.auth.token({ body: { grant_type: 'client_credentials' } });
    const withoutBody = await fetch(`${sandbox.urlOf('pix')}/cob/${generateTxid()}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(withoutBody.status).toBe(400);
  });

  it('refuses a fault naming an operation no interface has, in one line', async () => {
    const answer = await plan({ operationId: 'cob.explode', kind: 'unavailable' });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { detail: string }).detail).toMatch(/^operationId must name an operation of the sandbox/);
  });

  // A fault answering a status the operation does not declare would take the sandbox outside the contract.
  it.each([
    { given: 'rate-limited on cob.get (Pix declares no 429)', fault: { operationId: 'cob.get', kind: 'rate-limited' }, want: 400 },
    {
      given: 'rate-limited on messages.poll (messages declares no 429)',
      fault: { operationId: 'messages.poll', kind: 'rate-limited' },
      want: 400,
    },
    { given: 'unavailable on cob.get (declared 503)', fault: { operationId: 'cob.get', kind: 'unavailable' }, want: 201 },
  ])('a fault $given: $want', async ({ fault, want }) => {
    const answer = await plan(fault);
    expect(answer.status).toBe(want);
    if (want === 400)
      expect(((await answer.json()) as { detail: string }).detail).toMatch(
        new RegExp(`^kind rate-limited answers 429, which ${fault.operationId.replace('.', '\\.')} does not declare: plan it on`),
      );
    await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
  });

  it('a rate-limited fault planned for every operation passes by the Pix calls, which declare no 429', async () => {
    expect((await plan({ operationId: '*', kind: 'rate-limited', count: 1 })).status).toBe(201);
    const txid = generateTxid();
    await client.cob.replace({ path: { txid }, body: charge });
    expect(await client.cob.get({ path: { txid } })).toMatchObject({ txid, status: 'ATIVA' });
    const planned = (await (await fetch(`${sandbox.url}/_sandbox`)).json()) as { faults: unknown[] };
    expect(planned.faults).toEqual([expect.objectContaining({ operationId: '*', kind: 'rate-limited', remaining: 1 })]);
    await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
  });
});

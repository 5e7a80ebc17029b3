/**
 * The control plane cannot break the contract (issue 26, item 3): a verb's member that would land out of
 * the contract is refused with a 400 naming the member, the rule and the schema place, and nothing is
 * stored — every module's state reads back the same. A verb whose product would leave the contract is
 * undone and nothing it would have sent leaves.
 */
import { definitions } from '../../src/interfaces.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTxid } from '../../src/formats/pix.js';
import type { PixClient } from '../../src/pix/index.js';
import { defineSandboxModule } from '../../src/sandbox/contract.js';
import { sandboxModules } from '../../src/sandbox/modules.js';
import { pixProblems } from '../../src/sandbox/pix/problems.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';
import { declareVerb } from '../../src/sandbox/verb-contract.js';
import { closeAll, deliveries, expectNoNewDrifts, pixClientOf, startSeeded, watchDrifts } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let client: PixClient;
let txid: string;

beforeAll(async () => {
  sandbox = await startSeeded('control-plane', sandboxModules);
  client = pixClientOf(sandbox);
  txid = generateTxid();
  await client.cob.replace({
    path: { txid },
    body: { calendario: { expiracao: 3600 }, valor: { original: '25.90' }, chave: 'cobrancas@sandbox.example.com' },
  });
});
afterAll(() => closeAll(sandbox, [client]));
expectNoNewDrifts(() => sandbox);

/** A control call as it was answered: status and JSON body. */
async function controlCall(path: string, body: unknown): Promise<{ status: number; body: Record<string, any> }> {
  const answer = await fetch(`${sandbox.url}/_sandbox${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, any> };
}

/** Everything every module holds, document by document of the definitions (a copy, so later changes show). */
async function everyState(): Promise<unknown[]> {
  return definitions.flatMap((definition) =>
    definition.documents.map((document) => JSON.parse(JSON.stringify(sandbox.stateOf(document.name) ?? null)) as unknown),
  );
}

describe('a member out of the contract is refused where it lands, and nothing is stored', () => {
  it.each([
    {
      given: 'pay with the amount of the reproduction',
      path: '/pix/pay',
      body: () => ({ txid, valor: '12345678901.00' }),
      want: { pointer: '/valor', rule: 'format', place: 'pix#Pix/valor' },
    },
    {
      given: 'pay with 5000 characters of infoPagador',
      path: '/pix/pay',
      body: () => ({ txid, infoPagador: 'x'.repeat(5000) }),
      want: { pointer: '/infoPagador', rule: 'maxLength', place: 'pix#Pix/infoPagador' },
    },
    {
      given: 'pay with a member it does not take',
      path: '/pix/pay',
      body: () => ({ txid, infoPagadr: 'obrigado' }),
      want: { pointer: '/infoPagadr', rule: 'known inputs' },
    },
    {
      given: 'a receiving key longer than a key',
      path: '/pix/keys',
      body: () => ({ add: `${'a'.repeat(70)}@example.com` }),
      want: { pointer: '/add', rule: 'maxLength', place: 'pix#Chave' },
    },
    {
      given: 'a cancellation code the standard does not list',
      path: '/pix/rec',
      body: () => ({ idRec: 'RR9999901020260101abcdefghijk', status: 'CANCELADA', codigo: 'ZZZZ' }),
      want: { pointer: '/codigo', rule: 'enum', place: 'pix#RecEncerramento/cancelamento/codigo' },
    },
    {
      given: 'an attempt rejection code of five characters',
      path: '/pix/cobr',
      body: () => ({ txid, status: 'REJEITADA', codigo: 'AM022' }),
      want: { pointer: '/codigo', rule: 'maxLength', place: 'pix#CobRTentativas/rejeicao/codigo' },
    },
    {
      given: 'a rejection reason that is no text',
      path: '/accounts/rejectOrder',
      body: () => ({ orderId: 'nada', reason: 42 }),
      want: { pointer: '/reason', rule: 'type', place: 'accounts#CaasOrder/rejectionReason' },
    },
    {
      given: 'an onboarding status that is no integer',
      path: '/accounts/onboardingStatus',
      body: () => ({ id: 1, status: 1.5 }),
      want: { pointer: '/status', rule: 'type', place: 'accounts#Onboarding/status' },
    },
    {
      given: 'a payer name that is no text',
      path: '/accounts/receive',
      body: () => ({ amount: 10, payerName: 42 }),
      want: { pointer: '/payerName', rule: 'type', place: 'accounts#PartyAccount/name' },
    },
    {
      given: 'a pacs.002 code the message does not have',
      path: '/messages/reject',
      body: () => ({ code: 'XX99' }),
      want: { pointer: '/code', rule: 'enum', place: 'messages#Pacs.002/codigoDeErro' },
    },
    {
      given: 'a received message missing its amount',
      path: '/messages/receive',
      body: () => ({ message: 'pacs.008', body: {} }),
      want: { pointer: '/body/valor', rule: 'required', place: 'messages#Pacs.008' },
    },
    {
      given: 'an invoice payment with a member it does not take',
      path: '/core-banking/payInvoice',
      body: () => ({ invoiceId: 1, amount: 10 }),
      want: { pointer: '/amount', rule: 'known inputs' },
    },
    {
      given: 'the key set asked with a member',
      path: '/pix-location/jwks',
      body: () => ({ kid: 'x' }),
      want: { pointer: '/kid', rule: 'known inputs' },
    },
    {
      given: 'a fault whose Retry-After the header refuses',
      path: '/faults',
      body: () => ({ operationId: 'keys.list', kind: 'unavailable', retryAfterSeconds: -1 }),
      want: { pointer: '/retryAfterSeconds', rule: 'minimum', place: 'accounts#Retry-After of keys.list 503' },
    },
  ])('$given: 400 naming $want.pointer and its rule', async ({ path, body, want }) => {
    const before = await everyState();
    const answer = await controlCall(path, body());
    expect(answer.status).toBe(400);
    expect(answer.body.violations).toContainEqual(expect.objectContaining(want));
    const member = want.pointer.slice(1);
    expect(answer.body.detail).toMatch(new RegExp(`^${path.slice(1)} refused, nothing stored: .*${member} `));
    if (want.place) expect(answer.body.detail).toContain(`as ${want.place} says`);
    expect(await everyState()).toEqual(before);
  });

  it('the reproduction: after the refused pay, cob.get, cob.list and pix.list read back through the strict client', async () => {
    await controlCall('/pix/pay', { txid, valor: '12345678901.00', infoPagador: 'x'.repeat(5000) });
    expect(await client.cob.get({ path: { txid } })).toMatchObject({ txid, status: 'ATIVA' });
    const window = { inicio: '2000-01-01T00:00:00Z', fim: '2100-01-01T00:00:00Z' };
    await client.cob.list({ query: window });
    await client.pix.list({ query: window });
  });

  it('GET /_sandbox names what each verb takes and where it lands', async () => {
    const overview = (await (await fetch(`${sandbox.url}/_sandbox`)).json()) as Record<string, any>;
    expect(overview.interfaces.pix.inputs.pay).toEqual({
      txid: 'the charge paid (its txid)',
      valor: 'lands in Pix/valor',
      infoPagador: 'lands in Pix/infoPagador',
    });
  });
});

describe('a verb whose product would leave the contract is undone', () => {
  /** A module whose verb stores a Pix, sends it, and answers it with `horario` out of the contract. */
  const drifting = defineSandboxModule<{ received: unknown[] }>({
    document: 'pix',
    prefix: '/pix',
    createState: () => ({ received: [] }),
    handlers: {},
    problems: pixProblems,
    controls: {
      receive: declareVerb({ document: 'pix', lands: { valor: 'Pix/valor' }, answers: { '/pix': 'Pix' } }, (body, state, env) => {
        const pix = { endToEndId: 'E99999020202601011200abcdefghijk', valor: body.valor, horario: 'yesterday' };
        state.received.push(pix);
        env.webhooks.send({ subscription: 's', url: 'http://127.0.0.1:9/pix', method: 'POST', headers: {}, body: pix, label: 'pix' });
        return { pix };
      }),
      state: declareVerb({ document: 'pix' }, (_body, state) => state),
    },
  });

  it('400 naming the member of the answer; the state is as before and nothing was sent', async () => {
    const own = watchDrifts(await startSandbox({ modules: [drifting], seed: 'drifting', strict: true }));
    try {
      const answer = await fetch(`${own.url}/_sandbox/pix/receive`, { method: 'POST', body: JSON.stringify({ valor: '10.00' }) });
      const body = (await answer.json()) as Record<string, any>;
      expect(answer.status).toBe(400);
      expect(body.detail).toMatch(
        /^pix\/receive refused, nothing stored: what it would have answered leaves the contract: pix\/horario must be/,
      );
      expect(body.violations).toContainEqual(expect.objectContaining({ pointer: '/pix/horario', rule: 'format', place: 'pix#Pix' }));
      expect(own.stateOf('pix')).toEqual({ received: [] });
      expect(await deliveries(own)).toEqual([]);
    } finally {
      await own.stop();
    }
  });
});

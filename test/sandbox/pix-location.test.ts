/**
 * The payload locations of the sandbox as a payer's app reads them: a charge created through the Pix client
 * is read back from its location with the client's `locations` readers, the JWS verified with node:crypto
 * against the key of the control verb `jwks`, its payload checked strictly against CobPayload / CobVPayload /
 * RecPayload; unknown, unlinked, removed and paid charges; the DPP and codMun rules of a charge with a due
 * date and the amounts on that date (fine, interest, rebate, discount).
 */
import { constants, createPublicKey, type KeyObject, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check } from '../../src/runtime/validation.js';
import { strictValidator } from '../../src/checks/strict-response.js';
import { bundledSpecPath } from '../../src/checks/registry.js';
import { generateTxid } from '../../src/formats/pix.js';
import { createPixClient, type PixClient } from '../../src/pix/index.js';
import { decodeJws } from '../../src/pix/jws.js';
import { todayInSaoPaulo } from '../../src/rules/cross-field.js';
import { ProblemError, RequestValidationError } from '../../src/runtime/errors.js';
import { amountsOn } from '../../src/sandbox/pix-location/amounts.js';
import { pixLocationSandbox } from '../../src/sandbox/pix-location/index.js';
import type { RecurrenceHolding } from '../../src/sandbox/pix-location/payloads.js';
import { pixSandbox } from '../../src/sandbox/pix/index.js';
import type { PixState } from '../../src/sandbox/pix/state.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { closeAll, control, expectNoNewDrifts, pixClientOf, startSeeded } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let client: PixClient;
let publicKey: KeyObject;
let kid: string;

const key = 'cobrancas@sandbox.example.com';
const devedor = { cpf: '52998224725', nome: 'Mariana Costa Ribeiro' };

// The payload of every JWS is checked as strictly as the engine checks JSON answers: closed known values,
// unlisted members refused (the engine's strict mode checks the JWS string only, not what it carries).
const bundle = JSON.parse(readFileSync(bundledSpecPath('pix-location'), 'utf8')) as Record<string, unknown>;
const strictIssues = (schema: 'CobPayload' | 'CobVPayload' | 'RecPayload', payload: unknown) =>
  check(strictValidator(bundle, { $ref: `#/components/schemas/${schema}` }), payload);

/** A JWS of the sandbox: PS256, the key's kid, a signature that verifies against the JWKS key. */
function verified(jws: string): boolean {
  const [header, payload, signature] = jws.split('.');
  return verify(
    'sha256',
    Buffer.from(`${header}.${payload}`, 'ascii'),
    { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 },
    Buffer.from(signature!, 'base64url'),
  );
}

/** The sandbox writes locations as the standard does, without scheme; it serves them over http. */
const http = (location: string): string => `http://${location}`;

const dayMs = 86_400_000;
const addDays = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + days * dayMs).toISOString().slice(0, 10);
const weekday = (date: string): number => new Date(`${date}T00:00:00Z`).getUTCDay();
const today = (): string => todayInSaoPaulo(new Date());

async function createCob(body: Record<string, unknown> = {}) {
  const txid = generateTxid();
  const created = await client.cob.replace({
    path: { txid },
    body: { calendario: { expiracao: 3600 }, valor: { original: '150.00' }, chave: key, devedor, ...body },
  });
  return { txid, created, location: created.loc!.location };
}

/** A charge with a due date a week ahead, no fine or discount. */
async function createCobv() {
  const txid = generateTxid();
  const created = await client.cobv.replace({
    path: { txid },
    body: { calendario: { dataDeVencimento: addDays(today(), 7) }, devedor, valor: { original: '80.00' }, chave: key },
  });
  return { txid, created, location: created.loc!.location };
}

beforeAll(async () => {
  sandbox = await startSeeded('pix-location', [pixSandbox, pixLocationSandbox]);
  client = pixClientOf(sandbox);
  const jwks = await control(sandbox, '/pix-location/jwks');
  expect(jwks.keys).toHaveLength(1);
  const [jwk] = jwks.keys;
  expect(jwk).toMatchObject({ kty: 'RSA', alg: 'PS256', use: 'sig' });
  expect(Object.keys(jwk).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
  kid = jwk.kid;
  publicKey = createPublicKey({ key: jwk, format: 'jwk' });
});
afterAll(() => closeAll(sandbox, [client]));
// Every answer of every test is checked against the contract: a drift fails the test that caused it.
expectNoNewDrifts(() => sandbox);

describe('an immediate charge read from its location', () => {
  it('is served as a PS256 JWS (application/jose) whose payload is the charge, verified with the key of jwks', async () => {
    const { txid, created, location } = await createCob({
      solicitacaoPagador: 'Informe o número do pedido',
      infoAdicionais: [{ nome: 'Pedido', valor: '4821' }],
    });
    expect(location).toMatch(/^127\.0\.0\.1:\d+\/pix-location\/[A-Za-z0-9]+$/);
    const before = Date.now();
    const read = await client.locations.cob(http(location));
    expect(read.header).toEqual({ alg: 'PS256', typ: 'JWS', kid });
    expect(verified(read.jws)).toBe(true);
    expect(read.payload).toEqual({
      calendario: { criacao: created.calendario!.criacao, apresentacao: read.payload.calendario.apresentacao, expiracao: 3600 },
      txid,
      revisao: 0,
      status: 'ATIVA',
      devedor,
      valor: { original: '150.00' },
      chave: key,
      solicitacaoPagador: 'Informe o número do pedido',
      infoAdicionais: [{ nome: 'Pedido', valor: '4821' }],
    });
    // apresentacao is the moment the payload was made (the sandbox clock runs at real speed here).
    expect(Date.parse(read.payload.calendario.apresentacao!)).toBeGreaterThanOrEqual(before - 1000);
    expect(strictIssues('CobPayload', read.payload)).toEqual([]);

    const answer = await fetch(http(location));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/jose');
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('a payload altered after signing no longer verifies (the check above is a real one)', async () => {
    const { location } = await createCob();
    const { jws } = await client.locations.cob(http(location));
    const [header, , signature] = jws.split('.');
    const forged = Buffer.from(JSON.stringify({ ...(decodeJws(jws).payload as object), valor: { original: '1.50' } })).toString(
      'base64url',
    );
    expect(verified(`${header}.${forged}.${signature}`)).toBe(false);
  });

  it('shows the current revision after a change', async () => {
    const { txid, location } = await createCob();
    await client.cob.revise({ path: { txid }, body: { valor: { original: '175.00' } } });
    const { payload } = await client.locations.cob(http(location));
    expect(payload).toMatchObject({ revisao: 1, valor: { original: '175.00' } });
  });

  it('the location as the QR code carries it (no scheme) is read by the client over https, which the sandbox does not serve', async () => {
    const { location } = await createCob();
    await expect(client.locations.cob(location)).rejects.toThrow(/TLS handshake/);
  });

  it('a paid charge is still served, CONCLUIDA', async () => {
    const { txid, location } = await createCob();
    await control(sandbox, '/pix/pay', { txid });
    const { payload, jws } = await client.locations.cob(http(location));
    expect(payload).toMatchObject({ txid, status: 'CONCLUIDA' });
    expect(verified(jws)).toBe(true);
    expect(strictIssues('CobPayload', payload)).toEqual([]);
  });

  it('a removed charge is 410 CobPayloadNaoEncontrado: it will not be shown again', async () => {
    const { txid, location } = await createCob();
    await client.cob.revise({ path: { txid }, body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } });
    const error = await client.locations.cob(http(location)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProblemError);
    expect(error).toMatchObject({ status: 410, errorType: 'CobPayloadNaoEncontrado' });
  });

  it.each([
    ['a token no location has', (host: string) => `${host}/pix-location/${generateTxid()}`],
    ['a token named like a member of every object', (host: string) => `${host}/pix-location/constructor`],
    ['a cob location read as a cobv one', (_host: string, location: string) => location.replace('/pix-location/', '/pix-location/cobv/')],
  ])('%s is 404 CobPayloadNaoEncontrado', async (_given, target) => {
    const { location } = await createCob();
    const host = location.split('/')[0]!;
    const address = target(host, location);
    const reader = address.includes('/cobv/') ? client.locations.cobv(http(address)) : client.locations.cob(http(address));
    const error = await reader.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProblemError);
    expect(error).toMatchObject({ status: 404, errorType: 'CobPayloadNaoEncontrado' });
  });

  it('a location unlinked from its charge (DELETE /loc/{id}/txid) shows nothing: 404', async () => {
    const { created, location } = await createCob();
    await client.loc.unlinkTxid({ path: { id: String(created.loc!.id) } });
    const error = await client.locations.cob(http(location)).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 404, errorType: 'CobPayloadNaoEncontrado' });
  });
});

describe('a charge with a due date read from its location', () => {
  // A Wednesday at least 8 days ahead: the due date is a business day, two days after it are too.
  let due = addDays(today(), 8);
  while (weekday(due) !== 3) due = addDays(due, 1);
  const validity = 10;
  let txid: string;
  let location: string;

  beforeAll(async () => {
    txid = generateTxid();
    const created = await client.cobv.replace({
      path: { txid },
      body: {
        calendario: { dataDeVencimento: due, validadeAposVencimento: validity },
        devedor,
        valor: {
          original: '500.00',
          abatimento: { modalidade: 1, valorPerc: '10.00' },
          desconto: { modalidade: 1, descontoDataFixa: [{ data: due, valorPerc: '25.00' }] },
          multa: { modalidade: 2, valorPerc: '2.00' },
          juros: { modalidade: 3, valorPerc: '1.00' },
        },
        chave: key,
      },
    });
    location = created.loc!.location;
    expect(location).toMatch(/\/pix-location\/cobv\/[A-Za-z0-9]+$/);
  });

  it.each([
    { when: 'today (no DPP)', dpp: undefined, valor: { original: '500.00', abatimento: '10.00', desconto: '25.00', final: '465.00' } },
    { when: 'on the due date', dpp: 0, valor: { original: '500.00', abatimento: '10.00', desconto: '25.00', final: '465.00' } },
    // Late: a 2 % fine on 490.00 (original less rebate) and 1 % a month over 30 days, per day late.
    { when: 'a day late', dpp: 1, valor: { original: '500.00', multa: '9.80', juros: '0.16', abatimento: '10.00', final: '499.96' } },
    { when: 'two days late', dpp: 2, valor: { original: '500.00', multa: '9.80', juros: '0.33', abatimento: '10.00', final: '500.13' } },
    {
      when: 'on the last payable day',
      dpp: validity,
      valor: { original: '500.00', multa: '9.80', juros: '1.63', abatimento: '10.00', final: '501.43' },
    },
  ])('paid $when: the amounts on that date, a payload that verifies and passes CobVPayload strictly', async ({ dpp, valor }) => {
    const query = dpp === undefined ? undefined : { DPP: addDays(due, dpp), codMun: '3550308' };
    const read = await client.locations.cobv(http(location), query);
    expect(verified(read.jws)).toBe(true);
    expect(read.header).toEqual({ alg: 'PS256', typ: 'JWS', kid });
    expect(read.payload).toMatchObject({
      txid,
      revisao: 0,
      status: 'ATIVA',
      calendario: { dataDeVencimento: due, validadeAposVencimento: validity },
      devedor,
      recebedor: { cnpj: '11222333000181', nome: 'Loja Sandbox Ltda' },
      chave: key,
    });
    expect(read.payload.valor).toEqual(valor);
    expect(strictIssues('CobVPayload', read.payload)).toEqual([]);
  });

  it.each([
    { given: 'a DPP in the past', query: () => ({ DPP: addDays(today(), -1) }), property: 'DPP', want: /in the past/ },
    { given: 'a DPP after the last payable day', query: () => ({ DPP: addDays(due, validity + 1) }), property: 'DPP', want: /last day/ },
  ])('$given is 400 CobPayloadOperacaoInvalida naming it', async ({ query, property, want }) => {
    const error = await client.locations.cobv(http(location), query()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProblemError);
    const problem = error as ProblemError;
    expect(problem).toMatchObject({ status: 400, errorType: 'CobPayloadOperacaoInvalida' });
    expect(problem.detail).toMatch(want);
    expect(problem.violacoes?.map((violation) => violation.propriedade)).toContain(property);
  });
});

describe('codMun outside its schema', () => {
  it.each([
    ['of no federation unit', '9912345'],
    ['not 7 digits', '355030'],
  ])('%s: refused by the client before sending, and 400 CobPayloadOperacaoInvalida from the sandbox', async (_given, codMun) => {
    const { location } = await createCobv();
    const refused = await client.locations.cobv(http(location), { codMun }).catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(RequestValidationError);
    const answer = await fetch(`${http(location)}?codMun=${codMun}`);
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toBe('application/problem+json');
    const problem = (await answer.json()) as { type: string; status: number; violacoes: { propriedade: string }[] };
    expect(problem).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/CobPayloadOperacaoInvalida', status: 400 });
    expect(problem.violacoes.map((violation) => violation.propriedade)).toEqual(['codMun']);
  });
});

describe('the amounts of a charge with a due date (amounts.ts)', () => {
  // 2025-03-15 is a Saturday: a payment on Monday the 17th is still on time.
  const due = '2025-03-15';
  it.each([
    {
      given: 'fine and interest on the next business day after a Saturday due date',
      valor: { juros: { modalidade: 1, valorPerc: '0.10' }, multa: { modalidade: 1, valorPerc: '5.00' } },
      paid: '2025-03-17',
      want: { original: '100.00', final: '100.00' },
    },
    {
      given: 'interest per calendar day counted from the due date once late',
      valor: { juros: { modalidade: 1, valorPerc: '0.10' } },
      paid: '2025-03-18',
      want: { original: '100.00', juros: '0.30', final: '100.30' },
    },
    {
      given: 'interest per business day',
      valor: { juros: { modalidade: 5, valorPerc: '0.10' } },
      paid: '2025-03-18',
      want: { original: '100.00', juros: '0.20', final: '100.20' },
    },
    {
      given: 'interest of 12 % a year over 365 days',
      valor: { juros: { modalidade: 4, valorPerc: '12.00' } },
      paid: '2025-03-18',
      want: { original: '100.00', juros: '0.10', final: '100.10' },
    },
    {
      given: 'interest of 2 % a month over 21 business days',
      valor: { juros: { modalidade: 7, valorPerc: '2.00' } },
      paid: '2025-03-18',
      want: { original: '100.00', juros: '0.19', final: '100.19' },
    },
    {
      given: 'a rebate of 10 % and a discount per calendar day of anticipation',
      valor: { abatimento: { modalidade: 2, valorPerc: '10.00' }, desconto: { modalidade: 3, valorPerc: '0.50' } },
      paid: '2025-03-10',
      want: { original: '100.00', abatimento: '10.00', desconto: '2.50', final: '87.50' },
    },
    {
      given: 'a discount of 1 % per business day of anticipation',
      valor: { desconto: { modalidade: 6, valorPerc: '1.00' } },
      paid: '2025-03-10',
      want: { original: '100.00', desconto: '4.00', final: '96.00' },
    },
    {
      given: 'the first fixed discount date not before the payment',
      valor: {
        desconto: {
          modalidade: 2,
          descontoDataFixa: [
            { data: '2025-03-15', valorPerc: '1.00' },
            { data: '2025-03-05', valorPerc: '5.00' },
          ],
        },
      },
      paid: '2025-03-06',
      want: { original: '100.00', desconto: '1.00', final: '99.00' },
    },
    {
      given: 'no discount after the due date',
      valor: { desconto: { modalidade: 1, descontoDataFixa: [{ data: '2025-03-15', valorPerc: '3.00' }] } },
      paid: '2025-03-16',
      want: { original: '100.00', final: '100.00' },
    },
  ])('$given', ({ valor, paid, want }) => {
    expect(amountsOn({ original: '100.00', ...valor }, due, paid).valor).toEqual(want);
  });
});

describe('a recurrence read from its location', () => {
  const idRec = 'RR1314008820261105k7Q2mX9pL4a';
  const recurrence = {
    idRec,
    vinculo: { objeto: 'Plano anual academia', contrato: 'CT-2026-0815', devedor },
    calendario: { dataInicial: '2026-12-10', dataFinal: '2027-11-10', periodicidade: 'MENSAL' },
    valor: { valorRec: '149.90' },
    recebedor: { cnpj: '11222333000181', nome: 'Loja Sandbox Ltda', convenio: 'C-1' },
    politicaRetentativa: 'PERMITE_3R_7D',
    status: 'CRIADA',
    atualizacao: [{ status: 'CRIADA', data: '2026-11-05T13:22:41.904Z' }],
  };

  it('a token no recurrence location has is 404 RecPayloadNaoEncontrado', async () => {
    const host = new URL(sandbox.url).host;
    const error = await client.locations.rec(`http://${host}/pix-location/rec/${generateTxid()}`).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProblemError);
    expect(error).toMatchObject({ status: 404, errorType: 'RecPayloadNaoEncontrado' });
  });

  it('one the Pix state holds is served as a RecPayload; an ended one is 400 RecPayloadOperacaoInvalida', async () => {
    const host = new URL(sandbox.url).host;
    const pix = sandbox.stateOf<PixState & RecurrenceHolding>('pix');
    // Put in the Pix state as its recurrences are held (state.ts), then restored: the test reads, it does not create.
    const saved = { recurrences: pix.recurrences, recLocationTokens: pix.recLocationTokens };
    const recurrences: Record<string, Record<string, unknown>> = { ...pix.recurrences, [idRec]: recurrence };
    pix.recurrences = recurrences;
    pix.recLocationTokens = { ...pix.recLocationTokens, tokenrec1: idRec };
    try {
      const read = await client.locations.rec(`http://${host}/pix-location/rec/tokenrec1`);
      expect(verified(read.jws)).toBe(true);
      expect(read.payload).toEqual({
        idRec,
        vinculo: recurrence.vinculo,
        calendario: recurrence.calendario,
        valor: recurrence.valor,
        recebedor: { cnpj: '11222333000181', nome: 'Loja Sandbox Ltda', ispbParticipante: '99999010' },
        politicaRetentativa: 'PERMITE_3R_7D',
        atualizacao: recurrence.atualizacao,
      });
      expect(strictIssues('RecPayload', read.payload)).toEqual([]);

      recurrences[idRec] = { ...recurrence, status: 'CANCELADA' };
      const error = await client.locations.rec(`http://${host}/pix-location/rec/tokenrec1`).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status: 400, errorType: 'RecPayloadOperacaoInvalida' });
    } finally {
      Object.assign(pix, saved);
    }
  });
});

describe('the signing key', () => {
  it('is made anew by a reset (the state is created again), and the new one signs what is served after it', async () => {
    await control(sandbox, '/reset', { seed: sandbox.env.random.seed });
    const jwks = await control(sandbox, '/pix-location/jwks');
    expect(jwks.keys[0].kid).not.toBe(kid);
    kid = jwks.keys[0].kid;
    publicKey = createPublicKey({ key: jwks.keys[0], format: 'jwk' });
    // The reset also forgot the client's token: a new client asks for a new one.
    await client.close();
    client = createPixClient({
      baseUrl: sandbox.urlOf('pix'),
      clientId: 'sandbox-pix',
      clientSecret: 'sandbox-secret',
      responseValidation: 'strict',
    });
    const { location } = await createCob();
    const { jws, header } = await client.locations.cob(http(location));
    expect(header.kid).toBe(kid);
    expect(verified(jws)).toBe(true);
  });
});

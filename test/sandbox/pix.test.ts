/**
 * The Pix sandbox as a merchant uses it, with the package's own client and notification receiver, every
 * answer checked strictly against the contract: a charge created is read back with its txid, ATIVA and a
 * BR Code; paid through the control plane it is CONCLUIDA, listed by GET /pix and notified once (a resend
 * is acknowledged without a second handling); refunds, revisions and the 400s of section 7.2.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBrCode } from '../../src/formats/brcode.js';
import { generateTxid } from '../../src/formats/pix.js';
import { createPixNotificationHandler, type PixClient } from '../../src/pix/index.js';
import { ProblemError } from '../../src/runtime/errors.js';
import { pixSandbox } from '../../src/sandbox/pix/index.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import {
  closeAll,
  control,
  deliveries,
  expectNoNewDrifts,
  pixClientOf,
  type Receiver,
  startReceiver,
  startSeeded,
  waitFor,
} from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let client: PixClient;
const key = 'cobrancas@sandbox.example.com';
const charge = { calendario: { expiracao: 3600 }, valor: { original: '25.90' }, chave: key, solicitacaoPagador: 'Pedido 0087' };

beforeAll(async () => {
  sandbox = await startSeeded('pix', [pixSandbox]);
  client = pixClientOf(sandbox);
});
afterAll(() => closeAll(sandbox, [client]));
// Every answer of every test is checked against the contract: a drift fails the test that caused it.
expectNoNewDrifts(() => sandbox);

describe('a charge created is there when read back', () => {
  it('PUT /cob/{txid} creates it ATIVA, revisao 0, with a location and a BR Code that parses; GET returns the same txid', async () => {
    const txid = generateTxid();
    const created = await client.cob.replace({ path: { txid }, body: charge }).withResponse();
    expect(created.response.status).toBe(201);
    expect(created.data).toMatchObject({ txid, status: 'ATIVA', revisao: 0, valor: { original: '25.90' }, chave: key });
    const brCode = parseBrCode(created.data.pixCopiaECola!);
    expect(brCode.valid).toBe(true);
    const read = await client.cob.get({ path: { txid } });
    expect(read).toMatchObject({ txid, status: 'ATIVA', revisao: 0 });
    expect(read.loc?.id).toBe(created.data.loc?.id);
  });

  it('PUT again replaces it (200, revisao 1); PATCH of loc alone keeps revisao; a removal sent alone ends it', async () => {
    const txid = generateTxid();
    await client.cob.replace({ path: { txid }, body: charge });
    const replaced = await client.cob.replace({ path: { txid }, body: { ...charge, valor: { original: '30.00' } } }).withResponse();
    expect(replaced.response.status).toBe(200);
    expect(replaced.data).toMatchObject({ revisao: 1, valor: { original: '30.00' } });
    const location = await client.loc.create({ body: { tipoCob: 'cob' } });
    const moved = await client.cob.revise({ path: { txid }, body: { loc: { id: location.id } } });
    expect(moved).toMatchObject({ revisao: 1, loc: { id: location.id } });
    const removed = await client.cob.revise({ path: { txid }, body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } });
    expect(removed).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: 2 });
    const old = await client.cob.get({ path: { txid }, query: { revisao: 0 } });
    expect(old).toMatchObject({ revisao: 0, valor: { original: '25.90' } });
  });

  it.each([
    {
      given: 'a change of a removed charge',
      prepare: 'remove',
      body: { valor: { original: '1.00' } },
      want: /only an ATIVA charge can be changed/,
    },
    {
      given: 'a key the receiving user does not hold',
      prepare: 'none',
      body: { chave: 'outra@example.com' },
      want: /not one of the receiving user/,
    },
  ])('PATCH refuses $given with 400 CobOperacaoInvalida and violacoes', async ({ prepare, body, want }) => {
    const txid = generateTxid();
    await client.cob.replace({ path: { txid }, body: charge });
    if (prepare === 'remove') await client.cob.revise({ path: { txid }, body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } });
    const error = await client.cob.revise({ path: { txid }, body: body as never }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProblemError);
    const problem = error as ProblemError;
    expect(problem.status).toBe(400);
    expect(problem.errorType).toBe('CobOperacaoInvalida');
    expect(problem.message).toMatch(want);
  });

  it('a removal together with another change, sent past the client, is 400 CobOperacaoInvalida naming status', async () => {
    const txid = generateTxid();
    await client.cob.replace({ path: { txid }, body: charge });
    const { access_token: token } = await client.auth.token({ body: { grant_type: 'client_credentials' } });
    const answer = await fetch(`${sandbox.urlOf('pix')}/cob/${txid}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', solicitacaoPagador: 'x' }),
    });
    expect(answer.status).toBe(400);
    const problem = (await answer.json()) as { type: string; violacoes: { propriedade: string }[] };
    expect(problem.type).toBe('https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida');
    expect(problem.violacoes.map((violation: { propriedade: string }) => violation.propriedade)).toContain('status');
  });

  it('an unknown txid is 404 CobNaoEncontrado', async () => {
    const error = await client.cob.get({ path: { txid: generateTxid() } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProblemError);
    expect((error as ProblemError).errorType).toBe('CobNaoEncontrado');
  });

  it('a txid already in use is refused on POST /cob/{txid}', async () => {
    const txid = generateTxid();
    await client.cob.create({ path: { txid }, body: charge });
    const error = await client.cob.create({ path: { txid }, body: charge }).catch((caught: unknown) => caught);
    expect((error as ProblemError).errorType).toBe('CobOperacaoInvalida');
  });
});

describe('a charge paid is CONCLUIDA, listed, notified once, and refunded', () => {
  let receiver: Receiver;
  let receiverUrl: string;
  const handled: string[] = [];
  beforeAll(async () => {
    const handler = createPixNotificationHandler({
      onPix: async (pix) => void handled.push(`${pix.endToEndId}:${pix.devolucoes?.map((r) => r.status).join(',') ?? ''}`),
    });
    receiver = await startReceiver((request, response) => void handler(request, response));
    receiverUrl = `${receiver.url}/hooks`;
  });
  afterAll(() => receiver.close());

  it('pay → CONCLUIDA, GET /pix lists it, the receiver got it once, a forced resend is not handled twice', async () => {
    await client.webhook.configure({ path: { chave: key }, body: { webhookUrl: receiverUrl } });
    const txid = generateTxid();
    await client.cob.replace({ path: { txid }, body: charge });
    const paid = await control(sandbox, '/pix/pay', { txid, infoPagador: 'obrigado' });
    const e2eid: string = paid.pix.endToEndId;
    expect(await client.cob.get({ path: { txid } })).toMatchObject({ status: 'CONCLUIDA', pix: [{ endToEndId: e2eid, valor: '25.90' }] });
    const now = new Date(sandbox.env.clock.nowMs());
    const listed = await client.pix.list({
      query: { inicio: new Date(now.getTime() - 60_000).toISOString(), fim: new Date(now.getTime() + 60_000).toISOString() },
    });
    expect(listed.pix.map((pix) => pix.endToEndId)).toContain(e2eid);
    await waitFor(() => handled.some((entry) => entry.startsWith(e2eid)));
    const delivery = (await deliveries(sandbox)).find((entry) => entry.state === 'delivered')!;
    await control(sandbox, `/deliveries/${delivery.id}/resend`);
    await waitFor(async () => (await deliveries(sandbox)).find((entry) => entry.id === delivery.id)?.attempts.length === 2);
    expect(handled.filter((entry) => entry.startsWith(e2eid))).toHaveLength(1);
  });

  it('a refund starts EM_PROCESSAMENTO, is DEVOLVIDO after the clock moves, and is notified; more than received is refused', async () => {
    const txid = generateTxid();
    await client.cob.replace({ path: { txid }, body: charge });
    const { pix } = await control(sandbox, '/pix/pay', { txid });
    const refund = await client.pixRefund.request({ path: { e2eid: pix.endToEndId, id: 'devolucao01' }, body: { valor: '10.00' } });
    expect(refund).toMatchObject({ id: 'devolucao01', status: 'EM_PROCESSAMENTO', valor: '10.00' });
    await control(sandbox, '/clock', { advanceSeconds: 10 });
    expect(await client.pixRefund.get({ path: { e2eid: pix.endToEndId, id: 'devolucao01' } })).toMatchObject({ status: 'DEVOLVIDO' });
    await waitFor(() => handled.includes(`${pix.endToEndId}:DEVOLVIDO`));
    const error = await client.pixRefund
      .request({ path: { e2eid: pix.endToEndId, id: 'devolucao02' }, body: { valor: '20.00' } })
      .catch((caught: unknown) => caught);
    expect((error as ProblemError).errorType).toBe('PixDevolucaoInvalida');
  });

  it('a charge paid cannot be paid again', async () => {
    const txid = generateTxid();
    await client.cob.replace({ path: { txid }, body: charge });
    await control(sandbox, '/pix/pay', { txid });
    await expect(control(sandbox, '/pix/pay', { txid })).rejects.toThrow(/409.*only an ATIVA charge takes a payment/);
  });
});

describe("what the API Pix standard's schemas accept (issue 27)", () => {
  it.each([
    { given: 'a window with no charge', window: ['2001-01-01T00:00:00Z', '2001-01-02T00:00:00Z'], want: { pages: 1, total: 0 } },
    { given: 'a window with charges, two per page', window: 'now', want: { pages: 'ceil(total / 2)', total: 'at least 1' } },
  ])('GET /cob over $given counts $want.pages page(s): never 0, the standard minimum is 1', async ({ window, want }) => {
    await client.cob.replace({ path: { txid: generateTxid() }, body: charge });
    const now = sandbox.env.clock.nowMs();
    const [inicio, fim] =
      window === 'now' ? [new Date(now - 60_000).toISOString(), new Date(now + 60_000).toISOString()] : (window as string[]);
    const listed = await client.cob.list({ query: { inicio: inicio!, fim: fim!, 'paginacao.itensPorPagina': 2 } });
    const { quantidadeDePaginas, quantidadeTotalDeItens } = listed.parametros.paginacao!;
    if (want.total === 0)
      expect({ quantidadeDePaginas, quantidadeTotalDeItens, cobs: listed.cobs }).toEqual({
        quantidadeDePaginas: 1,
        quantidadeTotalDeItens: 0,
        cobs: [],
      });
    else {
      expect(quantidadeTotalDeItens).toBeGreaterThanOrEqual(1);
      expect(quantidadeDePaginas).toBe(Math.ceil(quantidadeTotalDeItens / 2));
    }
  });

  it.each([
    { given: 'an empty calendario', body: { ...charge, calendario: {} }, want: { status: 201, expiracao: 86400 } },
    {
      given: 'no calendario, sent past the client',
      body: { valor: charge.valor, chave: key },
      want: { status: 400, propriedade: 'calendario' },
    },
  ])('PUT /cob/{txid} with $given: $want.status', async ({ body, want }) => {
    const { access_token: token } = await client.auth.token({ body: { grant_type: 'client_credentials' } });
    const answer = await fetch(`${sandbox.urlOf('pix')}/cob/${generateTxid()}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(want.status);
    const read = (await answer.json()) as { calendario?: { expiracao?: number }; type?: string; violacoes?: { propriedade: string }[] };
    if (want.status === 201) expect(read.calendario?.expiracao).toBe(want.expiracao);
    else {
      expect(read.type).toMatch(/\/CobOperacaoInvalida$/);
      expect(read.violacoes?.map((violation) => violation.propriedade)).toEqual([want.propriedade]);
    }
  });
});

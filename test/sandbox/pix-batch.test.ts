/**
 * Batches of due-date charges in the sandbox, with the package's own client, every answer checked strictly
 * against the contract: PUT /lotecobv/{id} is accepted (202), each charge request EM_PROCESSAMENTO and then,
 * on the sandbox clock, CRIADA (the cobv exists, as PUT /cobv/{txid} would have made it) or NEGADA with the
 * problem /cobv/{txid} would have answered; PUT and PATCH of the batch; and /cobv/{txid} refusing a charge
 * whose entry is EM_PROCESSAMENTO or NEGADA (400 CobVOperacaoInvalida), as checkBatchChargeChangeable says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBrCode } from '../../src/formats/brcode.js';
import { generateTxid } from '../../src/formats/pix.js';
import { checkBatchChargeChangeable, type PixClient } from '../../src/pix/index.js';
import { todayInSaoPaulo } from '../../src/rules/cross-field.js';
import { batchProcessedAfterSeconds } from '../../src/sandbox/pix/batches.js';
import { pixSandbox } from '../../src/sandbox/pix/index.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { closeAll, expectNoNewDrifts, pixClientOf, problemOf, startSeeded } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let client: PixClient;
const key = 'cobrancas@sandbox.example.com';

/** Moves the sandbox clock past the processing of the batches sent so far. */
const processed = async (): Promise<void> => {
  const answer = await fetch(`${sandbox.url}/_sandbox/clock`, {
    method: 'POST',
    body: JSON.stringify({ advanceSeconds: batchProcessedAfterSeconds + 1 }),
    headers: { 'content-type': 'application/json' },
  });
  expect(answer.status).toBe(200);
};
const day = (days: number): string => todayInSaoPaulo(new Date(sandbox.env.clock.nowMs() + days * 86_400_000));
const charge = (txid: string, chave = key) => ({
  txid,
  calendario: { dataDeVencimento: day(10), validadeAposVencimento: 30 },
  devedor: { cpf: '12345678909', nome: 'Mariana Costa Ribeiro' },
  valor: { original: '480.00' },
  chave,
  solicitacaoPagador: 'Informe a matrícula do aluno',
});
const statuses = async (id: string): Promise<Record<string, string>> =>
  Object.fromEntries((await client.lotecobv.get({ path: { id } })).cobsv.map((entry) => [entry.txid, entry.status]));

beforeAll(async () => {
  sandbox = await startSeeded('pix-batch', [pixSandbox]);
  client = pixClientOf(sandbox);
});
afterAll(() => closeAll(sandbox, [client]));
expectNoNewDrifts(() => sandbox);

describe('a batch is processed on the sandbox clock', () => {
  const [good, refused] = [generateTxid(), generateTxid()];

  it('PUT /lotecobv/{id} answers 202; its charges are EM_PROCESSAMENTO and /cobv/{txid} refuses them meanwhile', async () => {
    const accepted = await client.lotecobv
      .create({
        path: { id: '3002' },
        body: { descricao: 'Mensalidades de abril', cobsv: [charge(good), charge(refused, 'outra@example.com')] },
      })
      .withResponse();
    expect(accepted.response.status).toBe(202);
    const batch = await client.lotecobv.get({ path: { id: '3002' } });
    expect(batch).toMatchObject({ id: 3002, descricao: 'Mensalidades de abril', cobsv: [{ txid: good, status: 'EM_PROCESSAMENTO' }, {}] });
    expect(checkBatchChargeChangeable(batch, good)).toHaveLength(1);
    const { txid: _txid, ...body } = charge(good);
    const put = await problemOf(client.cobv.replace({ path: { txid: good }, body }));
    expect([put.status, put.errorType, put.message]).toEqual([400, 'CobVOperacaoInvalida', expect.stringMatching(/EM_PROCESSAMENTO/)]);
    expect((await problemOf(client.cobv.revise({ path: { txid: good }, body: { solicitacaoPagador: 'x' } }))).errorType).toBe(
      'CobVOperacaoInvalida',
    );
  });

  it('then each is CRIADA (the cobv ATIVA with its BR Code) or NEGADA with its problem; a NEGADA txid stays refused', async () => {
    await processed();
    const batch = await client.lotecobv.get({ path: { id: '3002' } });
    expect(batch.cobsv).toEqual([
      { txid: good, status: 'CRIADA', criacao: expect.any(String) },
      {
        txid: refused,
        status: 'NEGADA',
        problema: expect.objectContaining({ status: 400, type: expect.stringMatching(/\/CobVOperacaoInvalida$/) }),
      },
    ]);
    expect(batch.cobsv[1]?.problema?.violacoes?.[0]).toMatchObject({ propriedade: 'chave', valor: 'outra@example.com' });
    const created = await client.cobv.get({ path: { txid: good } });
    expect(created).toMatchObject({ txid: good, status: 'ATIVA', revisao: 0, valor: { original: '480.00' } });
    expect(parseBrCode(created.pixCopiaECola!).valid).toBe(true);
    const { txid: _txid, ...body } = charge(refused);
    expect((await problemOf(client.cobv.replace({ path: { txid: refused }, body }))).message).toMatch(/NEGADA/);
    expect((await client.cobv.revise({ path: { txid: good }, body: { solicitacaoPagador: 'Matrícula 42' } })).revisao).toBe(1);
    const now = sandbox.env.clock.nowMs();
    const window = { inicio: new Date(now - 3_600_000).toISOString(), fim: new Date(now + 3_600_000).toISOString() };
    const listed = await client.cobv.list({ query: { ...window, loteCobVId: 3002 } });
    expect(listed.cobs.map((entry) => entry.txid)).toEqual([good]);
    expect((await client.lotecobv.list({ query: window })).lotes.map((entry) => entry.id)).toContain(3002);
  });

  it('PUT of the batch again lists exactly its charges: the refused one is created, the other replaced', async () => {
    const fewer = client.lotecobv.create({ path: { id: '3002' }, body: { descricao: 'Abril', cobsv: [charge(good)] } });
    expect((await problemOf(fewer)).errorType).toBe('LoteCobVOperacaoInvalida');
    await client.lotecobv.create({ path: { id: '3002' }, body: { descricao: 'Abril, corrigido', cobsv: [charge(good), charge(refused)] } });
    const again = client.lotecobv.create({ path: { id: '3002' }, body: { descricao: 'Abril', cobsv: [charge(good), charge(refused)] } });
    expect((await problemOf(again)).message).toMatch(/still being processed/);
    await processed();
    expect(await statuses('3002')).toEqual({ [good]: 'CRIADA', [refused]: 'CRIADA' });
    expect((await client.cobv.get({ path: { txid: good } })).revisao).toBe(2);
    expect((await client.cobv.get({ path: { txid: refused } })).status).toBe('ATIVA');
  });

  it('PATCH revises some of its charges; a change of a removed charge is NEGADA, a txid of another batch refused', async () => {
    await client.lotecobv.revise({ path: { id: '3002' }, body: { cobsv: [{ txid: good, status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }] } });
    await processed();
    expect((await client.cobv.get({ path: { txid: good } })).status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
    await client.lotecobv.revise({ path: { id: '3002' }, body: { cobsv: [{ txid: good, valor: { original: '500.00' } }] } });
    await processed();
    const entry = (await client.lotecobv.get({ path: { id: '3002' } })).cobsv.find((item) => item.txid === good);
    expect(entry).toMatchObject({ status: 'NEGADA', problema: { detail: expect.stringMatching(/only an ATIVA charge/) } });
    const stranger = client.lotecobv.revise({
      path: { id: '3002' },
      body: { cobsv: [{ txid: generateTxid(), valor: { original: '1.00' } }] },
    });
    expect((await problemOf(stranger)).errorType).toBe('LoteCobVOperacaoInvalida');
  });
});

describe('what a batch refuses at once', () => {
  it.each([
    { given: 'a txid that is already a charge', txids: () => [generateTxid()], existing: true, want: /already a charge/ },
    { given: 'a txid listed twice', txids: () => Array(2).fill(generateTxid()), existing: false, want: /listed twice/ },
  ])('PUT /lotecobv/{id} refuses $given with 400 LoteCobVOperacaoInvalida', async ({ txids, existing, want }) => {
    const listed: string[] = txids();
    if (existing) {
      const { txid: _txid, ...body } = charge(listed[0]!);
      await client.cobv.replace({ path: { txid: listed[0]! }, body });
    }
    const problem = await problemOf(
      client.lotecobv.create({ path: { id: '4001' }, body: { descricao: 'x', cobsv: listed.map((txid) => charge(txid)) } }),
    );
    expect([problem.status, problem.errorType, problem.message]).toEqual([400, 'LoteCobVOperacaoInvalida', expect.stringMatching(want)]);
  });

  it('a txid of another batch is refused; an unknown batch is 404 LoteCobVNaoEncontrado', async () => {
    const txid = generateTxid();
    await client.lotecobv.create({ path: { id: '5001' }, body: { descricao: 'Maio', cobsv: [charge(txid)] } });
    const other = client.lotecobv.create({ path: { id: '5002' }, body: { descricao: 'Maio bis', cobsv: [charge(txid)] } });
    expect((await problemOf(other)).message).toMatch(/belongs to the batch 5001/);
    expect((await problemOf(client.lotecobv.get({ path: { id: '999' } }))).errorType).toBe('LoteCobVNaoEncontrado');
    const patch = client.lotecobv.revise({ path: { id: '999' }, body: { descricao: 'x' } });
    expect([(await problemOf(patch)).status, (await problemOf(patch)).errorType]).toEqual([404, 'LoteCobVNaoEncontrado']);
  });
});

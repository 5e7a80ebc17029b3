/**
 * Pix Automático in the sandbox, with the package's own client and notification receiver, every answer checked
 * strictly against the contract: recurrences and their locations, confirmation requests (cancel only from
 * CRIADA, ENVIADA, RECEBIDA; accepted → the recurrence APROVADA), recurring charges (cancel only before the
 * due date; attempts settled or failed through the control plane; retries), and the /rec and /cobr
 * notifications handled once, a forced resend acknowledged as a duplicate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBrCode } from '../../src/formats/brcode.js';
import { checkIdRec, generateTxid } from '../../src/formats/pix.js';
import { createPixNotificationHandler, type PixClient } from '../../src/pix/index.js';
import { todayInSaoPaulo } from '../../src/rules/cross-field.js';
import { ValidationError } from '../../src/runtime/errors.js';
import { pixSandbox } from '../../src/sandbox/pix/index.js';
import { pixLocationSandbox } from '../../src/sandbox/pix-location/index.js';
import { attemptScheduledAfterSeconds } from '../../src/sandbox/pix/recurring-attempts.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import {
  closeAll,
  control,
  deliveries,
  expectNoNewDrifts,
  pixClientOf,
  problemOf,
  type Receiver,
  startReceiver,
  startSeeded,
  waitFor,
} from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let client: PixClient;
let receiver: Receiver;
const handled: string[] = [];

/** A request past the client's own checks, to see the sandbox refuse it. */
const raw = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
  const { access_token: token } = await client.auth.token({ body: { grant_type: 'client_credentials' } });
  const answer = await fetch(`${sandbox.urlOf('pix')}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: answer.status, body: await answer.json() };
};
/** A date of the São Paulo calendar `days` after the sandbox's today. */
const day = (days: number): string => todayInSaoPaulo(new Date(sandbox.env.clock.nowMs() + days * 86_400_000));
const window = () => ({ inicio: new Date(sandbox.env.clock.nowMs() - 3_600_000).toISOString(), fim: `${day(30)}T00:00:00Z` });

const recurrence = (overrides: Record<string, unknown> = {}) =>
  client.rec.create({
    body: {
      vinculo: { objeto: 'Plano academia', contrato: 'CT-2026-0001', devedor: { cpf: '12345678909', nome: 'Mariana Costa' } },
      calendario: { dataInicial: day(1), periodicidade: 'MENSAL' },
      valor: { valorRec: '49.90' },
      politicaRetentativa: 'PERMITE_3R_7D',
      ...overrides,
    } as never,
  });
const approved = async (overrides: Record<string, unknown> = {}) => {
  const { idRec } = await recurrence(overrides);
  await control(sandbox, '/pix/rec', { idRec, status: 'APROVADA' });
  return idRec;
};
const account = { agencia: '0001', conta: '1234567', tipoConta: 'CORRENTE' as const };
const recurringCharge = (idRec: string, dataDeVencimento: string, original = '49.90') =>
  client.cobr.create({ body: { idRec, calendario: { dataDeVencimento }, valor: { original }, ajusteDiaUtil: true, recebedor: account } });

beforeAll(async () => {
  sandbox = await startSeeded('pix-recurrence', [pixSandbox, pixLocationSandbox]);
  client = pixClientOf(sandbox);
  const handler = createPixNotificationHandler({
    onRec: (rec) => void handled.push(`rec:${rec.idRec}:${rec.status}`),
    onCobR: (cobr) => void handled.push(`cobr:${cobr.txid}:${cobr.status}:${cobr.tentativas?.map((a) => a.status).join(',')}`),
  });
  receiver = await startReceiver((request, response) => void handler(request, response));
});
afterAll(async () => {
  await closeAll(sandbox, [client]);
  await receiver?.close();
});
expectNoNewDrifts(() => sandbox);

describe('recurrences and their locations', () => {
  it('POST /rec creates it CRIADA with an idRec RR/RN + ISPB + date; GET and the list answer it', async () => {
    const created = await recurrence();
    expect(created).toMatchObject({
      status: 'CRIADA',
      politicaRetentativa: 'PERMITE_3R_7D',
      ativacao: { tipoJornada: 'AGUARDANDO_DEFINICAO' },
    });
    expect(created.idRec).toMatch(new RegExp(`^RR99999010${day(0).replace(/-/g, '')}[a-zA-Z0-9]{11}$`));
    expect(checkIdRec(created.idRec).valid).toBe(true);
    expect((await recurrence({ politicaRetentativa: 'NAO_PERMITE' })).idRec).toMatch(/^RN/);
    expect(await client.rec.get({ path: { idRec: created.idRec } })).toMatchObject({ idRec: created.idRec, status: 'CRIADA' });
    const query = { ...window(), status: 'CRIADA' as const, cpf: '12345678909' };
    const listed = await client.rec.list({ query });
    expect(listed.recs.map((rec) => rec.idRec)).toContain(created.idRec);
    // The filters given are echoed in `parametros` (the agreement under `recebedor`), beside the page.
    const { paginacao, ...echoed } = (await client.rec.list({ query: { ...query, convenio: 'C-1' } })).parametros;
    expect([echoed, paginacao.paginaAtual]).toEqual([
      { inicio: query.inicio, fim: query.fim, cpf: query.cpf, status: query.status, recebedor: { convenio: 'C-1' } },
      0,
    ]);
  });

  it('dataFinal before dataInicial: the client refuses it, and the sandbox answers 400 RecOperacaoInvalida', async () => {
    const calendario = { dataInicial: day(5), dataFinal: day(2), periodicidade: 'MENSAL' };
    await expect(recurrence({ calendario })).rejects.toBeInstanceOf(ValidationError);
    const body = {
      vinculo: { contrato: 'CT-9', devedor: { cpf: '12345678909', nome: 'X' } },
      calendario,
      politicaRetentativa: 'NAO_PERMITE',
    };
    const answer = await raw('POST', '/rec', body);
    expect(answer.status).toBe(400);
    expect(answer.body.type).toMatch(/\/RecOperacaoInvalida$/);
    expect(answer.body.violacoes.map((v: { propriedade: string }) => v.propriedade)).toContain('calendario.dataFinal');
  });

  it('a location links to one recurrence, serves its QR code (JORNADA_2, composite with a cob), and is detached', async () => {
    const location = await client.locrec.create({ body: { tipo: 'rec' } });
    const created = await recurrence({ loc: location.id });
    expect(created.loc).toMatchObject({ id: location.id, idRec: created.idRec });
    expect(await client.locrec.get({ path: { id: String(location.id) } })).toMatchObject({ idRec: created.idRec });
    const read = await client.rec.get({ path: { idRec: created.idRec } });
    const code = parseBrCode(read.dadosQR!.pixCopiaECola!);
    expect(code.valid && [code.value.kind, code.value.recurrenceUrl]).toEqual(['recurrence', location.location]);
    // What the payer's app reads at the location (the pix-location module, from this module's state).
    expect((await client.locations.rec(`http://${location.location}`)).payload).toMatchObject({ idRec: created.idRec });
    const txid = generateTxid();
    await client.cob.replace({
      path: { txid },
      body: { calendario: { expiracao: 600 }, valor: { original: '10.00' }, chave: '11222333000181' },
    });
    const composite = (await client.rec.get({ path: { idRec: created.idRec }, query: { txid } })).dadosQR;
    const both = parseBrCode(composite!.pixCopiaECola!);
    expect([composite?.jornada, both.valid && both.value.kind, both.valid && both.value.recurrenceUrl]).toEqual([
      'JORNADA_3',
      'dynamic',
      location.location,
    ]);
    expect((await problemOf(recurrence({ loc: location.id }))).errorType).toBe('RecOperacaoInvalida');
    await client.locrec.unlinkIdRec({ path: { id: String(location.id) } });
    expect((await client.rec.get({ path: { idRec: created.idRec } })).loc).toBeUndefined();
    const free = await client.locrec.list({ query: { ...window(), idRecPresente: false } });
    expect(free.loc.map((entry) => entry.id)).toContain(location.id);
    expect(Object.keys(free.parametros)).toEqual(['inicio', 'fim', 'idRecPresente', 'paginacao']);
    expect(free.parametros.idRecPresente).toBe(false);
    expect((await problemOf(client.locrec.get({ path: { id: '999999' } }))).errorType).toBe('PayloadLocationRecNaoEncontrado');
  });

  it('PATCH changes its terms while CRIADA, cancels it alone; a second cancel and a change after approval are 400', async () => {
    const { idRec } = await recurrence();
    const revised = await client.rec.revise({
      path: { idRec },
      body: { vinculo: { devedor: { nome: 'Mariana Costa Alves' } }, calendario: { dataInicial: day(2) } },
    });
    expect(revised).toMatchObject({ vinculo: { devedor: { nome: 'Mariana Costa Alves' } }, calendario: { dataInicial: day(2) } });
    const cancelled = await client.rec.revise({ path: { idRec }, body: { status: 'CANCELADA' } });
    expect(cancelled).toMatchObject({ status: 'CANCELADA', encerramento: { cancelamento: { solicitante: 'USUARIO_RECEBEDOR' } } });
    expect((await problemOf(client.rec.revise({ path: { idRec }, body: { status: 'CANCELADA' } }))).errorType).toBe('RecOperacaoInvalida');
    const other = await approved();
    const change = client.rec.revise({ path: { idRec: other }, body: { calendario: { dataInicial: day(3) } } });
    expect((await problemOf(change)).errorType).toBe('RecOperacaoInvalida');
    expect((await problemOf(client.rec.get({ path: { idRec: `RR99999010${day(0).replace(/-/g, '')}zzzzzzzzzzz` } }))).errorType).toBe(
      'RecNaoEncontrada',
    );
    await expect(control(sandbox, '/pix/rec', { idRec: other, status: 'REJEITADA' })).rejects.toThrow(/409.*APROVADA/);
  });
});

describe('confirmation requests', () => {
  const request = (idRec: string, expiresInSeconds = 3600) =>
    client.solicrec.create({
      body: {
        idRec,
        calendario: { dataExpiracaoSolicitacao: new Date(sandbox.env.clock.nowMs() + expiresInSeconds * 1000).toISOString() },
        destinatario: { conta: '998877', ispbParticipante: '99999020', cpf: '12345678909' },
      },
    });

  it('created CRIADA with the recurrence shown; one active per recurrence; cancelled from RECEBIDA, not twice', async () => {
    const { idRec } = await recurrence();
    const created = await request(idRec);
    expect(created).toMatchObject({ idRec, status: 'CRIADA', recPayload: { idRec, recebedor: { ispbParticipante: '99999010' } } });
    expect(created.idSolicRec).toMatch(/^SC99999010\d{8}[a-zA-Z0-9]{11}$/);
    expect((await problemOf(request(idRec))).errorType).toBe('SolicRecOperacaoInvalida');
    await control(sandbox, '/pix/solicrec', { idSolicRec: created.idSolicRec, status: 'RECEBIDA' });
    const cancelled = await client.solicrec.revise({ path: { idSolicRec: created.idSolicRec }, body: { status: 'CANCELADA' } });
    expect(cancelled.atualizacao.map((entry) => entry.status)).toEqual(['CRIADA', 'ENVIADA', 'RECEBIDA', 'CANCELADA']);
    const again = client.solicrec.revise({ path: { idSolicRec: created.idSolicRec }, body: { status: 'CANCELADA' } });
    expect((await problemOf(again)).errorType).toBe('SolicRecOperacaoInvalida');
    expect((await request(idRec)).status).toBe('CRIADA');
  });

  it('accepted by the payer: the recurrence APROVADA (JORNADA_1), notified at /rec once; a resend is a duplicate', async () => {
    await client.webhookRec.configure({ body: { webhookUrl: `${receiver.url}/hooks` } });
    const { idRec } = await recurrence();
    const { idSolicRec } = await request(idRec);
    await control(sandbox, '/pix/solicrec', { idSolicRec, status: 'ACEITA' });
    const read = await client.rec.get({ path: { idRec } });
    expect(read).toMatchObject({ status: 'APROVADA', ativacao: { tipoJornada: 'JORNADA_1' }, pagador: { ispbParticipante: '99999020' } });
    expect(read.solicitacao?.[0]).toMatchObject({ idSolicRec, status: 'ACEITA' });
    await waitFor(() => handled.includes(`rec:${idRec}:APROVADA`));
    await waitFor(async () => (await deliveries(sandbox)).some((entry) => entry.label === 'rec' && entry.state === 'delivered'));
    const delivery = (await deliveries(sandbox)).filter((entry) => entry.label === 'rec' && entry.state === 'delivered').at(-1)!;
    await control(sandbox, `/deliveries/${delivery.id}/resend`);
    await waitFor(async () => (await deliveries(sandbox)).find((entry) => entry.id === delivery.id)?.attempts.length === 2);
    expect(handled.filter((entry) => entry === `rec:${idRec}:APROVADA`)).toHaveLength(1);
    const cancel = client.solicrec.revise({ path: { idSolicRec }, body: { status: 'CANCELADA' } });
    expect((await problemOf(cancel)).errorType).toBe('SolicRecOperacaoInvalida');
  });

  it('refused by the payer, the recurrence is REJEITADA and takes no more requests; an unanswered one expires', async () => {
    const { idRec } = await recurrence();
    const { idSolicRec } = await request(idRec);
    await control(sandbox, '/pix/solicrec', { idSolicRec, status: 'REJEITADA' });
    expect(await client.rec.get({ path: { idRec } })).toMatchObject({
      status: 'REJEITADA',
      encerramento: { rejeicao: { codigo: 'AP13' } },
    });
    expect((await problemOf(request(idRec))).errorType).toBe('SolicRecOperacaoInvalida');
    const pending = await request((await recurrence()).idRec, 60);
    await control(sandbox, '/clock', { advanceSeconds: 120 });
    expect(await client.solicrec.get({ path: { idSolicRec: pending.idSolicRec } })).toMatchObject({ status: 'EXPIRADA' });
    const unknown = client.solicrec.get({ path: { idSolicRec: `SC99999010${day(0).replace(/-/g, '')}zzzzzzzzzzz` } });
    expect((await problemOf(unknown)).errorType).toBe('SolicRecNaoEncontrada');
  });
});

describe('recurring charges', () => {
  it('created CRIADA, ATIVA once the payer PSP schedules it, CONCLUIDA when settled; notified at /cobr once', async () => {
    await client.webhookCobR.configure({ body: { webhookUrl: `${receiver.url}/hooks` } });
    expect(await client.webhookCobR.get()).toMatchObject({ webhookUrl: expect.stringMatching(/\/hooks$/) });
    const created = await recurringCharge(await approved(), day(2));
    expect(created).toMatchObject({
      status: 'CRIADA',
      valor: { original: '49.90' },
      recebedor: { conta: '1234567', cnpj: '11222333000181' },
    });
    await control(sandbox, '/clock', { advanceSeconds: attemptScheduledAfterSeconds + 1 });
    const active = await client.cobr.get({ path: { txid: created.txid } });
    expect(active).toMatchObject({ status: 'ATIVA', tentativas: [{ tipo: 'AGND', status: 'AGENDADA', dataLiquidacao: day(2) }] });
    const paid = await control(sandbox, '/pix/cobr', { txid: created.txid, status: 'PAGA' });
    expect(paid).toMatchObject({ status: 'CONCLUIDA', pix: [{ txid: created.txid, valor: '49.90' }] });
    expect(await client.pix.get({ path: { e2eid: paid.pix[0].endToEndId } })).toMatchObject({ txid: created.txid });
    await waitFor(() => handled.includes(`cobr:${created.txid}:CONCLUIDA:PAGA`));
    const listed = await client.cobr.list({ query: { ...window(), idRec: created.idRec } });
    expect(listed.cobsr.map((charge) => charge.status)).toEqual(['CONCLUIDA']);
    expect(Object.keys(listed.parametros)).toEqual(['inicio', 'fim', 'idRec', 'paginacao']);
    expect(listed.parametros.idRec).toBe(created.idRec);
  });

  it.each([
    { given: 'a recurrence not yet approved', make: async () => (await recurrence()).idRec, valor: '49.90', want: /APROVADA/ },
    { given: 'another amount than the fixed one', make: () => approved(), valor: '50.00', want: /fixed amount/ },
  ])('POST /cobr refuses $given with 400 CobROperacaoInvalida', async ({ make, valor, want }) => {
    const problem = await problemOf(recurringCharge(await make(), day(2), valor));
    expect([problem.status, problem.errorType]).toEqual([400, 'CobROperacaoInvalida']);
    expect(problem.message).toMatch(want);
  });

  it('PUT /cobr/{txid} creates under the txid, once; a second charge in the cycle, another account, an unknown idRec are refused', async () => {
    const idRec = await approved();
    const txid = generateTxid();
    const body = {
      idRec,
      calendario: { dataDeVencimento: day(2) },
      valor: { original: '49.90' },
      ajusteDiaUtil: false,
      recebedor: account,
    };
    expect(await client.cobr.replace({ path: { txid }, body })).toMatchObject({ txid, status: 'CRIADA' });
    expect((await problemOf(client.cobr.replace({ path: { txid }, body }))).message).toMatch(/already in use/);
    expect((await problemOf(recurringCharge(idRec, day(3)))).message).toMatch(/already open in this cycle/);
    const elsewhere = client.cobr.create({ body: { ...body, idRec: await approved(), recebedor: { ...account, conta: '7654321' } } });
    expect((await problemOf(elsewhere)).message).toMatch(/not one of the receiving user/);
    expect((await problemOf(recurringCharge(`RR99999010${day(0).replace(/-/g, '')}zzzzzzzzzzz`, day(2)))).errorType).toBe('NaoEncontrado');
  });

  it('PATCH cancels it before its due date (attempt CANCELADA), not twice, and not on the due date', async () => {
    const created = await recurringCharge(await approved(), day(3));
    const cancelled = await client.cobr.revise({ path: { txid: created.txid }, body: { status: 'CANCELADA' } });
    expect(cancelled).toMatchObject({
      status: 'CANCELADA',
      tentativas: [{ status: 'CANCELADA' }],
      encerramento: { cancelamento: { codigo: 'SLCR' } },
    });
    expect((await problemOf(client.cobr.revise({ path: { txid: created.txid }, body: { status: 'CANCELADA' } }))).errorType).toBe(
      'CobROperacaoInvalida',
    );
    const dueToday = await recurringCharge(await approved({ calendario: { dataInicial: day(0), periodicidade: 'MENSAL' } }), day(0));
    const late = await problemOf(client.cobr.revise({ path: { txid: dueToday.txid }, body: { status: 'CANCELADA' } }));
    expect([late.errorType, late.message]).toEqual([
      'CobROperacaoInvalida',
      expect.stringMatching(/expected first settlement date .*cancelled only before that date.*\(R-B-cobr-cancel\)/),
    ]);
    expect((await problemOf(client.cobr.get({ path: { txid: generateTxid() } }))).errorType).toBe('CobRNaoEncontrado');
  });

  it('a retry: refused while an attempt is pending, for today, past the window or under NAO_PERMITE; else a new NTAG attempt', async () => {
    const { txid } = await recurringCharge(await approved(), day(1));
    expect((await problemOf(client.cobr.retry({ path: { txid, data: day(3) } }))).message).toMatch(/SOLICITADA/);
    await control(sandbox, '/pix/cobr', { txid, status: 'REJEITADA' });
    const today = await raw('POST', `/cobr/${txid}/retentativa/${day(0)}`);
    expect([today.status, today.body.type]).toEqual([400, expect.stringMatching(/\/CobROperacaoInvalida$/)]);
    expect((await problemOf(client.cobr.retry({ path: { txid, data: day(12) } }))).message).toMatch(/7 days after the due date/);
    const retried = await client.cobr.retry({ path: { txid, data: day(3) } });
    expect(retried.tentativas?.map((attempt) => [attempt.tipo, attempt.status])).toEqual([
      ['AGND', 'REJEITADA'],
      ['NTAG', 'SOLICITADA'],
    ]);
    await waitFor(() => handled.includes(`cobr:${txid}:CRIADA:REJEITADA,SOLICITADA`));
    const strict = await recurringCharge(
      await approved({ politicaRetentativa: 'NAO_PERMITE', valor: { valorMinimoRecebedor: '10.00' } }),
      day(1),
      '80.00',
    );
    expect((await problemOf(client.cobr.retry({ path: { txid: strict.txid, data: day(3) } }))).message).toMatch(/does not allow retries/);
    expect((await control(sandbox, '/pix/cobr', { txid: strict.txid, status: 'REJEITADA', codigo: 'AM02' })).status).toBe('EXPIRADA');
    const ended = await recurringCharge(await approved(), day(1));
    expect(
      await control(sandbox, '/pix/cobr', { txid: ended.txid, status: 'REJEITADA', codigo: 'MD06' }).catch((e: Error) => e.message),
    ).toMatch(/codigo/);
    expect((await control(sandbox, '/pix/cobr', { txid: ended.txid, status: 'REJEITADA', codigo: 'AC05' })).status).toBe('REJEITADA');
  });
});

describe('webhooks of recurrences and recurring charges', () => {
  it('PUT, GET, DELETE /webhookrec; a GET or DELETE with none configured is 404 NaoEncontrado', async () => {
    await client.webhookRec.configure({ body: { webhookUrl: 'https://hooks.example.com/pix' } });
    expect(await client.webhookRec.get()).toMatchObject({ webhookUrl: 'https://hooks.example.com/pix' });
    await client.webhookRec.delete();
    expect((await problemOf(client.webhookRec.get())).errorType).toBe('NaoEncontrado');
    expect((await problemOf(client.webhookRec.delete())).errorType).toBe('NaoEncontrado');
    await client.webhookCobR.delete();
    expect((await problemOf(client.webhookCobR.get())).errorType).toBe('NaoEncontrado');
  });
});

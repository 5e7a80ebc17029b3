/**
 * The Pix sandbox holds no copy of a rule the package exports: a request breaking a rule of the schema or a
 * cross-field check (a removal sent alone, recurrence dates in order, due dates and retries against today,
 * a confirmation request not expired at birth) is refused by the engine with the check's own words, before
 * any handler, and a valid one goes through as before; the state rule the sandbox keeps (only an ATIVA
 * charge changes) answers the words of checkChargeChangeable, as the client would have said them, also for
 * an entry of a batch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTxid } from '../../src/formats/pix.js';
import { dueDateNotBeforeToday, requestExpiryNotPast, retryDateInTheFuture } from '../../src/pix/clock-rules.js';
import { checkChargeChangeable, type PixClient } from '../../src/pix/index.js';
import { recDatesInOrder, removalAlone } from '../../src/pix/rules.js';
import { todayInSaoPaulo } from '../../src/rules/cross-field.js';
import type { CrossFieldCheck } from '../../src/runtime/cross-field.js';
import { batchProcessedAfterSeconds } from '../../src/sandbox/pix/batches.js';
import { pixSandbox } from '../../src/sandbox/pix/index.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { closeAll, control, expectNoNewDrifts, pixClientOf, startSeeded } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let client: PixClient;
const key = 'cobrancas@sandbox.example.com';
const removed = 'REMOVIDA_PELO_USUARIO_RECEBEDOR';

beforeAll(async () => {
  sandbox = await startSeeded('pix-rules-once', [pixSandbox]);
  client = pixClientOf(sandbox);
});
afterAll(() => closeAll(sandbox, [client]));
expectNoNewDrifts(() => sandbox);

/** A request past the client's own checks: the status and the JSON answer of the sandbox. */
async function raw(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const { access_token: token } = await client.auth.token({ body: { grant_type: 'client_credentials' } });
  const answer = await fetch(`${sandbox.urlOf('pix')}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.text();
  return { status: answer.status, body: text === '' ? null : JSON.parse(text) };
}

const day = (days: number): string => todayInSaoPaulo(new Date(sandbox.env.clock.nowMs() + days * 86_400_000));
/** The one message `check` gives for `request`, on the sandbox's clock. */
const wordsOf = (check: CrossFieldCheck, request: Parameters<CrossFieldCheck['check']>[0]): string => {
  const issues = check.check(request, { now: sandbox.env.clock.now() });
  expect(issues).toHaveLength(1);
  return issues[0]!.message;
};

const cob = async (): Promise<string> => {
  const txid = generateTxid();
  await client.cob.replace({ path: { txid }, body: { calendario: {}, valor: { original: '10.00' }, chave: key } });
  return txid;
};
const cobv = async (): Promise<string> => {
  const txid = generateTxid();
  const body = { calendario: { dataDeVencimento: day(10) }, devedor: { cpf: '12345678909', nome: 'Mariana Costa' } };
  await client.cobv.replace({ path: { txid }, body: { ...body, valor: { original: '10.00' }, chave: key } });
  return txid;
};
const recurrenceBody = (calendario: Record<string, unknown>) => ({
  vinculo: { contrato: 'CT-1', devedor: { cpf: '12345678909', nome: 'Mariana Costa' } },
  calendario: { periodicidade: 'MENSAL', ...calendario },
  valor: { valorRec: '49.90' },
  politicaRetentativa: 'PERMITE_3R_7D',
});
const approvedRecurrence = async (): Promise<string> => {
  const created = await raw('POST', '/rec', recurrenceBody({ dataInicial: day(1) }));
  expect(created.status).toBe(201);
  await control(sandbox, '/pix/rec', { idRec: created.body.idRec, status: 'APROVADA' });
  return created.body.idRec;
};
const recurringChargeBody = (idRec: string, dataDeVencimento: string) => ({
  idRec,
  calendario: { dataDeVencimento },
  valor: { original: '49.90' },
  ajusteDiaUtil: true,
  recebedor: { agencia: '0001', conta: '1234567', tipoConta: 'CORRENTE' },
});
/** A recurring charge whose first attempt failed: it takes a retry. */
const chargeAwaitingRetry = async (): Promise<string> => {
  const created = await raw('POST', '/cobr', recurringChargeBody(await approvedRecurrence(), day(1)));
  expect(created.status).toBe(201);
  await control(sandbox, '/pix/cobr', { txid: created.body.txid, status: 'REJEITADA' });
  return created.body.txid;
};
const confirmationBody = (idRec: string, expiresInMs: number) => ({
  idRec,
  calendario: { dataExpiracaoSolicitacao: new Date(sandbox.env.clock.nowMs() + expiresInMs).toISOString() },
  destinatario: { conta: '998877', ispbParticipante: '99999020', cpf: '12345678909' },
});

interface Case {
  readonly given: string;
  /** The request, after what it needs was made. */
  readonly send: () => Promise<{ method: string; path: string; body?: unknown }>;
  /** The status answered; for a refusal, its type, the property it names and the words of the check that refused it. */
  readonly want: { status: number; type?: string; property?: string; reason?: () => string | RegExp };
}

const cases: Case[] = [
  {
    given: 'PATCH /cob with a status other than the removal (the schema)',
    send: async () => ({ method: 'PATCH', path: `/cob/${await cob()}`, body: { status: 'CONCLUIDA' } }),
    want: { status: 400, type: 'CobOperacaoInvalida', property: 'status' },
  },
  {
    given: 'PATCH /cob with a removal and another change (removalAlone)',
    send: async () => ({ method: 'PATCH', path: `/cob/${await cob()}`, body: { status: removed, solicitacaoPagador: 'x' } }),
    want: {
      status: 400,
      type: 'CobOperacaoInvalida',
      property: 'status',
      reason: () => wordsOf(removalAlone, { body: { status: removed, solicitacaoPagador: 'x' } }),
    },
  },
  {
    given: 'PATCH /cob with a removal alone',
    send: async () => ({ method: 'PATCH', path: `/cob/${await cob()}`, body: { status: removed } }),
    want: { status: 200 },
  },
  {
    given: 'PATCH /cobv with a removal and another change (removalAlone)',
    send: async () => ({ method: 'PATCH', path: `/cobv/${await cobv()}`, body: { status: removed, valor: { original: '1.00' } } }),
    want: {
      status: 400,
      type: 'CobVOperacaoInvalida',
      property: 'status',
      reason: () => wordsOf(removalAlone, { body: { status: removed, valor: {} } }),
    },
  },
  {
    given: 'POST /rec ending before it starts (recDatesInOrder)',
    send: async () => ({ method: 'POST', path: '/rec', body: recurrenceBody({ dataInicial: day(5), dataFinal: day(2) }) }),
    want: {
      status: 400,
      type: 'RecOperacaoInvalida',
      property: 'calendario.dataFinal',
      reason: () => wordsOf(recDatesInOrder, { body: { calendario: { dataInicial: day(5), dataFinal: day(2) } } }),
    },
  },
  {
    given: 'POST /rec ending the day it starts',
    send: async () => ({ method: 'POST', path: '/rec', body: recurrenceBody({ dataInicial: day(5), dataFinal: day(5) }) }),
    want: { status: 201 },
  },
  {
    given: 'POST /cobr due yesterday (dueDateNotBeforeToday)',
    send: async () => ({ method: 'POST', path: '/cobr', body: recurringChargeBody(await approvedRecurrence(), day(-1)) }),
    want: {
      status: 400,
      type: 'CobROperacaoInvalida',
      property: 'calendario.dataDeVencimento',
      reason: () => wordsOf(dueDateNotBeforeToday, { body: { calendario: { dataDeVencimento: day(-1) } } }),
    },
  },
  {
    given: 'POST /cobr due within the recurrence',
    send: async () => ({ method: 'POST', path: '/cobr', body: recurringChargeBody(await approvedRecurrence(), day(1)) }),
    want: { status: 201 },
  },
  {
    given: 'POST /cobr/{txid}/retentativa for today (retryDateInTheFuture)',
    send: async () => ({ method: 'POST', path: `/cobr/${await chargeAwaitingRetry()}/retentativa/${day(0)}` }),
    want: {
      status: 400,
      type: 'CobROperacaoInvalida',
      property: 'data',
      reason: () => wordsOf(retryDateInTheFuture, { path: { data: day(0) } }),
    },
  },
  {
    given: 'POST /cobr/{txid}/retentativa for a coming day',
    send: async () => ({ method: 'POST', path: `/cobr/${await chargeAwaitingRetry()}/retentativa/${day(3)}` }),
    want: { status: 201 },
  },
  {
    given: 'POST /solicrec expiring before it is made (requestExpiryNotPast)',
    send: async () => {
      const { body } = await raw('POST', '/rec', recurrenceBody({ dataInicial: day(1) }));
      return { method: 'POST', path: '/solicrec', body: confirmationBody(body.idRec, -60_000) };
    },
    want: {
      status: 400,
      type: 'SolicRecOperacaoInvalida',
      property: 'calendario.dataExpiracaoSolicitacao',
      // The check names the instant it ran at: its words up to that instant.
      reason: () => {
        const words = wordsOf(requestExpiryNotPast, { body: { calendario: { dataExpiracaoSolicitacao: '2000-01-01T00:00:00Z' } } });
        return words.slice(0, words.indexOf('('));
      },
    },
  },
  {
    given: 'POST /solicrec expiring in an hour',
    send: async () => {
      const { body } = await raw('POST', '/rec', recurrenceBody({ dataInicial: day(1) }));
      return { method: 'POST', path: '/solicrec', body: confirmationBody(body.idRec, 3_600_000) };
    },
    want: { status: 201 },
  },
];

describe('rules of the schema and the cross-field checks, checked once by the engine', () => {
  it.each(cases)('$given: $want.status', async ({ send, want }) => {
    const { method, path, body } = await send();
    const answer = await raw(method, path, body);
    expect(answer.status).toBe(want.status);
    if (want.type === undefined) return;
    expect(answer.body.type).toMatch(new RegExp(`/${want.type}$`));
    const violation = answer.body.violacoes.find((entry: { propriedade: string }) => entry.propriedade === want.property);
    expect(violation).toBeDefined();
    if (want.reason) expect(violation.razao).toMatch(want.reason());
  });
});

describe('the state rule kept by the sandbox: only an ATIVA charge changes', () => {
  it.each([
    { given: 'PATCH /cob', kind: 'cob', make: cob },
    { given: 'PATCH /cobv', kind: 'cobv', make: cobv },
  ])('$given of a removed charge answers the words of checkChargeChangeable', async ({ kind, make }) => {
    const txid = await make();
    expect((await raw('PATCH', `/${kind}/${txid}`, { status: removed })).status).toBe(200);
    const again = await raw('PATCH', `/${kind}/${txid}`, { solicitacaoPagador: 'x' });
    const [want] = checkChargeChangeable({ status: removed });
    expect([again.status, again.body.type, again.body.detail]).toEqual([400, expect.stringMatching(/OperacaoInvalida$/), want!.message]);
  });

  it('a batch entry: a removal with another change is NEGADA by removalAlone; a change of a removed charge by checkChargeChangeable', async () => {
    const [batch, txid] = ['7001', generateTxid()];
    const settledEntry = async () => {
      await control(sandbox, '/clock', { advanceSeconds: batchProcessedAfterSeconds + 1 });
      return (await raw('GET', `/lotecobv/${batch}`)).body.cobsv[0];
    };
    const charge = { txid, calendario: { dataDeVencimento: day(10) }, devedor: { cpf: '12345678909', nome: 'Mariana Costa' } };
    const created = await raw('PUT', `/lotecobv/${batch}`, {
      descricao: 'Regras',
      cobsv: [{ ...charge, valor: { original: '1.00' }, chave: key }],
    });
    expect(created.status).toBe(202);
    expect((await settledEntry()).status).toBe('CRIADA');
    const revise = async (change: Record<string, unknown>) => {
      expect((await raw('PATCH', `/lotecobv/${batch}`, { cobsv: [{ txid, ...change }] })).status).toBe(202);
      return settledEntry();
    };

    const combined = await revise({ status: removed, solicitacaoPagador: 'x' });
    expect(combined).toMatchObject({ status: 'NEGADA', problema: { violacoes: [{ propriedade: 'status' }] } });
    expect(combined.problema.violacoes[0].razao).toBe(wordsOf(removalAlone, { body: { status: removed, solicitacaoPagador: 'x' } }));
    expect((await revise({ status: removed })).status).toBe('CRIADA');
    const [want] = checkChargeChangeable({ status: removed });
    expect(await revise({ solicitacaoPagador: 'x' })).toMatchObject({ status: 'NEGADA', problema: { detail: want!.message } });
  });
});

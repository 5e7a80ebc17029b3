/**
 * The checks a caller runs with what it read before changing a charge, a batch charge, a confirmation
 * request or a recurring charge (section 3): the PSP's 400 foreseen without a call. Given the value read, want no issue or the
 * issue naming the field and the rule.
 */
import { describe, expect, it } from 'vitest';
import {
  checkBatchChargeChangeable,
  checkChargeChangeable,
  checkConfirmationCancellable,
  checkRecurringChargeCancellable,
} from '../../src/pix/index.js';

const summary = (issues: readonly { pointer: string; rule: string; message: string }[]) =>
  issues.map((issue) => `${issue.pointer} ${issue.rule}: ${issue.message}`);

describe('R-B-cob-not-ativa-immutable, R-B-err-CobOperacaoInvalida-6, R-B-err-CobOperacaoInvalida-7, R-B-err-CobVOperacaoInvalida-12: checkChargeChangeable', () => {
  it.each([
    { given: 'ATIVA', status: 'ATIVA', want: [] },
    { given: 'CONCLUIDA', status: 'CONCLUIDA', want: [/^\/status R-B-cob-not-ativa-immutable: status "CONCLUIDA": only an ATIVA charge/] },
    {
      given: 'REMOVIDA_PELO_USUARIO_RECEBEDOR',
      status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR',
      want: [/400 CobOperacaoInvalida or CobVOperacaoInvalida/],
    },
    { given: 'REMOVIDA_PELO_PSP', status: 'REMOVIDA_PELO_PSP', want: [/REMOVIDA_PELO_PSP/] },
    { given: 'a status unknown to this release', status: 'SUSPENSA', want: [/"SUSPENSA"/] },
    { given: 'no status', status: undefined, want: [/status missing/] },
  ])('$given', ({ status, want }) => {
    const issues = summary(checkChargeChangeable({ status } as Parameters<typeof checkChargeChangeable>[0]));
    expect(issues).toHaveLength(want.length);
    for (const [index, pattern] of want.entries()) expect(issues[index]).toMatch(pattern);
  });
});

describe('R-B-err-CobVOperacaoInvalida-1: checkBatchChargeChangeable', () => {
  const batch = {
    cobsv: [
      { txid: 'fatura202504loja01cond0001', status: 'CRIADA' },
      { txid: 'fatura202504loja01cond0002', status: 'EM_PROCESSAMENTO' },
      { txid: 'fatura202504loja01cond0003', status: 'NEGADA' },
    ],
  };
  it.each([
    { given: 'a charge the batch created', txid: 'fatura202504loja01cond0001', want: [] },
    { given: 'a txid the batch does not list', txid: 'fatura202504loja01cond0099', want: [] },
    {
      given: 'a charge still being created',
      txid: 'fatura202504loja01cond0002',
      want: [
        /^\/cobsv\/1\/status R-B-err-CobVOperacaoInvalida-1: charge fatura202504loja01cond0002 is EM_PROCESSAMENTO in its batch: the batch is still creating it/,
      ],
    },
    {
      given: 'a charge the batch refused',
      txid: 'fatura202504loja01cond0003',
      want: [/^\/cobsv\/2\/status .*NEGADA in its batch: the batch refused it \(see its problema\)/],
    },
  ])('$given', ({ txid, want }) => {
    const issues = summary(checkBatchChargeChangeable(batch as Parameters<typeof checkBatchChargeChangeable>[0], txid));
    expect(issues).toHaveLength(want.length);
    for (const [index, pattern] of want.entries()) expect(issues[index]).toMatch(pattern);
  });
});

describe('R-B-solicrec-cancel, R-B-err-SolicRecOperacaoInvalida-4: checkConfirmationCancellable', () => {
  it.each([
    { given: 'CRIADA', status: 'CRIADA', want: [] },
    { given: 'ENVIADA', status: 'ENVIADA', want: [] },
    { given: 'RECEBIDA', status: 'RECEBIDA', want: [] },
    {
      given: 'ACEITA',
      status: 'ACEITA',
      want: [/^\/status R-B-solicrec-cancel: status "ACEITA": a confirmation request is cancelled only while CRIADA, ENVIADA or RECEBIDA/],
    },
    { given: 'CANCELADA', status: 'CANCELADA', want: [/400 SolicRecOperacaoInvalida/] },
    { given: 'EXPIRADA', status: 'EXPIRADA', want: [/"EXPIRADA"/] },
    { given: 'no status', status: undefined, want: [/status missing/] },
  ])('$given', ({ status, want }) => {
    const issues = summary(checkConfirmationCancellable({ status } as Parameters<typeof checkConfirmationCancellable>[0]));
    expect(issues).toHaveLength(want.length);
    for (const [index, pattern] of want.entries()) expect(issues[index]).toMatch(pattern);
  });
});

describe('R-B-cobr-cancel, R-B-err-CobROperacaoInvalida-6: checkRecurringChargeCancellable', () => {
  // 15:00 UTC is noon in São Paulo: today there is 2026-11-21.
  const noon = new Date('2026-11-21T15:00:00Z');
  const attempt = (dataLiquidacao: string, tipo = 'AGND') => ({
    dataLiquidacao,
    tipo,
    status: 'SOLICITADA',
    endToEndId: 'E0000000020261121150012345678901',
  });
  const charge = (changes: Record<string, unknown>) => ({ status: 'ATIVA', calendario: { dataDeVencimento: '2026-11-25' }, ...changes });
  it.each([
    {
      given: 'ajusteDiaUtil false, due tomorrow',
      read: charge({ ajusteDiaUtil: false, calendario: { dataDeVencimento: '2026-11-22' } }),
      want: [],
    },
    {
      given: 'ajusteDiaUtil false, due today',
      read: charge({ ajusteDiaUtil: false, calendario: { dataDeVencimento: '2026-11-21' } }),
      want: [
        /^\/calendario\/dataDeVencimento R-B-cobr-cancel: 2026-11-21 is the expected first settlement date and today is 2026-11-21 in São Paulo: a recurring charge is cancelled only before that date/,
      ],
    },
    {
      given: 'ajusteDiaUtil false, due yesterday',
      read: charge({ ajusteDiaUtil: false, calendario: { dataDeVencimento: '2026-11-20' } }),
      want: [/400 CobROperacaoInvalida/],
    },
    // The due date may move to a later business day by the payer's local holidays: only the PSP knows.
    {
      given: 'ajusteDiaUtil true, due today, no attempt shown',
      read: charge({ ajusteDiaUtil: true, calendario: { dataDeVencimento: '2026-11-21' } }),
      want: [],
    },
    {
      given: 'ajusteDiaUtil left out (true), due today, no attempt shown',
      read: charge({ calendario: { dataDeVencimento: '2026-11-21' } }),
      want: [],
    },
    {
      given: 'ajusteDiaUtil true, due on a Saturday, its attempt moved to Monday',
      read: charge({ ajusteDiaUtil: true, calendario: { dataDeVencimento: '2026-11-21' }, tentativas: [attempt('2026-11-23')] }),
      want: [],
    },
    {
      given: 'ajusteDiaUtil true, its attempt settling today',
      read: charge({ ajusteDiaUtil: true, calendario: { dataDeVencimento: '2026-11-20' }, tentativas: [attempt('2026-11-21')] }),
      want: [/^\/tentativas\/0\/dataLiquidacao R-B-cobr-cancel: 2026-11-21 is the expected first settlement date/],
    },
    {
      given: 'attempts listed newest first, the earliest one past',
      read: charge({ tentativas: [attempt('2026-11-24', 'RIFL'), attempt('2026-11-19')] }),
      want: [/^\/tentativas\/1\/dataLiquidacao R-B-cobr-cancel: 2026-11-19 is/],
    },
    { given: 'CRIADA, due later', read: charge({ status: 'CRIADA', ajusteDiaUtil: false }), want: [] },
    {
      given: 'CONCLUIDA, due later',
      read: charge({ status: 'CONCLUIDA', ajusteDiaUtil: false }),
      want: [
        /^\/status R-B-cobr-cancel: status "CONCLUIDA": a recurring charge that is CONCLUIDA, EXPIRADA, REJEITADA or CANCELADA is final/,
      ],
    },
    { given: 'CANCELADA already', read: charge({ status: 'CANCELADA' }), want: [/status "CANCELADA"/] },
    { given: 'a status unknown to this release, due later', read: charge({ status: 'SUSPENSA', ajusteDiaUtil: false }), want: [] },
  ])('$given', ({ read, want }) => {
    const issues = summary(checkRecurringChargeCancellable(read as Parameters<typeof checkRecurringChargeCancellable>[0], noon));
    expect(issues).toHaveLength(want.length);
    for (const [index, pattern] of want.entries()) expect(issues[index]).toMatch(pattern);
  });

  it.each([
    { given: '23:30 in São Paulo the day before the due date', now: '2026-11-22T02:30:00Z', want: 0 },
    { given: 'midnight in São Paulo on the due date', now: '2026-11-22T03:00:00Z', want: 1 },
  ])('counts days in São Paulo: $given', ({ now, want }) => {
    const read = { status: 'ATIVA', ajusteDiaUtil: false, calendario: { dataDeVencimento: '2026-11-22' } };
    expect(checkRecurringChargeCancellable(read as Parameters<typeof checkRecurringChargeCancellable>[0], new Date(now))).toHaveLength(
      want,
    );
  });
});

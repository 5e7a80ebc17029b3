/**
 * The checks a caller runs with what it read before changing a charge, a batch charge or a confirmation
 * request (section 3): the PSP's 400 foreseen without a call. Given the value read, want no issue or the
 * issue naming the field and the rule.
 */
import { describe, expect, it } from 'vitest';
import { checkBatchChargeChangeable, checkChargeChangeable, checkConfirmationCancellable } from '../../src/pix/index.js';

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

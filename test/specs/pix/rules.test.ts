/**
 * Rules of interface B (sections 2.11, 3, 4.8, 7.2 and 8) through the same path as
 * `contrato validate pix <METHOD> <path> request|response:<STATUS>`: a valid and an invalid case each,
 * built from the spec's own examples with one change; then a check that every rule of B in the
 * inventory is covered here, by the spec's shape, by another test, or has a stated reason.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../scripts/lib.js';
import { operationsOf, type JsonObject } from '../../../scripts/openapi-model.js';
import { bundledSpecPath, loadInterface } from '../../../src/checks/registry.js';
import { findOperation } from '../../../src/checks/router.js';
import { validateDocument, type ValidateTarget } from '../../../src/checks/validate.js';
import { validateRequest } from '../../../src/runtime/steps/validate.js';
import { runCrossFieldChecks } from '../../../src/rules/cross-field.js';
import { exampleCases } from '../../helpers/spec-examples.js';

const modules = await loadInterface('pix');
const document = JSON.parse(readFileSync(bundledSpecPath('pix'), 'utf8')) as JsonObject;
const operations = operationsOf(document);

function requestExample(operationId: string): Record<string, unknown> {
  const operation = operations.find((o) => o.operationId === operationId)!;
  const media = ((operation.operation.requestBody as JsonObject).content as JsonObject)[operation.requestBody!.mediaType] as JsonObject;
  return structuredClone((Object.values(media.examples as JsonObject)[0] as { value: Record<string, unknown> }).value);
}
function responseExample(operationId: string, status: string): Record<string, unknown> {
  return structuredClone(
    exampleCases(document).find((c) => c.operation.operationId === operationId && c.status === status)!.value as Record<string, unknown>,
  );
}
const txid = 'fc9a4366ff3d4964b5dbc6c91a8722d3';
const change = <T extends Record<string, unknown>>(value: T, edit: (copy: T) => void): T => {
  const copy = structuredClone(value);
  edit(copy);
  return copy;
};

interface DocumentCase {
  readonly rule: string;
  readonly given: string;
  readonly method: string;
  readonly path: string;
  readonly target: ValidateTarget;
  readonly document: unknown;
  /** `valid`, or a pattern the issue list (pointer: message) must match. */
  readonly want: 'valid' | RegExp;
}

const cob = requestExample('cob.create');
const cobv = requestExample('cobv.create');
const cobr = requestExample('cobr.create');
const cobvGet = responseExample('cobv.get', '200');
const request: ValidateTarget = { kind: 'request' };

const cases: DocumentCase[] = [
  {
    rule: 'R-B-txid-format',
    given: 'a 32-character txid',
    method: 'PUT',
    path: `/cob/${txid}`,
    target: request,
    document: cob,
    want: 'valid',
  },
  {
    rule: 'R-B-txid-format',
    given: 'a 25-character txid',
    method: 'PUT',
    path: `/cob/${'a'.repeat(25)}`,
    target: request,
    document: cob,
    want: /\/path\/txid: must be a txid/,
  },
  {
    rule: 'R-B-chave-77',
    given: 'a chave of 78 characters',
    method: 'PUT',
    path: `/cob/${txid}`,
    target: request,
    document: change(cob, (c) => (c.chave = `${'a'.repeat(66)}@padaria.com`)),
    want: /\/chave: must have at most 77 characters/,
  },
  {
    rule: 'R-B-limit-chave',
    given: 'a chave that is no Pix key',
    method: 'POST',
    path: `/cob/${txid}`,
    target: request,
    document: change(cob, (c) => (c.chave = 'not a key')),
    want: /\/chave: must be a Pix key/,
  },
  {
    rule: 'R-B-solicitacaoPagador-140',
    given: '140 characters',
    method: 'PUT',
    path: `/cob/${txid}`,
    target: request,
    document: change(cob, (c) => (c.solicitacaoPagador = 'x'.repeat(140))),
    want: 'valid',
  },
  {
    rule: 'R-B-solicitacaoPagador-140',
    given: '141 characters',
    method: 'PUT',
    path: `/cob/${txid}`,
    target: request,
    document: change(cob, (c) => (c.solicitacaoPagador = 'x'.repeat(141))),
    want: /\/solicitacaoPagador: must have at most 140/,
  },
  {
    rule: 'R-B-limit-solicitacaoPagador',
    given: '141 characters on cobv',
    method: 'PUT',
    path: `/cobv/${txid}`,
    target: request,
    document: change(cobv, (c) => (c.solicitacaoPagador = 'x'.repeat(141))),
    want: /\/solicitacaoPagador: must have at most 140/,
  },
  {
    rule: 'R-B-infoAdicionais-50',
    given: '50 elements',
    method: 'PUT',
    path: `/cob/${txid}`,
    target: request,
    document: change(cob, (c) => (c.infoAdicionais = Array.from({ length: 50 }, (_, i) => ({ nome: `n${i}`, valor: 'v' })))),
    want: 'valid',
  },
  {
    rule: 'R-B-infoAdicionais-50',
    given: '51 elements',
    method: 'PUT',
    path: `/cob/${txid}`,
    target: request,
    document: change(cob, (c) => (c.infoAdicionais = Array.from({ length: 51 }, (_, i) => ({ nome: `n${i}`, valor: 'v' })))),
    want: /\/infoAdicionais: must have at most 50 items/,
  },
  {
    rule: 'R-B-limit-infoAdicionais',
    given: '51 elements on cobv',
    method: 'PUT',
    path: `/cobv/${txid}`,
    target: request,
    document: change(cobv, (c) => (c.infoAdicionais = Array.from({ length: 51 }, (_, i) => ({ nome: `n${i}`, valor: 'v' })))),
    want: /\/infoAdicionais: must have at most 50 items/,
  },
  {
    rule: 'R-B-pixCopiaECola-512',
    given: 'the example',
    method: 'GET',
    path: `/cobv/${txid}`,
    target: { kind: 'response', status: '200' },
    document: cobvGet,
    want: 'valid',
  },
  {
    rule: 'R-B-pixCopiaECola-512',
    given: 'a broken BR Code',
    method: 'GET',
    path: `/cobv/${txid}`,
    target: { kind: 'response', status: '200' },
    document: change(cobvGet, (c) => (c.pixCopiaECola = `${String(c.pixCopiaECola).slice(0, -4)}0000`)),
    want: /\/pixCopiaECola: must be a BR Code.*CRC/,
  },
  {
    rule: 'R-B-cobv-original-nonzero',
    given: 'original 0.00',
    method: 'PUT',
    path: `/cobv/${txid}`,
    target: request,
    document: change(cobv, (c) => ((c.valor as JsonObject).original = '0.00')),
    want: /\/valor\/original/,
  },
  {
    rule: 'R-B-err-CobOperacaoInvalida-2',
    given: 'original 10,00',
    method: 'PUT',
    path: `/cob/${txid}`,
    target: request,
    document: change(cob, (c) => ((c.valor as JsonObject).original = '10,00')),
    want: /\/valor\/original: must be an amount/,
  },
  {
    rule: 'R-B-err-CobOperacaoInvalida-1',
    given: 'expiracao 0',
    method: 'PUT',
    path: `/cob/${txid}`,
    target: request,
    document: change(cob, (c) => ((c.calendario as JsonObject).expiracao = 0)),
    want: /\/calendario\/expiracao: must be at least 1|above 0/,
  },
  {
    rule: 'R-B-err-CobVOperacaoInvalida-3',
    given: 'validadeAposVencimento -1',
    method: 'PUT',
    path: `/cobv/${txid}`,
    target: request,
    document: change(cobv, (c) => ((c.calendario as JsonObject).validadeAposVencimento = -1)),
    want: /\/calendario\/validadeAposVencimento: must be at least 0/,
  },
  {
    rule: 'R-B-cobv-abatimento-desconto-below',
    given: 'a fixed discount equal to the original',
    method: 'PUT',
    path: `/cobv/${txid}`,
    target: request,
    document: change(
      cobv,
      (c) => (((c.valor as JsonObject).desconto as JsonObject).descontoDataFixa = [{ data: '2024-12-05', valorPerc: '890.00' }]),
    ),
    want: /\/valor\/desconto\/descontoDataFixa\/0\/valorPerc: must be below the original value/,
  },
  {
    rule: 'R-B-cobv-abatimento-desconto-below',
    given: 'a discount below the original',
    method: 'PUT',
    path: `/cobv/${txid}`,
    target: request,
    document: cobv,
    want: 'valid',
  },
  {
    rule: 'R-B-cobv-desconto-date',
    given: 'a discount after the due date',
    method: 'PUT',
    path: `/cobv/${txid}`,
    target: request,
    document: change(
      cobv,
      (c) => (((c.valor as JsonObject).desconto as JsonObject).descontoDataFixa = [{ data: '2030-12-11', valorPerc: '10.00' }]),
    ),
    want: /descontoDataFixa\/0\/data: must not be after the due date 2030-12-10/,
  },
  {
    rule: 'R-B-cobv-desconto-date',
    given: 'a discount on the due date',
    method: 'PUT',
    path: `/cobv/${txid}`,
    target: request,
    document: change(
      cobv,
      (c) => (((c.valor as JsonObject).desconto as JsonObject).descontoDataFixa = [{ data: '2030-12-10', valorPerc: '10.00' }]),
    ),
    want: 'valid',
  },
  {
    rule: 'R-B-cobv-desconto-modality',
    given: 'modality 1 with valorPerc',
    method: 'PUT',
    path: `/cobv/${txid}`,
    target: request,
    document: change(cobv, (c) => (((c.valor as JsonObject).desconto as JsonObject).valorPerc = '1.00')),
    want: /\/valor\/desconto/,
  },
  {
    rule: 'R-B-cobv-desconto-modality',
    given: 'modality 3 with descontoDataFixa',
    method: 'PUT',
    path: `/cobv/${txid}`,
    target: request,
    document: change(cobv, (c) => (((c.valor as JsonObject).desconto as JsonObject).modalidade = 3)),
    want: /\/valor\/desconto/,
  },
  {
    rule: 'R-B-cobv-desconto-modality',
    given: 'modality 3 with valorPerc',
    method: 'PUT',
    path: `/cobv/${txid}`,
    target: request,
    document: change(cobv, (c) => ((c.valor as JsonObject).desconto = { modalidade: 3, valorPerc: '0.50' })),
    want: 'valid',
  },
  {
    rule: 'R-B-cobv-update-status',
    given: 'removal alone',
    method: 'PATCH',
    path: `/cobv/${txid}`,
    target: request,
    document: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' },
    want: 'valid',
  },
  {
    rule: 'R-B-cobv-update-status',
    given: 'status CONCLUIDA',
    method: 'PATCH',
    path: `/cobv/${txid}`,
    target: request,
    document: { status: 'CONCLUIDA' },
    want: /\/status/,
  },
  {
    rule: 'R-B-err-CobVOperacaoInvalida-13',
    given: 'removal with a new value',
    method: 'PATCH',
    path: `/cobv/${txid}`,
    target: request,
    document: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', solicitacaoPagador: 'x' },
    want: /\/status: removing a charge cannot be combined/,
  },
  {
    rule: 'R-B-cob-remove-patch',
    given: 'removal with a new amount',
    method: 'PATCH',
    path: `/cob/${txid}`,
    target: request,
    document: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', valor: { original: '1.00' } },
    want: /\/status: removing a charge cannot be combined/,
  },
  {
    rule: 'R-B-cob-remove-patch',
    given: 'removal alone',
    method: 'PATCH',
    path: `/cob/${txid}`,
    target: request,
    document: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' },
    want: 'valid',
  },
  {
    rule: 'R-B-err-CobOperacaoInvalida-9',
    given: 'status ATIVA on PATCH',
    method: 'PATCH',
    path: `/cob/${txid}`,
    target: request,
    document: { status: 'ATIVA' },
    want: /\/status/,
  },
  {
    rule: 'R-B-idrec-format',
    given: 'an idRec starting RX',
    method: 'POST',
    path: '/cobr',
    target: request,
    document: change(cobr, (c) => (c.idRec = 'RX1314008820261105k7Q2mX9pL4a')),
    want: /\/idRec: must be an idRec/,
  },
  { rule: 'R-B-idrec-format', given: 'the example idRec', method: 'POST', path: '/cobr', target: request, document: cobr, want: 'valid' },
  {
    rule: 'R-B-cobr-infoAdicional-140',
    given: '141 characters',
    method: 'POST',
    path: '/cobr',
    target: request,
    document: change(cobr, (c) => (c.infoAdicional = 'x'.repeat(141))),
    want: /\/infoAdicional: must have at most 140/,
  },
  {
    rule: 'R-B-cobr-ajusteDiaUtil',
    given: 'ajusteDiaUtil missing',
    method: 'POST',
    path: '/cobr',
    target: request,
    document: change(cobr, (c) => delete c.ajusteDiaUtil),
    want: /\/ajusteDiaUtil: is required/,
  },
  {
    rule: 'R-B-cobr-ajusteDiaUtil',
    given: 'ajusteDiaUtil as text',
    method: 'POST',
    path: '/cobr',
    target: request,
    document: change(cobr, (c) => (c.ajusteDiaUtil = 'sim')),
    want: /\/ajusteDiaUtil: must be true or false/,
  },
  {
    rule: 'R-B-cobr-create',
    given: 'no recebedor',
    method: 'POST',
    path: '/cobr',
    target: request,
    document: change(cobr, (c) => delete c.recebedor),
    want: /\/recebedor: is required/,
  },
  {
    rule: 'R-B-cobr-patch-body',
    given: 'status CANCELADA',
    method: 'PATCH',
    path: `/cobr/${txid}`,
    target: request,
    document: { status: 'CANCELADA' },
    want: 'valid',
  },
  {
    rule: 'R-B-cobr-patch-body',
    given: 'another member',
    method: 'PATCH',
    path: `/cobr/${txid}`,
    target: request,
    document: { status: 'CANCELADA', infoAdicional: 'x' },
    want: /\/infoAdicional: is not a field/,
  },
  {
    rule: 'R-B-cobr-status-enum',
    given: 'status ATIVA on PATCH',
    method: 'PATCH',
    path: `/cobr/${txid}`,
    target: request,
    document: { status: 'ATIVA' },
    want: /\/status/,
  },
  {
    rule: 'R-B-err-PayloadLocationOperacaoInvalida',
    given: 'tipoCob cob',
    method: 'POST',
    path: '/loc',
    target: request,
    document: { tipoCob: 'cob' },
    want: 'valid',
  },
  {
    rule: 'R-B-err-PayloadLocationOperacaoInvalida',
    given: 'tipoCob boleto',
    method: 'POST',
    path: '/loc',
    target: request,
    document: { tipoCob: 'boleto' },
    want: /\/tipoCob: must be one of "cob", "cobv"/,
  },
  {
    rule: 'R-B-err-PixDevolucaoInvalida',
    given: 'valor 20.00',
    method: 'PUT',
    path: '/pix/E12345678202611211030aB3dE5fG7h9/devolucao/D001',
    target: request,
    document: { valor: '20.00' },
    want: 'valid',
  },
  {
    rule: 'R-B-err-PixDevolucaoInvalida',
    given: 'valor 20',
    method: 'PUT',
    path: '/pix/E12345678202611211030aB3dE5fG7h9/devolucao/D001',
    target: request,
    document: { valor: '20' },
    want: /\/valor: must be an amount/,
  },
  {
    rule: 'R-B-error-body',
    given: 'a location answer that is no JWS',
    method: 'GET',
    path: '/cobv/{pixUrlAccessToken}',
    target: { kind: 'response', status: '200' },
    document: 'not-a-jws',
    want: /must be .*JWS|pattern/,
  },
];

describe('rules of interface B, as contrato validate pix checks them', () => {
  it.each(cases.map((c) => [`${c.rule}: ${c.given}`, c] as const))('%s', (_label, c) => {
    const operation = findOperation(modules, c.method, c.path);
    expect(operation, `${c.method} ${c.path}`).not.toBeNull();
    const issues = validateDocument(modules, c.target, c.document, operation!, () => new Date('2024-11-21T12:00:00Z'));
    if (c.want === 'valid') expect(issues).toEqual([]);
    else expect(issues.map((issue) => `${issue.pointer}: ${issue.message}`).join('\n')).toMatch(c.want);
  });
});

/** List queries (they have no body, so the client's own check runs them). */
const queryCases: {
  rule: string;
  given: string;
  operationId: string;
  query: Record<string, unknown>;
  path?: Record<string, unknown>;
  want: 'valid' | RegExp;
}[] = [
  {
    rule: 'R-B-err-CobPayloadOperacaoInvalida-1',
    given: 'a real municipality code',
    operationId: 'cobvPayload.get',
    path: { pixUrlAccessToken: 'abc' },
    query: { codMun: '3550308', DPP: '2026-12-01' },
    want: 'valid',
  },
  {
    rule: 'R-B-err-CobPayloadOperacaoInvalida-1',
    given: 'a codMun of 6 digits',
    operationId: 'cobvPayload.get',
    path: { pixUrlAccessToken: 'abc' },
    query: { codMun: '355030' },
    want: /\/query\/codMun: must be an IBGE municipality code/,
  },
  {
    rule: 'R-B-list-inicio-fim',
    given: 'inicio and fim',
    operationId: 'cob.list',
    query: { inicio: '2026-11-01T00:00:00Z', fim: '2026-11-21T23:59:59-03:00' },
    want: 'valid',
  },
  {
    rule: 'R-B-list-inicio-fim',
    given: 'no fim',
    operationId: 'cob.list',
    query: { inicio: '2026-11-01T00:00:00Z' },
    want: /\/query\/fim: is required/,
  },
  {
    rule: 'R-B-err-CobRConsultaInvalida-2',
    given: 'fim before inicio',
    operationId: 'cobr.list',
    query: { inicio: '2026-11-21T00:00:00Z', fim: '2026-11-01T00:00:00Z' },
    want: /\/query\/fim: must not be before inicio/,
  },
  {
    rule: 'R-B-list-cpf-cnpj',
    given: 'cpf and cnpj',
    operationId: 'pix.list',
    query: { inicio: '2026-11-01T00:00:00Z', fim: '2026-11-02T00:00:00Z', cpf: '52998224725', cnpj: '11222333000181' },
    want: /\/query\/cnpj: cannot be sent together with cpf/,
  },
  {
    rule: 'R-B-err-CobRConsultaInvalida-3',
    given: 'cpf with bad check digits',
    operationId: 'cobr.list',
    query: { inicio: '2026-11-01T00:00:00Z', fim: '2026-11-02T00:00:00Z', cpf: '52998224724' },
    want: /\/query\/cpf: must be a CPF/,
  },
  {
    rule: 'R-B-list-pagination',
    given: 'itensPorPagina 1000',
    operationId: 'cobv.list',
    query: { inicio: '2026-11-01T00:00:00Z', fim: '2026-11-02T00:00:00Z', 'paginacao.itensPorPagina': 1000, 'paginacao.paginaAtual': 0 },
    want: 'valid',
  },
  {
    rule: 'R-B-limit-list-paging',
    given: 'itensPorPagina 1001',
    operationId: 'cobv.list',
    query: { inicio: '2026-11-01T00:00:00Z', fim: '2026-11-02T00:00:00Z', 'paginacao.itensPorPagina': 1001 },
    want: /itensPorPagina: must be at most 1000/,
  },
  {
    rule: 'R-B-err-CobRConsultaInvalida-4',
    given: 'paginaAtual -1',
    operationId: 'cobr.list',
    query: { inicio: '2026-11-01T00:00:00Z', fim: '2026-11-02T00:00:00Z', 'paginacao.paginaAtual': -1 },
    want: /paginaAtual: must be at least 0/,
  },
  {
    rule: 'R-B-err-PayloadLocationConsultaInvalida-2',
    given: 'fim before inicio on loc',
    operationId: 'loc.list',
    query: { inicio: '2026-11-21T00:00:00Z', fim: '2026-11-01T00:00:00Z' },
    want: /must not be before inicio/,
  },
  {
    rule: 'R-B-err-PayloadLocationConsultaInvalida-3',
    given: 'paginaAtual 0 on loc',
    operationId: 'loc.list',
    query: { inicio: '2026-11-01T00:00:00Z', fim: '2026-11-02T00:00:00Z', 'paginacao.paginaAtual': 0 },
    want: 'valid',
  },
  {
    rule: 'R-B-err-PayloadLocationConsultaInvalida-3',
    given: 'itensPorPagina -1 on loc',
    operationId: 'loc.list',
    query: { inicio: '2026-11-01T00:00:00Z', fim: '2026-11-02T00:00:00Z', 'paginacao.itensPorPagina': -1 },
    want: /itensPorPagina: must be at least 1/,
  },
  {
    rule: 'R-B-list-filters-scope',
    given: 'locationPresente on cob',
    operationId: 'cob.list',
    query: { inicio: '2026-11-01T00:00:00Z', fim: '2026-11-02T00:00:00Z', locationPresente: true },
    want: 'valid',
  },
  {
    rule: 'R-B-list-filters-scope',
    given: 'locationPresente on cobv',
    operationId: 'cobv.list',
    query: { inicio: '2026-11-01T00:00:00Z', fim: '2026-11-02T00:00:00Z', locationPresente: true },
    want: /locationPresente: is not a field/,
  },
  {
    rule: 'R-B-cob-get-revisao',
    given: 'revisao -1',
    operationId: 'cob.get',
    query: { revisao: -1 },
    want: /\/query\/revisao: must be at least 0/,
  },
];

describe('list queries of interface B', () => {
  it.each(queryCases.map((c) => [`${c.rule}: ${c.given}`, c] as const))('%s', (_label, c) => {
    const info = modules.operationTable[c.operationId]!;
    const args = {
      query: c.query,
      ...(c.path ? { path: c.path } : info.parameters.some((p) => p.in === 'path') ? { path: { txid } } : {}),
    };
    const issues = [
      ...validateRequest(info, modules.validators.operations[c.operationId]!, args, modules.patternDescriptions),
      ...runCrossFieldChecks(modules.crossFieldChecks[c.operationId], args, { now: new Date('2026-11-21T12:00:00Z') }),
    ];
    if (c.want === 'valid') expect(issues).toEqual([]);
    else expect(issues.map((issue) => `${issue.pointer}: ${issue.message}`).join('\n')).toMatch(c.want);
  });
});

/** 7.2: each error type listed on the operations it applies to, with its status. */
const errorTypeStatus: Record<string, [string, string[]]> = {
  CobRNaoEncontrado: ['404', ['cobr.get', 'cobr.revise', 'cobr.retry']],
  CobROperacaoInvalida: ['400', ['cobr.replace', 'cobr.revise', 'cobr.retry']],
  CobRConsultaInvalida: ['400', ['cobr.list', 'cobr.get']],
  SolicRecNaoEncontrada: ['404', ['solicrec.get']],
  SolicRecOperacaoInvalida: ['400', ['solicrec.create', 'solicrec.revise']],
  CobNaoEncontrado: ['404', ['cob.get', 'cob.revise']],
  CobOperacaoInvalida: ['400', ['cob.create', 'cob.replace', 'cob.revise']],
  CobConsultaInvalida: ['400', ['cob.list', 'cob.get']],
  CobVNaoEncontrada: ['404', ['cobv.get', 'cobv.revise']],
  CobVOperacaoInvalida: ['400', ['cobv.replace', 'cobv.revise']],
  CobVConsultaInvalida: ['400', ['cobv.list', 'cobv.get']],
  PayloadLocationNaoEncontrado: ['404', ['loc.get', 'loc.revise', 'loc.unlinkTxid']],
  PayloadLocationOperacaoInvalida: ['400', ['loc.create']],
  PayloadLocationConsultaInvalida: ['400', ['loc.list', 'loc.get']],
  PixNaoEncontrado: ['404', ['pix.get']],
  PixDevolucaoNaoEncontrada: ['404', ['pixRefund.get']],
  PixConsultaInvalida: ['400', ['pix.list']],
  PixDevolucaoInvalida: ['400', ['pixRefund.request']],
  CobPayloadNaoEncontrado: ['404', ['cobPayload.get', 'cobvPayload.get']],
  CobPayloadOperacaoInvalida: ['400', ['cobvPayload.get']],
  RecPayloadNaoEncontrado: ['404', ['rec.getPayload']],
  RecPayloadOperacaoInvalida: ['400', ['rec.getPayload']],
  AcessoNegado: ['403', ['cob.create', 'cobv.get', 'pix.list']],
  ServicoIndisponivel: ['503', ['cob.create', 'cobr.list', 'pix.get']],
  IndisponibilidadePorTempoEsgotado: ['504', ['cob.get', 'loc.create']],
};

describe('error types of section 7.2', () => {
  it.each(Object.entries(errorTypeStatus))('%s is listed, with its status, on the operations it applies to', (errorType, [status, ids]) => {
    for (const id of ids) {
      const info = modules.operationTable[id]!;
      expect(info.errorTypes, id).toContain(errorType);
      expect(info.responseStatuses, id).toContain(status);
    }
  });

  it('a listed error type is not listed where 7.2 does not apply it (a broken table is caught)', () => {
    expect(modules.operationTable['pix.get']!.errorTypes).not.toContain('CobNaoEncontrado');
  });
});

/** Rules checked elsewhere, or that no client can check, with the reason. */
const coveredElsewhere: Record<string, string> = {
  'R-B-revisao': 'server-side counter; revisao is an integer ≥ 0 in every charge schema (fuzz test) and GET takes it (R-B-cob-get-revisao)',
  'R-B-charge-status-enum':
    'response status is open (x-known-values ATIVA, CONCLUIDA, REMOVIDA_PELO_USUARIO_RECEBEDOR, REMOVIDA_PELO_PSP); request statuses tested above',
  'R-B-list-response': 'list response shapes { parametros, cobs[] | cobsr[] | pix[] | loc[] } are validated by the Prism contract tests',
  'R-B-cob-paid': 'state move on the server (payment received); the CONCLUIDA status is a known value of responses',
  'R-B-cob-psp-removal': 'state move on the server; REMOVIDA_PELO_PSP is a known value of responses',
  'R-B-cob-not-ativa-immutable':
    'needs the charge state, known only to the server: 400 CobOperacaoInvalida/CobVOperacaoInvalida declared (error types test)',
  'R-B-cobr-cancel':
    'test/pix/read-checks.test.ts: checkRecurringChargeCancellable(cobr) on the charge read before (the first attempt\u2019s date, or the due date when ajusteDiaUtil is false)',
  'R-B-solicrec-cancel': 'needs the request status, known only to the server: 400 SolicRecOperacaoInvalida declared',
  'R-B-retry-attempt-states': 'state names only; tentativas status values SOLICITADA, AGENDADA are known values of responses',
  'R-B-token': 'test/runtime/token-request.test.ts (Basic client authentication, form body, /oauth/token) and the pix contract test',
  'R-B-versioning': 'info.version 2.9.0 and the /v2 in {qr_base_url}; versions are compared by `contrato diff` (issue 9)',
  'R-B-error-body':
    'also a case above (a location answer that is no JWS); Problema schema (type, title, status, detail, correlationId, violacoes) checked on every error example by the Prism contract test; errorType read by ProblemError (test/runtime/resilience.test.ts)',
  'R-B-err-RequisicaoInvalida': 'generic 400 of the operations without a specific type; details not shown',
  'R-B-err-ErroInternoDoServidor': 'generic 500 declared on the operations; details not shown',
  'R-B-err-AcessoNegado': 'error types test',
  'R-B-err-NaoEncontrado': 'test/specs/pix/error-catalogue.test.ts: 404 and NaoEncontrado declared on every operation of both documents',
  'R-B-err-PermanentementeRemovido': 'test/specs/pix/error-catalogue.test.ts: 410 and PermanentementeRemovido declared on every operation',
  'R-B-err-ServicoIndisponivel': 'error types test',
  'R-B-err-IndisponibilidadePorTempoEsgotado': 'error types test',
  'R-B-err-CobRNaoEncontrado': 'error types test',
  'R-B-err-CobROperacaoInvalida-1': 'schema of cobr bodies (cases above: infoAdicional, ajusteDiaUtil, recebedor, idRec)',
  'R-B-err-CobROperacaoInvalida-2': 'test/specs/pix/clock-rules.test.ts: due date not before today (São Paulo) on POST and PUT /cobr',
  'R-B-err-CobROperacaoInvalida-3': 'account ownership is server-side',
  'R-B-err-CobROperacaoInvalida-4': 'txid uniqueness is server-side',
  'R-B-err-CobROperacaoInvalida-5': 'needs the other charges of the idRec, server-side',
  'R-B-err-CobROperacaoInvalida-6': 'test/pix/read-checks.test.ts: checkRecurringChargeCancellable(cobr), as R-B-cobr-cancel',
  'R-B-err-CobROperacaoInvalida-7': 'needs the attempts of the charge, server-side',
  'R-B-err-CobROperacaoInvalida-8': 'test/specs/pix/clock-rules.test.ts: the retry date after today (São Paulo), today refused',
  'R-B-err-CobROperacaoInvalida-9': 'needs the recurrence policy, server-side',
  'R-B-err-CobRConsultaInvalida-1': 'parameter schemas (list query cases above)',
  'R-B-err-RecPayloadNaoEncontrado': 'error types test',
  'R-B-err-RecPayloadOperacaoInvalida': 'error types test',
  'R-B-err-CobPayloadNaoEncontrado': 'error types test',
  'R-B-err-CobPayloadOperacaoInvalida-2':
    'test/specs/pix/clock-rules.test.ts: DPP not before today (São Paulo); the upper bound needs the charge',
  'R-B-err-SolicRecNaoEncontrada': 'error types test',
  'R-B-err-SolicRecOperacaoInvalida-1': 'solicrec body schemas (fuzz test: required members, unknown members)',
  'R-B-err-SolicRecOperacaoInvalida-2': 'test/specs/pix/clock-rules.test.ts: the expiry not before now',
  'R-B-err-SolicRecOperacaoInvalida-3': 'needs the other requests of the idRec, server-side',
  'R-B-err-SolicRecOperacaoInvalida-4': 'needs the request status, server-side',
  'R-B-err-CobNaoEncontrado': 'error types test',
  'R-B-err-CobOperacaoInvalida-3': 'devedor, chave, solicitacaoPagador, infoAdicionais schemas (cases above and fuzz test)',
  'R-B-err-CobOperacaoInvalida-4': 'account ownership is server-side',
  'R-B-err-CobOperacaoInvalida-5':
    'whether loc.id exists, is free and is of type cob is known to the server from the id; a loc.tipoCob sent as cobv is refused by the schema (standard-defects test)',
  'R-B-err-CobOperacaoInvalida-6': 'needs the charge state, server-side',
  'R-B-err-CobOperacaoInvalida-7': 'needs the charge state, server-side',
  'R-B-err-CobOperacaoInvalida-8': 'removal-alone check (cases above, R-B-cob-remove-patch)',
  'R-B-err-CobConsultaInvalida-1': 'list query cases above',
  'R-B-err-CobConsultaInvalida-2': 'whether a revisao exists is server-side; its type is checked (R-B-cob-get-revisao)',
  'R-B-err-CobVNaoEncontrada': 'error types test',
  'R-B-err-CobVOperacaoInvalida-1': 'batch status is server-side',
  'R-B-err-CobVOperacaoInvalida-2': 'test/specs/pix/clock-rules.test.ts: due date not before today (São Paulo) on POST and PUT /cobv',
  'R-B-err-CobVOperacaoInvalida-4': 'schemas of cobv bodies (cases above and fuzz test)',
  'R-B-err-CobVOperacaoInvalida-5': 'account ownership is server-side',
  'R-B-err-CobVOperacaoInvalida-6':
    'whether loc.id exists, is free and is of type cobv is known to the server from the id; a loc.tipoCob sent as cob is refused by the schema (standard-defects test)',
  'R-B-err-CobVOperacaoInvalida-7': 'R-B-cobv-original-nonzero and the amount format (cases above)',
  'R-B-err-CobVOperacaoInvalida-8': 'multa, juros, abatimento, desconto schemas (modality cases above, fuzz test)',
  'R-B-err-CobVOperacaoInvalida-9': 'reductions-below-original check (R-B-cobv-abatimento-desconto-below)',
  'R-B-err-CobVOperacaoInvalida-10': 'discount-dates check (R-B-cobv-desconto-date)',
  'R-B-err-CobVOperacaoInvalida-11': 'modality rules in the schema (R-B-cobv-desconto-modality)',
  'R-B-err-CobVOperacaoInvalida-12': 'needs the charge state, server-side',
  'R-B-err-CobVConsultaInvalida': 'list query cases above',
  'R-B-err-PayloadLocationNaoEncontrado': 'error types test',
  'R-B-err-PayloadLocationConsultaInvalida-1': 'parameter schemas of GET /loc',
  'R-B-err-PixNaoEncontrado': 'error types test',
  'R-B-err-PixDevolucaoNaoEncontrada': 'error types test',
  'R-B-err-PixConsultaInvalida': 'list query cases above (pix.list)',
};

describe('coverage of the rules of interface B', () => {
  it('every rule of B in the inventory has a valid and an invalid case, or is accounted for with a reason', () => {
    const inventory = JSON.parse(readFileSync(join(projectRoot, 'specs/inventory.json'), 'utf8')) as {
      rules: { id: string; interface: string; alsoInterfaces?: string[] }[];
    };
    const rulesOfB = inventory.rules.filter((r) => r.interface === 'B' || r.alsoInterfaces?.includes('B')).map((r) => r.id);
    const withCases = new Map<string, Set<string>>();
    for (const c of [...cases, ...queryCases])
      withCases.set(c.rule, (withCases.get(c.rule) ?? new Set()).add(c.want === 'valid' ? 'valid' : 'invalid'));
    const unaccounted = rulesOfB.filter((id) => !withCases.has(id) && !coveredElsewhere[id]);
    expect(unaccounted).toEqual([]);
    expect(rulesOfB.length).toBe(105);
  });
});

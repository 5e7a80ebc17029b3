/**
 * Issues 17 and 27, defects of the pix spec against the API Pix standard, through the path of
 * `contrato validate pix <METHOD> <path> request|response:<STATUS>`: each with a valid and an invalid case,
 * built from the spec's own examples with one change. The rule each case names is in specs/traceability.yaml
 * (R-B-* of the inventory, R-B-std-* for rules only the standard states).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../scripts/openapi-model.js';
import { bundledSpecPath, loadInterface } from '../../../src/checks/registry.js';
import { findOperation } from '../../../src/checks/router.js';
import { queryOf, validateDocument, type ValidateTarget } from '../../../src/checks/validate.js';
import { exampleCases } from '../../helpers/spec-examples.js';

const modules = await loadInterface('pix');
const document = JSON.parse(readFileSync(bundledSpecPath('pix'), 'utf8')) as JsonObject;
const examples = exampleCases(document);

function requestExample(operationId: string, name?: string): Record<string, unknown> {
  const [path, item] = Object.entries(document.paths as JsonObject).find(([, entry]) =>
    Object.values(entry as JsonObject).some((op) => (op as JsonObject).operationId === operationId),
  )!;
  const operation = Object.values(item as JsonObject).find((op) => (op as JsonObject).operationId === operationId) as JsonObject;
  const media = ((operation.requestBody as JsonObject).content as JsonObject)['application/json'] as JsonObject;
  const named = media.examples as JsonObject;
  const chosen = named[name ?? Object.keys(named)[0]!] as { value: Record<string, unknown> };
  expect(path).toBeTruthy();
  return structuredClone(chosen.value);
}
const responseExample = (operationId: string, status: string): Record<string, unknown> =>
  structuredClone(examples.find((c) => c.operation.operationId === operationId && c.status === status)!.value as Record<string, unknown>);
const change = <T extends Record<string, unknown>>(value: T, edit: (copy: T) => void): T => {
  const copy = structuredClone(value);
  edit(copy);
  return copy;
};
const record = (value: unknown): Record<string, unknown> => value as Record<string, unknown>;

interface Case {
  readonly rule: string;
  readonly given: string;
  readonly method: string;
  readonly path: string;
  readonly target: ValidateTarget;
  readonly document?: unknown;
  /** `valid`, or a pattern the issue list (pointer: message) must match. */
  readonly want: 'valid' | RegExp;
}

const request: ValidateTarget = { kind: 'request' };
const txid = 'fc9a4366ff3d4964b5dbc6c91a8722d3';
const window = 'inicio=2026-11-01T00:00:00Z&fim=2026-11-30T23:59:59Z';
const cob = requestExample('cob.replace');
const cobv = requestExample('cobv.replace');
const solicrec = requestExample('solicrec.create');
const rec = requestExample('rec.create');
const webhook = responseExample('webhook.get', '200');
/** GET /cob answering no charge, counting `pages` pages. */
const emptyList = (pages: number): Record<string, unknown> => ({
  parametros: {
    inicio: '2026-11-01T00:00:00Z',
    fim: '2026-11-30T23:59:59Z',
    paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: pages, quantidadeTotalDeItens: 0 },
  },
  cobs: [],
});

const cases: Case[] = [
  // 1. GET /cobv takes the standard's loteCobVId filter, an integer.
  {
    rule: 'R-B-std-cobv-lotecobvid',
    given: 'loteCobVId 1042',
    method: 'GET',
    path: `/cobv?${window}&loteCobVId=1042`,
    target: request,
    want: 'valid',
  },
  {
    rule: 'R-B-std-cobv-lotecobvid',
    given: 'loteCobVId that is no integer',
    method: 'GET',
    path: `/cobv?${window}&loteCobVId=lote-7`,
    target: request,
    want: /\/query\/loteCobVId: must be a whole number/,
  },
  // 2. ISPB members follow the standard's ^[0-9A-Z]{8}$ (a letter is allowed; 7 characters or lowercase are not).
  {
    rule: 'R-B-std-ispb-pattern',
    given: 'destinatario.ispbParticipante with capital letters',
    method: 'POST',
    path: '/solicrec',
    target: request,
    document: change(solicrec, (c) => (record(c.destinatario).ispbParticipante = '1A2B3C4D')),
    want: 'valid',
  },
  {
    rule: 'R-B-std-ispb-pattern',
    given: 'destinatario.ispbParticipante with a lowercase letter',
    method: 'POST',
    path: '/solicrec',
    target: request,
    document: change(solicrec, (c) => (record(c.destinatario).ispbParticipante = '1a2B3C4D')),
    want: /\/destinatario\/ispbParticipante: must be 8 digits or uppercase letters/,
  },
  {
    rule: 'R-B-std-ispb-pattern',
    given: 'a recurrence payer ISPB with letters in a response',
    method: 'GET',
    path: '/rec/RR1314008820261105k7Q2mX9pL4a',
    target: { kind: 'response', status: '200' },
    document: change(responseExample('rec.get', '200'), (c) => (c.pagador = { ispbParticipante: 'Z9Y8X7W6', cpf: '45278319682' })),
    want: 'valid',
  },
  {
    rule: 'R-B-std-ispb-pattern',
    given: 'a recurrence payer ISPB of 7 characters in a response',
    method: 'GET',
    path: '/rec/RR1314008820261105k7Q2mX9pL4a',
    target: { kind: 'response', status: '200' },
    document: change(responseExample('rec.get', '200'), (c) => (c.pagador = { ispbParticipante: '1823612', cpf: '45278319682' })),
    want: /\/pagador\/ispbParticipante: must be 8 digits or uppercase letters/,
  },
  // 3. loc.tipoCob in a charge body: optional, and the charge's own type when sent.
  {
    rule: 'R-B-std-loc-tipocob',
    given: 'loc with tipoCob cob on PUT /cob',
    method: 'PUT',
    path: `/cob/${txid}`,
    target: request,
    document: change(cob, (c) => (c.loc = { id: 7816, tipoCob: 'cob' })),
    want: 'valid',
  },
  {
    rule: 'R-B-std-loc-tipocob',
    given: 'loc with the id alone, as the standard\u2019s examples send it',
    method: 'PUT',
    path: `/cob/${txid}`,
    target: request,
    document: change(cob, (c) => (c.loc = { id: 7816 })),
    want: 'valid',
  },
  {
    rule: 'R-B-std-loc-tipocob',
    given: 'loc with tipoCob cobv on PUT /cob',
    method: 'PUT',
    path: `/cob/${txid}`,
    target: request,
    document: change(cob, (c) => (c.loc = { id: 7816, tipoCob: 'cobv' })),
    want: /\/loc\/tipoCob: must be one of "cob"/,
  },
  {
    rule: 'R-B-std-loc-tipocob',
    given: 'loc with tipoCob cobv on PUT /cobv',
    method: 'PUT',
    path: `/cobv/${txid}`,
    target: request,
    document: change(cobv, (c) => (c.loc = { id: 8120, tipoCob: 'cobv' })),
    want: 'valid',
  },
  {
    rule: 'R-B-std-loc-tipocob',
    given: 'loc with an unknown tipoCob on PUT /cobv',
    method: 'PUT',
    path: `/cobv/${txid}`,
    target: request,
    document: change(cobv, (c) => (c.loc = { id: 8120, tipoCob: 'boleto' })),
    want: /\/loc\/tipoCob: must be one of/,
  },
  // 4. A webhook answer without chave (the standard's schema names cnpj instead) is read.
  {
    rule: 'R-B-std-webhook-chave-optional',
    given: 'a webhook with cnpj and no chave',
    method: 'GET',
    path: '/webhook/financeiro@padaria.com.br',
    target: { kind: 'response', status: '200' },
    document: change(webhook, (c) => {
      delete c.chave;
      c.cnpj = '07498215000123';
    }),
    want: 'valid',
  },
  {
    rule: 'R-B-std-webhook-chave-optional',
    given: 'a webhook without webhookUrl',
    method: 'GET',
    path: '/webhook/financeiro@padaria.com.br',
    target: { kind: 'response', status: '200' },
    document: change(webhook, (c) => delete c.webhookUrl),
    want: /\/webhookUrl: is required/,
  },
  // GET /webhook: fim not before inicio (WebhookConsultaInvalida), both optional there.
  {
    rule: 'R-B-std-webhook-list-window',
    given: 'fim after inicio',
    method: 'GET',
    path: `/webhook?${window}`,
    target: request,
    want: 'valid',
  },
  {
    rule: 'R-B-std-webhook-list-window',
    given: 'fim before inicio',
    method: 'GET',
    path: '/webhook?inicio=2026-11-30T00:00:00Z&fim=2026-11-01T00:00:00Z',
    target: request,
    want: /^\/query\/fim: must not be before inicio 2026-11-30T00:00:00Z.*\(inicio-fim\)$/,
  },
  // 5. POST /rec: a recurrence does not end before it starts.
  {
    rule: 'R-B-std-rec-dates',
    given: 'dataFinal on dataInicial',
    method: 'POST',
    path: '/rec',
    target: request,
    document: change(rec, (c) => (record(c.calendario).dataFinal = record(c.calendario).dataInicial)),
    want: 'valid',
  },
  {
    rule: 'R-B-std-rec-dates',
    given: 'dataFinal the day before dataInicial',
    method: 'POST',
    path: '/rec',
    target: request,
    document: change(rec, (c) => (c.calendario = { ...record(c.calendario), dataInicial: '2026-12-10', dataFinal: '2026-12-09' })),
    want: /^\/body\/calendario\/dataFinal: must not be before calendario\.dataInicial 2026-12-10.*\(rec-dates-in-order\)$/,
  },
  // 6. An immediate charge is created with calendario, as the standard's CobSolicitada requires (issue 27);
  // an empty one keeps the default lifetime, and a revision may leave it out.
  ...['PUT', 'POST'].map(
    (method): Case => ({
      rule: 'R-B-std-cob-calendario',
      given: `an empty calendario on ${method} /cob/{txid}`,
      method,
      path: `/cob/${txid}`,
      target: request,
      document: change(cob, (c) => (c.calendario = {})),
      want: 'valid',
    }),
  ),
  ...[`/cob/${txid}`, '/cob'].flatMap((path) =>
    (path === '/cob' ? ['POST'] : ['PUT', 'POST']).map(
      (method): Case => ({
        rule: 'R-B-std-cob-calendario',
        given: `no calendario on ${method} ${path === '/cob' ? path : '/cob/{txid}'}`,
        method,
        path,
        target: request,
        document: change(cob, (c) => delete c.calendario),
        want: /^\/body\/calendario: is required$/,
      }),
    ),
  ),
  {
    rule: 'R-B-std-cob-calendario',
    given: 'a revision (PATCH /cob/{txid}) without calendario',
    method: 'PATCH',
    path: `/cob/${txid}`,
    target: request,
    document: { valor: { original: '30.00' } },
    want: 'valid',
  },
  // 7. A list answer counts at least one page: nothing matched is one empty page (issue 27).
  {
    rule: 'R-B-std-pages-at-least-one',
    given: 'an empty list of one page',
    method: 'GET',
    path: `/cob?${window}`,
    target: { kind: 'response', status: '200' },
    document: emptyList(1),
    want: 'valid',
  },
  {
    rule: 'R-B-std-pages-at-least-one',
    given: 'an empty list of zero pages',
    method: 'GET',
    path: `/cob?${window}`,
    target: { kind: 'response', status: '200' },
    document: emptyList(0),
    want: /^\/parametros\/paginacao\/quantidadeDePaginas: must be at least 1 \(minimum; got 0\)$/,
  },
];

describe('defects of the pix spec against the API Pix standard (issue 17)', () => {
  it.each(cases.map((c) => [`${c.rule}: ${c.given}`, c] as const))('%s', (_label, c) => {
    const path = c.path.split('?')[0]!;
    const operation = findOperation(modules, c.method, path);
    expect(operation, `${c.method} ${path}`).not.toBeNull();
    const parts = { query: queryOf(operation!.info, c.path), header: {} };
    const issues = validateDocument(modules, c.target, c.document, operation!, () => new Date('2026-11-21T15:00:00Z'), parts);
    if (c.want === 'valid') expect(issues).toEqual([]);
    else expect(issues.map((issue) => `${issue.pointer}: ${issue.message}`).join('\n')).toMatch(c.want);
  });

  it('every ISPB member of the pix bundle is written with the standard\u2019s pattern, none with the digits-only format', () => {
    const found: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) {
        for (const [index, item] of node.entries()) walk(item, `${at}/${index}`);
        return;
      }
      if (typeof node !== 'object' || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        if (/^(ispbParticipante|prestadorD[eo]ServicoDeSaque)$/.test(key) && typeof value === 'object' && value !== null && 'type' in value)
          found.push(`${at}/${key} ${(value as JsonObject).pattern ?? (value as JsonObject).format ?? 'none'}`);
        walk(value, `${at}/${key}`);
      }
    };
    walk(document.components, '#/components');
    expect(found.length).toBeGreaterThanOrEqual(8);
    expect(found.filter((entry) => !entry.endsWith('^[0-9A-Z]{8}$'))).toEqual([]);
  });
});

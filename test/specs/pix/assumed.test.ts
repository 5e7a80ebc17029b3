/**
 * Nothing taken from the API Pix standard passes as the interface specification's (design.md, policy 1):
 * section 2.11 shows the members of cob, cobv and cobr and says their inner fields, and the bodies of loc,
 * solicrec, pix and refunds, are not shown. Every other member of the pix schemas, and every query parameter
 * 4.8 does not list, carries `x-assumed` saying where it comes from. The notification bodies are marked by
 * their own schemas.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isObject, operationsOf, type JsonObject } from '../../../scripts/openapi-model.js';
import { bundledSpecPath } from '../../../src/checks/registry.js';

const bundle = JSON.parse(readFileSync(bundledSpecPath('pix'), 'utf8')) as JsonObject;
const schemas = (bundle.components as JsonObject).schemas as JsonObject;

const charge = [
  'calendario',
  'txid',
  'revisao',
  'devedor',
  'recebedor',
  'loc',
  'status',
  'valor',
  'chave',
  'solicitacaoPagador',
  'infoAdicionais',
];
const cobr = ['idRec', 'txid', 'infoAdicional', 'calendario', 'valor', 'ajusteDiaUtil', 'recebedor', 'devedor', 'status'];
const cobrMore = ['politicaRetentativa', 'tentativas', 'atualizacao', 'encerramento', 'pix'];
/** Top-level members sections 2.11, 4.8 and 7.2 show, per schema. */
const shown: Record<string, readonly string[]> = {
  ...Object.fromEntries(['CobSolicitada', 'CobRevisada', 'CobGerada', 'CobCompleta', 'CobPayload'].map((name) => [name, charge])),
  ...Object.fromEntries(
    ['CobVSolicitada', 'CobVRevisada', 'CobVGerada', 'CobVCompleta', 'CobVPayload'].map((name) => [name, [...charge, 'pixCopiaECola']]),
  ),
  ...Object.fromEntries(['CobRSolicitada', 'CobRGerada', 'CobRCompleta', 'CobRRevisada'].map((name) => [name, [...cobr, ...cobrMore]])),
  CobsConsultadas: ['parametros', 'cobs'],
  CobsVConsultadas: ['parametros', 'cobs'],
  CobsRConsultadas: ['parametros', 'cobsr'],
  ParametrosConsultaCob: ['inicio', 'fim', 'cpf', 'cnpj', 'locationPresente', 'status', 'paginacao'],
  ParametrosConsultaCobR: ['inicio', 'fim', 'cpf', 'cnpj', 'status', 'idRec', 'convenio', 'paginacao'],
  Paginacao: ['paginaAtual', 'itensPorPagina'],
  InfoAdicional: ['nome', 'valor'],
  Problema: ['type', 'title', 'status', 'detail'],
};
const notifications = new Set(['NotificacaoPix', 'NotificacaoRec', 'NotificacaoCobR', 'CobRNotificada', 'RecNotificada']);
const constraints = new Set(['anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas']);

/** Members without x-assumed that the interface specification does not show, as pointers. */
function unmarked(node: unknown, top: boolean, visible: readonly string[], at: string): string[] {
  if (!isObject(node)) return [];
  const found: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (constraints.has(key)) continue;
    if (key === 'properties' && isObject(value)) {
      for (const [name, member] of Object.entries(value)) {
        if (!(top && visible.includes(name)) && !(isObject(member) && 'x-assumed' in member)) found.push(`${at}/properties/${name}`);
        found.push(...unmarked(member, false, visible, `${at}/properties/${name}`));
      }
    } else if (key === 'allOf' && Array.isArray(value)) {
      for (const [index, branch] of value.entries()) found.push(...unmarked(branch, top, visible, `${at}/allOf/${index}`));
    } else if (key === 'items') found.push(...unmarked(value, false, visible, `${at}/items`));
  }
  return found;
}

describe('x-assumed on what the pix spec takes from the API Pix standard', () => {
  it('marks every member the interface specification does not show', () => {
    const missing = Object.entries(schemas)
      .filter(([name]) => !notifications.has(name))
      .flatMap(([name, schema]) => unmarked(schema, true, shown[name] ?? [], `#/components/schemas/${name}`));
    expect(missing).toEqual([]);
  });

  it('leaves the members the interface specification shows unmarked', () => {
    const cob = (schemas.CobSolicitada as JsonObject).properties as JsonObject;
    expect(cob.chave).not.toHaveProperty('x-assumed');
    expect(cob.calendario).not.toHaveProperty('x-assumed');
    const inner = ((schemas.CobExpiracao as JsonObject).properties as JsonObject).expiracao as JsonObject;
    expect(inner['x-assumed']).toMatch(/API Pix standard/);
  });

  it('marks the query parameters section 4.8 does not list', () => {
    const listed: Record<string, readonly string[]> = {
      'cobv.list': ['inicio', 'fim', 'cpf', 'cnpj', 'status', 'paginacao.paginaAtual', 'paginacao.itensPorPagina'],
      'pix.list': ['inicio', 'fim', 'cpf', 'cnpj', 'paginacao.paginaAtual', 'paginacao.itensPorPagina'],
    };
    for (const [operationId, names] of Object.entries(listed)) {
      const operation = operationsOf(bundle).find((o) => o.operationId === operationId)!;
      const parameters = (operation.operation.parameters as JsonObject[]).filter(
        (p) => p.in === 'query' && !names.includes(String(p.name)),
      );
      expect(parameters.length, operationId).toBeGreaterThan(0);
      for (const parameter of parameters) expect(parameter['x-assumed'], `${operationId} ${parameter.name}`).toMatch(/API Pix standard/);
    }
  });
});

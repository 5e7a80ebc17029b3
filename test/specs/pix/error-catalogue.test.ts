/**
 * The error catalogue of interface B (section 7.2 and the API Pix standard): NaoEncontrado 404 and
 * PermanentementeRemovido 410 apply to any operation, so every operation of both pix documents declares
 * both statuses and both types; the error types the standard adds to 7.2 (Rec*, LoteCobV*,
 * PayloadLocationRec*, Webhook*) are response components of their own, from the standard, declared on the
 * operations the standard names for them, with an example typed and statused as they are.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { operationsOf, resolveLocal, type JsonObject } from '../../../scripts/openapi-model.js';
import { bundledSpecPath, loadInterface } from '../../../src/checks/registry.js';
import { findOperation } from '../../../src/checks/router.js';
import { validateDocument } from '../../../src/checks/validate.js';
import { problemIssues } from '../../../src/runtime/contract-check.js';

const modules = await loadInterface('pix');
const bundles = ['pix', 'pix-location'].map((name) => JSON.parse(readFileSync(bundledSpecPath(name), 'utf8')) as JsonObject);
const operations = bundles.flatMap((bundle) => operationsOf(bundle).map((operation) => ({ bundle, operation })));

/** The name of the response component an operation answers `status` with. */
function responseName(operationId: string, status: string): string | undefined {
  const found = operations.find(({ operation }) => operation.operationId === operationId);
  const response = (found?.operation.operation.responses as JsonObject | undefined)?.[status] as JsonObject | undefined;
  const ref = typeof response?.$ref === 'string' ? response.$ref : '';
  return /^#\/components\/responses\/(.+)$/.exec(ref)?.[1];
}

/** The standard's error types 7.2 does not list: status, and the operations its error section names for each. */
const standardTypes: Record<string, [string, string[]]> = {
  RecNaoEncontrada: ['404', ['rec.get', 'rec.revise']],
  RecOperacaoInvalida: ['400', ['rec.create', 'rec.revise']],
  RecConsultaInvalida: ['400', ['rec.list', 'rec.get']],
  LoteCobVNaoEncontrado: ['404', ['lotecobv.get', 'lotecobv.revise']],
  LoteCobVOperacaoInvalida: ['400', ['lotecobv.create', 'lotecobv.revise']],
  LoteCobVConsultaInvalida: ['400', ['lotecobv.list', 'lotecobv.get']],
  PayloadLocationRecNaoEncontrado: ['404', ['locrec.get', 'locrec.unlinkIdRec']],
  PayloadLocationRecConsultaInvalida: ['400', ['locrec.list', 'locrec.get']],
  WebhookOperacaoInvalida: ['400', ['webhook.configure']],
  WebhookNaoEncontrado: ['404', ['webhook.get', 'webhook.delete']],
  WebhookConsultaInvalida: ['400', ['webhook.list']],
  WebhookRecOperacaoInvalida: ['400', ['webhookRec.configure']],
  WebhookRecConsultaInvalida: ['400', ['webhookRec.get']],
  WebhookCobROperacaoInvalida: ['400', ['webhookCobR.configure']],
  WebhookCobRConsultaInvalida: ['400', ['webhookCobR.get']],
};

describe('NaoEncontrado 404 and PermanentementeRemovido 410 on every operation of interface B (section 7.2: any)', () => {
  it('covers both documents of B', () => {
    expect(operations.length).toBe(55);
  });

  it.each(operations.map(({ operation }) => [operation.operationId, operation] as const))('%s declares 404 and 410', (id) => {
    const info = modules.operationTable[id]!;
    expect(info.responseStatuses, id).toEqual(expect.arrayContaining(['404', '410']));
    expect(info.errorTypes, id).toEqual(expect.arrayContaining(['NaoEncontrado', 'PermanentementeRemovido']));
    // The 410 is the generic one, or the payload location's own type that answers both 404 and 410.
    expect(['PermanentementeRemovido', 'CobPayloadNaoEncontrado', 'RecPayloadNaoEncontrado']).toContain(responseName(id, '410'));
  });

  it('a documented 410 is a problem of the operation, not a broken answer (R-B-err-PermanentementeRemovido)', () => {
    const gone = { type: 'https://pix.example.com/api/v2/error/PermanentementeRemovido', title: 'Removido', status: 410 };
    const operation = findOperation(modules, 'GET', '/cob');
    expect(validateDocument(modules, { kind: 'response', status: '410' }, gone, operation!)).toEqual([]);
    expect(() => validateDocument(modules, { kind: 'response', status: '418' }, gone, operation!)).toThrow(/has no response 418/);
  });

  it('a 404 without a specific type is NaoEncontrado (R-B-err-NaoEncontrado)', () => {
    expect(responseName('cob.list', '404')).toBe('NaoEncontrado');
    expect(responseName('cob.get', '404')).toBe('CobNaoEncontrado');
    expect(modules.operationTable['cob.get']!.errorTypes).toContain('NaoEncontrado');
  });
});

describe('the error types of the API Pix standard that section 7.2 does not list (R-B-std-error-types)', () => {
  it('are fifteen', () => {
    expect(Object.keys(standardTypes)).toHaveLength(15);
  });

  it.each(Object.entries(standardTypes))(
    '%s: a component from the standard, declared where the standard names it',
    (type, [status, ids]) => {
      const bundle = bundles[0]!;
      const component = (bundle.components as JsonObject).responses as JsonObject;
      const response = component[type] as JsonObject;
      expect(response, type).toBeDefined();
      expect(response['x-source']).toBe('api-pix-standard');
      const media = (response.content as JsonObject)['application/problem+json'] as JsonObject;
      const named = Object.values(media.examples as JsonObject).map(
        (example) => (resolveLocal(bundle, example) as JsonObject).value as JsonObject,
      );
      expect(named.length).toBeGreaterThan(0);
      for (const value of named) {
        expect(value.type).toBe(`https://pix.example.com/api/v2/error/${type}`);
        expect(value.status).toBe(Number(status));
      }
      for (const id of ids) {
        const info = modules.operationTable[id]!;
        expect(info.errorTypes, id).toContain(type);
        expect(responseName(id, status), `${id} ${status}`).toBe(type);
      }
    },
  );

  it('the ones the standard\u2019s own examples use instead are declared too', () => {
    expect(modules.operationTable['lotecobv.revise']!.errorTypes).toContain('CobVOperacaoInvalida');
    expect(modules.operationTable['webhookRec.configure']!.errorTypes).toContain('WebhookOperacaoInvalida');
    expect(modules.operationTable['webhookCobR.configure']!.errorTypes).toContain('WebhookOperacaoInvalida');
  });

  it('a problem typed for another operation is refused where the standard does not declare it (contrato validate)', () => {
    const problem = { type: 'https://pix.example.com/api/v2/error/WebhookNaoEncontrado', title: 'Não encontrado', status: 404 };
    expect(problemIssues(modules.operationTable['webhook.get']!, '404', problem)).toEqual([]);
    expect(problemIssues(modules.operationTable['rec.get']!, '404', problem).map((issue) => issue.rule)).toEqual(['declared-error-type']);
    const generic = { type: 'https://pix.example.com/api/v2/error/NaoEncontrado', title: 'Não encontrado', status: 404 };
    expect(problemIssues(modules.operationTable['rec.get']!, '404', generic)).toEqual([]);
  });
});

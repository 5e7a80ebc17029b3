/**
 * Rules of interface B that compare a date with today (section 7.2), as `contrato validate pix` and the
 * client check them: with a fixed clock, "today" being the calendar day in America/Sao_Paulo (UTC-3), so
 * 02:30 UTC is still the day before there. A valid and an invalid case each; the rule ids are the ones of
 * specs/traceability.yaml.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../scripts/openapi-model.js';
import { bundledSpecPath, loadInterface } from '../../../src/checks/registry.js';
import { findOperation } from '../../../src/checks/router.js';
import { queryOf, validateDocument } from '../../../src/checks/validate.js';
import { runCrossFieldChecks, todayInSaoPaulo } from '../../../src/rules/cross-field.js';

const modules = await loadInterface('pix');
const document = JSON.parse(readFileSync(bundledSpecPath('pix'), 'utf8')) as JsonObject;

function requestExample(operationId: string): Record<string, unknown> {
  for (const item of Object.values(document.paths as JsonObject)) {
    for (const operation of Object.values(item as JsonObject) as JsonObject[]) {
      if (operation.operationId !== operationId) continue;
      const media = ((operation.requestBody as JsonObject).content as JsonObject)['application/json'] as JsonObject;
      return structuredClone((Object.values(media.examples as JsonObject)[0] as { value: Record<string, unknown> }).value);
    }
  }
  throw new Error(`no request example of ${operationId}`);
}
const withCalendar = (body: Record<string, unknown>, calendar: Record<string, unknown>): Record<string, unknown> => ({
  ...body,
  calendario: { ...(body.calendario as Record<string, unknown>), ...calendar },
});

/** 15:00 UTC, midday in São Paulo: today there is 2026-03-10. */
const afternoon = new Date('2026-03-10T15:00:00Z');
/** 02:30 UTC on the 10th is 23:30 of the 9th in São Paulo: today there is still 2026-03-09. */
const beforeMidnight = new Date('2026-03-10T02:30:00Z');
/** 03:00 UTC on the 10th is midnight in São Paulo: the 10th has begun there. */
const midnight = new Date('2026-03-10T03:00:00Z');

const txid = 'fc9a4366ff3d4964b5dbc6c91a8722d3';
const cobv = requestExample('cobv.replace');
const cobr = requestExample('cobr.create');
const solicrec = requestExample('solicrec.create');

interface Case {
  readonly rule: string;
  readonly given: string;
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  readonly now: Date;
  readonly want: 'valid' | RegExp;
}

const cases: Case[] = [
  {
    rule: 'R-B-err-CobVOperacaoInvalida-2',
    given: 'PUT /cobv due today',
    method: 'PUT',
    path: `/cobv/${txid}`,
    body: withCalendar(cobv, { dataDeVencimento: '2026-03-10' }),
    now: afternoon,
    want: 'valid',
  },
  {
    rule: 'R-B-err-CobVOperacaoInvalida-2',
    given: 'PUT /cobv due yesterday',
    method: 'PUT',
    path: `/cobv/${txid}`,
    body: withCalendar(cobv, { dataDeVencimento: '2026-03-09' }),
    now: afternoon,
    want: /^\/body\/calendario\/dataDeVencimento: must not be before today \(2026-03-10 in São Paulo\).*choose 2026-03-10 or a later date \(due-date-not-before-today\)$/,
  },
  {
    rule: 'R-B-err-CobVOperacaoInvalida-2',
    given: 'POST /cobv due yesterday',
    method: 'POST',
    path: `/cobv/${txid}`,
    body: withCalendar(requestExample('cobv.create'), { dataDeVencimento: '2026-03-09' }),
    now: afternoon,
    want: /dataDeVencimento: must not be before today/,
  },
  {
    rule: 'R-B-err-CobVOperacaoInvalida-2',
    given: 'PUT /cobv due on the 9th at 02:30 UTC on the 10th (still the 9th in São Paulo)',
    method: 'PUT',
    path: `/cobv/${txid}`,
    body: withCalendar(cobv, { dataDeVencimento: '2026-03-09' }),
    now: beforeMidnight,
    want: 'valid',
  },
  {
    rule: 'R-B-err-CobVOperacaoInvalida-2',
    given: 'PUT /cobv due on the 9th at 03:00 UTC on the 10th (midnight in São Paulo)',
    method: 'PUT',
    path: `/cobv/${txid}`,
    body: withCalendar(cobv, { dataDeVencimento: '2026-03-09' }),
    now: midnight,
    want: /must not be before today \(2026-03-10 in São Paulo\)/,
  },
  {
    rule: 'R-B-err-CobROperacaoInvalida-2',
    given: 'PUT /cobr due today',
    method: 'PUT',
    path: `/cobr/${txid}`,
    body: withCalendar(cobr, { dataDeVencimento: '2026-03-10' }),
    now: afternoon,
    want: 'valid',
  },
  {
    rule: 'R-B-err-CobROperacaoInvalida-2',
    given: 'PUT /cobr due yesterday',
    method: 'PUT',
    path: `/cobr/${txid}`,
    body: withCalendar(cobr, { dataDeVencimento: '2026-03-09' }),
    now: afternoon,
    want: /^\/body\/calendario\/dataDeVencimento: must not be before today \(2026-03-10 in São Paulo\)/,
  },
  {
    rule: 'R-B-err-CobROperacaoInvalida-2',
    given: 'POST /cobr due yesterday',
    method: 'POST',
    path: '/cobr',
    body: withCalendar(cobr, { dataDeVencimento: '2026-03-09' }),
    now: afternoon,
    want: /dataDeVencimento: must not be before today/,
  },
  {
    rule: 'R-B-err-CobROperacaoInvalida-8',
    given: 'a retry tomorrow',
    method: 'POST',
    path: `/cobr/${txid}/retentativa/2026-03-11`,
    now: afternoon,
    want: 'valid',
  },
  {
    rule: 'R-B-err-CobROperacaoInvalida-8',
    given: 'a retry today (not a future date)',
    method: 'POST',
    path: `/cobr/${txid}/retentativa/2026-03-10`,
    now: afternoon,
    want: /^\/path\/data: must be a future date, after today \(2026-03-10 in São Paulo\).*\(retry-date-in-the-future\)$/,
  },
  {
    rule: 'R-B-err-CobROperacaoInvalida-8',
    given: 'a retry yesterday',
    method: 'POST',
    path: `/cobr/${txid}/retentativa/2026-03-09`,
    now: afternoon,
    want: /\/path\/data: must be a future date/,
  },
  {
    rule: 'R-B-err-CobROperacaoInvalida-8',
    given: 'a retry on the 10th at 02:30 UTC on the 10th (tomorrow in São Paulo)',
    method: 'POST',
    path: `/cobr/${txid}/retentativa/2026-03-10`,
    now: beforeMidnight,
    want: 'valid',
  },
  {
    rule: 'R-B-err-CobPayloadOperacaoInvalida-2',
    given: 'DPP today',
    method: 'GET',
    path: '/cobv/qr-4f1e2d3c5b6a?DPP=2026-03-10',
    now: afternoon,
    want: 'valid',
  },
  {
    rule: 'R-B-err-CobPayloadOperacaoInvalida-2',
    given: 'DPP yesterday',
    method: 'GET',
    path: '/cobv/qr-4f1e2d3c5b6a?DPP=2026-03-09',
    now: afternoon,
    want: /^\/query\/DPP: must not be in the past \(today is 2026-03-10 in São Paulo\).*\(dpp-not-in-the-past\)$/,
  },
  {
    rule: 'R-B-err-SolicRecOperacaoInvalida-2',
    given: 'an expiry a minute from now',
    method: 'POST',
    path: '/solicrec',
    body: withCalendar(solicrec, { dataExpiracaoSolicitacao: '2026-03-10T12:01:00-03:00' }),
    now: afternoon,
    want: 'valid',
  },
  {
    rule: 'R-B-err-SolicRecOperacaoInvalida-2',
    given: 'an expiry a second ago',
    method: 'POST',
    path: '/solicrec',
    body: withCalendar(solicrec, { dataExpiracaoSolicitacao: '2026-03-10T14:59:59Z' }),
    now: afternoon,
    want: /^\/body\/calendario\/dataExpiracaoSolicitacao: must not be before now \(2026-03-10T15:00:00.000Z\).*\(solicrec-expiry-not-past\)$/,
  },
];

describe('date rules of interface B against a fixed clock (São Paulo calendar day)', () => {
  it.each(cases.map((c) => [`${c.rule}: ${c.given}`, c] as const))('%s', (_label, c) => {
    const path = c.path.split('?')[0]!;
    const operation = findOperation(modules, c.method, path);
    expect(operation, `${c.method} ${path}`).not.toBeNull();
    const parts = { query: queryOf(operation!.info, c.path), header: {} };
    const issues = validateDocument(modules, { kind: 'request' }, c.body, operation!, () => c.now, parts);
    if (c.want === 'valid') expect(issues).toEqual([]);
    else expect(issues.map((issue) => `${issue.pointer}: ${issue.message}`).join('\n')).toMatch(c.want);
  });

  it('the São Paulo day the cases rely on', () => {
    expect([afternoon, beforeMidnight, midnight].map(todayInSaoPaulo)).toEqual(['2026-03-10', '2026-03-09', '2026-03-10']);
  });

  it('the client runs the same checks (its validate step calls them with its own clock)', () => {
    const body = withCalendar(cobr, { dataDeVencimento: '2026-03-09' });
    const issues = runCrossFieldChecks(modules.crossFieldChecks['cobr.replace'], { path: { txid }, body }, { now: afternoon });
    expect(issues.map((issue) => issue.rule)).toEqual(['due-date-not-before-today']);
  });
});

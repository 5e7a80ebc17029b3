/** Cross-field rules: a valid and an invalid case each, named in every issue; wired into the client and the CLI. */
import { describe, expect, it } from 'vitest';
import { operationTable } from '../../generated/core-banking/operations.js';
import { patternDescriptions, validators } from '../../generated/core-banking/validators.js';
import { findOperation } from '../../src/checks/router.js';
import { validateDocument } from '../../src/checks/validate.js';
import type { InterfaceModules } from '../../src/checks/registry.js';
import { RequestValidationError } from '../../src/runtime/errors.js';
import type { OperationValidatorSet } from '../../src/runtime/pipeline.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { Transport } from '../../src/runtime/transport.js';
import { hourlyStatementDate, statementPeriod } from '../../src/accounts/rules.js';
import { discountDatesNotAfterDueDate, removalAlone } from '../../src/pix/rules.js';
import { interval, runCrossFieldChecks, todayInSaoPaulo, type CheckedRequest, type CrossFieldCheck } from '../../src/rules/cross-field.js';
import { startLoopbackServer } from '../helpers/loopback.js';

// 2026-11-21 01:30 UTC is still 2026-11-20 in São Paulo (UTC-3): days are counted there.
const now = new Date('2026-11-21T01:30:00Z');
const listing = interval({ name: 'listing-interval', part: 'query', start: 'startDate', end: 'endDate', maxDays: 30 });
const creationWindow = interval({ name: 'inicio-fim', part: 'query', start: 'inicio', end: 'fim' });

interface Case {
  readonly check: CrossFieldCheck;
  readonly given: string;
  readonly request: CheckedRequest;
  readonly want: 'valid' | { pointer: string; message: RegExp };
}

const cases: Case[] = [
  {
    check: statementPeriod,
    given: 'MONTH, 12 months ending this month',
    request: { body: { groupBy: 'MONTH', initialDate: '2025-12-01', finalDate: '2026-11-20' } },
    want: 'valid',
  },
  {
    check: statementPeriod,
    given: 'MONTH, 13 months',
    request: { body: { groupBy: 'MONTH', initialDate: '2025-11-01', finalDate: '2026-11-01' } },
    want: { pointer: '/body/finalDate', message: /at most 12 months; this one covers 13/ },
  },
  {
    check: statementPeriod,
    given: 'MONTH ending next month',
    request: { body: { groupBy: 'MONTH', initialDate: '2026-10-01', finalDate: '2026-12-01' } },
    want: { pointer: '/body/finalDate', message: /after the current month \(2026-11\)/ },
  },
  {
    check: statementPeriod,
    given: 'DAY, 60 days ending yesterday',
    request: { body: { groupBy: 'DAY', initialDate: '2026-09-21', finalDate: '2026-11-19' } },
    want: 'valid',
  },
  {
    check: statementPeriod,
    given: 'DAY, 61 days',
    request: { body: { groupBy: 'DAY', initialDate: '2026-09-19', finalDate: '2026-11-18' } },
    want: { pointer: '/body/finalDate', message: /at most 60 days; this one covers 61/ },
  },
  {
    check: statementPeriod,
    given: 'DAY ending today (São Paulo)',
    request: { body: { groupBy: 'DAY', initialDate: '2026-11-01', finalDate: '2026-11-20' } },
    want: { pointer: '/body/finalDate', message: /before today \(2026-11-20\)/ },
  },
  {
    check: statementPeriod,
    given: 'final date before initial date',
    request: { body: { groupBy: 'DAY', initialDate: '2026-11-10', finalDate: '2026-11-01' } },
    want: { pointer: '/body/finalDate', message: /not be before initialDate/ },
  },
  { check: hourlyStatementDate, given: 'today', request: { body: { date: '2026-11-20' } }, want: 'valid' },
  {
    check: hourlyStatementDate,
    given: 'tomorrow (São Paulo)',
    request: { body: { date: '2026-11-21' } },
    want: { pointer: '/body/date', message: /after today \(2026-11-20\)/ },
  },
  {
    check: creationWindow,
    given: 'fim after inicio',
    request: { query: { inicio: '2026-11-01T00:00:00Z', fim: '2026-11-20T23:59:59-03:00' } },
    want: 'valid',
  },
  {
    check: creationWindow,
    given: 'fim before inicio',
    request: { query: { inicio: '2026-11-20T00:00:00Z', fim: '2026-11-01T00:00:00Z' } },
    want: { pointer: '/query/fim', message: /not be before inicio/ },
  },
  {
    check: listing,
    given: '30 days apart',
    request: { query: { startDate: '2026-10-01T00:00:00Z', endDate: '2026-10-31T00:00:00Z' } },
    want: 'valid',
  },
  {
    check: listing,
    given: '31 days apart',
    request: { query: { startDate: '2026-10-01T00:00:00Z', endDate: '2026-11-01T00:00:00Z' } },
    want: { pointer: '/query/endDate', message: /at most 30 days/ },
  },
  {
    check: listing,
    given: 'startDate without endDate',
    request: { query: { startDate: '2026-10-01T00:00:00Z' } },
    want: { pointer: '/query/endDate', message: /go together/ },
  },
  {
    check: discountDatesNotAfterDueDate,
    given: 'discounts up to the due date',
    request: {
      body: {
        calendario: { dataDeVencimento: '2026-12-10' },
        valor: { desconto: { descontoDataFixa: [{ data: '2026-12-01' }, { data: '2026-12-10' }] } },
      },
    },
    want: 'valid',
  },
  {
    check: discountDatesNotAfterDueDate,
    given: 'a discount after the due date',
    request: {
      body: {
        calendario: { dataDeVencimento: '2026-12-10' },
        valor: { desconto: { descontoDataFixa: [{ data: '2026-12-01' }, { data: '2026-12-11' }] } },
      },
    },
    want: { pointer: '/body/valor/desconto/descontoDataFixa/1/data', message: /after the due date 2026-12-10/ },
  },
  { check: removalAlone, given: 'removal alone', request: { body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } }, want: 'valid' },
  {
    check: removalAlone,
    given: 'removal with a new amount',
    request: { body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', valor: { original: '10.00' } } },
    want: { pointer: '/body/status', message: /cannot be combined with other changes \(valor\)/ },
  },
];

describe('cross-field rules', () => {
  it.each(cases.map((c) => [`${c.check.name}: ${c.given}`, c] as const))('%s', (_label, c) => {
    const issues = c.check.check(c.request, { now });
    if (c.want === 'valid') {
      expect(issues).toEqual([]);
      return;
    }
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ pointer: c.want.pointer, rule: c.check.name, message: expect.stringMatching(c.want.message) });
    expect(issues[0]!.message).toContain(`(${c.check.name})`);
  });

  it('every rule has a valid and an invalid case', () => {
    for (const check of new Set(cases.map((c) => c.check))) {
      const kinds = new Set(cases.filter((c) => c.check === check).map((c) => (c.want === 'valid' ? 'valid' : 'invalid')));
      expect([check.name, [...kinds].sort()]).toEqual([check.name, ['invalid', 'valid']]);
    }
  });

  it('counts days in São Paulo', () => {
    expect(todayInSaoPaulo(new Date('2026-11-21T02:59:59Z'))).toBe('2026-11-20');
    expect(todayInSaoPaulo(new Date('2026-11-21T03:00:00Z'))).toBe('2026-11-21');
  });

  it('a check meeting an unexpected shape reports nothing instead of throwing', () => {
    const throwing: CrossFieldCheck = {
      name: 'boom',
      description: '',
      check: () => {
        throw new Error('boom');
      },
    };
    expect(runCrossFieldChecks([throwing, removalAlone], { body: 'not an object' }, { now })).toEqual([]);
  });
});

describe('cross-field rules in the client and the CLI', () => {
  const feeRuleRange: CrossFieldCheck = {
    name: 'test-min-not-above-max',
    description: 'a rule defined by this test to exercise the wiring',
    check: ({ body }) => {
      const { minAmount, maxAmount } = body as { minAmount: number; maxAmount: number };
      return minAmount > maxAmount
        ? [{ pointer: '/body/minAmount', rule: 'test-min-not-above-max', message: 'must not exceed maxAmount (test-min-not-above-max)' }]
        : [];
    },
  };
  const body = { name: 'Tarifa', percent: 1, minAmount: 20, maxAmount: 10 };

  it('the client reports the rule by name and sends nothing', async () => {
    const server = await startLoopbackServer((_request, response) => response.writeHead(500).end());
    try {
      const runtime = createRuntime({
        baseUrl: server.url,
        operations: operationTable,
        checks: {
          validators: validators.operations as Record<string, OperationValidatorSet>,
          patternDescriptions,
          crossFieldChecks: { 'feeRules.create': [feeRuleRange] },
        },
        send: new Transport().send,
      });
      const error = await runtime.invoke('feeRules.create', { body }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).issues).toEqual([
        { pointer: '/body/minAmount', rule: 'test-min-not-above-max', message: 'must not exceed maxAmount (test-min-not-above-max)' },
      ]);
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('contrato validate runs them on a request document, pointers rooted at the request', () => {
    const modules: InterfaceModules = {
      operationTable,
      validators: validators as unknown as InterfaceModules['validators'],
      patternDescriptions,
      crossFieldChecks: { 'feeRules.create': [feeRuleRange] },
    };
    const operation = findOperation(modules, 'POST', '/fee-rules')!;
    expect(validateDocument(modules, { kind: 'request' }, body, operation)).toEqual([
      { pointer: '/body/minAmount', rule: 'test-min-not-above-max', message: 'must not exceed maxAmount (test-min-not-above-max)' },
    ]);
    expect(validateDocument(modules, { kind: 'request' }, { ...body, minAmount: 5 }, operation)).toEqual([]);
  });
});

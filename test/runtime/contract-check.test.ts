/**
 * The judge of the contract (src/runtime/contract-check.ts) on problem answers: section 7 gives the shape
 * of `type` per interface ({base_url}/errors/<error-type> for A and D, {error_type_base}/<ErrorType> for B,
 * none for C), and each operation declares its error types per status. Valid and invalid cases per
 * interface, with the address known (the client, the sandbox) and unknown (`contrato validate` alone).
 */
import { describe, expect, it } from 'vitest';
import { loadInterface } from '../../src/checks/registry.js';
import { answerIssues, problemIssues, requestIssues } from '../../src/runtime/contract-check.js';

const accounts = await loadInterface('accounts');
const coreBanking = await loadInterface('core-banking');
const pix = await loadInterface('pix');
const messages = await loadInterface('messages');
const base = 'https://api.example.com/api/v2';

const problem = (type: string, status: number) => ({
  type,
  title: 'Problem',
  status,
  detail: 'why',
  correlationId: '7d3a9c1e-5f2b-4b6d-8e40-1c9f3a7b2d56',
});

const cases: {
  given: string;
  modules: typeof accounts;
  operationId: string;
  status: string;
  body: unknown;
  baseUrl?: string;
  want: readonly string[];
}[] = [
  {
    given: 'A: {base_url}/errors/not-found at the address',
    modules: accounts,
    operationId: 'ted.getById',
    status: '404',
    body: problem(`${base}/errors/not-found`, 404),
    baseUrl: base,
    want: [],
  },
  {
    given: 'A: the shape, address unknown',
    modules: accounts,
    operationId: 'ted.getById',
    status: '404',
    body: problem('https://other.example/v9/errors/not-found', 404),
    want: [],
  },
  {
    given: 'A: about:blank',
    modules: accounts,
    operationId: 'ted.getById',
    status: '404',
    body: problem('about:blank', 404),
    want: ['problem-type-shape'],
  },
  {
    given: 'A: /problems/ instead of /errors/',
    modules: accounts,
    operationId: 'ted.getById',
    status: '404',
    body: problem(`${base}/problems/not-found`, 404),
    baseUrl: base,
    want: ['problem-type-shape'],
  },
  {
    given: 'A: another address than the one called',
    modules: accounts,
    operationId: 'ted.getById',
    status: '404',
    body: problem('https://elsewhere.example/api/v2/errors/not-found', 404),
    baseUrl: base,
    want: ['problem-type-shape'],
  },
  {
    given: 'A: a type the operation does not declare for 404',
    modules: accounts,
    operationId: 'ted.getById',
    status: '404',
    body: problem(`${base}/errors/idempotency-conflict`, 404),
    baseUrl: base,
    want: ['declared-error-type'],
  },
  {
    given: 'A: status differing from the HTTP status',
    modules: accounts,
    operationId: 'ted.getById',
    status: '404',
    body: problem(`${base}/errors/not-found`, 400),
    baseUrl: base,
    want: ['status-equals-http-status'],
  },
  {
    given: 'D: duplicate weight on 409 of a fee rule',
    modules: coreBanking,
    operationId: 'feeRules.update',
    status: '409',
    body: problem('https://core.example.com/errors/duplicate-weight', 409),
    baseUrl: 'https://core.example.com',
    want: [],
  },
  {
    given: 'D: about:blank',
    modules: coreBanking,
    operationId: 'feeRules.update',
    status: '409',
    body: problem('about:blank', 409),
    want: ['problem-type-shape'],
  },
  {
    given: 'B: the operation\u2019s own type',
    modules: pix,
    operationId: 'cob.get',
    status: '404',
    body: problem('https://pix.example.com/api/v2/error/CobNaoEncontrado', 404),
    want: [],
  },
  {
    given: 'B: the generic type of any operation',
    modules: pix,
    operationId: 'cob.get',
    status: '404',
    body: problem('https://pix.example.com/api/v2/error/NaoEncontrado', 404),
    want: [],
  },
  {
    given: 'B: about:blank',
    modules: pix,
    operationId: 'cob.get',
    status: '404',
    body: problem('about:blank', 404),
    want: ['problem-type-shape'],
  },
  {
    given: 'B: another charge kind\u2019s type',
    modules: pix,
    operationId: 'cob.get',
    status: '404',
    body: problem('https://pix.example.com/api/v2/error/CobVNaoEncontrada', 404),
    want: ['declared-error-type'],
  },
  {
    given: 'B: a 400 type on a 404',
    modules: pix,
    operationId: 'cob.get',
    status: '404',
    body: problem('https://pix.example.com/api/v2/error/CobConsultaInvalida', 404),
    want: ['declared-error-type'],
  },
  {
    given: 'C: no shape is given (section 7.3), any type passes',
    modules: messages,
    operationId: 'pacs008.send',
    status: '400',
    body: { type: 'about:blank', status: 400 },
    want: [],
  },
];

describe('problem types by shape (section 7)', () => {
  it.each(cases.map((c) => [c.given, c] as const))('%s', (_given, c) => {
    const info = c.modules.operationTable[c.operationId]!;
    expect(info, c.operationId).toBeDefined();
    expect(problemIssues(info, c.status, c.body, c.baseUrl).map((issue) => issue.rule)).toEqual(c.want);
  });

  it('a success body is never judged as a problem', () => {
    const info = accounts.operationTable['ted.getById']!;
    expect(problemIssues(info, '200', { type: 'about:blank', status: 1 }, base)).toEqual([]);
  });

  it('an answer with an undeclared status names the statuses the operation has', () => {
    const info = pix.operationTable['cob.get']!;
    const [issue] = answerIssues(info, { status: 418, body: {} });
    expect(issue?.rule).toBe('status');
    expect(issue?.message).toMatch(/status 418 is not in the contract of cob\.get \(200, /);
  });

  it('a hostile type of 100,000 characters is judged at once, never by backtracking', () => {
    const info = accounts.operationTable['ted.getById']!;
    const type = `${'https://a/'.repeat(10_000)}errors/not-found?`;
    expect(problemIssues(info, '404', problem(type, 404), base).map((issue) => issue.rule)).toEqual(['problem-type-shape']);
  });
});

describe('a required header is required everywhere', () => {
  it('the idempotency key of a keyed operation, missing, is refused; given, passes', () => {
    const info = coreBanking.operationTable['invoices.create']!;
    const header = info.idempotencyKeyRule!.header;
    const checks = {
      validators: coreBanking.validators.operations['invoices.create']!,
      patterns: coreBanking.patternDescriptions,
      crossField: coreBanking.crossFieldChecks['invoices.create'],
    };
    const body = { customerId: 1, amount: 10 };
    const without = requestIssues(info, checks, { header: {}, body }, new Date());
    expect(without.map((issue) => `${issue.pointer} ${issue.rule}`)).toContain(`/header/${header} required`);
    const withKey = requestIssues(info, checks, { header: { [header]: 'k-1' }, body }, new Date());
    expect(withKey.map((issue) => issue.pointer)).not.toContain(`/header/${header}`);
  });
});

/**
 * The named edges of interface C (sections 1, 2.12, 4.9, 5.7, 7.3, 8) as given/want cases through the
 * message validators — idFimAFim both ways (docs/decisions.md), participants, documents with check
 * digits, accounts, branches, account types of recurring charges, lengths and directory limits — then
 * the shape of the HTTP shell, and coverage of every rule of C in the inventory.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { messageTable } from '../../../generated/messages/operations.js';
import { patternDescriptions, validators } from '../../../generated/messages/validators.js';
import { projectRoot } from '../../../scripts/lib.js';
import { operationsOf, type JsonObject } from '../../../scripts/openapi-model.js';
import { bundledSpecPath } from '../../../src/checks/registry.js';
import { check, type CompiledValidator } from '../../../src/runtime/validation.js';

const example = (message: string, name = 'full'): Record<string, any> =>
  (parse(readFileSync(join(projectRoot, 'specs/messages/examples', message, `${name}.yaml`), 'utf8')) as { value: Record<string, any> })
    .value;
const change = (message: string, edit: (copy: Record<string, any>) => void, name = 'full'): Record<string, any> => {
  const copy = structuredClone(example(message, name));
  edit(copy);
  return copy;
};
function issuesOf(message: string, document: unknown): string {
  const validator = (validators.schemas as Record<string, CompiledValidator>)[
    (messageTable as Record<string, { schema: string }>)[message]!.schema
  ]!;
  return check(validator, document, '', patternDescriptions)
    .map((i) => `${i.pointer || '/'}: ${i.message}`)
    .join('\n');
}

interface Case {
  readonly rule: string;
  readonly given: string;
  readonly message: string;
  readonly document: unknown;
  readonly want: 'valid' | RegExp;
}

const cases: Case[] = [
  {
    rule: 'R-C-idFimAFim-format',
    given: 'E, ISPB, instant and an alphanumeric tail',
    message: 'pacs.004',
    document: change('pacs.004', (m) => (m.idFimAFim = 'E00360305202504101530abcDEF12345')),
    want: 'valid',
  },
  {
    rule: 'R-C-idFimAFim-format',
    given: 'E followed by 31 digits',
    message: 'pacs.004',
    document: change('pacs.004', (m) => (m.idFimAFim = `E00360305202504101530${'1'.repeat(11)}`)),
    want: 'valid',
  },
  {
    rule: 'R-C-idFimAFim-format',
    given: 'D followed by digits (a short id)',
    message: 'pacs.004',
    document: change('pacs.004', (m) => (m.idFimAFim = 'D12345')),
    want: /^\/idFimAFim: must be an end-to-end id/m,
  },
  {
    rule: 'R-C-idFimAFim-format',
    given: 'X instead of E or D',
    message: 'pain.014',
    document: change('pain.014', (m) => (m.idFimAFimOriginal = 'X00360305202504101530abcDEF12345')),
    want: /^\/idFimAFimOriginal: must be an end-to-end id/m,
  },
  {
    rule: 'R-C-idFimAFim-format',
    given: 'an impossible instant (month 13)',
    message: 'pacs.002',
    document: change('pacs.002', (m) => (m.idFimAFimOriginal = 'E00360305202513101530abcDEF12345')),
    want: /^\/idFimAFimOriginal: /m,
  },
  { rule: 'R-C-participant-8', given: 'an 8-character participant', message: 'pacs.008', document: example('pacs.008'), want: 'valid' },
  {
    rule: 'R-C-participant-8',
    given: 'a 7-character participant',
    message: 'pacs.008',
    document: change('pacs.008', (m) => (m.participanteDoUsuarioPagador = '0036030')),
    want: /^\/participanteDoUsuarioPagador: must have at least 8/m,
  },
  {
    rule: 'R-C-participant-8',
    given: 'a 9-character participant',
    message: 'pacs.004',
    document: change('pacs.004', (m) => (m.participanteUsuarioRecebedor = '603603050')),
    want: /^\/participanteUsuarioRecebedor: must have at most 8/m,
  },
  {
    rule: 'R-C-cpfCnpj-digits',
    given: 'a CPF of 11 digits',
    message: 'pacs.008',
    document: change('pacs.008', (m) => (m.cpfCnpjUsuarioRecebedor = '52998224725')),
    want: 'valid',
  },
  {
    rule: 'R-C-cpfCnpj-digits',
    given: 'a CNPJ without its leading zeros (12 digits)',
    message: 'pacs.008',
    document: change('pacs.008', (m) => (m.cpfCnpjUsuarioRecebedor = '360305000104')),
    want: 'valid',
  },
  {
    rule: 'R-C-cpfCnpj-digits',
    given: 'a CPF with a wrong check digit',
    message: 'pacs.008',
    document: change('pacs.008', (m) => (m.cpfCnpjUsuarioRecebedor = '52998224726')),
    want: /^\/cpfCnpjUsuarioRecebedor: must be a CPF or CNPJ as digits/m,
  },
  {
    rule: 'R-C-cpfCnpj-digits',
    given: '10 digits',
    message: 'pain.011',
    document: change('pain.011', (m) => (m.cpfCnpjSolicitanteCancelamento = '5299822472')),
    want: /^\/cpfCnpjSolicitanteCancelamento: /m,
  },
  {
    rule: 'R-C-cpfCnpj-digits',
    given: 'a formatted CPF',
    message: 'camt.055',
    document: change('camt.055', (m) => (m.cpfCnpjUsuarioSolicitanteDoCancelamento = '529.982.247-25')),
    want: /^\/cpfCnpjUsuarioSolicitanteDoCancelamento: /m,
  },
  {
    rule: 'R-C-account-digits',
    given: 'an account of 20 digits and a branch of 4',
    message: 'pacs.008',
    document: change('pacs.008', (m) => ((m.contaUsuarioPagador = '1'.repeat(20)), (m.agenciaUsuarioPagador = '0001'))),
    want: 'valid',
  },
  {
    rule: 'R-C-account-digits',
    given: 'an account of 21 digits',
    message: 'pacs.008',
    document: change('pacs.008', (m) => (m.contaUsuarioPagador = '1'.repeat(21))),
    want: /^\/contaUsuarioPagador: must be 1 to 20 digits/m,
  },
  {
    rule: 'R-C-account-digits',
    given: 'an account with a dash',
    message: 'pain.013',
    document: change('pain.013', (m) => (m.contaUsuarioPagador = '12345-6'), 'minimal'),
    want: /^\/contaUsuarioPagador: /m,
  },
  {
    rule: 'R-C-account-digits',
    given: 'a branch of 5 digits',
    message: 'pacs.008',
    document: change('pacs.008', (m) => (m.agenciaUsuarioRecebedor = '00001')),
    want: /^\/agenciaUsuarioRecebedor: must be 1 to 4 digits/m,
  },
  {
    rule: 'R-C-accountType-enum',
    given: 'SLRY on a payment',
    message: 'pacs.008',
    document: change('pacs.008', (m) => (m.tipoContaUsuarioPagador = 'SLRY')),
    want: 'valid',
  },
  {
    rule: 'R-C-accountType-enum',
    given: 'CHCK on a payment',
    message: 'pacs.008',
    document: change('pacs.008', (m) => (m.tipoContaUsuarioPagador = 'CHCK')),
    want: /^\/tipoContaUsuarioPagador: must be one of "CACC", "SLRY", "SVGS", "TRAN"/m,
  },
  {
    rule: 'R-C-accountType-enum',
    given: 'SVGS on a recurring charge',
    message: 'pain.013',
    document: change('pain.013', (m) => (m.tipoContaUsuarioPagador = 'SVGS'), 'minimal'),
    want: 'valid',
  },
  {
    rule: 'R-C-accountType-enum',
    given: 'SLRY on a recurring charge',
    message: 'pain.013',
    document: change('pain.013', (m) => (m.tipoContaUsuarioPagador = 'SLRY'), 'minimal'),
    want: /^\/tipoContaUsuarioPagador: must be one of "CACC", "SVGS", "TRAN"/m,
  },
  {
    rule: 'R-C-dict-list-paging',
    given: 'PerPage 350, QueryFilter empty',
    message: 'dict.list-keys',
    document: { Page: 1, PerPage: 350, QueryFilter: [] },
    want: 'valid',
  },
  { rule: 'R-C-dict-list-paging', given: 'Page 0', message: 'dict.list-keys', document: { Page: 0 }, want: /^\/Page: must be at least 1/m },
  { rule: 'R-C-limit-dict-perpage', given: 'PerPage 350', message: 'dict.list-keys', document: { PerPage: 350 }, want: 'valid' },
  {
    rule: 'R-C-limit-dict-perpage',
    given: 'PerPage 351',
    message: 'dict.list-keys',
    document: { PerPage: 351 },
    want: /^\/PerPage: must be at most 350/m,
  },
  {
    rule: 'R-C-dict-create-key',
    given: 'a CPF key of a natural person',
    message: 'dict.create-key',
    document: change('dict.create-key', (m) => ((m.KeyType = 'CPF'), (m.Key = '79803432559'))),
    want: 'valid',
  },
  {
    rule: 'R-C-dict-create-key',
    given: 'a branch of 3 digits',
    message: 'dict.create-key',
    document: change('dict.create-key', (m) => (m.Branch = '001')),
    want: /^\/Branch: /m,
  },
  {
    rule: 'R-C-dict-create-key',
    given: 'an account number of 21 digits',
    message: 'dict.create-key',
    document: change('dict.create-key', (m) => (m.AccountNumber = '1'.repeat(21))),
    want: /^\/AccountNumber: /m,
  },
  {
    rule: 'R-C-dict-create-key',
    given: 'a name of 121 characters',
    message: 'dict.create-key',
    document: change('dict.create-key', (m) => (m.Name = 'N'.repeat(121))),
    want: /^\/Name: must have at most 120/m,
  },
  {
    rule: 'R-C-dict-create-key',
    given: 'an empty name',
    message: 'dict.create-key',
    document: change('dict.create-key', (m) => (m.Name = '')),
    want: /^\/Name: must have at least 1/m,
  },
  {
    rule: 'R-C-dict-create-key',
    given: 'a trade name of 101 characters',
    message: 'dict.create-key',
    document: change('dict.create-key', (m) => (m.TradeName = 'T'.repeat(101))),
    want: /^\/TradeName: must have at most 100/m,
  },
  {
    rule: 'R-C-dict-create-key',
    given: 'reason BRANCH_TRANSFER (update only)',
    message: 'dict.create-key',
    document: change('dict.create-key', (m) => (m.Reason = 'BRANCH_TRANSFER')),
    want: /^\/Reason: must be one of "USER_REQUESTED", "RECONCILIATION"/m,
  },
  {
    rule: 'R-C-dict-update-reason',
    given: 'reason BRANCH_TRANSFER',
    message: 'dict.update-key',
    document: { Reason: 'BRANCH_TRANSFER', Branch: '0002' },
    want: 'valid',
  },
  {
    rule: 'R-C-dict-update-reason',
    given: 'no reason',
    message: 'dict.update-key',
    document: { Branch: '0002' },
    want: /Reason.*required|required.*Reason/,
  },
  {
    rule: 'R-C-dict-qr-lookup',
    given: 'a BR Code, a 7-digit municipality and a date',
    message: 'dict.qrcode-lookup',
    document: example('dict.qrcode-lookup'),
    want: 'valid',
  },
  {
    rule: 'R-C-dict-qr-lookup',
    given: 'a 6-digit municipality',
    message: 'dict.qrcode-lookup',
    document: change('dict.qrcode-lookup', (m) => (m.codMun = '355030')),
    want: /^\/codMun: /m,
  },
  {
    rule: 'R-C-dict-qr-lookup',
    given: 'DPP as a date-time',
    message: 'dict.qrcode-lookup',
    document: change('dict.qrcode-lookup', (m) => (m.DPP = '2025-05-01T00:00:00Z')),
    want: /^\/DPP: must be a date/m,
  },
  {
    rule: 'R-C-dict-fraud-requestid',
    given: 'a UUID RequestId',
    message: 'dict.fraud-marker',
    document: example('dict.fraud-marker'),
    want: 'valid',
  },
  {
    rule: 'R-C-dict-fraud-requestid',
    given: 'a RequestId that is no UUID',
    message: 'dict.fraud-marker',
    document: change('dict.fraud-marker', (m) => (m.RequestId = 'fraude-1')),
    want: /^\/RequestId: must be a UUID/m,
  },
];

describe('named edges of interface C', () => {
  it.each(cases.map((c) => [`${c.rule}: ${c.given}`, c] as const))('%s', (_label, c) => {
    const issues = issuesOf(c.message, c.document);
    if (c.want === 'valid') expect(issues).toBe('');
    else expect(issues).toMatch(c.want);
  });
});

const shell = JSON.parse(readFileSync(bundledSpecPath('messages'), 'utf8')) as JsonObject;
const operations = operationsOf(shell);

describe('the HTTP shell of interface C', () => {
  it('R-C-svc-token, R-C-unauthorized: every operation but the login carries svc-token and declares 401', () => {
    const wrong = operations.flatMap((o) => {
      const problems: string[] = [];
      if (o.operationId === 'auth.login' ? o.secured : !o.secured)
        problems.push(`${o.operationId}: svc-token ${o.secured ? 'on the login' : 'missing'}`);
      if (!o.responses.some((r) => r.status === '401')) problems.push(`${o.operationId}: no 401`);
      return problems;
    });
    expect(wrong).toEqual([]);
    expect((shell.components as JsonObject).securitySchemes).toMatchObject({
      svcToken: { type: 'apiKey', in: 'header', name: 'svc-token' },
    });
  });

  it('R-C-client-certificate: every operation requires mutual TLS', () => {
    expect(
      operations
        .filter((o) => !(o.operation.security as JsonObject[]).every((requirement) => 'mutualTLS' in requirement))
        .map((o) => o.operationId),
    ).toEqual([]);
  });

  it('R-C-pull-next: the poll takes pullNext in the path and answers svc-pull-next', () => {
    const poll = operations.find((o) => o.operationId === 'messages.poll')!;
    expect(poll.parameters.find((p) => p.name === 'pullNext')).toMatchObject({ in: 'path', required: true, example: 'start' });
    expect(JSON.stringify((poll.operation.responses as JsonObject)['200'])).toContain('"svc-pull-next"');
  });

  it('R-C-dict-qr-lookup: the QR lookup requires the svc-payerid header', () => {
    const lookup = operations.find((o) => o.operationId === 'dictQrCode.lookup')!;
    expect(lookup.parameters.find((p) => p.name === 'svc-payerid')).toMatchObject({ in: 'header', required: true });
  });

  it('R-C-dict-fraud-requestid: the fraud marker names RequestId as its idempotency key', () => {
    expect(operations.find((o) => o.operationId === 'dictFraudMarkers.create')!.operation['x-idempotency-body-field']).toBe('RequestId');
  });
});

/** Rules checked by a named test elsewhere. */
const coveredElsewhere: Record<string, string> = {
  'R-C-client-certificate':
    'also test/messages/poll.test.ts: the client refuses to start without a client certificate; the exchange there demands one',
  'R-C-svc-token':
    'also test/messages/poll.test.ts: svc-token on every poll, none on the login, against a server that answers 401 without it',
  'R-C-unauthorized': 'the shell declares 401 with no body format (7.3); errors without a described body are HttpError (contract test)',
  'R-C-pull-next': 'also test/messages/poll.test.ts: start first, then svc-pull-next; an answer without it stops the poller',
  'R-C-dict-fraud-requestid': 'also test/messages/client.test.ts: RequestId filled when absent and kept on the retry',
};

describe('coverage of the rules of interface C', () => {
  it('every rule of C in the inventory has cases or a named test', () => {
    const inventory = JSON.parse(readFileSync(join(projectRoot, 'specs/inventory.json'), 'utf8')) as {
      rules: { id: string; interface: string; alsoInterfaces?: string[] }[];
    };
    const rulesOfC = inventory.rules.filter((r) => r.interface === 'C' || r.alsoInterfaces?.includes('C')).map((r) => r.id);
    const kinds = new Map<string, Set<string>>();
    for (const c of cases) kinds.set(c.rule, (kinds.get(c.rule) ?? new Set()).add(c.want === 'valid' ? 'valid' : 'invalid'));
    expect([...kinds].filter(([, k]) => k.size < 2).map(([rule]) => rule)).toEqual([]);
    expect(rulesOfC.filter((id) => !kinds.has(id) && !coveredElsewhere[id])).toEqual([]);
    expect(rulesOfC.length).toBe(15);
  });
});

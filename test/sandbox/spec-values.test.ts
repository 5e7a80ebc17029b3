/**
 * What the hand-written sandbox modules read from the bundled spec (src/sandbox/spec-values.ts): the values
 * a member admits and the members a schema lists, given/want; a place the spec lacks throws, naming it. And
 * the one list the Pix sandbox still keeps by hand because the spec states it only in words — the rejection
 * codes that end a recurring charge, not only its attempt — checked against those words.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bundledSpecPath } from '../../src/checks/registry.js';
import { chargeRejectionCodes, pendingAttemptStatuses } from '../../src/sandbox/pix/recurring-attempts.js';
import { declaredMembers, declaredValues } from '../../src/sandbox/spec-values.js';
import { resolvePlace } from '../../src/sandbox/verb-contract.js';

describe('declaredValues', () => {
  it.each([
    { given: 'pix#RecEncerramento/rejeicao/codigo', want: ['AP13', 'AP14'] },
    { given: 'pix#RecCompleta/dadosQR/jornada', want: ['JORNADA_2', 'JORNADA_3', 'JORNADA_4'] },
    { given: 'pix#CobRStatus', want: ['CRIADA', 'ATIVA', 'CONCLUIDA', 'EXPIRADA', 'REJEITADA', 'CANCELADA'] },
    { given: 'pix#CobRTentativas/status', want: ['SOLICITADA', 'AGENDADA', 'PAGA', 'CANCELADA', 'REJEITADA', 'EXPIRADA'] },
  ])('reads $given as $want', ({ given, want }) => {
    const [document, place] = given.split('#') as [string, string];
    expect(declaredValues(document, place)).toEqual(want);
  });

  it('refuses a place with no values, and one the spec does not have, naming it', () => {
    expect(() => declaredValues('pix', 'RecEncerramento/rejeicao/descricao')).toThrow(
      'pix#RecEncerramento/rejeicao/descricao declares no values',
    );
    expect(() => declaredValues('pix', 'RecEncerramento/nothing')).toThrow('no member nothing');
  });
});

describe('declaredMembers', () => {
  it.each([
    { given: 'pix#PayloadLocationRecConsultadas/parametros', want: ['inicio', 'fim', 'idRecPresente', 'recebedor', 'paginacao'] },
    // An array is entered through its items.
    {
      given: 'accounts#BilletPaymentList/data',
      want: ['eventDate', 'id', 'digitableCode', 'status', 'transactionType', 'idempotencyKey', 'creditDebitType', 'transactionAmount'],
    },
  ])('reads $given as $want', ({ given, want }) => {
    const [document, place] = given.split('#') as [string, string];
    expect(declaredMembers(document, place)).toEqual(want);
  });

  it('refuses a schema that lists no members', () => {
    expect(() => declaredMembers('pix', 'RecStatus')).toThrow('pix#RecStatus lists no members');
  });
});

describe("the recurring charge's lists the sandbox keeps by hand", () => {
  const bundle = JSON.parse(readFileSync(bundledSpecPath('pix'), 'utf8')) as Record<string, unknown>;

  it('ends the charge on exactly the rejection codes the words of CobRTentativas name, each a code an attempt takes', () => {
    const words = String(resolvePlace(bundle, 'pix', 'CobRTentativas/rejeicao').schema.description);
    const named = words.match(/\b[A-Z][A-Z0-9]{3}\b/g) ?? [];
    expect([...chargeRejectionCodes].sort()).toEqual([...named].sort());
    expect(declaredValues('pix', 'CobRTentativas/rejeicao/codigo')).toEqual(expect.arrayContaining([...chargeRejectionCodes]));
  });

  it('holds an attempt pending only in statuses an attempt has', () => {
    expect(declaredValues('pix', 'CobRTentativas/status')).toEqual(expect.arrayContaining([...pendingAttemptStatuses]));
  });
});

/** Pix identifiers and keys: given/want tables, and generators whose output always validates. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkEndToEndId,
  checkEvp,
  checkIdRec,
  checkIspb,
  checkPhone,
  checkPixKey,
  checkTxid,
  detectPixKeyType,
  generateEndToEndId,
  generateIdRec,
  generateTxid,
} from '../../src/formats/pix.js';
import { expectFormat as expectResult, type FormatCase as Case } from '../helpers/format-cases.js';

const tail = 'a1B2c3D4e5F';
describe.each([
  {
    name: 'ispb',
    check: checkIspb,
    cases: [
      { given: '00000000', want: 'valid' },
      { given: '60746948', want: 'valid' },
      { given: '6074694', want: /8 digits/ },
      { given: '6074694A', want: /8 digits/ },
    ],
  },
  {
    name: 'txid',
    check: checkTxid,
    cases: [
      { given: 'a'.repeat(26), want: 'valid' },
      { given: `${'Z9'.repeat(17)}x`, want: 'valid' },
      { given: 'a'.repeat(25), want: /26 to 35 letters or digits/ },
      { given: 'a'.repeat(36), want: /26 to 35/ },
      { given: `${'a'.repeat(25)}-`, want: /letters or digits/ },
    ],
  },
  {
    name: 'e2eid',
    check: checkEndToEndId,
    cases: [
      { given: `E60746948202611211030${tail}`, want: 'valid' },
      { given: `D00000000202402292359${tail}`, want: 'valid' },
      { given: `E60746948202302291030${tail}`, want: /not a real UTC date/ },
      { given: `E60746948202611212400${tail}`, want: /not a real UTC date/ },
      { given: `E60746948202611211060${tail}`, want: /not a real UTC date/ },
      { given: `E60746948202613211030${tail}`, want: /not a real UTC date/ },
      { given: `X60746948202611211030${tail}`, want: /starts with E or D/ },
      { given: `E6074694820261121103${tail}`, want: /32 characters/ },
      { given: `E60746948202611211030a1B2c3D4e5-`, want: /11 letters or digits/ },
    ],
  },
  {
    name: 'idRec',
    check: checkIdRec,
    cases: [
      { given: `RR1234567820261121${tail}`, want: 'valid' },
      { given: `RN1234567820240229${tail}`, want: 'valid' },
      { given: `RX1234567820261121${tail}`, want: /starts with RR .* or RN/ },
      { given: `RR1234567820261131${tail}`, want: /not a real date/ },
      { given: `RR123456782026112${tail}`, want: /29 characters/ },
    ],
  },
  {
    name: 'evp',
    check: checkEvp,
    cases: [
      { given: '123e4567-e89b-42d3-a456-426614174000', want: 'valid' },
      { given: '123E4567-E89B-42D3-A456-426614174000', want: /lowercase/ },
      { given: '123e4567e89b42d3a456426614174000', want: /8-4-4-4-12/ },
    ],
  },
  {
    name: 'phone',
    check: checkPhone,
    cases: [
      { given: '+5511987654321', want: 'valid' },
      { given: '+551133334444', want: 'valid' },
      { given: '5511987654321', want: /E\.164/ },
      { given: '+0511987654321', want: /E\.164/ },
      { given: '+5511987654321000', want: /up to 15 digits/ },
    ],
  },
] as const)('$name', ({ check, cases }) => {
  it.each(cases as readonly Case[])('$given -> $want', ({ given, want }) => expectResult(check(given), want));
});

describe('Pix keys', () => {
  it.each([
    { given: '52998224725', type: 'CPF', want: 'valid' },
    { given: '12ABC34501DE35', type: 'CNPJ', want: 'valid' },
    { given: 'financeiro@padaria.com.br', type: 'EMAIL', want: 'valid' },
    { given: '+5511987654321', type: 'PHONE', want: 'valid' },
    { given: '123e4567-e89b-42d3-a456-426614174000', type: 'EVP', want: 'valid' },
    { given: '52998224724', type: 'CPF', want: /CPF key: the CPF check digits do not match/ },
    { given: 'Financeiro@Padaria.com.br', type: 'EMAIL', want: /lowercase/ },
    { given: `${'a'.repeat(70)}@ex.com.br`, type: 'EMAIL', want: /at most 77/ },
    { given: 'financeiro@padaria', type: 'EMAIL', want: /not an e-mail/ },
    { given: 'not a key', type: null, want: /not a Pix key/ },
  ] as const)('$given ($type) -> $want', ({ given, type, want }) => {
    expect(detectPixKeyType(given)).toBe(type);
    expectResult(checkPixKey(given), want);
  });

  it('validates a key against its declared type', () => {
    expectResult(checkPixKey('52998224725', 'CPF'), 'valid');
    expectResult(checkPixKey('52998224725', 'PHONE'), /PHONE key: a phone is in E\.164 form/);
    expectResult(checkPixKey('+5511987654321', 'EMAIL'), /EMAIL key/);
  });
});

describe('generators', () => {
  it('generated txids, end-to-end ids and idRecs always validate and differ', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 26, max: 35 }),
        fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }),
        fc.stringMatching(/^\d{8}$/),
        fc.boolean(),
        (length, at, ispb, allowsRetries) => {
          expectResult(checkTxid(generateTxid(length)), 'valid');
          const e2e = generateEndToEndId({ ispb, at });
          expectResult(checkEndToEndId(e2e), 'valid');
          expect(e2e.slice(1, 9)).toBe(ispb);
          const idRec = generateIdRec({ agentId: ispb, allowsRetries, at });
          expectResult(checkIdRec(idRec), 'valid');
          expect(idRec[1]).toBe(allowsRetries ? 'R' : 'N');
        },
      ),
    );
    expect(new Set(Array.from({ length: 1000 }, () => generateTxid())).size).toBe(1000);
  });

  it('refuses bad generator input', () => {
    expect(() => generateTxid(25)).toThrow(RangeError);
    expect(() => generateEndToEndId({ ispb: '123' })).toThrow(RangeError);
    expect(() => generateIdRec({ agentId: 'abc', allowsRetries: true })).toThrow(RangeError);
  });
});

/** CPF and CNPJ (numeric and alphanumeric) by check digits: table cases and properties. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCnpj, checkCpf, cnpjCheckDigits } from '../../src/formats/documents.js';

describe('checkCpf', () => {
  it.each([
    { given: '52998224725', want: 'valid' },
    { given: '39053344705', want: 'valid' },
    { given: '11144477735', want: 'valid' },
    { given: '52998224724', want: /check digits do not match/ },
    { given: '52998224715', want: /check digits do not match/ },
    { given: '11111111111', want: /repeat one digit/ },
    { given: '00000000000', want: /repeat one digit/ },
    { given: '529.982.247-25', want: /11 digits, without punctuation/ },
    { given: '5299822472', want: /11 digits/ },
    { given: '529982247250', want: /11 digits/ },
    { given: '', want: /11 digits/ },
  ])('$given -> $want', ({ given, want }) => {
    const result = checkCpf(given);
    if (want === 'valid') expect(result).toEqual({ valid: true });
    else expect(result.valid ? '' : result.reason).toMatch(want);
  });

  it('accepts any 9 digits completed with their check digits, and rejects any other final pair', () => {
    const cpfOf = (base: number[]): string => {
      const digit = (digits: number[]) => {
        const sum = digits.reduce((total, d, i) => total + d * (digits.length + 1 - i), 0);
        return ((sum * 10) % 11) % 10;
      };
      const first = digit(base);
      return [...base, first, digit([...base, first])].join('');
    };
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 9, maxLength: 9 }),
        fc.integer({ min: 1, max: 99 }),
        (base, shift) => {
          const cpf = cpfOf(base);
          if (/^(.)\1*$/.test(cpf)) return;
          expect(checkCpf(cpf).valid).toBe(true);
          const wrong = cpf.slice(0, 9) + String((Number(cpf.slice(9)) + shift) % 100).padStart(2, '0');
          expect(checkCpf(wrong).valid).toBe(false);
        },
      ),
    );
  });
});

describe('checkCnpj', () => {
  it.each([
    { given: '11222333000181', want: 'valid' },
    { given: '11444777000161', want: 'valid' },
    { given: '12ABC34501DE35', want: 'valid' },
    { given: '11222333000182', want: /check digits do not match/ },
    { given: '12ABC34501DE36', want: /check digits do not match/ },
    { given: '12abc34501de35', want: /must be uppercase/ },
    { given: '12ABC34501DEA5', want: /followed by 2 check digits/ },
    { given: '00000000000000', want: /repeat one character/ },
    { given: '11.222.333/0001-81', want: /14 characters/ },
    { given: '1122233300018', want: /14 characters/ },
    { given: '12ABC3450#DE35', want: /12 digits or uppercase letters/ },
  ])('$given -> $want', ({ given, want }) => {
    const result = checkCnpj(given);
    if (want === 'valid') expect(result).toEqual({ valid: true });
    else expect(result.valid ? '' : result.reason).toMatch(want);
  });

  it('alphanumeric CNPJs: any 12 uppercase letters or digits with their check digits are valid; other digits are not', () => {
    const base = fc.string({ unit: fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'), minLength: 12, maxLength: 12 });
    fc.assert(
      fc.property(base, fc.integer({ min: 1, max: 99 }), (head, shift) => {
        const digits = cnpjCheckDigits(head);
        if (/^(.)\1*$/.test(head + digits)) return;
        expect(checkCnpj(head + digits).valid).toBe(true);
        expect(checkCnpj(head + String((Number(digits) + shift) % 100).padStart(2, '0')).valid).toBe(false);
      }),
    );
  });
});

/**
 * Boleto codes. Vectors are built here from their parts (bank, value, free field), so each test also
 * states the layout: the 44-digit barcode, its 47-digit line, and the 48-digit collection line.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  barcodeOfDigitableLine,
  checkBoletoBarcode,
  checkBoletoLine,
  checkConvenioLine,
  digitableLineOfBarcode,
  modulo10,
  modulo11Bank,
  modulo11Collection,
} from '../../src/formats/boleto.js';

/** Bank barcode: bank (3), currency 9, general digit, due factor (4), value (10), free field (25). */
function bankBarcode(bank: string, dueFactor: string, value: string, free: string): string {
  const body = `${bank}9${dueFactor}${value}${free}`;
  return `${body.slice(0, 4)}${modulo11Bank(body)}${body.slice(4)}`;
}

/** Collection barcode: 8, segment, value identifier (6/7 modulo 10, 8/9 modulo 11), general digit, 40 digits. */
function collectionBarcode(segment: string, identifier: '6' | '7' | '8' | '9', rest: string): string {
  const body = `8${segment}${identifier}${rest}`;
  const modulo = identifier === '6' || identifier === '7' ? modulo10 : modulo11Collection;
  return `${body.slice(0, 3)}${modulo(body)}${body.slice(3)}`;
}

function collectionLine(barcode: string): string {
  const modulo = barcode[2] === '6' || barcode[2] === '7' ? modulo10 : modulo11Collection;
  return [0, 1, 2, 3]
    .map((block) => barcode.slice(block * 11, block * 11 + 11))
    .map((block) => block + modulo(block))
    .join('');
}

const flip = (code: string, index: number): string => code.slice(0, index) + ((Number(code[index]) + 1) % 10) + code.slice(index + 1);

const barcode = bankBarcode('001', '1000', '0000015000', '0000002820632000000123456');
const line = digitableLineOfBarcode(barcode);

describe('check digit helpers', () => {
  it.each([
    // Worked by hand: weights 2,1,2,... from the right, two-digit products summed digit by digit.
    { given: '0019373700', modulo: modulo10, want: 4 },
    { given: '261533', modulo: modulo10, want: 4 },
    { given: '12345', modulo: modulo10, want: 5 },
    { given: '0', modulo: modulo10, want: 0 },
  ])('modulo10($given) = $want', ({ given, modulo, want }) => expect(modulo(given)).toBe(want));

  it.each([
    // Only the last digit counts (weight 2): 11 - 2 = 9. All zeros: 11 - 0 = 11, mapped to 1 (bank) or 0 (collection).
    { given: '0000000000000000000000000000000000000000001', bank: 9, collection: 9 },
    { given: '0000000000000000000000000000000000000000000', bank: 1, collection: 0 },
  ])('modulo 11 of $given: bank $bank, collection $collection', ({ given, bank, collection }) => {
    expect(modulo11Bank(given)).toBe(bank);
    expect(modulo11Collection(given)).toBe(collection);
  });

  it('bank modulo 11 never yields 0 (0, 10 and 11 become 1); collection modulo 11 never yields 10', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{43}$/), (digits) => {
        expect(modulo11Bank(digits)).toBeGreaterThanOrEqual(1);
        expect(modulo11Bank(digits)).toBeLessThanOrEqual(9);
        expect(modulo11Collection(digits)).toBeLessThanOrEqual(9);
      }),
    );
  });
});

describe('bank boletos', () => {
  it('a barcode and its digitable line validate and convert into each other', () => {
    expect(checkBoletoBarcode(barcode)).toEqual({ valid: true });
    expect(checkBoletoLine(line)).toEqual({ valid: true });
    expect(line).toHaveLength(47);
    expect(barcodeOfDigitableLine(line)).toBe(barcode);
  });

  it.each([
    {
      given: 'the general digit changed',
      code: () => flip(barcode, 4),
      check: checkBoletoBarcode,
      want: /general check digit \(5th digit\)/,
    },
    { given: 'a value digit changed', code: () => flip(barcode, 12), check: checkBoletoBarcode, want: /general check digit/ },
    { given: '43 digits', code: () => barcode.slice(1), check: checkBoletoBarcode, want: /44 digits/ },
    { given: 'first field digit changed', code: () => flip(line, 2), check: checkBoletoLine, want: /first field \(digit 10\)/ },
    { given: 'second field digit changed', code: () => flip(line, 12), check: checkBoletoLine, want: /second field \(digit 21\)/ },
    { given: 'third field digit changed', code: () => flip(line, 25), check: checkBoletoLine, want: /third field \(digit 32\)/ },
    { given: 'general digit changed', code: () => flip(line, 32), check: checkBoletoLine, want: /general check digit \(digit 33\)/ },
    { given: 'the value changed', code: () => flip(line, 40), check: checkBoletoLine, want: /general check digit/ },
    { given: 'punctuation', code: () => `${line.slice(0, 5)}.${line.slice(5)}`, check: checkBoletoLine, want: /47 digits/ },
  ])('$given -> invalid', ({ code, check, want }) => {
    const result = check(code());
    expect(result.valid ? 'valid' : result.reason).toMatch(want);
  });

  it('any barcode built from its parts validates, and so does its line', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{3}$/),
        fc.stringMatching(/^\d{4}$/),
        fc.stringMatching(/^\d{10}$/),
        fc.stringMatching(/^\d{25}$/),
        (bank, due, value, free) => {
          const code = bankBarcode(bank, due, value, free);
          if (code.startsWith('8')) return; // a barcode starting with 8 is a collection slip
          expect(checkBoletoBarcode(code).valid).toBe(true);
          expect(checkBoletoLine(digitableLineOfBarcode(code)).valid).toBe(true);
        },
      ),
    );
  });
});

describe('collection (concessionária) slips', () => {
  it.each(['6', '7', '8', '9'] as const)('value identifier %s: barcode and 48-digit line validate', (identifier) => {
    const code = collectionBarcode('2', identifier, '0000001234567890123456789012345678901234');
    expect(checkBoletoBarcode(code)).toEqual({ valid: true });
    const collection = collectionLine(code);
    expect(checkConvenioLine(collection)).toEqual({ valid: true });
    expect(checkConvenioLine(flip(collection, 11)).valid ? 'valid' : 'invalid').toBe('invalid');
    expect(checkConvenioLine(flip(collection, 30))).toMatchObject({ valid: false, reason: expect.stringMatching(/block 3/) });
  });

  it.each([
    { given: 'identifier 5', code: `835${'0'.repeat(45)}`, want: /third digit/ },
    { given: 'not starting with 8', code: '7'.repeat(48), want: /starts with 8/ },
    { given: '47 digits', code: '8'.repeat(47), want: /48 digits/ },
  ])('$given -> invalid', ({ code, want }) => {
    const result = checkConvenioLine(code);
    expect(result.valid ? 'valid' : result.reason).toMatch(want);
  });

  it('a collection line whose general digit is wrong is rejected even when the blocks are consistent', () => {
    const code = collectionBarcode('2', '6', '0000001234567890123456789012345678901234');
    const wrongGeneral = flip(code, 3);
    const blocks = collectionLine(wrongGeneral);
    expect(checkConvenioLine(blocks)).toMatchObject({ valid: false, reason: expect.stringMatching(/general check digit/) });
  });
});

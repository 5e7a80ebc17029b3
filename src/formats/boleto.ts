/**
 * Boleto codes with FEBRABAN check digits: the 44-digit barcode, the 47-digit digitable line of bank
 * boletos and the 48-digit line of collection (concessionária) slips, whose barcode starts with 8.
 */
import { invalid, valid, type FormatResult } from './result.js';

/** Modulo 10: weights 2, 1, 2, 1 ... from the right, digits of each product summed. */
export function modulo10(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let index = digits.length - 1; index >= 0; index -= 1) {
    const product = Number(digits[index]) * weight;
    sum += product > 9 ? product - 9 : product;
    weight = weight === 2 ? 1 : 2;
  }
  return (10 - (sum % 10)) % 10;
}

function modulo11Sum(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let index = digits.length - 1; index >= 0; index -= 1) {
    sum += Number(digits[index]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  return sum;
}

/** Modulo 11 of bank barcodes: 11 minus the remainder; 0, 10 and 11 become 1. */
export function modulo11Bank(digits: string): number {
  const digit = 11 - (modulo11Sum(digits) % 11);
  return digit === 0 || digit === 10 || digit === 11 ? 1 : digit;
}

/** Modulo 11 of collection slips: 11 minus the remainder; 10 and 11 become 0. */
export function modulo11Collection(digits: string): number {
  const digit = 11 - (modulo11Sum(digits) % 11);
  return digit >= 10 ? 0 : digit;
}

/** Collection slips say in their third digit which modulo guards them: 6 or 7 -> 10, 8 or 9 -> 11. */
function collectionModulo(valueIdentifier: string): ((digits: string) => number) | null {
  if (valueIdentifier === '6' || valueIdentifier === '7') return modulo10;
  if (valueIdentifier === '8' || valueIdentifier === '9') return modulo11Collection;
  return null;
}

function checkCollectionBarcode(code: string): FormatResult {
  const modulo = collectionModulo(code[2]!);
  if (!modulo) return invalid('the third digit of a collection barcode (value identifier) must be 6, 7, 8 or 9');
  const expected = modulo(code.slice(0, 3) + code.slice(4));
  return expected === Number(code[3]) ? valid : invalid(`the general check digit (4th digit) should be ${expected}`);
}

function checkBankBarcode(code: string): FormatResult {
  const expected = modulo11Bank(code.slice(0, 4) + code.slice(5));
  return expected === Number(code[4]) ? valid : invalid(`the general check digit (5th digit) should be ${expected}`);
}

/** 44-digit barcode of a bank boleto, or of a collection slip when it starts with 8. */
export function checkBoletoBarcode(value: string): FormatResult {
  if (!/^\d{44}$/.test(value)) return invalid('a boleto barcode is 44 digits');
  return value.startsWith('8') ? checkCollectionBarcode(value) : checkBankBarcode(value);
}

/** The barcode behind a 47-digit digitable line. */
export function barcodeOfDigitableLine(line: string): string {
  return line.slice(0, 4) + line.slice(32, 33) + line.slice(33, 47) + line.slice(4, 9) + line.slice(10, 20) + line.slice(21, 31);
}

/** The 47-digit digitable line of a 44-digit bank barcode (field check digits computed). */
export function digitableLineOfBarcode(barcode: string): string {
  const fields = [barcode.slice(0, 4) + barcode.slice(19, 24), barcode.slice(24, 34), barcode.slice(34, 44)];
  return fields.map((field) => field + modulo10(field)).join('') + barcode.slice(4, 5) + barcode.slice(5, 19);
}

/** 47-digit digitable line of a bank boleto: three fields with modulo-10 digits and the barcode's general digit. */
export function checkBoletoLine(value: string): FormatResult {
  if (!/^\d{47}$/.test(value)) return invalid('a boleto digitable line is 47 digits');
  const fields: ReadonlyArray<[string, number, number]> = [
    ['first', 0, 9],
    ['second', 10, 20],
    ['third', 21, 31],
  ];
  for (const [name, start, end] of fields) {
    const expected = modulo10(value.slice(start, end));
    if (expected !== Number(value[end])) return invalid(`the check digit of the ${name} field (digit ${end + 1}) should be ${expected}`);
  }
  const barcode = checkBankBarcode(barcodeOfDigitableLine(value));
  return barcode.valid ? valid : invalid(`the general check digit (digit 33) does not match the barcode`);
}

/** 48-digit line of a collection slip: four blocks of 11 digits, each with its check digit. */
export function checkConvenioLine(value: string): FormatResult {
  if (!/^\d{48}$/.test(value)) return invalid('a collection (concessionária) line is 48 digits');
  if (!value.startsWith('8')) return invalid('a collection (concessionária) line starts with 8');
  const modulo = collectionModulo(value[2]!);
  if (!modulo) return invalid('the third digit (value identifier) must be 6, 7, 8 or 9');
  for (let block = 0; block < 4; block += 1) {
    const start = block * 12;
    const expected = modulo(value.slice(start, start + 11));
    if (expected !== Number(value[start + 11]))
      return invalid(`the check digit of block ${block + 1} (digit ${start + 12}) should be ${expected}`);
  }
  const barcode = [0, 1, 2, 3].map((block) => value.slice(block * 12, block * 12 + 11)).join('');
  const general = checkCollectionBarcode(barcode);
  return general.valid ? valid : invalid('the general check digit (digit 4) does not match the rest of the code');
}

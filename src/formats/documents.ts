/**
 * CPF and CNPJ by their check digits. Documents are digits only, as the interface specification
 * carries them. CNPJ accepts both forms in force: numeric, and alphanumeric (uppercase letters or
 * digits in the first 12 positions, numeric check digits), where a character counts as its code point
 * minus 48, so digits keep their value and 'A' counts 17.
 */
import { invalid, valid, type FormatResult } from './result.js';

function allSame(text: string): boolean {
  return /^(.)\1*$/.test(text);
}

function cpfDigit(digits: readonly number[], length: number): number {
  let sum = 0;
  for (let index = 0; index < length; index += 1) sum += digits[index]! * (length + 1 - index);
  const rest = (sum * 10) % 11;
  return rest === 10 ? 0 : rest;
}

export function checkCpf(value: string): FormatResult {
  if (!/^\d{11}$/.test(value)) return invalid('a CPF is 11 digits, without punctuation');
  if (allSame(value)) return invalid('a CPF cannot repeat one digit 11 times');
  const digits = [...value].map(Number);
  if (cpfDigit(digits, 9) !== digits[9] || cpfDigit(digits, 10) !== digits[10]) {
    return invalid('the CPF check digits do not match');
  }
  return valid;
}

const cnpjFirstWeights = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const cnpjSecondWeights = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

function cnpjDigit(values: readonly number[], weights: readonly number[]): number {
  const sum = weights.reduce((total, weight, index) => total + weight * values[index]!, 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** The two check digits of the first 12 characters of a CNPJ (numeric or alphanumeric). */
export function cnpjCheckDigits(base: string): string {
  const values = [...base].map((character) => character.charCodeAt(0) - 48);
  const first = cnpjDigit(values, cnpjFirstWeights);
  const second = cnpjDigit([...values, first], cnpjSecondWeights);
  return `${first}${second}`;
}

export function checkCnpj(value: string): FormatResult {
  if (value.length !== 14) return invalid('a CNPJ is 14 characters, without punctuation');
  if (/[a-z]/.test(value.slice(0, 12))) return invalid('letters of an alphanumeric CNPJ must be uppercase');
  if (!/^[0-9A-Z]{12}\d{2}$/.test(value)) {
    return invalid('a CNPJ is 12 digits or uppercase letters followed by 2 check digits');
  }
  if (allSame(value)) return invalid('a CNPJ cannot repeat one character 14 times');
  if (cnpjCheckDigits(value.slice(0, 12)) !== value.slice(12)) return invalid('the CNPJ check digits do not match');
  return valid;
}

/**
 * A CPF or CNPJ written as a number (interface C, section 2.12: "cpfCnpj is 11 to 14 digits"): 11 digits
 * are a CPF, or a CNPJ that lost three leading zeros; 12 to 14 digits are a CNPJ that lost its leading
 * zeros. Valid when the digits, padded back, have valid check digits.
 */
export function checkCpfCnpjDigits(value: string): FormatResult {
  if (!/^\d{11,14}$/.test(value)) return invalid('must be 11 to 14 digits');
  const asCnpj = checkCnpj(value.padStart(14, '0'));
  if (value.length > 11) return asCnpj.valid ? valid : invalid('the CNPJ check digits do not match');
  return checkCpf(value).valid || asCnpj.valid ? valid : invalid('the check digits match neither a CPF nor a CNPJ');
}

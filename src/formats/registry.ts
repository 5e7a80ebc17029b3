/**
 * Every named format: what `format: <name>` means in a spec, what `contrato format <name>` checks, and
 * the plain-words description an error message starts with.
 */
import { checkBoletoBarcode, checkBoletoLine, checkConvenioLine } from './boleto.js';
import { checkBrCode } from './brcode.js';
import { checkCnpj, checkCpf, checkCpfCnpjDigits } from './documents.js';
import { checkEndToEndId, checkEvp, checkIdRec, checkIspb, checkPhone, checkPixKey, checkTxid } from './pix.js';
import type { FormatResult } from './result.js';
import { checkBrlAmount, checkDecimal, checkIbgeMunicipality, checkIpv4OrCidr } from './values.js';

export interface FormatDefinition {
  /** What a valid value is, in plain words (starts an error message). */
  readonly description: string;
  readonly check: (value: string) => FormatResult;
}

export const formats = {
  cpf: { description: 'a CPF: 11 digits with valid check digits', check: checkCpf },
  cnpj: { description: 'a CNPJ: 14 characters (numeric or alphanumeric) with valid check digits', check: checkCnpj },
  'cpf-cnpj': {
    description: 'a CPF (11 digits) or a CNPJ (14 characters), with valid check digits',
    check: (value: string) => (value.length === 11 ? checkCpf(value) : checkCnpj(value)),
  },
  'cpf-cnpj-digits': {
    description: 'a CPF or CNPJ as digits, 11 to 14 (a CNPJ may lose its leading zeros), with valid check digits',
    check: checkCpfCnpjDigits,
  },
  ispb: { description: 'an ISPB: 8 digits', check: checkIspb },
  txid: { description: 'a txid: 26 to 35 letters or digits', check: checkTxid },
  e2eid: { description: 'an end-to-end id: E or D, ISPB, yyyyMMddHHmm and 11 letters or digits (32 characters)', check: checkEndToEndId },
  idrec: { description: 'an idRec: RR or RN, agent id, yyyyMMdd and 11 letters or digits (29 characters)', check: checkIdRec },
  evp: { description: 'a random Pix key (EVP): a lowercase UUID', check: checkEvp },
  'pix-key': { description: 'a Pix key: CPF, CNPJ, e-mail, +phone or random key (EVP)', check: (value: string) => checkPixKey(value) },
  phone: { description: 'a phone in E.164 form (+5511987654321)', check: checkPhone },
  'brl-amount': { description: 'an amount: up to 10 digits, a point and 2 decimals (1520.00)', check: checkBrlAmount },
  decimal: { description: 'a positive decimal: up to 20 integer digits without leading zeros and up to 18 decimals', check: checkDecimal },
  ibge: { description: 'an IBGE municipality code: 7 digits', check: checkIbgeMunicipality },
  cidr: { description: 'an IPv4 address or CIDR range (200.160.2.3 or 200.160.0.0/16)', check: checkIpv4OrCidr },
  'boleto-line': { description: 'a boleto digitable line: 47 digits with valid check digits', check: checkBoletoLine },
  'boleto-barcode': { description: 'a boleto barcode: 44 digits with a valid check digit', check: checkBoletoBarcode },
  'convenio-line': { description: 'a collection (concessionária) line: 48 digits with valid check digits', check: checkConvenioLine },
  brcode: { description: 'a BR Code (Pix copy-and-paste payload) with a valid CRC', check: checkBrCode },
} as const satisfies Record<string, FormatDefinition>;

export type FormatName = keyof typeof formats;

export function isFormatName(name: string): name is FormatName {
  return Object.hasOwn(formats, name);
}

/** Checks `value` against a named format; unknown names throw. */
export function checkFormat(name: FormatName, value: string): FormatResult {
  return formats[name].check(value);
}

/** The formats as ajv wants them: name -> predicate (non-strings are left to the `type` keyword). */
export const ajvFormats: Record<FormatName, (value: unknown) => boolean> = Object.fromEntries(
  Object.entries(formats).map(([name, definition]) => [
    name,
    (value: unknown) => typeof value !== 'string' || definition.check(value).valid,
  ]),
) as Record<FormatName, (value: unknown) => boolean>;

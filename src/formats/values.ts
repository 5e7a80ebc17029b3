/** Amounts written as text, IBGE municipality codes and IPv4 addresses or ranges. */
import { invalid, valid, type FormatResult } from './result.js';

/** API Pix amounts: up to 10 integer digits, a point and exactly 2 decimals ("1520.00"). */
export function checkBrlAmount(value: string): FormatResult {
  return /^\d{1,10}\.\d{2}$/.test(value) ? valid : invalid('an amount is up to 10 digits, a point and exactly 2 decimals, e.g. 1520.00');
}

/** CaaS decimal strings: positive, up to 20 integer digits without leading zeros, up to 18 decimals. */
export function checkDecimal(value: string): FormatResult {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match) return invalid('a decimal is digits with an optional point and decimals, e.g. 0.015 (no sign, no exponent)');
  const [, whole = '', fraction = ''] = match;
  if (whole.length > 20) return invalid('a decimal has at most 20 integer digits');
  if (whole.length > 1 && whole.startsWith('0')) return invalid('a decimal has no leading zeros');
  if (fraction.length > 18) return invalid('a decimal has at most 18 decimals');
  if (/^0*$/.test(whole) && /^0*$/.test(fraction)) return invalid('a decimal must be above zero');
  return valid;
}

/** IBGE codes of the federation units: the first two digits of every municipality code. */
const federationUnits = new Set([
  11, 12, 13, 14, 15, 16, 17, 21, 22, 23, 24, 25, 26, 27, 28, 29, 31, 32, 33, 35, 41, 42, 43, 50, 51, 52, 53,
]);

export function checkIbgeMunicipality(value: string): FormatResult {
  if (!/^\d{7}$/.test(value)) return invalid('an IBGE municipality code is 7 digits');
  if (!federationUnits.has(Number(value.slice(0, 2))))
    return invalid('an IBGE municipality code starts with the code of a federation unit (11 to 53)');
  return valid;
}

const octet = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const ipv4 = new RegExp(`^${octet}(?:\\.${octet}){3}$`);

export function checkIpv4OrCidr(value: string): FormatResult {
  const [address = '', prefix, ...rest] = value.split('/');
  if (rest.length > 0 || !ipv4.test(address))
    return invalid('an IPv4 address is four numbers 0 to 255 without leading zeros, e.g. 200.160.2.3');
  if (prefix !== undefined && !/^(?:3[0-2]|[12]?\d)$/.test(prefix)) return invalid('a CIDR prefix length is /0 to /32');
  return valid;
}

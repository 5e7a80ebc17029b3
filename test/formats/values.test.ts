/** Amount strings, IBGE municipality codes and IPv4 addresses or CIDR ranges. */
import { describe, it } from 'vitest';
import { expectFormat as expectResult, type FormatCase as Case } from '../helpers/format-cases.js';
import { checkBrlAmount, checkDecimal, checkIbgeMunicipality, checkIpv4OrCidr } from '../../src/formats/values.js';

describe.each([
  {
    name: 'brl-amount',
    check: checkBrlAmount,
    cases: [
      { given: '0.01', want: 'valid' },
      { given: '1520.00', want: 'valid' },
      { given: '1234567890.99', want: 'valid' },
      { given: '1520', want: /exactly 2 decimals/ },
      { given: '1520.0', want: /exactly 2 decimals/ },
      { given: '12345678901.00', want: /up to 10 digits/ },
      { given: '-1.00', want: /up to 10 digits/ },
      { given: '1,00', want: /a point/ },
    ],
  },
  {
    name: 'decimal',
    check: checkDecimal,
    cases: [
      { given: '0.015', want: 'valid' },
      { given: '1', want: 'valid' },
      { given: '12345678901234567890', want: 'valid' },
      { given: `0.${'0'.repeat(17)}1`, want: 'valid' },
      { given: '0', want: /above zero/ },
      { given: '0.000', want: /above zero/ },
      { given: '00.5', want: /no leading zeros/ },
      { given: '01', want: /no leading zeros/ },
      { given: '123456789012345678901', want: /at most 20 integer digits/ },
      { given: `0.${'0'.repeat(18)}1`, want: /at most 18 decimals/ },
      { given: '-1', want: /no sign/ },
      { given: '1e5', want: /no exponent/ },
      { given: '.5', want: /digits with an optional point/ },
    ],
  },
  {
    name: 'ibge',
    check: checkIbgeMunicipality,
    cases: [
      { given: '3550308', want: 'valid' },
      { given: '5300108', want: 'valid' },
      { given: '1100015', want: 'valid' },
      { given: '355030', want: /7 digits/ },
      { given: '9950308', want: /federation unit/ },
      { given: '1000000', want: /federation unit/ },
    ],
  },
  {
    name: 'cidr',
    check: checkIpv4OrCidr,
    cases: [
      { given: '200.160.2.3', want: 'valid' },
      { given: '10.0.0.0/8', want: 'valid' },
      { given: '0.0.0.0/0', want: 'valid' },
      { given: '255.255.255.255/32', want: 'valid' },
      { given: '256.1.1.1', want: /0 to 255/ },
      { given: '01.2.3.4', want: /without leading zeros/ },
      { given: '10.0.0/8', want: /four numbers/ },
      { given: '10.0.0.0/33', want: /\/0 to \/32/ },
      { given: '10.0.0.0/08', want: /\/0 to \/32/ },
      { given: '10.0.0.0/8/8', want: /IPv4 address/ },
      { given: '::1', want: /IPv4 address/ },
    ],
  },
] as const)('$name', ({ check, cases }) => {
  it.each(cases as readonly Case[])('$given -> $want', ({ given, want }) => expectResult(check(given), want));
});

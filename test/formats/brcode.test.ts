/** BR Code: build and parse round trips, and every problem reported with its EMV field. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildBrCode, checkBrCode, crc16, parseBrCode } from '../../src/formats/brcode.js';
import { codeOfLength, emvMaximum, garbledCode } from './brcode-samples.js';

/** Replaces text in a code and recomputes its CRC, so only the intended problem remains. */
function edit(code: string, from: string, to: string): string {
  const body = code.slice(0, -4);
  if (!body.includes(from)) throw new Error(`${from} not in ${body}`);
  const changed = body.replace(from, to);
  return changed + crc16(changed);
}

const staticCode = buildBrCode({
  key: 'financeiro@padaria.com.br',
  amount: '10.50',
  merchantName: 'PADARIA PAO QUENTE',
  merchantCity: 'SAO PAULO',
  txid: 'PEDIDO123',
  description: 'Pedido 123',
});
const cpfKeyCode = buildBrCode({ key: '52998224725', merchantName: 'MARIA SILVA', merchantCity: 'CURITIBA' });
const dynamicCode = buildBrCode({
  url: 'https://pix.example.com/qr/v2/9d36b84f0e5b4c1a',
  merchantName: 'LOJA BOA VISTA',
  merchantCity: 'RECIFE',
  amount: '249.90',
});

describe('crc16', () => {
  it('is CRC-16/CCITT-FALSE (check value of "123456789" is 29B1)', () => {
    expect(crc16('123456789')).toBe('29B1');
    expect(crc16('')).toBe('FFFF');
  });
});

describe('buildBrCode and parseBrCode', () => {
  it('round-trips a static code', () => {
    expect(parseBrCode(staticCode)).toEqual({
      valid: true,
      value: {
        kind: 'static',
        payloadFormatIndicator: '01',
        pointOfInitiation: null,
        gui: 'br.gov.bcb.pix',
        key: 'financeiro@padaria.com.br',
        description: 'Pedido 123',
        url: null,
        recurrenceUrl: null,
        merchantCategoryCode: '0000',
        currency: '986',
        amount: '10.50',
        countryCode: 'BR',
        merchantName: 'PADARIA PAO QUENTE',
        merchantCity: 'SAO PAULO',
        postalCode: null,
        txid: 'PEDIDO123',
        crc: staticCode.slice(-4),
      },
    });
  });

  it('round-trips a dynamic code, carrying the URL without its scheme', () => {
    const parsed = parseBrCode(dynamicCode);
    expect(parsed.valid && parsed.value).toMatchObject({
      kind: 'dynamic',
      pointOfInitiation: '12',
      key: null,
      url: 'pix.example.com/qr/v2/9d36b84f0e5b4c1a',
      txid: null,
      amount: '249.90',
    });
  });

  it('reads a Pix Automático code whose only location is the recurrence (field 80)', () => {
    const tlv = (id: string, value: string): string => `${id}${String(value.length).padStart(2, '0')}${value}`;
    const head = `000201${tlv('26', tlv('00', 'br.gov.bcb.pix'))}${tlv('52', '0000')}${tlv('53', '986')}${tlv('58', 'BR')}${tlv('59', 'LOJA')}${tlv('60', 'RECIFE')}${tlv('62', tlv('05', '***'))}`;
    const body = `${head}${tlv('80', tlv('00', 'br.gov.bcb.pix') + tlv('25', 'pix.example.com/qr/v2/rec/a1b2c'))}6304`;
    const code = body + crc16(body);
    const parsed = parseBrCode(code);
    expect(parsed.valid && parsed.value).toMatchObject({
      kind: 'recurrence',
      key: null,
      url: null,
      recurrenceUrl: 'pix.example.com/qr/v2/rec/a1b2c',
    });
    const withoutUrl = `${head}${tlv('80', tlv('00', 'br.gov.bcb.pix'))}6304`;
    const broken = parseBrCode(withoutUrl + crc16(withoutUrl));
    expect(broken.valid ? [] : broken.issues).toContainEqual({ tag: '80.25', message: expect.stringMatching(/no location URL/) });
  });

  it('any valid input builds a code that parses back to it', () => {
    const text = (max: number) =>
      fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789'), minLength: 1, maxLength: max });
    fc.assert(
      fc.property(
        text(25),
        text(15),
        fc.option(fc.stringMatching(/^\d{1,10}\.\d{2}$/), { nil: undefined }),
        fc.option(fc.stringMatching(/^[a-zA-Z0-9]{1,25}$/), { nil: undefined }),
        (name, city, amount, txid) => {
          const code = buildBrCode({
            key: '+5511987654321',
            merchantName: name,
            merchantCity: city,
            ...(amount ? { amount } : {}),
            ...(txid ? { txid } : {}),
          });
          const parsed = parseBrCode(code);
          expect(parsed.valid).toBe(true);
          if (parsed.valid)
            expect(parsed.value).toMatchObject({ merchantName: name, merchantCity: city, amount: amount ?? null, txid: txid ?? null });
        },
      ),
    );
  });

  it.each([
    { given: 'a bad key', options: { key: '52998224724', merchantName: 'A', merchantCity: 'B' }, want: /key: CPF key/ },
    {
      given: 'a long name',
      options: { key: '+5511987654321', merchantName: 'N'.repeat(26), merchantCity: 'B' },
      want: /merchantName: 1 to 25/,
    },
    {
      given: 'a long city',
      options: { key: '+5511987654321', merchantName: 'A', merchantCity: 'C'.repeat(16) },
      want: /merchantCity: 1 to 15/,
    },
    {
      given: 'an amount with a comma',
      options: { key: '+5511987654321', merchantName: 'A', merchantCity: 'B', amount: '10,50' },
      want: /amount/,
    },
    { given: 'a txid with a dash', options: { key: '+5511987654321', merchantName: 'A', merchantCity: 'B', txid: 'PED-1' }, want: /txid/ },
  ])('refuses to build with $given', ({ options, want }) => {
    expect(() => buildBrCode(options)).toThrow(want);
  });
});

describe('parseBrCode problems, each named by its field', () => {
  it.each([
    { given: 'a CRC that does not match', code: () => `${staticCode.slice(0, -4)}0000`, tag: '63', want: /CRC does not match/ },
    {
      given: 'a lowercase but correct CRC',
      code: () => staticCode.slice(0, -4) + staticCode.slice(-4).toLowerCase(),
      tag: null,
      want: null,
    },
    { given: 'no CRC', code: () => staticCode.slice(0, -8), tag: '63', want: /must be the last field/ },
    {
      given: 'a truncated code',
      code: () => staticCode.slice(0, 40),
      tag: '26',
      want: /length field says \d+ characters but only \d+ follow/,
    },
    {
      given: 'a length field that is not digits',
      code: () => `${staticCode.slice(0, 8)}4X${staticCode.slice(10)}`,
      tag: '26',
      want: /length field must be 2 digits/,
    },
    {
      given: 'a field ID that is not digits',
      code: () => `0002012X${staticCode.slice(8)}`,
      tag: 'payload',
      want: /2-digit field ID at position 6/,
    },
    {
      given: 'another GUI',
      code: () => edit(staticCode, 'br.gov.bcb.pix', 'br.gov.bcb.pay'),
      tag: '26.00',
      want: /GUI must be br\.gov\.bcb\.pix/,
    },
    { given: 'an amount with a comma', code: () => edit(staticCode, '540510.50', '540510,50'), tag: '54', want: /amount is digits/ },
    { given: 'currency 840', code: () => edit(staticCode, '5303986', '5303840'), tag: '53', want: /986/ },
    { given: 'country US', code: () => edit(staticCode, '5802BR', '5802US'), tag: '58', want: /must be BR/ },
    {
      given: 'a 26-character name',
      code: () => edit(staticCode, '5918PADARIA PAO QUENTE', `5926${'N'.repeat(26)}`),
      tag: '59',
      want: /at most 25/,
    },
    { given: 'a 16-character city', code: () => edit(staticCode, '6009SAO PAULO', `6016${'C'.repeat(16)}`), tag: '60', want: /at most 15/ },
    {
      given: 'a static txid with a dash',
      code: () => edit(staticCode, '62130509PEDIDO123', '62130509PEDI-D123'),
      tag: '62.05',
      want: /1 to 25 letters or digits/,
    },
    {
      given: 'a static txid of 26 characters',
      code: () => edit(staticCode, '62130509PEDIDO123', `62300526${'T'.repeat(26)}`),
      tag: '62.05',
      want: /1 to 25/,
    },
    {
      given: 'no reference label',
      code: () => edit(staticCode, '62130509PEDIDO123', '62070103ABC'),
      tag: '62.05',
      want: /reference label/,
    },
    { given: 'no payload format indicator first', code: () => edit(staticCode, '000201', '000202'), tag: '00', want: /000201/ },
    { given: 'an invalid point of initiation', code: () => edit(dynamicCode, '010212', '010213'), tag: '01', want: /11 \(static\) or 12/ },
    {
      given: 'a URL with its scheme',
      code: () => edit(edit(dynamicCode, '26600014', '26680014'), '2538pix.example.com', '2546https://pix.example.com'),
      tag: '26.25',
      want: /without its https/,
    },
    { given: 'an invalid key', code: () => edit(cpfKeyCode, '011152998224725', '011152998224724'), tag: '26.01', want: /CPF check digits/ },
  ])('$given', ({ code, tag, want }) => {
    const result = parseBrCode(code());
    if (want === null) {
      expect(result.valid).toBe(true);
      return;
    }
    expect(result.valid).toBe(false);
    if (!result.valid) expect(result.issues).toContainEqual({ tag, message: expect.stringMatching(want) });
  });

  it('never throws, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        expect(() => parseBrCode(text)).not.toThrow();
        expect(checkBrCode(text).valid).toBe(parseBrCode(text).valid);
      }),
    );
  });

  it('a single changed character is always caught', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: staticCode.length - 1 }), fc.constantFrom(...'0123456789ABCXYZ .'), (index, character) => {
        if (staticCode[index] === character) return;
        const changed = staticCode.slice(0, index) + character + staticCode.slice(index + 1);
        expect(parseBrCode(changed).valid).toBe(false);
      }),
    );
  });
});

describe('parseBrCode bounds', () => {
  it.each([
    { given: '20 MB', text: () => 'X'.repeat(20 * 1024 * 1024) },
    { given: '2 MB', text: () => 'X'.repeat(2 * 1024 * 1024) },
    { given: 'a valid code pasted 5 times', text: () => staticCode.repeat(5) },
    { given: 'one character over the maximum, otherwise valid', text: () => codeOfLength(emvMaximum + 1) },
  ])('refuses $given with one issue naming the length and the maximum', ({ text }) => {
    const code = text();
    expect(parseBrCode(code)).toEqual({
      valid: false,
      issues: [
        { tag: 'payload', message: `the text has ${code.length} characters; a BR Code has at most ${emvMaximum} (EMV QR Code limit)` },
      ],
      omittedIssues: 0,
    });
  });

  it('reads a valid code of exactly the maximum length', () => {
    const code = codeOfLength(emvMaximum);
    expect(code).toHaveLength(emvMaximum);
    expect(parseBrCode(code)).toMatchObject({
      valid: true,
      value: { kind: 'static', key: 'financeiro@padaria.com.br', txid: 'PEDIDO123' },
    });
  });

  it.each(['', ' ', '\n\t  \r\n'])('says the input is empty for %j', (text) => {
    expect(parseBrCode(text)).toEqual({
      valid: false,
      issues: [{ tag: 'payload', message: 'empty input: paste the BR Code (copia e cola) text' }],
      omittedIssues: 0,
    });
    expect(checkBrCode(text)).toEqual({ valid: false, reason: 'empty input: paste the BR Code (copia e cola) text' });
  });

  it('lists at most 20 problems and counts the rest', () => {
    const result = parseBrCode(garbledCode);
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.issues).toHaveLength(20);
    expect(result.issues[0]).toEqual({ tag: '00', message: 'a field cannot be empty (length 00)' });
    expect(result.omittedIssues).toBeGreaterThan(200);
    const reason = checkBrCode(garbledCode);
    expect(reason.valid).toBe(false);
    if (!reason.valid) {
      expect(reason.reason.split('; ')).toHaveLength(21);
      expect(reason.reason).toMatch(new RegExp(`; … and ${result.omittedIssues} more problems$`));
    }
  });

  it('lists at most 20 problems, whatever the text and its length', () => {
    // Mostly empty fields 00, which pile up problems (empty, repeated) until a stray character stops the reading.
    const unit = fc.oneof({ weight: 6, arbitrary: fc.constant('0000') }, fc.constantFrom('000201', '5303986', '6304', '0', 'X'));
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 120, size: 'max' }), (text) => {
        const result = parseBrCode(text);
        if (!result.valid) expect(result.issues.length).toBeLessThanOrEqual(20);
        if (!result.valid && result.omittedIssues > 0) expect(result.issues).toHaveLength(20);
      }),
    );
  });

  it.each([
    {
      given: 'a 500-character description',
      options: { key: '+5511987654321', merchantName: 'A', merchantCity: 'B', description: 'D'.repeat(500) },
    },
    {
      given: 'a 600-character postal code',
      options: { key: '+5511987654321', merchantName: 'A', merchantCity: 'B', postalCode: '1'.repeat(600) },
    },
    {
      given: 'a 1000-character location URL',
      options: { url: `https://pix.example.com/${'q'.repeat(1000)}`, merchantName: 'A', merchantCity: 'B' },
    },
  ])('buildBrCode refuses $given instead of building a code over the maximum', ({ options }) => {
    expect(() => buildBrCode(options)).toThrow(RangeError);
  });

  it('buildBrCode never returns a code over the maximum, whatever the lengths asked', () => {
    const long = fc.string({ unit: fc.constantFrom(...'abc123'), minLength: 1, maxLength: 300 });
    fc.assert(
      fc.property(long, long, long, (description, postalCode, path) => {
        for (const options of [
          {
            key: '+5511987654321',
            merchantName: 'N'.repeat(25),
            merchantCity: 'C'.repeat(15),
            amount: '1234567890.99',
            txid: 'T'.repeat(25),
            description,
            postalCode,
          },
          {
            url: `pix.example.com/${path}`,
            merchantName: 'N'.repeat(25),
            merchantCity: 'C'.repeat(15),
            amount: '1234567890.99',
            postalCode,
          },
        ]) {
          let code: string;
          try {
            code = buildBrCode(options);
          } catch (error) {
            expect(error).toBeInstanceOf(RangeError);
            continue;
          }
          expect(code.length).toBeLessThanOrEqual(emvMaximum);
          expect(parseBrCode(code).valid).toBe(true);
        }
      }),
    );
  });
});

/**
 * QR images of BR Codes, proven scannable: each rendering is read back by an independent QR reader (jsQR,
 * over pixels that pngjs decodes, or that this test draws from the SVG's path and the terminal's half
 * blocks) and gives back exactly the BR Code it was drawn from. A code that is not a BR Code draws nothing.
 */
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { buildBrCode, crc16 } from '../../src/formats/brcode.js';
import { brCodeQrMatrix, renderBrCodePng, renderBrCodeSvg, renderBrCodeTerminal } from '../../src/formats/index.js';
import { codeOfLength, emvMaximum, garbledCode } from './brcode-samples.js';
import { gridOfSvg, gridOfTerminal, readGrid, readPng, terminalQrLine } from './qr-reader.js';

const codes = {
  static: buildBrCode({
    key: 'financeiro@padaria.com.br',
    amount: '10.50',
    merchantName: 'PADARIA',
    merchantCity: 'SAO PAULO',
    txid: 'PED123',
  }),
  'static, phone key, no amount': buildBrCode({ key: '+5511987654321', merchantName: 'FULANO DE TAL', merchantCity: 'RECIFE' }),
  dynamic: buildBrCode({
    url: 'pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca25',
    merchantName: 'LOJA',
    merchantCity: 'CURITIBA',
    amount: '99.90',
  }),
  'Latin-1 merchant city': buildBrCode({ key: '52998224725', merchantName: 'PADARIA SÃO JOÃO', merchantCity: 'SÃO PAULO' }),
  [`longest (${emvMaximum} characters)`]: codeOfLength(emvMaximum),
};

describe('renderBrCodePng', () => {
  it.each(Object.entries(codes))('%s: the PNG decodes back to the same BR Code', (_name, code) => {
    const png = renderBrCodePng(code);
    expect(Buffer.from(png.subarray(0, 8)).toString('latin1')).toBe('\x89PNG\r\n\x1a\n');
    const image = PNG.sync.read(Buffer.from(png));
    expect(image.width).toBe(image.height);
    expect(readPng(png)).toBe(code);
  });

  it('draws `scale` pixels per module, the border included, and stays small', () => {
    const code = codes.static;
    const modules = brCodeQrMatrix(code).length;
    const image = PNG.sync.read(Buffer.from(renderBrCodePng(code, { scale: 3 })));
    expect(image.width).toBe(modules * 3);
    expect(renderBrCodePng(code).byteLength).toBeLessThan(4096);
    // The quiet zone: the first 4 modules of every side are white.
    expect([...image.data.subarray(0, 4 * 3 * 4)].every((value) => value === 255)).toBe(true);
  });

  it('takes a higher error correction: a larger symbol that still decodes', () => {
    const code = codes.dynamic;
    expect(brCodeQrMatrix(code, { errorCorrection: 'high' }).length).toBeGreaterThan(brCodeQrMatrix(code).length);
    expect(readPng(renderBrCodePng(code, { errorCorrection: 'high', scale: 2 }))).toBe(code);
  });

  it('refuses a scale or border out of range', () => {
    expect(() => renderBrCodePng(codes.static, { scale: 0 })).toThrow(/scale: a whole number of pixels from 1 to 64, got 0/);
    expect(() => renderBrCodePng(codes.static, { border: -1 })).toThrow(/border: a whole number of modules from 0 to 16, got -1/);
  });
});

describe('renderBrCodeSvg', () => {
  it.each(Object.entries(codes))('%s: the SVG decodes back to the same BR Code', (_name, code) => {
    const svg = renderBrCodeSvg(code);
    expect(svg).toMatch(
      /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 \d+ \d+"[^>]*><rect [^>]*fill="#fff"\/><path d="[Mhvz0-9 -]+" fill="#000"\/><\/svg>$/,
    );
    expect(readGrid(gridOfSvg(svg))).toBe(code);
  });
});

describe('renderBrCodeTerminal', () => {
  it.each(Object.entries(codes))('%s: the terminal drawing decodes back to the same BR Code', (_name, code) => {
    const lines = renderBrCodeTerminal(code).split('\n');
    expect(lines.pop()).toBe('');
    for (const line of lines) expect(line).toMatch(terminalQrLine);
    expect(readGrid(gridOfTerminal(lines))).toBe(code);
  });
});

describe('a code that is not a BR Code is refused before anything is drawn, in one line', () => {
  const valid = codes.static;
  const cases: [string, string, RegExp][] = [
    ['a wrong CRC', `${valid.slice(0, -4)}${crc16('x')}`, /^not a valid BR Code, no QR drawn: field 63: /],
    ['plain text', 'hello', /^not a valid BR Code, no QR drawn: /],
    ['empty', '', /^not a valid BR Code, no QR drawn: /],
    ['garbled, hundreds of problems', garbledCode, /^not a valid BR Code, no QR drawn: .*… and \d+ more problems$/],
    ['too long', `${valid}${'0'.repeat(emvMaximum)}`, /^not a valid BR Code, no QR drawn: /],
  ];
  it.each(cases)('%s', (_name, code, want) => {
    for (const render of [renderBrCodePng, renderBrCodeSvg, renderBrCodeTerminal, brCodeQrMatrix]) {
      let message = '';
      try {
        render(code);
      } catch (error) {
        expect(error).toBeInstanceOf(RangeError);
        message = (error as Error).message;
      }
      expect(message).toMatch(want);
      expect(message).not.toContain('\n');
    }
  });
});

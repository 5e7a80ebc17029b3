/**
 * QR images of BR Codes: what a merchant shows the payer (SVG for a page, PNG for a file or an e-mail, a
 * terminal drawing for the shell). The QR symbol itself comes from `qr` (no dependencies of its own, no native
 * code); the PNG is written here with node:zlib, so nothing else is needed. A code that is not a valid BR
 * Code is refused before anything is drawn: a payer's app would refuse it after the scan.
 */
import { crc32, deflateSync } from 'node:zlib';
import encodeQR from 'qr';
import { checkBrCode } from './brcode.js';

/** Error correction of the symbol: 7 %, 15 %, 25 % or 30 % of it may be lost and still be read. */
export type BrCodeQrErrorCorrection = 'low' | 'medium' | 'quartile' | 'high';

export interface BrCodeQrOptions {
  /** Default `medium` (15 %), enough for a printed or on-screen code; `high` for a code behind a logo or a worn sticker. */
  readonly errorCorrection?: BrCodeQrErrorCorrection;
  /** Light modules around the symbol (the quiet zone the QR standard asks for); default 4. */
  readonly border?: number;
}

export interface BrCodePngOptions extends BrCodeQrOptions {
  /** Pixels per module; default 8 (a 33-module code with its border is 328 pixels wide). */
  readonly scale?: number;
}

/** The symbol's modules, row by row, `true` for a dark one, the border included. Throws RangeError on an invalid BR Code. */
export function brCodeQrMatrix(code: string, options: BrCodeQrOptions = {}): boolean[][] {
  const check = checkBrCode(code);
  if (!check.valid) throw new RangeError(`not a valid BR Code, no QR drawn: ${check.reason}`);
  const border = options.border ?? 4;
  if (!Number.isInteger(border) || border < 0 || border > 16)
    throw new RangeError(`border: a whole number of modules from 0 to 16, got ${border}`);
  return encodeQR(code, 'raw', { ecc: options.errorCorrection ?? 'medium', border });
}

/** An SVG document of the code's QR, one path of dark squares on a white background, sized in modules (scale it with CSS). */
export function renderBrCodeSvg(code: string, options: BrCodeQrOptions = {}): string {
  const matrix = brCodeQrMatrix(code, options);
  const size = matrix.length;
  let path = '';
  matrix.forEach((row, y) => {
    // One horizontal run of dark modules per path segment keeps the file small.
    for (let x = 0; x < size; x += 1) {
      if (!row[x]) continue;
      let end = x;
      while (end + 1 < size && row[end + 1]) end += 1;
      path += `M${x} ${y}h${end - x + 1}v1h-${end - x + 1}z`;
      x = end;
    }
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges">` +
    `<rect width="${size}" height="${size}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`
  );
}

function pngChunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG of the code's QR: black on white, 1 bit per pixel. */
export function renderBrCodePng(code: string, options: BrCodePngOptions = {}): Uint8Array {
  const scale = options.scale ?? 8;
  if (!Number.isInteger(scale) || scale < 1 || scale > 64)
    throw new RangeError(`scale: a whole number of pixels from 1 to 64, got ${scale}`);
  const matrix = brCodeQrMatrix(code, options);
  const width = matrix.length * scale;
  const rowBytes = Math.ceil(width / 8);
  // Each scanline: filter type 0, then the pixels, most significant bit first; a set bit is white (grey level 1).
  const raw = Buffer.alloc((rowBytes + 1) * width);
  for (let y = 0; y < width; y += 1) {
    const row = matrix[Math.floor(y / scale)]!;
    const offset = y * (rowBytes + 1) + 1;
    for (let x = 0; x < width; x += 1) {
      if (!row[Math.floor(x / scale)]) raw[offset + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(width, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale; compression, filter and interlace methods stay 0
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}

/**
 * The code's QR for a terminal: two module rows per line in half blocks, black on white set explicitly
 * (ANSI colours), so a phone reads it on a dark or a light theme alike. Lines end with `\n`.
 */
export function renderBrCodeTerminal(code: string, options: BrCodeQrOptions = {}): string {
  const matrix = brCodeQrMatrix(code, { border: 2, ...options });
  const blank: boolean[] = matrix[0]!.map(() => false);
  let text = '';
  for (let y = 0; y < matrix.length; y += 2) {
    const top = matrix[y]!;
    const bottom = matrix[y + 1] ?? blank;
    let line = '';
    for (let x = 0; x < top.length; x += 1) line += top[x] ? (bottom[x] ? '█' : '▀') : bottom[x] ? '▄' : ' ';
    text += `\x1b[30;47m${line}\x1b[0m\n`;
  }
  return text;
}

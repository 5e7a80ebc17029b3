/**
 * An independent reader of the QR images contrato draws: jsQR (a QR decoder unrelated to the `qr` package
 * that draws them) over RGBA pixels; the pixels come from pngjs for a PNG, or are drawn here from a module
 * grid read out of an SVG's path or a terminal's half blocks.
 */
import jsQR from 'jsqr';
import { PNG } from 'pngjs';

/** jsQR as its CommonJS module exports it (a function that is also its own `default`). */
const decodeQr = jsQR.default;

/** What jsQR reads in RGBA pixels, or null when it finds no code. */
export function readPixels(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): string | null {
  return decodeQr(new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, rgba.byteLength), width, height)?.data ?? null;
}

/** The text of the QR in a PNG file (pngjs decodes it), or null. */
export function readPng(png: Uint8Array): string | null {
  const image = PNG.sync.read(Buffer.from(png));
  return readPixels(image.data, image.width, image.height);
}

/** A module grid (true = dark) as RGBA pixels, `scale` pixels per module, then read. */
export function readGrid(grid: readonly (readonly boolean[])[], scale = 4): string | null {
  const size = grid.length * scale;
  const rgba = new Uint8ClampedArray(size * size * 4);
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const level = grid[Math.floor(y / scale)]![Math.floor(x / scale)] ? 0 : 255;
      rgba.set([level, level, level, 255], (y * size + x) * 4);
    }
  }
  return readPixels(rgba, size, size);
}

/** The dark modules an SVG's path draws (`M x y h w v1 h-w z` runs), filled as a browser would. */
export function gridOfSvg(svg: string): boolean[][] {
  const size = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
  const grid = Array.from({ length: size }, () => Array<boolean>(size).fill(false));
  for (const [, x, y, width] of svg.matchAll(/M(\d+) (\d+)h(\d+)v1h-\3z/g)) {
    for (let column = Number(x); column < Number(x) + Number(width); column += 1) grid[Number(y)]![column] = true;
  }
  return grid;
}

const esc = String.fromCharCode(0x1b);

/** The lines of a terminal QR: black on white (ANSI `ESC[30;47m` … `ESC[0m`), half blocks only. */
export const terminalQrLine = new RegExp(`^${esc}\\[30;47m[█▀▄ ]+${esc}\\[0m$`);

/** Terminal lines back to module rows: ▀ dark above, ▄ dark below, █ both, space neither. */
export function gridOfTerminal(lines: readonly string[]): boolean[][] {
  return lines.flatMap((line) => {
    const cells = [...line.replaceAll(new RegExp(`${esc}\\[[0-9;]*m`, 'g'), '')];
    return [cells.map((cell) => cell === '█' || cell === '▀'), cells.map((cell) => cell === '█' || cell === '▄')];
  });
}

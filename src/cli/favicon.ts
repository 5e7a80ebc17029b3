/**
 * The site's icon, drawn here so the site ships no binary file: an SVG (linked by every page) and the
 * same picture as a 32×32 `favicon.ico` (a PNG inside an ICO container), for the browsers and tools that
 * ask for /favicon.ico whatever the page says. A blue rounded square with a white "c".
 */
import { crc32, deflateSync } from 'node:zlib';

export const faviconSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="7" fill="#0b5cad"/>
<path d="M22.4 11.2A8 8 0 1 0 22.4 20.8" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round"/>
</svg>
`;

const size = 32;
const blue = [0x0b, 0x5c, 0xad, 0xff] as const;
const white = [0xff, 0xff, 0xff, 0xff] as const;
const clear = [0, 0, 0, 0] as const;

/** The colour of pixel (x, y): the picture of the SVG, without its anti-aliasing. */
function pixel(x: number, y: number): readonly number[] {
  const [px, py] = [x + 0.5, y + 0.5];
  // Rounded square, corner radius 7.
  const cx = Math.min(Math.max(px, 7), size - 7);
  const cy = Math.min(Math.max(py, 7), size - 7);
  if ((px - cx) ** 2 + (py - cy) ** 2 > 49) return clear;
  // The "c": a ring around the centre, radius 6 to 10, open on the right (within 37° of the horizontal).
  const [dx, dy] = [px - 16, py - 16];
  const distance = Math.hypot(dx, dy);
  const open = dx > 0 && Math.abs(Math.atan2(dy, dx)) < (37 * Math.PI) / 180;
  return distance >= 6 && distance <= 10 && !open ? white : blue;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function png(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits per channel, RGBA, deflate, no filter method, no interlace
  const rows = Buffer.alloc(size * (1 + size * 4));
  for (let y = 0; y < size; y += 1) {
    const row = y * (1 + size * 4);
    rows[row] = 0; // filter: none
    for (let x = 0; x < size; x += 1) rows.set(pixel(x, y), row + 1 + x * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** favicon.ico: one 32×32 image, stored as PNG (which every browser since IE 11 reads inside an ICO). */
export function faviconIco(): Buffer {
  const image = png();
  const directory = Buffer.alloc(6 + 16);
  directory.writeUInt16LE(0, 0); // reserved
  directory.writeUInt16LE(1, 2); // type: icon
  directory.writeUInt16LE(1, 4); // one image
  directory.writeUInt8(size, 6);
  directory.writeUInt8(size, 7);
  directory.writeUInt8(0, 8); // no palette
  directory.writeUInt8(0, 9);
  directory.writeUInt16LE(1, 10); // colour planes
  directory.writeUInt16LE(32, 12); // bits per pixel
  directory.writeUInt32LE(image.length, 14);
  directory.writeUInt32LE(directory.length, 18); // offset of the image
  return Buffer.concat([directory, image]);
}

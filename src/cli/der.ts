/**
 * A minimal DER (ITU-T X.690) writer: only the types that an X.509 certificate and a PKCS#12 file need.
 * Every function returns the complete encoding (tag, length, content), so encodings nest by plain calls.
 */

/** Definite-length form: one byte below 128, else 0x80 | count followed by the big-endian length. */
function encodeLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export function tlv(tag: number, content: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([tag]), encodeLength(content.length), content]);
}

export function sequence(...items: readonly Uint8Array[]): Buffer {
  return tlv(0x30, Buffer.concat(items));
}

/** SET OF: DER requires the elements in ascending order of their encodings. */
export function set(...items: readonly Uint8Array[]): Buffer {
  return tlv(0x31, Buffer.concat([...items].sort(Buffer.compare)));
}

/** A non-negative INTEGER, from a number or from big-endian magnitude bytes (such as a random serial). */
export function integer(value: number | Uint8Array): Buffer {
  let bytes: Buffer;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`not a non-negative integer: ${value}`);
    const digits: number[] = [];
    for (let rest = value; rest > 0; rest = Math.floor(rest / 256)) digits.unshift(rest % 256);
    bytes = Buffer.from(digits);
  } else {
    bytes = Buffer.from(value);
  }
  // Minimal two's complement: no redundant leading zero, but one where the top bit would read as a sign.
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  bytes = bytes.subarray(start);
  if (bytes.length === 0 || (bytes[0] ?? 0) >= 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return tlv(0x02, bytes);
}

/** OBJECT IDENTIFIER from dotted form: the first two arcs share a byte, every arc is base-128 with continuation bits. */
export function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  const [first, second, ...rest] = arcs;
  if (first === undefined || second === undefined || first > 2 || arcs.some((arc) => !Number.isSafeInteger(arc) || arc < 0)) {
    throw new RangeError(`not an object identifier: ${dotted}`);
  }
  const bytes: number[] = [];
  for (const arc of [first * 40 + second, ...rest]) {
    const base128 = [arc % 128];
    for (let high = Math.floor(arc / 128); high > 0; high = Math.floor(high / 128)) base128.unshift(0x80 | (high % 128));
    bytes.push(...base128);
  }
  return tlv(0x06, Buffer.from(bytes));
}

export function octetString(content: Uint8Array): Buffer {
  return tlv(0x04, content);
}

/** BIT STRING: the first content byte counts the unused low bits of the last byte. */
export function bitString(content: Uint8Array, unusedBits = 0): Buffer {
  return tlv(0x03, Buffer.concat([Buffer.from([unusedBits]), content]));
}

export function utf8String(text: string): Buffer {
  return tlv(0x0c, Buffer.from(text, 'utf8'));
}

/** UTF-16 big-endian, the content of a BMPString (and PKCS#12's password encoding). */
export function bmpBytes(text: string): Buffer {
  return Buffer.from(text, 'utf16le').swap16();
}

export function bmpString(text: string): Buffer {
  return tlv(0x1e, bmpBytes(text));
}

/** RFC 5280 4.1.2.5: UTCTime (YYMMDDHHMMSSZ) for 1950 through 2049, GeneralizedTime otherwise; whole seconds. */
export function time(date: Date): Buffer {
  const year = date.getUTCFullYear();
  if (Number.isNaN(year) || year < 0 || year > 9999) throw new RangeError(`date out of range: ${String(date)}`);
  const digits = date.toISOString().slice(0, 19).replace(/[-T:]/g, '');
  if (year >= 1950 && year < 2050) return tlv(0x17, Buffer.from(`${digits.slice(2)}Z`, 'ascii'));
  return tlv(0x18, Buffer.from(`${digits}Z`, 'ascii'));
}

export function boolean(value: boolean): Buffer {
  return tlv(0x01, Buffer.from([value ? 0xff : 0x00]));
}

export function nullValue(): Buffer {
  return tlv(0x05, Buffer.alloc(0));
}

/** [n] EXPLICIT: a constructed context tag wrapping a complete encoding. */
export function explicit(tagNumber: number, encoding: Uint8Array): Buffer {
  return tlv(0xa0 | tagNumber, encoding);
}

/** [n] IMPLICIT over a primitive type: the context tag replaces the type's own tag, content stays. */
export function implicit(tagNumber: number, content: Uint8Array): Buffer {
  return tlv(0x80 | tagNumber, content);
}

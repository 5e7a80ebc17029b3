/**
 * Compact JWS (header.payload.signature, base64url): the payload locations of the API Pix answer with
 * one. Decoding reads the payload; verifying the signature needs the receiving PSP's key, published
 * through the `jku`/`x5t` header as the Pix security manual describes, and is left to the caller.
 */
export interface DecodedJws {
  readonly header: Record<string, unknown>;
  readonly payload: unknown;
  readonly signature: string;
}

function decodeSegment(segment: string, what: string): unknown {
  try {
    return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as unknown;
  } catch {
    throw new Error(`the JWS ${what} is not base64url-encoded JSON`);
  }
}

export function decodeJws(jws: string): DecodedJws {
  const parts = jws.trim().split('.');
  if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]*$/.test(part))) {
    throw new Error('not a compact JWS: expected three base64url segments separated by dots');
  }
  const header = decodeSegment(parts[0]!, 'header');
  if (typeof header !== 'object' || header === null) throw new Error('the JWS header is not a JSON object');
  return { header: header as Record<string, unknown>, payload: decodeSegment(parts[1]!, 'payload'), signature: parts[2]! };
}

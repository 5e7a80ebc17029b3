/**
 * The sandbox PSP's signature on the payloads its locations serve: a compact JWS (RFC 7515) with PS256
 * (RSASSA-PSS with SHA-256, the algorithm of the standard's examples and of generated/pix-location), over
 * a 2048-bit RSA key made with node:crypto when the state is created. The key is kept in the state as a
 * private JWK — plain JSON, so a snapshot keeps it and a reset makes a new one — and named by its RFC 7638
 * thumbprint (`kid`), so no draw from the seeded random is spent on it and a seeded run's ids stay the same.
 *
 * The header carries `alg`, `typ` and `kid`. The Pix security manual also asks for `jku` (the URL of the
 * PSP's JWK Set, on the location host) and `x5t` (the thumbprint of its certificate): the spec has no JWK
 * Set route and the sandbox no certificate for the key, so both are left out and the public key is read
 * through the control verb `jwks` (POST /_sandbox/pix-location/jwks) instead.
 */
import { constants, createHash, createPrivateKey, generateKeyPairSync, type JsonWebKey, type KeyObject, sign } from 'node:crypto';

export const jwsAlgorithm = 'PS256';
/** PS256's salt is as long as its hash (RFC 7518 3.5). */
const saltLength = 32;

/** A private RSA key as a JWK, named by its thumbprint. */
export type SigningKey = JsonWebKey & { readonly kid: string };

/** The public half of the key, as a JWK Set lists it. */
export interface PublicJwk {
  readonly kty: 'RSA';
  readonly n: string;
  readonly e: string;
  readonly kid: string;
  readonly alg: typeof jwsAlgorithm;
  readonly use: 'sig';
}

/** RFC 7638: the SHA-256 of the required members in lexicographic order, base64url. */
function thumbprint(n: string, e: string): string {
  return createHash('sha256')
    .update(JSON.stringify({ e, kty: 'RSA', n }))
    .digest('base64url');
}

export function createSigningKey(): SigningKey {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' });
  return { ...jwk, kid: thumbprint(String(jwk.n), String(jwk.e)) };
}

export function publicJwk(key: SigningKey): PublicJwk {
  return { kty: 'RSA', n: String(key.n), e: String(key.e), kid: key.kid, alg: jwsAlgorithm, use: 'sig' };
}

/** The JWK Set of the sandbox PSP: what a `jku` would point at. */
export function jwkSet(key: SigningKey): { keys: PublicJwk[] } {
  return { keys: [publicJwk(key)] };
}

// Importing a JWK costs more than a signature: one KeyObject per key the state holds.
const imported = new WeakMap<SigningKey, KeyObject>();

function keyObject(key: SigningKey): KeyObject {
  let object = imported.get(key);
  if (!object) {
    const { kid: _kid, ...jwk } = key;
    object = createPrivateKey({ key: jwk, format: 'jwk' });
    imported.set(key, object);
  }
  return object;
}

const segment = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

/** `payload` signed as a compact JWS: `header.payload.signature`, each base64url. */
export function signJws(key: SigningKey, payload: unknown): string {
  const signingInput = `${segment({ alg: jwsAlgorithm, typ: 'JWS', kid: key.kid })}.${segment(payload)}`;
  const signature = sign('sha256', Buffer.from(signingInput, 'ascii'), {
    key: keyObject(key),
    padding: constants.RSA_PKCS1_PSS_PADDING,
    saltLength,
  });
  return `${signingInput}.${signature.toString('base64url')}`;
}

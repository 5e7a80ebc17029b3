/**
 * A throwaway development PKI for running the examples against the local mocks: a CA, a participant
 * (client) certificate as PEM and PKCS#12, and a localhost server certificate. Built with node:crypto
 * alone, so users need neither the openssl binary nor a dependency.
 */
import { createHash, createHmac, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as der from './der.js';

export interface DevCertificateFiles {
  readonly directory: string;
  /** Absolute paths of the files written. */
  readonly files: readonly string[];
}

export interface DevCertificateOptions {
  /** Protects the key inside participant.pfx; none (or '') leaves the PFX openable without one. */
  readonly passphrase?: string;
  readonly commonName?: string;
  readonly days?: number;
  readonly force?: boolean;
}

const OID = {
  commonName: '2.5.4.3',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  sha256: '2.16.840.1.101.3.4.2.1',
  // certificate extensions (RFC 5280)
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
  // PKCS#7 content, PKCS#9 attributes, PKCS#12 bags
  data: '1.2.840.113549.1.7.1',
  friendlyName: '1.2.840.113549.1.9.20',
  localKeyId: '1.2.840.113549.1.9.21',
  x509Certificate: '1.2.840.113549.1.9.22.1',
  keyBag: '1.2.840.113549.1.12.10.1.1',
  pkcs8ShroudedKeyBag: '1.2.840.113549.1.12.10.1.2',
  certBag: '1.2.840.113549.1.12.10.1.3',
} as const;

/** Bit positions of the KeyUsage BIT STRING (RFC 5280 4.2.1.3). */
const KeyUsage = { digitalSignature: 0, keyEncipherment: 2, keyCertSign: 5, cRLSign: 6 } as const;

const MAC_ITERATIONS = 2048;

interface Party {
  readonly commonName: string;
  readonly keys: { readonly publicKey: KeyObject; readonly privateKey: KeyObject };
}

function newParty(commonName: string): Party {
  return { commonName, keys: generateKeyPairSync('ec', { namedCurve: 'prime256v1' }) };
}

function name(commonName: string): Buffer {
  return der.sequence(der.set(der.sequence(der.oid(OID.commonName), der.utf8String(commonName))));
}

/** RFC 5280 4.2.1.2 method 1: SHA-1 of the subjectPublicKey bits, for P-256 the uncompressed point 04‖x‖y. */
function keyIdentifier(publicKey: KeyObject): Buffer {
  const { x, y } = publicKey.export({ format: 'jwk' });
  if (x === undefined || y === undefined) throw new Error('expected an EC public key');
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(x, 'base64url'), Buffer.from(y, 'base64url')]);
  return createHash('sha1').update(point).digest();
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  // DER omits a BOOLEAN that equals its DEFAULT FALSE.
  return der.sequence(der.oid(id), ...(critical ? [der.boolean(true)] : []), der.octetString(value));
}

/** A named-bit BIT STRING: bit 0 is the top bit of the first byte, and DER drops trailing zero bits. */
function keyUsage(...bits: readonly number[]): Buffer {
  const highest = Math.max(...bits);
  const bytes = Buffer.alloc(Math.floor(highest / 8) + 1);
  for (const bit of bits) bytes[bit >> 3] = (bytes[bit >> 3] ?? 0) | (0x80 >> (bit % 8));
  return extension(OID.keyUsage, true, der.bitString(bytes, 7 - (highest % 8)));
}

function basicConstraints(isCa: boolean): Buffer {
  return extension(OID.basicConstraints, true, der.sequence(...(isCa ? [der.boolean(true)] : [])));
}

function extendedKeyUsage(purpose: string): Buffer {
  return extension(OID.extKeyUsage, false, der.sequence(der.oid(purpose)));
}

function keyIdentifiers(subject: Party, issuer: Party): Buffer[] {
  const subjectKeyId = extension(OID.subjectKeyIdentifier, false, der.octetString(keyIdentifier(subject.keys.publicKey)));
  if (subject === issuer) return [subjectKeyId];
  const authorityKeyId = der.sequence(der.implicit(0, keyIdentifier(issuer.keys.publicKey)));
  return [extension(OID.authorityKeyIdentifier, false, authorityKeyId), subjectKeyId];
}

/** localhost by name and by both loopback addresses, so https://localhost, 127.0.0.1 and [::1] all verify. */
function localhostNames(): Buffer {
  const ipv4Loopback = Buffer.from([127, 0, 0, 1]);
  const ipv6Loopback = Buffer.concat([Buffer.alloc(15), Buffer.from([1])]);
  const names = der.sequence(
    der.implicit(2, Buffer.from('localhost', 'ascii')),
    der.implicit(7, ipv4Loopback),
    der.implicit(7, ipv6Loopback),
  );
  return extension(OID.subjectAltName, false, names);
}

/** Positive and exactly 16 bytes: top bit clear so it is not negative, next bit set so no byte gets trimmed. */
function serialNumber(): Buffer {
  const serial = randomBytes(16);
  serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x40;
  return serial;
}

/** A DER X.509 v3 certificate for `subject`, signed ecdsa-with-SHA256 by `issuer`. */
function issue(
  subject: Party,
  issuer: Party,
  validity: { readonly notBefore: Date; readonly notAfter: Date },
  extensions: readonly Buffer[],
): Buffer {
  const signatureAlgorithm = der.sequence(der.oid(OID.ecdsaWithSha256));
  const tbsCertificate = der.sequence(
    der.explicit(0, der.integer(2)),
    der.integer(serialNumber()),
    signatureAlgorithm,
    name(issuer.commonName),
    der.sequence(der.time(validity.notBefore), der.time(validity.notAfter)),
    name(subject.commonName),
    subject.keys.publicKey.export({ type: 'spki', format: 'der' }),
    der.explicit(3, der.sequence(...extensions, ...keyIdentifiers(subject, issuer))),
  );
  // node:crypto signs EC keys as a DER ECDSA-Sig-Value, the form X.509 carries in the BIT STRING.
  const signature = sign('sha256', tbsCertificate, issuer.keys.privateKey);
  return der.sequence(tbsCertificate, signatureAlgorithm, der.bitString(signature));
}

/** RFC 7292 appendix B.2 with SHA-256 (u = 32, v = 64 bytes); `id` 3 derives MAC keys. */
function pkcs12Kdf(password: Buffer, salt: Buffer, iterations: number, id: number, length: number): Buffer {
  const u = 32;
  const v = 64;
  const fillBlocks = (bytes: Buffer): Buffer => Buffer.alloc(v * Math.ceil(bytes.length / v), bytes);
  const diversifier = Buffer.alloc(v, id);
  const input = Buffer.concat([fillBlocks(salt), fillBlocks(password)]);
  const output: Buffer[] = [];
  for (let produced = 0; produced < length; produced += u) {
    let block = createHash('sha256').update(diversifier).update(input).digest();
    for (let round = 1; round < iterations; round++) block = createHash('sha256').update(block).digest();
    output.push(block);
    // Next round's input: every v-byte block I_j of I becomes (I_j + B + 1) mod 2^(8v), B = block repeated to v bytes.
    const addend = Buffer.alloc(v, block);
    for (let start = 0; start < input.length; start += v) {
      let carry = 1;
      for (let index = v - 1; index >= 0; index--) {
        const sum = (input[start + index] ?? 0) + (addend[index] ?? 0) + carry;
        input[start + index] = sum & 0xff;
        carry = sum >> 8;
      }
    }
  }
  return Buffer.concat(output).subarray(0, length);
}

/** ContentInfo of type id-data: the unencrypted envelope PKCS#12 uses at both of its levels. */
function dataContent(content: Buffer): Buffer {
  return der.sequence(der.oid(OID.data), der.explicit(0, der.octetString(content)));
}

function safeBag(bagId: string, value: Buffer, attributes?: Buffer): Buffer {
  return der.sequence(der.oid(bagId), der.explicit(0, value), ...(attributes ? [attributes] : []));
}

function certBag(certificate: Buffer, attributes?: Buffer): Buffer {
  return safeBag(OID.certBag, der.sequence(der.oid(OID.x509Certificate), der.explicit(0, der.octetString(certificate))), attributes);
}

/**
 * PKCS#12 holding the certificate, its key and the CA certificate. Certificates sit in plain id-data (they
 * are public); the key is shrouded (PBES2) only when there is a passphrase. The MAC password is the
 * passphrase as BMPString plus two zero bytes, so "no passphrase" is exactly 00 00, which is also what
 * `openssl pkcs12 -export -passout pass:` writes. Found with OpenSSL 3.0.19 (Node 20.20): Node passes
 * `passphrase: ''` on as no passphrase, and PKCS12_parse, like `openssl pkcs12 -passin pass:`, checks an
 * empty password first as zero bytes, then as 00 00 — so either MAC (or none at all) opens without one.
 */
function pkcs12(certificate: Buffer, key: KeyObject, caCertificate: Buffer, friendlyName: string, passphrase: string | undefined): Buffer {
  // localKeyId pairs the key with its certificate, as OpenSSL and Windows expect; friendlyName labels them on import.
  const keyAndCertificate = der.set(
    der.sequence(der.oid(OID.localKeyId), der.set(der.octetString(createHash('sha1').update(certificate).digest()))),
    der.sequence(der.oid(OID.friendlyName), der.set(der.bmpString(friendlyName))),
  );
  const keyBag =
    passphrase === undefined
      ? safeBag(OID.keyBag, key.export({ type: 'pkcs8', format: 'der' }), keyAndCertificate)
      : safeBag(
          OID.pkcs8ShroudedKeyBag,
          key.export({ type: 'pkcs8', format: 'der', cipher: 'aes-256-cbc', passphrase }),
          keyAndCertificate,
        );
  const authenticatedSafe = der.sequence(
    dataContent(der.sequence(certBag(certificate, keyAndCertificate), certBag(caCertificate))),
    dataContent(der.sequence(keyBag)),
  );
  const salt = randomBytes(16);
  const macKey = pkcs12Kdf(Buffer.concat([der.bmpBytes(passphrase ?? ''), Buffer.alloc(2)]), salt, MAC_ITERATIONS, 3, 32);
  const mac = createHmac('sha256', macKey).update(authenticatedSafe).digest();
  const digestInfo = der.sequence(der.sequence(der.oid(OID.sha256), der.nullValue()), der.octetString(mac));
  return der.sequence(
    der.integer(3),
    dataContent(authenticatedSafe),
    der.sequence(digestInfo, der.octetString(salt), der.integer(MAC_ITERATIONS)),
  );
}

function certificatePem(certificate: Buffer): string {
  const lines = certificate.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

function keyPem(key: KeyObject): string {
  return key.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/** Writes the development PKI into `directory` (created if needed); refuses to overwrite unless `force`. */
export function writeDevCertificates(directory: string, options: DevCertificateOptions = {}): DevCertificateFiles {
  const days = options.days ?? 30;
  if (!Number.isFinite(days) || days <= 0) throw new RangeError(`days must be a positive number, got ${days}`);
  const now = Date.now();
  const validity = { notBefore: new Date(now - 3_600_000), notAfter: new Date(now + days * 86_400_000) };
  const ca = newParty('contrato development CA');
  const participant = newParty(options.commonName ?? 'contrato development participant');
  const server = newParty('localhost');
  const caCertificate = issue(ca, ca, validity, [basicConstraints(true), keyUsage(KeyUsage.keyCertSign, KeyUsage.cRLSign)]);
  const leafKeyUsage = keyUsage(KeyUsage.digitalSignature, KeyUsage.keyEncipherment);
  const participantCertificate = issue(participant, ca, validity, [
    basicConstraints(false),
    leafKeyUsage,
    extendedKeyUsage(OID.clientAuth),
  ]);
  const serverCertificate = issue(server, ca, validity, [
    basicConstraints(false),
    leafKeyUsage,
    extendedKeyUsage(OID.serverAuth),
    localhostNames(),
  ]);
  // An empty passphrase means none: Node hands '' to OpenSSL as no passphrase at all.
  const passphrase = options.passphrase === '' ? undefined : options.passphrase;
  const pfx = pkcs12(participantCertificate, participant.keys.privateKey, caCertificate, participant.commonName, passphrase);

  // Secret files (keys, and the PFX, whose key may be unencrypted) are private to the user.
  const contents: ReadonlyArray<readonly [string, string | Buffer, boolean]> = [
    ['dev-ca.pem', certificatePem(caCertificate), false],
    ['dev-ca-key.pem', keyPem(ca.keys.privateKey), true],
    ['participant.pem', certificatePem(participantCertificate), false],
    ['participant-key.pem', keyPem(participant.keys.privateKey), true],
    ['participant.pfx', pfx, true],
    ['server.pem', certificatePem(serverCertificate), false],
    ['server-key.pem', keyPem(server.keys.privateKey), true],
  ];
  const root = resolve(directory);
  if (!options.force) {
    // Checked before writing anything, so a refusal leaves the directory as it was.
    const existing = contents.map(([file]) => join(root, file)).find((path) => existsSync(path));
    if (existing !== undefined) throw new Error(`${existing} already exists; pass --force to overwrite it`);
  }
  mkdirSync(root, { recursive: true });
  const files = contents.map(([file, content, secret]) => {
    const path = join(root, file);
    const mode = secret ? 0o600 : 0o644;
    // 'wx' fails rather than overwrite a file that appeared since the check above.
    writeFileSync(path, content, { mode, flag: options.force ? 'w' : 'wx' });
    chmodSync(path, mode); // the mode option only applies when the file is created
    return path;
  });
  return { directory: root, files };
}

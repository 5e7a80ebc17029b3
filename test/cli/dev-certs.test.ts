/**
 * The development PKI of `contrato dev-certs`, checked against real consumers: node:crypto's X509Certificate,
 * a mutual-TLS round trip through node:https with the PKCS#12 file, and, when it is installed, the openssl CLI.
 */
import { spawnSync } from 'node:child_process';
import { X509Certificate, createHash, createPrivateKey } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request, type RequestOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { createSecureContext, type TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDevCertificates, type DevCertificateFiles } from '../../src/cli/dev-certs.js';
import { closeServer } from '../helpers/servers.js';

const PASSPHRASE = 'correct horse battery staple';
const OID = { serverAuth: '1.3.6.1.5.5.7.3.1', clientAuth: '1.3.6.1.5.5.7.3.2' };
const ALL_FILES = [
  'dev-ca.pem',
  'dev-ca-key.pem',
  'participant.pem',
  'participant-key.pem',
  'participant.pfx',
  'server.pem',
  'server-key.pem',
];

interface Fixture {
  readonly label: string;
  readonly options: Parameters<typeof writeDevCertificates>[1];
  readonly commonName: string;
  readonly days: number;
  readonly passphrase?: string;
}
const fixtures: readonly Fixture[] = [
  { label: 'defaults', options: {}, commonName: 'contrato development participant', days: 30 },
  {
    label: 'passphrase',
    options: { passphrase: PASSPHRASE, commonName: 'Banco Exemplo SA', days: 7 },
    commonName: 'Banco Exemplo SA',
    days: 7,
    passphrase: PASSPHRASE,
  },
  // Past 2049 the validity end must switch from UTCTime to GeneralizedTime.
  { label: 'thirty years', options: { days: 30 * 365 }, commonName: 'contrato development participant', days: 30 * 365 },
];

let root = '';
let startedAt = 0;
let finishedAt = 0;
const written = new Map<string, DevCertificateFiles>();
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'contrato-dev-certs-'));
  startedAt = Date.now();
  for (const fixture of fixtures) written.set(fixture.label, writeDevCertificates(join(root, fixture.label), fixture.options));
  finishedAt = Date.now();
});
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

const directoryOf = (fixture: Fixture): string => written.get(fixture.label)?.directory ?? '';
const file = (fixture: Fixture, name: string): Buffer => readFileSync(join(directoryOf(fixture), name));
const certificate = (fixture: Fixture, name: string): X509Certificate => new X509Certificate(file(fixture, name));

/** The DER of an extension with its value, as X.690 encodes it: SEQUENCE { OID, [critical], OCTET STRING { value } }. */
function extensionDer(oidHex: string, critical: boolean, valueHex: string): string {
  const tlv = (tag: string, hex: string): string => `${tag}${(hex.length / 2).toString(16).padStart(2, '0')}${hex}`;
  return tlv('30', `${tlv('06', oidHex)}${critical ? '0101ff' : ''}${tlv('04', valueHex)}`);
}
/** RFC 5280 4.2.1.2 method 1, computed from what Node parsed out of the certificate. */
function keyIdOf(cert: X509Certificate): string {
  const { x, y } = cert.publicKey.export({ format: 'jwk' });
  return createHash('sha1')
    .update(Buffer.concat([Buffer.from([4]), Buffer.from(x ?? '', 'base64url'), Buffer.from(y ?? '', 'base64url')]))
    .digest('hex');
}

describe.each(fixtures)('writeDevCertificates ($label)', (fixture) => {
  it('writes every file, absolute, keys and the PFX readable by the owner only', () => {
    const { directory, files } = written.get(fixture.label) ?? { directory: '', files: [] };
    expect(directory).toBe(join(root, fixture.label));
    expect(files).toEqual(ALL_FILES.map((name) => join(directory, name)));
    for (const path of files) {
      const name = path.slice(directory.length + 1);
      expect(isAbsolute(path) && existsSync(path), name).toBe(true);
      if (process.platform !== 'win32') expect(statSync(path).mode & 0o777, name).toBe(/key|pfx/.test(name) ? 0o600 : 0o644);
    }
    for (const key of ['dev-ca-key.pem', 'participant-key.pem', 'server-key.pem']) {
      const pem = file(fixture, key).toString();
      expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/); // PKCS#8, unencrypted
      expect(createPrivateKey(pem).asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    }
  });

  it.each([
    ['dev-ca.pem', 'contrato development CA', true, undefined],
    ['participant.pem', 'participant', false, [OID.clientAuth]], // 'participant': the fixture's commonName
    ['server.pem', 'localhost', false, [OID.serverAuth]],
  ] as const)('%s: CN, CA flag, extended key usage, signature by the CA, key pair', (name, commonName, isCa, extendedKeyUsage) => {
    const ca = certificate(fixture, 'dev-ca.pem');
    const cert = certificate(fixture, name);
    expect(cert.subject).toBe(`CN=${commonName === 'participant' ? fixture.commonName : commonName}`);
    expect(cert.issuer).toBe('CN=contrato development CA');
    expect(cert.ca).toBe(isCa);
    expect(cert.keyUsage).toEqual(extendedKeyUsage); // Node lists the extended key usage OIDs here
    expect(cert.verify(ca.publicKey)).toBe(true);
    expect(cert.checkIssued(ca)).toBe(true); // also compares authorityKeyIdentifier with the CA's subjectKeyIdentifier
    expect(cert.serialNumber).toMatch(/^[0-7][0-9A-F]{31}$/); // 16 bytes, positive
    expect(cert.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(cert.checkPrivateKey(createPrivateKey(file(fixture, name.replace('.pem', '-key.pem'))))).toBe(true);
  });

  it('encodes keyUsage, basicConstraints and the key identifiers as RFC 5280 asks', () => {
    const ca = certificate(fixture, 'dev-ca.pem');
    const caExtensions = ca.raw.toString('hex');
    const keyUsageOid = '551d0f';
    expect(caExtensions).toContain(extensionDer('551d13', true, '30030101ff')); // CA:TRUE, critical
    expect(caExtensions).toContain(extensionDer(keyUsageOid, true, '03020106')); // keyCertSign, cRLSign
    expect(caExtensions).toContain(extensionDer('551d0e', false, `0414${keyIdOf(ca)}`));
    for (const name of ['participant.pem', 'server.pem']) {
      const cert = certificate(fixture, name);
      const der = cert.raw.toString('hex');
      expect(der).toContain(extensionDer('551d13', true, '3000')); // CA:FALSE, critical
      expect(der).toContain(extensionDer(keyUsageOid, true, '030205a0')); // digitalSignature, keyEncipherment
      expect(der).toContain(extensionDer('551d0e', false, `0414${keyIdOf(cert)}`));
      expect(der).toContain(extensionDer('551d23', false, `30168014${keyIdOf(ca)}`));
      expect(ca.checkIssued(cert)).toBe(false);
      expect(cert.verify(cert.publicKey)).toBe(false);
    }
    expect(certificate(fixture, 'participant.pem').checkPrivateKey(createPrivateKey(file(fixture, 'server-key.pem')))).toBe(false);
  });

  it('names localhost and both loopback addresses in the server certificate', () => {
    const server = certificate(fixture, 'server.pem');
    expect(server.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
    expect(server.checkHost('localhost')).toBe('localhost');
    expect(server.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(server.checkIP('::1')).toBe('::1');
    expect(server.checkHost('example.com')).toBeUndefined();
    expect(certificate(fixture, 'participant.pem').subjectAltName).toBeUndefined();
  });

  it(`is valid from an hour ago for ${fixture.days} days`, () => {
    const hour = 3_600_000;
    const day = 86_400_000;
    for (const name of ['dev-ca.pem', 'participant.pem', 'server.pem']) {
      const cert = certificate(fixture, name);
      const from = Date.parse(cert.validFrom);
      const to = Date.parse(cert.validTo);
      // Whole seconds in the certificate, so allow for the truncated milliseconds.
      expect(from).toBeGreaterThanOrEqual(startedAt - hour - 1000);
      expect(from).toBeLessThanOrEqual(finishedAt - hour);
      expect(to).toBeGreaterThanOrEqual(startedAt + fixture.days * day - 1000);
      expect(to).toBeLessThanOrEqual(finishedAt + fixture.days * day);
      // RFC 5280: UTCTime (tag 0x17, YYMMDDHHMMSSZ) through 2049, GeneralizedTime (0x18, YYYYMMDDHHMMSSZ) after.
      const digits = new Date(to).toISOString().slice(0, 19).replace(/[-T:]/g, '');
      const encoded =
        new Date(to).getUTCFullYear() < 2050
          ? `170d${Buffer.from(`${digits.slice(2)}Z`).toString('hex')}`
          : `180f${Buffer.from(`${digits}Z`).toString('hex')}`;
      expect(cert.raw.toString('hex')).toContain(encoded);
    }
  });
});

describe('participant.pfx in createSecureContext', () => {
  const [plain, protectedByPassphrase] = fixtures as [Fixture, Fixture];
  it.each([
    ['no passphrase option', plain, {}, true],
    ["passphrase ''", plain, { passphrase: '' }, true],
    // In array form Node hands '' on to OpenSSL as an empty password rather than as none.
    ["pfx array with passphrase ''", plain, { passphrase: '', asArray: true }, true],
    ['a passphrase where none was set', plain, { passphrase: 'anything' }, false],
    ['the passphrase', protectedByPassphrase, { passphrase: PASSPHRASE }, true],
    ['the passphrase, in array form', protectedByPassphrase, { passphrase: PASSPHRASE, asArray: true }, true],
    ['no passphrase option', protectedByPassphrase, {}, false],
    ["passphrase ''", protectedByPassphrase, { passphrase: '' }, false],
    ['a wrong passphrase', protectedByPassphrase, { passphrase: `${PASSPHRASE}!` }, false],
  ] as const)('%s (%#)', (_label, fixture, { asArray, passphrase }: { asArray?: boolean; passphrase?: string }, opens) => {
    const pfx = file(fixture, 'participant.pfx');
    const open = (): unknown => createSecureContext({ pfx: asArray ? [pfx] : pfx, ...(passphrase === undefined ? {} : { passphrase }) });
    if (opens) expect(open).not.toThrow();
    else expect(open).toThrow(/mac verify failure/);
  });

  it("treats passphrase '' as none", () => {
    const directory = writeDevCertificates(join(root, 'empty-passphrase'), { passphrase: '' }).directory;
    expect(() => createSecureContext({ pfx: readFileSync(join(directory, 'participant.pfx')) })).not.toThrow();
  });
});

interface Answer {
  readonly status: number | undefined;
  readonly body: string;
}
function get(port: number, tls: RequestOptions): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, path: '/', agent: false, ...tls }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode, body }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('mutual TLS with node:https', () => {
  it.each(fixtures.slice(0, 2))('the server sees the participant of the PFX ($label)', async (fixture) => {
    const peers: string[] = [];
    const ca = file(fixture, 'dev-ca.pem');
    const server = createServer(
      { cert: file(fixture, 'server.pem'), key: file(fixture, 'server-key.pem'), ca, requestCert: true, rejectUnauthorized: true },
      (incoming, response) => {
        const peer = (incoming.socket as TLSSocket).getPeerCertificate();
        peers.push(String(peer.subject.CN));
        response.end(`hello ${String(peer.subject.CN)}`);
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      // Checks the server certificate against 127.0.0.1, its IP subjectAltName, with the CA as the only root.
      const pfxOptions = {
        pfx: file(fixture, 'participant.pfx'),
        ca,
        ...(fixture.passphrase === undefined ? {} : { passphrase: fixture.passphrase }),
      };
      expect(await get(port, pfxOptions)).toEqual({ status: 200, body: `hello ${fixture.commonName}` });
      expect(peers).toEqual([fixture.commonName]);
      // Without a client certificate the server ends the handshake.
      await expect(get(port, { ca })).rejects.toThrow();
      expect(peers).toHaveLength(1);
    } finally {
      await closeServer(server);
    }
  });
});

describe('existing files', () => {
  it('are refused, naming the file, and replaced with force', () => {
    const directory = join(root, 'existing');
    mkdirSync(directory);
    const pfxPath = join(directory, 'participant.pfx');
    writeFileSync(pfxPath, 'not a pfx', { mode: 0o644 });
    expect(() => writeDevCertificates(directory)).toThrow(`${pfxPath} already exists; pass --force to overwrite it`);
    expect(existsSync(join(directory, 'dev-ca.pem'))).toBe(false); // nothing written before refusing

    const written = writeDevCertificates(directory, { force: true });
    expect(written.files).toEqual(ALL_FILES.map((name) => join(directory, name)));
    expect(() => createSecureContext({ pfx: readFileSync(pfxPath) })).not.toThrow();
    if (process.platform !== 'win32') expect(statSync(pfxPath).mode & 0o777).toBe(0o600);

    const firstCa = readFileSync(join(directory, 'dev-ca.pem'), 'utf8');
    expect(() => writeDevCertificates(directory)).toThrow(/dev-ca\.pem already exists; pass --force/);
    writeDevCertificates(directory, { force: true });
    expect(readFileSync(join(directory, 'dev-ca.pem'), 'utf8')).not.toBe(firstCa);
  });

  it('rejects a validity that is not a positive number of days', () => {
    for (const days of [0, -1, Number.NaN])
      expect(() => writeDevCertificates(join(root, 'never'), { days })).toThrow(/days must be a positive number/);
    expect(existsSync(join(root, 'never'))).toBe(false);
  });
});

// openssl is an independent implementation of everything above; users need not have it, the tests use it if there.
const probe = spawnSync('openssl', ['version'], { encoding: 'utf8' });
const opensslMissing = probe.error ? `openssl is not on PATH (${probe.error.message}); skipping the openssl cross-checks` : undefined;
if (opensslMissing) console.warn(`dev-certs.test: ${opensslMissing}`);

describe('openssl', () => {
  const openssl = (directory: string, ...args: string[]): { status: number | null; output: string } => {
    const result = spawnSync('openssl', args, { cwd: directory, encoding: 'utf8' });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  };

  it.for(fixtures)('reads the PKCS#12 file and verifies the chain ($label)', (fixture, { skip }) => {
    if (opensslMissing) skip(opensslMissing);
    const directory = directoryOf(fixture);
    const info = openssl(directory, 'pkcs12', '-info', '-noout', '-in', 'participant.pfx', '-passin', `pass:${fixture.passphrase ?? ''}`);
    expect(info, info.output).toMatchObject({ status: 0 });
    expect(info.output).toMatch(/MAC: sha256, Iteration \d+\nMAC length: 32, salt length: 16/);
    expect(info.output.match(/Certificate bag/g)).toHaveLength(2);
    expect(info.output).toMatch(fixture.passphrase ? /Shrouded Keybag: PBES2, PBKDF2, AES-256-CBC/ : /\nKey bag/);
    if (fixture.passphrase) {
      expect(openssl(directory, 'pkcs12', '-info', '-noout', '-in', 'participant.pfx', '-passin', 'pass:').status).not.toBe(0);
      // Decrypting the key proves the shrouded bag, not just the MAC.
      const dump = openssl(directory, 'pkcs12', '-in', 'participant.pfx', '-nodes', '-passin', `pass:${fixture.passphrase}`);
      expect(dump.output).toContain('-----BEGIN PRIVATE KEY-----');
    }

    const verify = openssl(directory, 'verify', '-CAfile', 'dev-ca.pem', 'participant.pem', 'server.pem');
    expect(verify.output).toBe('participant.pem: OK\nserver.pem: OK\n');
    expect(openssl(directory, 'verify', '-purpose', 'sslclient', '-CAfile', 'dev-ca.pem', 'participant.pem').output).toBe(
      'participant.pem: OK\n',
    );
    expect(openssl(directory, 'verify', '-purpose', 'sslserver', '-CAfile', 'dev-ca.pem', 'server.pem').output).toBe('server.pem: OK\n');
    expect(openssl(directory, 'verify', '-purpose', 'sslserver', '-CAfile', 'dev-ca.pem', 'participant.pem').status).not.toBe(0);

    const extensions = (name: string): string =>
      openssl(directory, 'x509', '-in', name, '-noout', '-ext', 'basicConstraints,keyUsage,extendedKeyUsage')
        .output.replace(/\s+/g, ' ')
        .trim();
    expect(extensions('dev-ca.pem')).toBe(
      'X509v3 Basic Constraints: critical CA:TRUE X509v3 Key Usage: critical Certificate Sign, CRL Sign',
    );
    expect(extensions('participant.pem')).toBe(
      'X509v3 Basic Constraints: critical CA:FALSE X509v3 Key Usage: critical Digital Signature, Key Encipherment X509v3 Extended Key Usage: TLS Web Client Authentication',
    );
  });
});

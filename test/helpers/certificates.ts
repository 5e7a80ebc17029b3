/** A throwaway PKI made with openssl for mTLS tests: a CA, a server certificate for 127.0.0.1, client certificates. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Pem {
  readonly cert: string;
  readonly key: string;
}

export interface TestPki {
  readonly ca: string;
  readonly server: Pem;
  readonly client: Pem;
  /** Client certificate from a CA the server does not trust. */
  readonly rogueClient: Pem;
  /** A second valid client certificate of the same CA (certificate rotation). */
  readonly otherClient: Pem;
  /** A client certificate of the trusted CA that expired in 2020. */
  readonly expiredClient: Pem;
  /** `client` as a PKCS#12 bundle protected by `pfxPassphrase`. */
  readonly clientPfx: Buffer;
  readonly pfxPassphrase: string;
  dispose(): void;
}

export function createTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'contrato-pki-'));
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const makeCa = (name: string) => {
    openssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.crt`,
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
    );
  };
  const issue = (name: string, ca: string, extensions: string) => {
    openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`);
    writeFileSync(file(`${name}.ext`), extensions);
    openssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${ca}.crt`,
      '-CAkey',
      `${ca}.key`,
      '-CAcreateserial',
      '-out',
      `${name}.crt`,
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
    );
    return { cert: readFileSync(file(`${name}.crt`), 'utf8'), key: readFileSync(file(`${name}.key`), 'utf8') };
  };
  makeCa('test-ca');
  makeCa('rogue-ca');
  const server = issue('server', 'test-ca', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  const client = issue('partner-client', 'test-ca', 'extendedKeyUsage=clientAuth\n');
  const rogueClient = issue('rogue-client', 'rogue-ca', 'extendedKeyUsage=clientAuth\n');
  const otherClient = issue('other-client', 'test-ca', 'extendedKeyUsage=clientAuth\n');
  // An expired certificate needs explicit dates, which only `openssl ca` takes.
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'expired.key', '-out', 'expired.csr', '-subj', '/CN=expired-client');
  writeFileSync(file('index.txt'), '');
  writeFileSync(file('serial'), '1000\n');
  writeFileSync(
    file('ca.cnf'),
    '[ca]\ndefault_ca=test\n[test]\ndatabase=index.txt\nserial=serial\nnew_certs_dir=.\ndefault_md=sha256\npolicy=any\n[any]\ncommonName=supplied\n',
  );
  openssl(
    'ca',
    '-batch',
    '-config',
    'ca.cnf',
    '-cert',
    'test-ca.crt',
    '-keyfile',
    'test-ca.key',
    '-in',
    'expired.csr',
    '-out',
    'expired.crt',
    '-startdate',
    '20200101000000Z',
    '-enddate',
    '20200102000000Z',
    '-notext',
  );
  const pfxPassphrase = 'pfx-passphrase-7Q2w';
  openssl(
    'pkcs12',
    '-export',
    '-in',
    'partner-client.crt',
    '-inkey',
    'partner-client.key',
    '-out',
    'partner-client.pfx',
    '-passout',
    `pass:${pfxPassphrase}`,
  );
  return {
    ca: readFileSync(file('test-ca.crt'), 'utf8'),
    server,
    client,
    rogueClient,
    otherClient,
    expiredClient: { cert: readFileSync(file('expired.crt'), 'utf8'), key: readFileSync(file('expired.key'), 'utf8') },
    clientPfx: readFileSync(file('partner-client.pfx')),
    pfxPassphrase,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

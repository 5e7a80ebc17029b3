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
  /** A second, valid client key whose certificate is `client.cert`'s mismatch. */
  readonly otherKey: string;
  dispose(): void;
}

export function createTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'contrato-pki-'));
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const makeCa = (name: string) => {
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.crt`, '-days', '2', '-subj', `/CN=${name}`);
  };
  const issue = (name: string, ca: string, extensions: string) => {
    openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`);
    writeFileSync(file(`${name}.ext`), extensions);
    openssl('x509', '-req', '-in', `${name}.csr`, '-CA', `${ca}.crt`, '-CAkey', `${ca}.key`, '-CAcreateserial', '-out', `${name}.crt`, '-days', '2', '-extfile', `${name}.ext`);
    return { cert: readFileSync(file(`${name}.crt`), 'utf8'), key: readFileSync(file(`${name}.key`), 'utf8') };
  };
  makeCa('test-ca');
  makeCa('rogue-ca');
  const server = issue('server', 'test-ca', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  const client = issue('partner-client', 'test-ca', 'extendedKeyUsage=clientAuth\n');
  const rogueClient = issue('rogue-client', 'rogue-ca', 'extendedKeyUsage=clientAuth\n');
  const other = issue('other-client', 'test-ca', 'extendedKeyUsage=clientAuth\n');
  return {
    ca: readFileSync(file('test-ca.crt'), 'utf8'),
    server,
    client,
    rogueClient,
    otherKey: other.key,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The sandbox's mutual-TLS mode with the certificates `contrato dev-certs` writes: the pix client with the
 * participant certificate creates a charge over HTTPS; a client without a certificate is refused in the
 * handshake, as the platform refuses it (section 5.1); the CLI refuses --tls on a folder without the files.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDevCertificates } from '../../src/cli/dev-certs.js';
import { runCli } from '../../src/cli/program.js';
import { generateTxid } from '../../src/formats/pix.js';
import { createPixClient } from '../../src/pix/index.js';
import { pixSandbox } from '../../src/sandbox/pix/index.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';

const dir = mkdtempSync(join(tmpdir(), 'contrato-sandbox-tls-'));
let sandbox: RunningSandbox;
const file = (name: string) => readFileSync(join(dir, name));
const charge = { calendario: {}, valor: { original: '5.00' }, chave: 'cobrancas@sandbox.example.com' };

beforeAll(async () => {
  writeDevCertificates(dir);
  sandbox = await startSandbox({
    modules: [pixSandbox],
    strict: true,
    tls: { cert: file('server.pem'), key: file('server-key.pem'), ca: file('dev-ca.pem') },
  });
});
afterAll(async () => {
  await sandbox.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the sandbox with mutual TLS', () => {
  it('serves HTTPS and accepts the participant certificate of the development CA', async () => {
    expect(sandbox.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const client = createPixClient({
      baseUrl: sandbox.urlOf('pix'),
      clientId: 'sandbox-pix',
      clientSecret: 'sandbox-secret',
      tls: { pfx: file('participant.pfx'), ca: file('dev-ca.pem') },
      retry: { maxRetries: 0 },
    });
    try {
      const created = await client.cob.replace({ path: { txid: generateTxid() }, body: charge });
      expect(created.status).toBe('ATIVA');
    } finally {
      await client.close();
    }
    expect(sandbox.drifts()).toEqual([]);
  });

  it('refuses a client without a certificate before any request', async () => {
    const client = createPixClient({
      baseUrl: sandbox.urlOf('pix'),
      clientId: 'sandbox-pix',
      clientSecret: 'sandbox-secret',
      tls: { ca: file('dev-ca.pem') },
      retry: { maxRetries: 0 },
    });
    try {
      const error = await client.cob.get({ path: { txid: generateTxid() } }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).name).toMatch(/^(AuthError|ConnectionError)$/);
      expect((error as Error).message).not.toMatch(/sandbox-secret/);
    } finally {
      await client.close();
    }
  });

  it('contrato sandbox --tls on a folder without the files is a usage error naming them and dev-certs', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'contrato-sandbox-notls-'));
    const err: string[] = [];
    const code = await runCli(['sandbox', '--port', '0', '--tls', empty], { output: { out: () => {}, err: (line) => err.push(line) } });
    rmSync(empty, { recursive: true, force: true });
    expect(code).toBe(2);
    expect(err).toEqual([
      expect.stringMatching(
        /^contrato: --tls \S+ lacks server\.pem, server-key\.pem, dev-ca\.pem; write them with contrato dev-certs --dir /,
      ),
    ]);
  });
});

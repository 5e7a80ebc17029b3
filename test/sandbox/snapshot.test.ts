/**
 * The optional snapshot file: what a sandbox created is there after a restart on the same file (a charge and
 * its payment), and a sandbox without one starts empty.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateTxid } from '../../src/formats/pix.js';
import { createPixClient, type PixClient } from '../../src/pix/index.js';
import { ProblemError } from '../../src/runtime/errors.js';
import { pixSandbox } from '../../src/sandbox/pix/index.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';

const dir = mkdtempSync(join(tmpdir(), 'contrato-snapshot-'));
const snapshotFile = join(dir, 'state.json');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function withSandbox<T>(
  options: { snapshotFile?: string },
  run: (sandbox: RunningSandbox, client: PixClient) => Promise<T>,
): Promise<T> {
  const sandbox = await startSandbox({ modules: [pixSandbox], strict: true, seed: 'snapshot', ...options });
  const client = createPixClient({
    baseUrl: sandbox.urlOf('pix'),
    clientId: 'sandbox-pix',
    clientSecret: 'sandbox-secret',
    retry: { maxRetries: 0 },
  });
  try {
    return await run(sandbox, client);
  } finally {
    await client.close();
    expect(sandbox.drifts()).toEqual([]);
    await sandbox.stop();
  }
}

describe('the snapshot file', () => {
  const txid = generateTxid();

  it('keeps a charge and its payment across a restart', async () => {
    await withSandbox({ snapshotFile }, async (sandbox, client) => {
      await client.cob.replace({
        path: { txid },
        body: { calendario: {}, valor: { original: '3.30' }, chave: 'cobrancas@sandbox.example.com' },
      });
      const paid = await fetch(`${sandbox.url}/_sandbox/pix/pay`, { method: 'POST', body: JSON.stringify({ txid }) });
      expect(paid.status).toBe(200);
    });
    await withSandbox({ snapshotFile }, async (_sandbox, client) => {
      const read = await client.cob.get({ path: { txid } });
      expect(read).toMatchObject({ txid, status: 'CONCLUIDA', valor: { original: '3.30' } });
      expect(read.pix).toHaveLength(1);
    });
  });

  it('without one, a restart starts empty', async () => {
    await withSandbox({}, async (_sandbox, client) => {
      const error = await client.cob.get({ path: { txid } }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProblemError);
      expect((error as ProblemError).status).toBe(404);
    });
  });
});

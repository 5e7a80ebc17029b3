/**
 * generated/ is exactly what the specs produce: a fresh regeneration into a scratch folder matches it
 * byte for byte, and `regenerate --check` agrees.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listFiles, projectRoot } from '../../scripts/lib.js';

const scratch = mkdtempSync(join(tmpdir(), 'contrato-generated-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function regenerate(...args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'scripts/regenerate.ts'), ...args], {
    cwd: projectRoot,
    encoding: 'utf8',
  });
}

describe('generated/', () => {
  it('matches a fresh regeneration byte for byte', () => {
    const run = regenerate('--out', relative(projectRoot, scratch), '--no-docs');
    expect(run.status, run.stderr).toBe(0);
    const committed = listFiles('generated').filter((file) => file !== 'generated/manifest.json');
    const fresh = listFiles(relative(projectRoot, scratch)).map((file) => `generated/${relative(relative(projectRoot, scratch), file)}`);
    expect(fresh.sort()).toEqual(committed.sort());
    for (const file of committed) {
      const freshFile = join(scratch, file.slice('generated/'.length));
      expect(readFileSync(freshFile, 'utf8'), `${file} is stale: run npm run regenerate`).toBe(
        readFileSync(join(projectRoot, file), 'utf8'),
      );
    }
  }, 120_000);

  it('regenerate --check reports it up to date', () => {
    const run = regenerate('--check');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});

/**
 * `npm run regenerate` regenerates only what changed, on a copy of specs/ (`--specs`) into a scratch
 * folder that keeps its own manifest (`--out <dir> --manifest`): a file of core-banking regenerates
 * core-banking alone, a file of specs/_shared/ every document whose manifest dependencies name it, a file
 * no document reads none; what an incremental run writes is byte for byte what a full run writes.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { interfaces } from '../../src/interfaces.js';

const scratch = mkdtempSync(join(tmpdir(), 'contrato-regenerate-'));
const specs = join(scratch, 'specs');
const out = join(scratch, 'generated');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function regenerate(...args: string[]) {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(projectRoot, 'scripts/regenerate.ts'), '--specs', specs, '--no-docs', ...args],
    { cwd: projectRoot, encoding: 'utf8' },
  );
  return { code: run.status, stdout: run.stdout, stderr: run.stderr, summary: run.stdout.trim().split('\n').at(-1) ?? '' };
}
const incremental = (): ReturnType<typeof regenerate> => regenerate('--out', out, '--manifest');

const filesBelow = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
/** File -> modification time, of every file of the generated tree. */
const times = (): Record<string, number> => Object.fromEntries(filesBelow(out).map((file) => [file, statSync(join(out, file)).mtimeMs]));
const changedSince = (before: Record<string, number>): string[] =>
  Object.entries(times())
    .filter(([file, time]) => before[file] !== time)
    .map(([file]) => file);

/** Replaces the first `description: ` of a spec file of the copy, so the bundle changes. */
function edit(file: string, words: string): void {
  const path = join(specs, file);
  const text = readFileSync(path, 'utf8');
  expect(text).toMatch(/description: /);
  writeFileSync(
    path,
    text.replace(/description: (>-\n\s*)?/, (match) => `${match}${words} `),
  );
}
const dependencies = (): Record<string, string[]> =>
  (JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { dependencies: Record<string, string[]> }).dependencies;

beforeAll(() => {
  cpSync(join(projectRoot, 'specs'), specs, { recursive: true });
  const first = incremental();
  expect(first.code, first.stderr).toBe(0);
}, 240_000);

describe('regenerate, incremental', () => {
  it('regenerates nothing, and writes nothing, when nothing changed', () => {
    const before = times();
    const run = incremental();
    expect(run.code, run.stderr).toBe(0);
    expect(run.summary).toMatch(/^nothing to regenerate in [\d.]+ s$/);
    expect(changedSince(before)).toEqual([]);
  });

  it('a file of core-banking regenerates core-banking alone; the other documents and the README stay as they were', () => {
    const before = times();
    edit('core-banking/paths/fee-rules.yaml', 'Edited by the incremental test.');
    const check = regenerate('--out', out, '--manifest', '--check');
    expect(check.code).toBe(1);
    expect(check.stderr).toContain('input specs/core-banking/paths/fee-rules.yaml changed (core-banking)');
    const run = incremental();
    expect(run.code, run.stderr).toBe(0);
    expect(run.summary).toMatch(/^regenerated core-banking in [\d.]+ s$/);
    const changed = changedSince(before);
    expect(changed).toContain('manifest.json');
    expect(changed.filter((file) => file !== 'manifest.json').every((file) => file.startsWith('core-banking/'))).toBe(true);
    expect(changed).toContain('core-banking/openapi.json');
    expect(readFileSync(join(out, 'core-banking/openapi.json'), 'utf8')).toContain('Edited by the incremental test.');
    expect(regenerate('--out', out, '--manifest', '--check').code).toBe(0);
  }, 120_000);

  it('a file of specs/_shared/ regenerates exactly the documents that read it', () => {
    const shared = 'specs/_shared/responses/NotFound.yaml';
    const readers = interfaces.map((info) => info.name).filter((name) => dependencies()[name]!.includes(shared));
    expect(readers).toContain('core-banking');
    expect(readers.length).toBeLessThan(interfaces.length);
    const before = times();
    edit(shared.slice('specs/'.length), 'Edited in the shared folder.');
    const run = incremental();
    expect(run.code, run.stderr).toBe(0);
    expect(run.summary).toMatch(new RegExp(`^regenerated ${readers.join(', ')} in [\\d.]+ s$`));
    const folders = new Set(
      changedSince(before)
        .filter((file) => file.includes('/'))
        .map((file) => file.split('/')[0]),
    );
    expect([...folders].sort()).toEqual([...readers].sort());
  }, 120_000);

  it('a spec file no document reads regenerates nothing; the manifest records it', () => {
    const before = times();
    writeFileSync(join(specs, 'core-banking/components/schemas/NotReferenced.yaml'), 'title: NotReferenced\ntype: string\n');
    const run = incremental();
    expect(run.code, run.stderr).toBe(0);
    expect(run.summary).toMatch(/^no document regenerated \(manifest updated\) in [\d.]+ s$/);
    expect(changedSince(before)).toEqual(['manifest.json']);
    expect(readFileSync(join(out, 'manifest.json'), 'utf8')).toContain('"specs/core-banking/components/schemas/NotReferenced.yaml"');
  });

  it('a file of generated/ edited by hand regenerates its document', () => {
    writeFileSync(join(out, 'messages/types.ts'), '// edited by hand\n');
    const run = incremental();
    expect(run.code, run.stderr).toBe(0);
    expect(run.summary).toMatch(/^regenerated messages in [\d.]+ s$/);
    expect(readFileSync(join(out, 'messages/types.ts'), 'utf8')).not.toContain('edited by hand');
  }, 120_000);

  it('writes what a full regeneration of the same specs writes, manifest included, byte for byte', () => {
    const full = join(scratch, 'full');
    const run = regenerate('--out', full, '--manifest');
    expect(run.code, run.stderr).toBe(0);
    expect(run.summary).toMatch(/^regenerated all \d+ documents in [\d.]+ s$/);
    expect(filesBelow(out)).toEqual(filesBelow(full));
    for (const file of filesBelow(full)) expect(readFileSync(join(out, file), 'utf8'), file).toBe(readFileSync(join(full, file), 'utf8'));
  }, 240_000);
});

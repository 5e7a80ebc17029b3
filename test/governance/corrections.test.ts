/**
 * Corrections of a release: a listed breaking change is accepted as a CORRECTION, a listed one that no
 * longer occurs fails the diff, a malformed list is refused in one line; the same through
 * `contrato diff --corrections` and its exit codes.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { bundledSpecPath } from '../../src/checks/registry.js';
import { applyCorrections, CorrectionsError, parseCorrections, readCorrections } from '../../src/governance/corrections.js';
import { diffFails, diffSpecs, formatDiff } from '../../src/governance/diff.js';

type Json = Record<string, any>;
const core = JSON.parse(readFileSync(bundledSpecPath('core-banking'), 'utf8')) as Json;
/** core-banking with an error answer removed from GET /fee-rules: one breaking change. */
const broken = structuredClone(core);
delete broken.paths['/fee-rules'].get.responses['429'];
const removed = { where: 'GET /fee-rules (feeRules.list)', change: 'status 429 removed' };
const reason = 'the release documented a 429 this operation never answers (a defect of the test)';

describe('applyCorrections', () => {
  it('accepts a listed breaking change as a correction, with its reason', () => {
    const plain = diffSpecs(core, broken);
    expect(plain.changes).toContainEqual({ classification: 'breaking', ...removed });
    expect(diffFails(plain)).toBe(true);
    const result = applyCorrections(plain, [{ ...removed, reason }]);
    expect(result.changes).toContainEqual({ classification: 'correction', ...removed, reason });
    expect(result).toMatchObject({ breaking: false, staleCorrections: [] });
    expect(diffFails(result)).toBe(false);
    expect(formatDiff(result)).toContain(`CORRECTION ${removed.where}: ${removed.change} — ${reason}`);
    expect(formatDiff(result)).toMatch(/no breaking change \(\d+ compatible, 1 correction\(s\) accepted\)$/);
  });

  it('leaves a breaking change the list does not name breaking', () => {
    const result = applyCorrections(diffSpecs(core, broken), [{ ...removed, change: 'status 503 removed', reason }]);
    expect(result.breaking).toBe(true);
    expect(diffFails(result)).toBe(true);
  });

  it('refuses a stale correction: listed, but no longer reported by the diff', () => {
    const result = applyCorrections(diffSpecs(core, structuredClone(core)), [{ ...removed, reason }]);
    expect(result.breaking).toBe(false);
    expect(result.staleCorrections).toEqual([{ ...removed, reason }]);
    expect(diffFails(result)).toBe(true);
    expect(
      formatDiff(result)
        .split('\n')
        .filter((line) => line.startsWith('STALE')),
    ).toEqual([`STALE      ${removed.where}: ${removed.change} — a listed correction that no longer occurs; remove it`]);
  });

  it('does not excuse a compatible change (a correction names a breaking one)', () => {
    const widened = structuredClone(core);
    widened.paths['/fee-rules'].get.responses['404'] = { $ref: '#/components/responses/NotFound' };
    const change = diffSpecs(core, widened).changes.find((entry) => entry.change.startsWith('status 404 added'))!;
    expect(change.classification).toBe('compatible');
    const result = applyCorrections(diffSpecs(core, widened), [{ where: change.where, change: change.change, reason }]);
    expect(result.staleCorrections).toHaveLength(1);
  });
});

describe('parseCorrections refuses a malformed list in one line', () => {
  const ok = { ...removed, reason };
  it.each([
    ['not a list', { corrections: [ok] }, /expected a list of \{ where, change, reason \}, got object/],
    ['an entry that is not an object', ['status 429 removed'], /entry 1 is not an object/],
    ['a missing reason', [{ ...removed }], /entry 1 needs reason: a non-empty string/],
    ['an empty where', [{ ...ok, where: ' ' }], /entry 1 needs where/],
    ['an unknown member', [{ ...ok, why: 'x' }], /entry 1 has an unknown member "why"/],
    ['a reason over two lines', [{ ...ok, reason: 'one\ntwo' }], /entry 1: reason must be one line/],
    ['a repeated entry', [ok, ok], /entry 2 repeats GET \/fee-rules/],
  ])('%s', (_given, value, message) => {
    expect(() => parseCorrections(value, 'c.yaml')).toThrow(CorrectionsError);
    expect(() => parseCorrections(value, 'c.yaml')).toThrow(message);
  });

  it('takes an empty file as no correction', () => {
    expect(parseCorrections(null, 'c.yaml')).toEqual([]);
  });
});

describe('contrato diff --corrections', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'contrato-corrections-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const write = (name: string, text: string) => {
    const path = join(scratch, name);
    writeFileSync(path, text);
    return path;
  };
  const base = write('old.json', JSON.stringify(core));
  const next = write('new.json', JSON.stringify(broken));
  const contrato = (args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'src/cli/main.ts'), 'diff', ...args], {
      cwd: projectRoot,
      encoding: 'utf8',
    });
  const listed = write(
    'corrections.yaml',
    `# a comment\n- where: '${removed.where}'\n  change: '${removed.change}'\n  reason: '${reason}'\n`,
  );

  it('reads a YAML list: the same as applyCorrections', async () => {
    expect(await readCorrections(listed)).toEqual([{ ...removed, reason }]);
  });

  it('exits 1 on the breaking change alone, 0 once the corrections file lists it', () => {
    expect(contrato([base, next]).status).toBe(1);
    const run = contrato([base, next, '--corrections', listed]);
    expect(run).toMatchObject({ status: 0, stdout: expect.stringContaining(`CORRECTION ${removed.where}: ${removed.change} — ${reason}`) });
    expect(run.stdout).not.toMatch(/^BREAKING/m);
  });

  it('exits 1 on a stale correction, with one line naming it', () => {
    const run = contrato([base, base, '--corrections', listed]);
    expect(run.status).toBe(1);
    expect(run.stdout.split('\n').filter((line) => line.includes(removed.change))).toEqual([
      `STALE      ${removed.where}: ${removed.change} — a listed correction that no longer occurs; remove it`,
    ]);
  });

  it.each([
    ['a malformed file', write('bad.yaml', `- where: '${removed.where}'\n  change: [unclosed\n`), /bad\.yaml is neither JSON nor YAML/],
    [
      'a list without reasons',
      write('partial.yaml', `- where: '${removed.where}'\n  change: '${removed.change}'\n`),
      /entry 1 needs reason/,
    ],
    ['a missing file', join(scratch, 'absent.yaml'), /cannot read the corrections file/],
  ])('exits 2 with one line on %s', (_given, file, message) => {
    const run = contrato([base, next, '--corrections', file]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toMatch(/^contrato: .*\(contrato diff --help shows the usage\)$/m);
  });

  it('is in the help of diff', () => {
    expect(contrato(['--help']).stdout).toMatch(/--corrections <file> +breaking changes that correct a defect/);
  });
});

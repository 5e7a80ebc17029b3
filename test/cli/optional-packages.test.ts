/**
 * The commands that need optional peer packages, where those are not installed: each ends before it starts
 * anything, in one line naming the packages and the npm command that installs them, with exit code 1.
 *
 * The consumer is a copy of contrato's sources (the bin runs them, as in a clone) whose node_modules links
 * every installed package but the optional peers: a copy, because Node resolves a linked file from where
 * it really is, and contrato's own node_modules has them all.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { assertPackagesInstalled, docsPackages, mockPackages } from '../../src/cli/optional-packages.js';

const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};
const optionalPeers = Object.keys(manifest.peerDependenciesMeta).filter((name) => manifest.peerDependenciesMeta[name]!.optional);
const work = mkdtempSync(join(tmpdir(), 'contrato-optional-'));
const copy = join(work, 'contrato');

beforeAll(() => {
  for (const entry of ['package.json', 'bin', 'src', 'generated']) cpSync(join(projectRoot, entry), join(copy, entry), { recursive: true });
  const modules = join(copy, 'node_modules');
  mkdirSync(modules);
  // Scoped packages are linked one by one, so @redocly/cli can stay out while the rest of @redocly is in.
  for (const entry of readdirSync(join(projectRoot, 'node_modules'))) {
    if (entry === '.bin' || entry.startsWith('.')) continue;
    const names = entry.startsWith('@') ? readdirSync(join(projectRoot, 'node_modules', entry)).map((name) => `${entry}/${name}`) : [entry];
    for (const name of names.filter((each) => !optionalPeers.includes(each))) {
      mkdirSync(join(modules, name, '..'), { recursive: true });
      symlinkSync(join(projectRoot, 'node_modules', name), join(modules, name));
    }
  }
  writeFileSync(join(work, 'old.yaml'), 'openapi: 3.1.0\n');
}, 60_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

const installLine = (names: readonly string[]): string =>
  `npm install --save-dev ${names.map((name) => `${name}@${manifest.peerDependencies[name]}`).join(' ')}`;

describe('optional packages missing', () => {
  it.each([
    { given: 'contrato start', args: ['start', '--port', '0', '--site', 'site'], packages: docsPackages },
    { given: 'contrato docs', args: ['docs', '--port', '0', '--site', 'site'], packages: docsPackages },
    { given: 'contrato mock', args: ['mock', '--port', '0'], packages: mockPackages },
    { given: 'contrato diff of a YAML spec', args: ['diff', join(work, 'old.yaml'), join(work, 'old.yaml')], packages: ['yaml'] },
  ])('$given says in one line what to install, before it starts anything, and exits 1', ({ given, args, packages }) => {
    const run = spawnSync(process.execPath, [join(copy, 'bin/contrato.js'), ...args], { cwd: work, encoding: 'utf8', timeout: 60_000 });
    expect(run.stdout).toBe('');
    const what = given.startsWith('contrato diff') ? `reading ${join(work, 'old.yaml')}, which is not JSON,` : given;
    expect(run.stderr).toBe(`contrato: ${what} needs ${packages.join(' and ')}, not installed here: ${installLine(packages)}\n`);
    expect(run.status).toBe(1);
  });

  it('finds the packages that are installed (a package exporting no package.json counts)', () => {
    expect(() => assertPackagesInstalled([...docsPackages, ...mockPackages, 'yaml', 'vitest'], 'this test')).not.toThrow();
  });
});

/**
 * One stamp for every path that builds the docs site: `npm run regenerate`, `npx contrato docs` (the bin)
 * and `npm start` each find the site another one built current and rewrite no page of it; the code's
 * identity is the same from src/ under tsx and from a current dist/. A changed document rebuilds its
 * reference page and leaves the others as they were (same file, same time).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { buildSite } from '../../src/cli/site.js';
import { pageCodeIdentity, pageModules, readSiteStamp } from '../../src/cli/site-stamp.js';
import { interfaces } from '../../src/interfaces.js';

const scratch = mkdtempSync(join(tmpdir(), 'contrato-site-stamp-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

describe('the code identity of the pages', () => {
  const layout = join(scratch, 'layout');
  const write = (file: string, text: string, time: number): void => {
    mkdirSync(dirname(join(layout, file)), { recursive: true });
    writeFileSync(join(layout, file), text);
    utimesSync(join(layout, file), time, time);
  };
  const identity = (file: string): string => pageCodeIdentity(pathToFileURL(join(layout, file)).href, 'redoc 1');
  beforeAll(() => {
    for (const name of pageModules) {
      write(`src/${name}.ts`, `// ${name} source`, 1_000);
      write(`dist/src/${name}.js`, `// ${name} built`, 2_000);
    }
  });

  it('is the same from the sources and from a build not older than them', () => {
    expect(identity('dist/src/cli/site.js')).toBe(identity('src/cli/site.ts'));
  });

  it('is the built code itself when a source is newer than its build, or when there are no sources', () => {
    write('src/cli/site-pages.ts', '// edited after the build', 3_000);
    expect(identity('dist/src/cli/site.js')).not.toBe(identity('src/cli/site.ts'));
    rmSync(join(layout, 'src'), { recursive: true });
    const installed = identity('dist/src/cli/site.js');
    write('dist/src/cli/favicon.js', '// another build', 4_000);
    expect(identity('dist/src/cli/site.js')).not.toBe(installed);
  });

  it('names every module of src/ that the site modules import, but data and the stamp itself', () => {
    // What these give the pages is hashed apart (documents, interface titles) or decides nothing about a page.
    const apart = new Set(['interfaces', 'checks/registry', 'cli/site-stamp']);
    for (const name of pageModules) {
      const text = readFileSync(join(projectRoot, 'src', `${name}.ts`), 'utf8');
      for (const match of text.matchAll(/(?:from |import\()\s*'(\.{1,2}\/[^']+)\.js'/g)) {
        const imported = relative(join(projectRoot, 'src'), join(projectRoot, 'src', dirname(name), match[1]!))
          .split('\\')
          .join('/');
        if (!apart.has(imported)) expect(pageModules as readonly string[], `${name} imports ${imported}`).toContain(imported);
      }
    }
  });
});

/** Every file of the site -> its inode and time: a file rewritten or replaced shows. */
function snapshot(siteDir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(siteDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const file = join(entry.parentPath, entry.name);
        const stat = statSync(file);
        return [relative(siteDir, file), `${stat.ino}:${stat.mtimeMs}`];
      }),
  );
}

/** Runs a server command until its docs line says ready; answers the output and stops it. */
function runUntilDocsReady(args: string[]): Promise<string> {
  const child = spawn(process.execPath, args, { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no docs line within 150 s:\n${output}`)), 150_000);
    const collect = (chunk: Buffer): void => {
      output += chunk.toString();
      if (/^docs {2}site\s+\S+\s+ready in/m.test(output)) {
        clearTimeout(timer);
        child.once('exit', () => resolve(output));
        child.kill('SIGTERM');
      }
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!/ready in/.test(output)) reject(new Error(`exited with ${code}:\n${output}`));
    });
  });
}

describe('one stamp for every path that builds the site', () => {
  const site = join(scratch, 'site');
  // regenerate writes into a copy of generated/ (its own manifest): nothing of the checkout is touched.
  const generated = join(scratch, 'generated');
  const regenerate = () =>
    spawnSync(process.execPath, ['--import', 'tsx', 'scripts/regenerate.ts', '--out', generated, '--manifest', '--site', site], {
      cwd: projectRoot,
      encoding: 'utf8',
    });
  let built: Record<string, string>;

  beforeAll(() => {
    cpSync(join(projectRoot, 'generated'), generated, { recursive: true });
    const run = regenerate();
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/site: .*index\.html/);
    built = snapshot(site);
  }, 300_000);

  it('npx contrato docs (the bin) serves the site npm run regenerate built, rewriting nothing', async () => {
    const output = await runUntilDocsReady([join(projectRoot, 'bin/contrato.js'), 'docs', '--site', site, '--port', '0']);
    expect(output).not.toContain('site built');
    expect(output).not.toContain('building the site');
    expect(snapshot(site)).toEqual(built);
  }, 180_000);

  it('npm start serves it too, rewriting nothing', async () => {
    const output = await runUntilDocsReady(['--import', 'tsx', 'scripts/start.ts', '--site', site, '--port', '0']);
    expect(output).not.toContain('site built');
    expect(snapshot(site)).toEqual(built);
  }, 180_000);

  it('and npm run regenerate after them rebuilds nothing', () => {
    const run = regenerate();
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^nothing to regenerate in [\d.]+ s$/m);
    expect(snapshot(site)).toEqual(built);
  }, 120_000);

  it('a changed document rebuilds its own reference page; every other file stays the same file', async () => {
    const edited = join(scratch, 'edited');
    cpSync(generated, edited, { recursive: true });
    const path = join(edited, 'core-banking/openapi.json');
    const document = JSON.parse(readFileSync(path, 'utf8')) as { info: { description: string } };
    document.info.description += '\n\nEdited by the site stamp test.';
    writeFileSync(path, `${JSON.stringify(document, null, 2)}\n`);
    let written: readonly string[] = [];
    const lines: string[] = [];
    expect(
      await buildSite(site, {
        generatedDir: edited,
        log: (line) => lines.push(line),
        // The pages wait for what the start of the build returns (npm start: the sandbox).
        onBuildStart: async () => {
          await new Promise((resolve) => setTimeout(resolve, 200));
          lines.push('build start answered');
        },
        onWritten: (files) => {
          written = files;
        },
      }),
    ).toBe(true);
    // A line as the build begins, one as each page starts and one as it is done: the changed page's only.
    expect(lines[0]).toBe('build start answered');
    expect(lines.filter((line) => /reference page/.test(line))).toEqual([
      'building 1 reference page with Redoc, 1 at a time (core-banking)',
      '  … core-banking: reference page (redoc)',
      expect.stringMatching(/^ {2}✓ core-banking: reference page \(redoc\) +\d+ ms$/),
    ]);
    expect(written).toContain('core-banking.html');
    const after = snapshot(site);
    for (const info of interfaces.filter((entry) => entry.name !== 'core-banking'))
      expect(after[`${info.name}.html`], info.name).toBe(built[`${info.name}.html`]);
    expect(after['events.html']).toBe(built['events.html']);
    expect(after['index.html']).toBe(built['index.html']);
    for (const file of Object.keys(after)) if (!written.includes(file) && file !== '.stamp') expect(after[file], file).toBe(built[file]);
    expect(readSiteStamp(site)?.references['core-banking.html']).not.toBe(undefined);
  }, 180_000);
});

/**
 * The contract changes region of the root CHANGELOG.md: current in this checkout (so `npm test` fails when
 * a spec or a release changed without `npm run changelog`); its rendering from given diffs; the markers;
 * the latest release found by version; and `contrato changelog [--check]` on a copy of the checkout.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { changelogCommand } from '../../src/cli/changelog-command.js';
import {
  beginMarker,
  ChangelogMarkersError,
  changelogState,
  codeSpan,
  collectChanges,
  endMarker,
  type InterfaceChanges,
  latestVersion,
  renderInterface,
  renderRegion,
  replaceRegion,
} from '../../src/governance/changelog.js';
import type { Change, Correction, DiffResult } from '../../src/governance/diff.js';
import { interfaces } from '../../src/interfaces.js';

describe('CHANGELOG.md of this checkout', () => {
  it('has its contract changes region as npm run changelog writes it', async () => {
    const state = await changelogState(projectRoot);
    expect(state.current, 'CHANGELOG.md is stale: run npm run changelog').toBe(state.next);
  });

  it('names every interface of src/interfaces.ts in the region, in their order', () => {
    const text = readFileSync(join(projectRoot, 'CHANGELOG.md'), 'utf8');
    const region = text.slice(text.indexOf(beginMarker), text.indexOf(endMarker));
    const headings = region.split('\n').filter((line) => line.startsWith('### '));
    expect(headings).toEqual(interfaces.map((info) => `### ${info.name} (interface ${info.letter})`));
  });
});

const change = (classification: Change['classification'], where: string, text: string, reason?: string): Change => ({
  classification,
  where,
  change: text,
  ...(reason ? { reason } : {}),
});

function entry(changes: Change[], options: { stale?: Correction[]; newVersion?: string; corrections?: boolean } = {}): InterfaceChanges {
  const newVersion = options.newVersion ?? '1.0.0';
  const result: DiffResult = {
    changes,
    breaking: changes.some((item) => item.classification === 'breaking'),
    oldVersion: '1.0.0',
    newVersion,
    majorRaised: Number(newVersion.split('.')[0]) > 1,
    staleCorrections: options.stale ?? [],
  };
  return {
    name: 'demo',
    letter: 'Z',
    workingVersion: newVersion,
    release: {
      version: '1.0.0',
      file: 'specs/releases/demo/1.0.0.json',
      ...(options.corrections ? { correctionsFile: 'specs/releases/demo/1.0.0.corrections.yaml' } : {}),
    },
    result,
  };
}

const thirty = Array.from({ length: 30 }, (_value, index) =>
  change('compatible', `GET /items/${String(index).padStart(2, '0')} (items.get${index})`, 'status 410 added'),
);

interface RenderCase {
  readonly given: string;
  readonly entry: InterfaceChanges;
  /** Lines the rendering must hold, in this order. */
  readonly want: readonly string[];
  /** Text it must not hold. */
  readonly absent?: readonly string[];
}

const renderCases: RenderCase[] = [
  {
    given: 'an empty diff',
    entry: entry([]),
    want: ['### demo (interface Z)', 'Released 1.0.0 (`specs/releases/demo/1.0.0.json`); working version 1.0.0. No change since 1.0.0.'],
    absent: ['- '],
  },
  {
    given: 'compatible changes only, sorted by where',
    entry: entry([
      change('compatible', 'POST /b (b.create) request body/note', 'new optional request field'),
      change('compatible', 'GET /a (a.get) response 200/name', 'new response field'),
    ]),
    want: [
      'Released 1.0.0 (`specs/releases/demo/1.0.0.json`); working version 1.0.0. 2 changes since 1.0.0: 2 compatible.',
      '- compatible `GET /a (a.get) response 200/name`: new response field',
      '- compatible `POST /b (b.create) request body/note`: new optional request field',
    ],
    absent: ['BREAKING', 'npm test'],
  },
  {
    given: 'a breaking change without a new major: first, and the verdict says npm test fails',
    entry: entry([
      change('compatible', 'GET /a (a.get) response 200/name', 'new response field'),
      change('breaking', 'GET /z (z.get)', 'operation removed'),
    ]),
    want: [
      '2 changes since 1.0.0: 1 breaking, 1 compatible. Breaking without a new major version: `npm test` fails until the change is undone, listed as a correction, or the major raised.',
      '- **BREAKING** `GET /z (z.get)`: operation removed',
      '- compatible `GET /a (a.get) response 200/name`: new response field',
    ],
  },
  {
    given: 'a breaking change with the major raised',
    entry: entry([change('breaking', 'GET /z (z.get)', 'operation removed')], { newVersion: '2.0.0' }),
    want: [
      'working version 2.0.0. 1 change since 1.0.0: 1 breaking. Breaking changes allowed: the major version went from 1.0.0 to 2.0.0.',
      '- **BREAKING** `GET /z (z.get)`: operation removed',
    ],
    absent: ['fails'],
  },
  {
    given: 'corrections accepted, with their reasons and the corrections file',
    entry: entry(
      [
        change('compatible', 'GET /a (a.get)', 'status 404 added'),
        change('correction', 'GET /w (w.list) response 200/chave', 'no longer required', 'the standard may omit chave'),
      ],
      { corrections: true },
    ),
    want: [
      'Released 1.0.0 (`specs/releases/demo/1.0.0.json`, corrections in `specs/releases/demo/1.0.0.corrections.yaml`); working version 1.0.0. 2 changes since 1.0.0: 1 correction accepted, 1 compatible.',
      '- **CORRECTION** `GET /w (w.list) response 200/chave`: no longer required (accepted: the standard may omit chave)',
      '- compatible `GET /a (a.get)`: status 404 added',
    ],
    absent: ['BREAKING'],
  },
  {
    given: 'a stale correction: after the breaking changes, before the accepted ones',
    entry: entry(
      [
        change('correction', 'GET /w (w.list)', 'status 400 removed', 'never answered'),
        change('breaking', 'GET /z (z.get)', 'operation removed'),
      ],
      { corrections: true, stale: [{ where: 'GET /v (v.get)', change: 'status 409 removed', reason: 'gone' }] },
    ),
    want: [
      '3 changes since 1.0.0: 1 breaking, 1 stale correction, 1 correction accepted.',
      'A stale correction fails `npm test` until it leaves the corrections file.',
      '- **BREAKING** `GET /z (z.get)`: operation removed',
      '- **STALE CORRECTION** `GET /v (v.get)`: status 409 removed (listed in `specs/releases/demo/1.0.0.corrections.yaml`, no longer reported: remove it)',
      '- **CORRECTION** `GET /w (w.list)`: status 400 removed (accepted: never answered)',
    ],
  },
  {
    given: 'more than 25 changes: the first 25 in order, then how many more and the diff command',
    entry: entry([...thirty].reverse(), { corrections: true }),
    want: [
      '30 changes since 1.0.0: 30 compatible.',
      '- compatible `GET /items/00 (items.get0)`: status 410 added',
      '- compatible `GET /items/24 (items.get24)`: status 410 added',
      '- … and 5 more: run `contrato diff specs/releases/demo/1.0.0.json generated/demo/openapi.json --corrections specs/releases/demo/1.0.0.corrections.yaml`',
    ],
    absent: ['items/25', 'items/29'],
  },
  {
    given: 'markdown characters of a change escaped, a backtick in where fenced',
    entry: entry([change('breaking', 'GET /a`b (ab.get)', 'pattern added (null → "^[a-z_]*$")')]),
    want: ['- **BREAKING** ``GET /a`b (ab.get)``: pattern added (null → "^\\[a-z\\_\\]\\*$")'],
  },
  {
    given: 'an interface without a release',
    entry: { name: 'demo', letter: 'Z', workingVersion: '0.1.0', release: null, result: null },
    want: ['### demo (interface Z)', 'Not released yet (no `specs/releases/demo/<version>.json`); working version 0.1.0.'],
  },
];

describe('renderInterface', () => {
  it.each(renderCases)('$given', ({ entry: given, want, absent = [] }) => {
    const text = renderInterface(given);
    let from = 0;
    for (const line of want) {
      const at = text.indexOf(line, from);
      expect(at, `${JSON.stringify(line)} in order in:\n${text}`).toBeGreaterThanOrEqual(0);
      from = at + line.length;
    }
    for (const unwanted of absent) expect(text).not.toContain(unwanted);
  });

  it('lists exactly 25 changes and the line of the rest when there are 30', () => {
    const lines = renderInterface(entry(thirty)).split('\n');
    expect(lines.filter((line) => line.startsWith('- compatible '))).toHaveLength(25);
    expect(lines.at(-1)).toBe('- … and 5 more: run `contrato diff specs/releases/demo/1.0.0.json generated/demo/openapi.json`');
  });

  it('gives the same text whatever order the diff reported the changes in', () => {
    expect(renderInterface(entry([...thirty].reverse()))).toBe(renderInterface(entry(thirty)));
  });

  it('puts a blank line either side of the interfaces in the region', () => {
    expect(renderRegion([entry([]), entry([])])).toMatch(/^\n\n### demo[^\n]*\n\nReleased[^\n]*\n\n### demo[^\n]*\n\nReleased[^\n]*\n\n$/);
  });

  it.each([
    { text: 'plain', want: '`plain`' },
    { text: 'a`b', want: '``a`b``' },
    { text: '`edge`', want: '`` `edge` ``' },
  ])('codeSpan($text) = $want', ({ text, want }) => expect(codeSpan(text)).toBe(want));
});

describe('replaceRegion', () => {
  const file = `# Changelog\n\nintro\n\n${beginMarker}\nold text\n${endMarker}\n\n## Unreleased\n`;

  it('replaces only what lies between the markers', () => {
    expect(replaceRegion(file, '\n\nnew text\n\n')).toBe(
      `# Changelog\n\nintro\n\n${beginMarker}\n\nnew text\n\n${endMarker}\n\n## Unreleased\n`,
    );
  });

  it.each([
    { given: 'no markers', text: '# Changelog\n', want: `CHANGELOG.md lacks ${beginMarker} and ${endMarker}: put` },
    { given: 'no end marker', text: `a\n${beginMarker}\nb\n`, want: `CHANGELOG.md lacks ${endMarker}: put` },
    { given: 'no begin marker', text: `a\n${endMarker}\n`, want: `CHANGELOG.md lacks ${beginMarker}: put` },
    { given: 'the markers swapped', text: `${endMarker}\n${beginMarker}\n`, want: `CHANGELOG.md has ${endMarker} before ${beginMarker}` },
    { given: 'a marker twice', text: `${beginMarker}\n${endMarker}\n${endMarker}\n`, want: 'more than once' },
  ])('$given: a one-line ChangelogMarkersError', ({ text, want }) => {
    let error: unknown;
    try {
      replaceRegion(text, 'x');
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ChangelogMarkersError);
    expect((error as Error).message).toContain(want);
    expect((error as Error).message).not.toContain('\n');
  });
});

describe('latestVersion', () => {
  it.each([
    { given: ['2.9.0.json', '2.10.0.json', '2.10.0.corrections.yaml'], want: '2.10.0' },
    { given: ['1.0.0.json', '0.40.0.json'], want: '1.0.0' },
    { given: ['10.0.0.json', '9.99.99.json', 'README.md', 'v11.0.0.json'], want: '10.0.0' },
    { given: ['2.9.0.corrections.yaml'], want: null },
  ])('$given -> $want', ({ given, want }) => expect(latestVersion(given)).toBe(want));
});

/** A bundle of one version whose operations are the given paths, each a GET answering 200. */
const bundle = (version: string, paths: readonly string[]) => ({
  openapi: '3.1.0',
  info: { title: 'demo', version },
  paths: Object.fromEntries(
    paths.map((path) => [path, { get: { operationId: `${path.slice(1)}.get`, responses: { '200': { description: 'ok' } } } }]),
  ),
});

describe('collectChanges', () => {
  const root = mkdtempSync(join(tmpdir(), 'contrato-changelog-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, value: unknown): void => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), typeof value === 'string' ? value : JSON.stringify(value));
  };
  write('specs/releases/demo/1.9.0.json', bundle('1.9.0', ['/old']));
  write('specs/releases/demo/1.10.0.json', bundle('1.10.0', ['/a', '/b']));
  write('specs/releases/demo/1.10.0.corrections.yaml', '- where: GET /b (b.get)\n  change: operation removed\n  reason: never served\n');
  write('generated/demo/openapi.json', bundle('1.11.0', ['/a', '/c']));
  write('generated/fresh/openapi.json', bundle('0.1.0', ['/a']));

  it('diffs the highest release against the working bundle, its corrections applied', async () => {
    const [demo] = await collectChanges(root, ['demo']);
    expect(demo).toMatchObject({
      name: 'demo',
      workingVersion: '1.11.0',
      release: {
        version: '1.10.0',
        file: 'specs/releases/demo/1.10.0.json',
        correctionsFile: 'specs/releases/demo/1.10.0.corrections.yaml',
      },
    });
    expect(demo!.result!.changes).toEqual([
      { classification: 'correction', where: 'GET /b (b.get)', change: 'operation removed', reason: 'never served' },
      { classification: 'compatible', where: 'GET /c (c.get)', change: 'new operation' },
    ]);
  });

  it('reports an interface without releases as not released', async () => {
    expect(await collectChanges(root, ['fresh'])).toEqual([
      { name: 'fresh', letter: '?', workingVersion: '0.1.0', release: null, result: null },
    ]);
  });

  it('says to regenerate when a working bundle is missing', async () => {
    await expect(collectChanges(root, ['absent'])).rejects.toThrow('generated/absent/openapi.json is missing: run npm run regenerate');
  });
});

describe('contrato changelog on a copy of the checkout', () => {
  const root = mkdtempSync(join(tmpdir(), 'contrato-changelog-cli-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  cpSync(join(projectRoot, 'specs/releases'), join(root, 'specs/releases'), { recursive: true });
  for (const info of interfaces)
    cpSync(join(projectRoot, 'generated', info.name, 'openapi.json'), join(root, 'generated', info.name, 'openapi.json'));
  const changelog = join(root, 'CHANGELOG.md');
  const run = async (check: boolean) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await changelogCommand({ check, root }, { out: (line) => out.push(line), err: (line) => err.push(line) });
    return { code, out, err };
  };

  it('without markers: exit 2 and one line naming them, the file untouched', async () => {
    writeFileSync(changelog, '# Changelog\n');
    expect(await run(false)).toEqual({
      code: 2,
      out: [],
      err: [expect.stringContaining(`CHANGELOG.md lacks ${beginMarker} and ${endMarker}`)],
    });
    expect(readFileSync(changelog, 'utf8')).toBe('# Changelog\n');
  });

  it('--check on a stale region: exit 1, one line naming npm run changelog, nothing written', async () => {
    const stale = `# Changelog\n\n${beginMarker}\n${endMarker}\n\n## Unreleased\n`;
    writeFileSync(changelog, stale);
    expect(await run(true)).toEqual({
      code: 1,
      out: [],
      err: ['CHANGELOG.md is stale: its contract changes differ from specs/releases and generated/; run npm run changelog'],
    });
    expect(readFileSync(changelog, 'utf8')).toBe(stale);
  });

  it('writes the region as the checkout has it, then --check passes', async () => {
    expect(await run(false)).toEqual({ code: 0, out: ['wrote the contract changes of CHANGELOG.md'], err: [] });
    const mine = readFileSync(join(projectRoot, 'CHANGELOG.md'), 'utf8');
    const written = readFileSync(changelog, 'utf8');
    const region = (text: string) => text.slice(text.indexOf(beginMarker), text.indexOf(endMarker));
    expect(region(written)).toBe(region(mine));
    expect(written.startsWith(`# Changelog\n\n${beginMarker}\n\n### accounts (interface A)\n`)).toBe(true);
    expect(written.endsWith(`\n\n${endMarker}\n\n## Unreleased\n`)).toBe(true);
    expect(await run(true)).toEqual({ code: 0, out: ['CHANGELOG.md is up to date'], err: [] });
  });
});

describe('contrato changelog from the shell', () => {
  it('--check in this checkout exits 0; an argument is a usage error (exit 2)', () => {
    const contrato = (args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'src/cli/main.ts'), 'changelog', ...args], {
        cwd: projectRoot,
        encoding: 'utf8',
      });
    expect(contrato(['--check'])).toMatchObject({ status: 0, stdout: 'CHANGELOG.md is up to date\n', stderr: '' });
    expect(contrato(['extra'])).toMatchObject({
      status: 2,
      stdout: '',
      stderr: expect.stringMatching(/^contrato: changelog takes no argument "extra"/),
    });
  });
});

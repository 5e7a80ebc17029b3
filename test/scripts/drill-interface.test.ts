/**
 * The pieces of `npm run drill:interface` (scripts/drill-interface.ts): the one line it adds to
 * src/interfaces.ts, the subpath it adds to package.json (the shape test/package/exports.test.ts asks for),
 * which files it may touch and how, and the test files it picks: those that import the definitions.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { definitionTests, touchKind, withDefinition, withSubpath } from '../../scripts/drill-interface.js';

describe('withDefinition: the line src/interfaces.ts gains', () => {
  const source = readFileSync(join(projectRoot, 'src/interfaces.ts'), 'utf8');

  it('imports the definition after the others and lists it last', () => {
    const added = withDefinition(source, 'gadget-parts', 'gadgetParts');
    const removed = new Set(source.split('\n'));
    expect(added.split('\n').filter((line) => !removed.has(line))).toEqual([
      "import { gadgetPartsDefinition } from './gadget-parts/definition.js';",
      '  gadgetPartsDefinition as InterfaceDefinition<never>,',
    ]);
    const list = added.slice(added.indexOf('export const definitions'), added.indexOf('];'));
    expect(list.trimEnd().split('\n').at(-1)).toBe('  gadgetPartsDefinition as InterfaceDefinition<never>,');
  });

  it('refuses a file without a definitions list, saying so', () => {
    expect(() => withDefinition('export const nothing = 1;\n', 'gadgets', 'gadgets')).toThrow(
      /no definition import or no definitions list/,
    );
  });
});

describe('withSubpath: the exports package.json gains', () => {
  it('adds the module of the interface with its two faces and the bundle of each document, typesVersions too', () => {
    const manifest = { name: 'x', exports: { '.': './index.js' }, typesVersions: { '*': {} } };
    expect(withSubpath(manifest, 'gadgets', ['gadgets', 'gadget-files'])).toEqual({
      name: 'x',
      exports: {
        '.': './index.js',
        './gadgets': {
          require: { types: './dist/src/gadgets/index.d.cts', default: './dist/src/gadgets/index.cjs' },
          types: './dist/src/gadgets/index.d.ts',
          default: './dist/src/gadgets/index.js',
        },
        './specs/gadgets.json': './dist/generated/gadgets/openapi.json',
        './specs/gadget-files.json': './dist/generated/gadget-files/openapi.json',
      },
      typesVersions: {
        '*': {
          gadgets: ['./dist/src/gadgets/index.d.cts'],
          'specs/gadgets.json': ['./dist/generated/gadgets/openapi.json'],
          'specs/gadget-files.json': ['./dist/generated/gadget-files/openapi.json'],
        },
      },
    });
    expect(manifest.exports).toEqual({ '.': './index.js' });
  });
});

describe('touchKind: what the drill may touch, and how', () => {
  it.each([
    { given: 'specs/widgets/openapi.yaml', want: 'placed' },
    { given: 'src/widgets/definition.ts', want: 'placed' },
    { given: 'src/interfaces.ts', want: 'edited' },
    { given: 'package.json', want: 'edited' },
    { given: 'generated/widgets/operations.ts', want: 'generated' },
    { given: 'generated/manifest.json', want: 'generated' },
    { given: 'docs/coverage.md', want: 'generated' },
    { given: 'CHANGELOG.md', want: 'generated' },
    { given: 'src/index.ts', want: null },
    { given: 'README.md', want: null },
    { given: 'src/sandbox/modules.ts', want: null },
    { given: 'specs/widgetsextra/openapi.yaml', want: null },
    { given: 'test/sandbox/contract.test.ts', want: null },
  ])('$given → $want', ({ given, want }) => {
    expect(touchKind(given)).toBe(want);
  });
});

describe('definitionTests: the test files that iterate the definitions', () => {
  const root = mkdtempSync(join(tmpdir(), 'contrato-drill-tests-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const files: Record<string, string> = {
    'test/a.test.ts': "import { definitions } from '../src/interfaces.js';\n",
    'test/docs/b.test.ts': "import { definitions } from '../helpers/interfaces.js';\n",
    'test/c.test.ts': "import { describedDefinitions } from './helpers/interfaces.js';\n",
    'test/sandbox/d.test.ts': "import { interfaces } from '../../src/interfaces.js';\n",
    'test/e.test.ts': "import { parseEvent } from '../src/events/index.js';\n",
    'test/helpers/f.ts': "import { definitions } from '../../src/interfaces.js';\n",
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }

  it('picks the test files importing src/interfaces.ts or test/helpers/interfaces.ts, and no helper', () => {
    expect(definitionTests(root)).toEqual(['test/a.test.ts', 'test/c.test.ts', 'test/docs/b.test.ts', 'test/sandbox/d.test.ts']);
  });

  it('picks, in this repository, the tests of the sandbox, the samples, coverage and the package', () => {
    expect(definitionTests(projectRoot)).toEqual(
      expect.arrayContaining([
        'test/sandbox/contract.test.ts',
        'test/docs/samples.test.ts',
        'test/scripts/steps/samples.test.ts',
        'test/governance/coverage.test.ts',
        'test/package/exports.test.ts',
        'test/architecture.test.ts',
      ]),
    );
  });
});

/**
 * package.json exports what the interface definitions say: a subpath per interface with its types (ES module,
 * and for require() a CommonJS entry with its .d.cts), and the bundled spec of every document. Adding an
 * interface without its export fails here. Each interface's module exports its client factory; the root
 * entry names no interface, so nothing there is listed a second time.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { clientFactoryOf } from '../../src/runtime/definition.js';
import { clientModuleOf } from '../helpers/definition-clients.js';
import { definitions } from '../helpers/interfaces.js';

const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
  main: string;
  types: string;
  typesVersions: Record<string, Record<string, string[]>>;
};
const exportsField = manifest.exports;
/** A module subpath's entry: require() first (Node and TypeScript take the first condition that matches). */
const moduleEntry = (base: string) => ({
  require: { types: `${base}.d.cts`, default: `${base}.cjs` },
  types: `${base}.d.ts`,
  default: `${base}.js`,
});

/** The module subpaths that name no interface: the root, the events, the formats, PostgreSQL stores, the sandbox library. */
const sharedSubpaths = ['.', './events', './formats', './postgres', './sandbox'];

describe('package.json exports', () => {
  it.each(definitions.map((definition) => definition.name))('contrato/%s points at the interface module and its types', (name) => {
    expect(exportsField[`./${name}`]).toEqual(moduleEntry(`./dist/src/${name}/index`));
    expect(Object.keys(exportsField[`./${name}`] as object)[0]).toBe('require');
  });

  it.each(sharedSubpaths)('%s has the same two faces', (subpath) => {
    expect(exportsField[subpath]).toEqual(moduleEntry(subpath === '.' ? './dist/src/index' : `./dist/src/${subpath.slice(2)}/index`));
  });

  it('gives resolvers that ignore exports (TypeScript node10) the CommonJS face of every subpath', () => {
    expect(manifest.main).toBe('./dist/src/index.cjs');
    expect(manifest.types).toBe('./dist/src/index.d.cts');
    const expected = Object.fromEntries(
      Object.entries(exportsField)
        .filter(([subpath]) => subpath !== '.' && subpath !== './package.json')
        .map(([subpath, target]) => [
          subpath.slice(2),
          [typeof target === 'string' ? target : (target as ReturnType<typeof moduleEntry>).require.types],
        ]),
    );
    expect(manifest.typesVersions).toEqual({ '*': expected });
  });

  it.each(definitions.flatMap((definition) => definition.documents.map((document) => document.name)))(
    'contrato/specs/%s.json is the bundled document',
    (name) => {
      expect(exportsField[`./specs/${name}.json`]).toBe(`./dist/generated/${name}/openapi.json`);
    },
  );

  it('exports nothing an interface definition does not account for, besides the shared subpaths and package.json', () => {
    const expected = new Set([
      ...sharedSubpaths,
      './package.json',
      ...definitions.map((definition) => `./${definition.name}`),
      ...definitions.flatMap((definition) => definition.documents.map((document) => `./specs/${document.name}.json`)),
    ]);
    expect(Object.keys(exportsField).filter((key) => !expected.has(key))).toEqual([]);
  });

  it.each(definitions.map((definition) => [definition.name, definition] as const))(
    'contrato/%s exports its client factory, and the root entry does not',
    async (_name, definition) => {
      const root = (await import(join(projectRoot, 'src/index.ts'))) as Record<string, unknown>;
      expect(typeof (await clientModuleOf(definition))[clientFactoryOf(definition)]).toBe('function');
      expect(clientFactoryOf(definition) in root).toBe(false);
    },
  );

  it('names no interface in the root entry: its list comes from the definitions', async () => {
    const root = (await import(join(projectRoot, 'src/index.ts'))) as { interfaces: { interfaceName: string }[] };
    expect([...new Set(root.interfaces.map((info) => info.interfaceName))]).toEqual(definitions.map((definition) => definition.name));
    const source = readFileSync(join(projectRoot, 'src/index.ts'), 'utf8');
    expect(definitions.filter((definition) => source.includes(`./${definition.name}/`)).map((definition) => definition.name)).toEqual([]);
  });
});

/**
 * package.json exports what the interface definitions say: a subpath per interface with its types, and
 * the bundled spec of every document. Adding an interface without its export fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { definitions } from '../helpers/interfaces.js';

const exportsField = (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports;

describe('package.json exports', () => {
  it.each(definitions.map((definition) => definition.name))('contrato/%s points at the interface module and its types', (name) => {
    expect(exportsField[`./${name}`]).toEqual({ types: `./dist/src/${name}/index.d.ts`, default: `./dist/src/${name}/index.js` });
  });

  it.each(definitions.flatMap((definition) => definition.documents.map((document) => document.name)))(
    'contrato/specs/%s.json is the bundled document',
    (name) => {
      expect(exportsField[`./specs/${name}.json`]).toBe(`./dist/generated/${name}/openapi.json`);
    },
  );

  it('exports nothing an interface definition does not account for, besides the root, events, formats and package.json', () => {
    const expected = new Set([
      '.',
      './events',
      './formats',
      './package.json',
      ...definitions.map((definition) => `./${definition.name}`),
      ...definitions.flatMap((definition) => definition.documents.map((document) => `./specs/${document.name}.json`)),
    ]);
    expect(Object.keys(exportsField).filter((key) => !expected.has(key))).toEqual([]);
  });
});

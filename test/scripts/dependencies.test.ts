/**
 * Which spec files each document reads, as regenerate records them in the manifest (`dependencies`): read
 * from the `$ref`s of the files, never fewer than Redocly's bundler itself reads, so that a change of any
 * file a bundle is made of regenerates that document.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { bundle, loadConfig } from '@redocly/openapi-core';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot, referencedFiles, specDependencies } from '../../scripts/lib.js';
import { interfaces } from '../../src/interfaces.js';

describe('referencedFiles', () => {
  it.each([
    { given: "$ref: '../../_shared/responses/NotFound.yaml'", want: ['../../_shared/responses/NotFound.yaml'] },
    { given: '$ref: "../schemas/Problema.yaml#/properties/title"', want: ['../schemas/Problema.yaml'] },
    { given: '$ref: paths/cob_{txid}.yaml', want: ['paths/cob_{txid}.yaml'] },
    { given: '"$ref": "InvoiceEventData.schema.json"', want: ['InvoiceEventData.schema.json'] },
    { given: 'schema: {$ref: Chave.yaml}', want: ['Chave.yaml', 'Chave.yaml}'] },
    { given: '$ref: paths/cob_%7Btxid%7D.yaml', want: ['paths/cob_{txid}.yaml'] },
    { given: '$ref: "#/components/schemas/Problema"', want: [] },
    { given: "$ref: 'https://example.com/schema.json'", want: [] },
    { given: 'description: a $ref: ./Mentioned.yaml in prose', want: ['./Mentioned.yaml'] },
  ])('$given -> $want', ({ given, want }) => {
    expect(referencedFiles(given)).toEqual([...want].sort());
  });
});

describe('specDependencies', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'contrato-dependencies-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const write = (file: string, text: string): void => {
    mkdirSync(dirname(join(scratch, file)), { recursive: true });
    writeFileSync(join(scratch, file), text);
  };

  it('follows $refs across folders, keeps a missing file and stops at cycles', () => {
    write('a/openapi.yaml', "paths:\n  /x:\n    $ref: 'paths/x.yaml'\n");
    write(
      'a/paths/x.yaml',
      'get:\n  responses:\n    "404":\n      $ref: ../../_shared/NotFound.yaml\n    "500":\n      $ref: ../Gone.yaml\n',
    );
    write('_shared/NotFound.yaml', "content:\n  application/json:\n    schema:\n      $ref: 'Problem.yaml'\n");
    write('_shared/Problem.yaml', 'properties:\n  cause:\n    $ref: NotFound.yaml\n');
    expect(specDependencies(scratch, 'a/openapi.yaml')).toEqual([
      'specs/_shared/NotFound.yaml',
      'specs/_shared/Problem.yaml',
      'specs/a/Gone.yaml',
      'specs/a/openapi.yaml',
      'specs/a/paths/x.yaml',
    ]);
  });

  it.each(interfaces.map((info) => info.name))(
    '%s: every file Redocly bundles from, and none else',
    async (name) => {
      const config = await loadConfig({ configPath: join(projectRoot, 'redocly.yaml') });
      const result = await bundle({ ref: join(projectRoot, 'specs', name, 'openapi.yaml'), config, componentNamesStrategy: 'title' });
      const redocly = [...result.fileDependencies].map((file) => relative(projectRoot, file).split('\\').join('/')).sort();
      expect(specDependencies(join(projectRoot, 'specs'), `${name}/openapi.yaml`)).toEqual(redocly);
    },
    30_000,
  );

  it('tells the interfaces apart: a file of one interface is no dependency of another, a shared one is', () => {
    const of = (name: string): string[] => specDependencies(join(projectRoot, 'specs'), `${name}/openapi.yaml`);
    expect(of('accounts').some((file) => file.startsWith('specs/core-banking/'))).toBe(false);
    expect(of('core-banking').some((file) => file.startsWith('specs/accounts/'))).toBe(false);
    const shared = of('core-banking').filter((file) => file.startsWith('specs/_shared/'));
    expect(shared.length).toBeGreaterThan(0);
    expect(shared.some((file) => of('accounts').includes(file))).toBe(true);
  });
});

/**
 * The bundle step (scripts/steps/bundle.ts): Redocly lint with the project's rules, then one JSON
 * document whose cross-file $refs point into its components. Each case writes a few YAML files to a
 * scratch folder and says what the step makes of them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { projectRoot } from '../../../scripts/lib.js';
import type { JsonObject } from '../../../scripts/openapi-model.js';
import { bundleSpec, lintSpec } from '../../../scripts/steps/bundle.js';
import { scratchDir } from './fragments.js';

const scratch = scratchDir('bundle-step');
afterAll(() => scratch.remove());

let specCount = 0;
/** Writes the files of a case into a folder of its own; returns the root's path as the steps take it (project-relative). */
function writeSpec(files: Record<string, JsonObject>): string {
  const dir = join(scratch.dir, `spec-${++specCount}`);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), stringify(content));
  }
  return relative(projectRoot, join(dir, 'openapi.yaml'));
}

/** A root document that lints clean: one GET with a 200 and a 404, whatever is given merged over it. */
function root(operation: JsonObject = {}, extra: JsonObject = {}): JsonObject {
  return {
    openapi: '3.1.0',
    info: { title: 'Pets', version: '1.0.0' },
    servers: [{ url: 'https://pets.invalid' }],
    security: [],
    paths: {
      '/pets/{petId}': {
        get: {
          operationId: 'pets.get',
          summary: 'One pet',
          parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': { description: 'The pet.', content: { 'application/json': { schema: { type: 'string' } } } },
            '404': { description: 'No such pet.' },
          },
          ...operation,
        },
      },
    },
    ...extra,
  };
}

const okWithSchema = (schema: JsonObject): JsonObject => ({
  responses: { '200': { description: 'The pet.', content: { 'application/json': { schema } } }, '404': { description: 'No such pet.' } },
});

interface BundleCase {
  readonly given: string;
  readonly files: Record<string, JsonObject>;
  /** Pointer -> value expected in the bundle. */
  readonly want: Record<string, unknown>;
  /** Keys that must be gone from components.schemas.<name>. */
  readonly absent?: Record<string, readonly string[]>;
}

const bundleCases: BundleCase[] = [
  {
    given: 'a response schema in another file',
    files: {
      'openapi.yaml': root(okWithSchema({ $ref: './schemas/Pet.yaml' })),
      'schemas/Pet.yaml': { title: 'Pet', type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
    },
    want: {
      '/paths/~1pets~1{petId}/get/responses/200/content/application~1json/schema': { $ref: '#/components/schemas/Pet' },
      '/components/schemas/Pet': { title: 'Pet', type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
    },
  },
  {
    given: 'a schema file that refers to a sibling file',
    files: {
      'openapi.yaml': root(okWithSchema({ $ref: './schemas/Pet.yaml' })),
      'schemas/Pet.yaml': { title: 'Pet', type: 'object', properties: { owner: { $ref: './Owner.yaml' } } },
      'schemas/Owner.yaml': { title: 'Owner', type: 'object', properties: { email: { type: 'string' } } },
    },
    want: {
      '/components/schemas/Pet/properties/owner': { $ref: '#/components/schemas/Owner' },
      '/components/schemas/Owner/properties/email': { type: 'string' },
    },
  },
  {
    given: 'a standalone schema file with $id, $schema and local $defs (a message of interface C)',
    files: {
      'openapi.yaml': root(okWithSchema({ $ref: './schemas/Tagged.schema.json' })),
      'schemas/Tagged.schema.json': {
        $id: 'https://pets.invalid/Tagged.schema.json',
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        title: 'Tagged',
        type: 'object',
        properties: { tag: { $ref: '#/$defs/Tag' } },
        $defs: { Tag: { title: 'Tag', type: 'string', maxLength: 8 } },
      },
    },
    want: {
      '/components/schemas/Tagged/properties/tag': { $ref: '#/components/schemas/Tag' },
      '/components/schemas/Tag': { title: 'Tag', type: 'string', maxLength: 8 },
    },
    absent: { Tagged: ['$id', '$schema', '$defs'] },
  },
  {
    given: 'a parameter and a response in files of their own',
    files: {
      'openapi.yaml': root({
        parameters: [{ $ref: './parameters/PetId.yaml' }],
        responses: { '200': { description: 'The pet.' }, '404': { $ref: './responses/NotFound.yaml' } },
      }),
      'parameters/PetId.yaml': { name: 'petId', in: 'path', required: true, schema: { type: 'string', maxLength: 36 } },
      'responses/NotFound.yaml': { description: 'No such pet.' },
    },
    want: {
      '/paths/~1pets~1{petId}/get/parameters/0': { $ref: '#/components/parameters/PetId' },
      '/paths/~1pets~1{petId}/get/responses/404': { $ref: '#/components/responses/NotFound' },
      '/components/parameters/PetId/schema': { type: 'string', maxLength: 36 },
      '/components/responses/NotFound': { description: 'No such pet.' },
    },
  },
];

function at(document: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((current, key) => (current as Record<string, unknown> | undefined)?.[key], document);
}

describe('bundleSpec', () => {
  it.each(bundleCases)('$given', async ({ files, want, absent }) => {
    const bundled = await bundleSpec(writeSpec(files));
    for (const [pointer, value] of Object.entries(want)) expect(at(bundled, pointer), pointer).toEqual(value);
    for (const [schema, keys] of Object.entries(absent ?? {})) {
      expect(at(bundled, `/components/schemas/${schema}`), schema).toBeDefined();
      for (const key of keys) expect(at(bundled, `/components/schemas/${schema}/${key}`), `${schema}.${key}`).toBeUndefined();
    }
    // Nothing of the files' layout survives: every $ref of the bundle is local.
    expect(JSON.stringify(bundled)).not.toMatch(/"\$ref":"\.{0,2}\//);
  });

  it('fails on a $ref to a file that does not exist, naming the root and the missing file', async () => {
    const spec = writeSpec({ 'openapi.yaml': root(okWithSchema({ $ref: './schemas/Missing.yaml' })) });
    const failure = bundleSpec(spec);
    await expect(failure).rejects.toThrow(`bundling ${spec} failed`);
    await expect(failure).rejects.toThrow(/Missing\.yaml/);
  });
});

interface LintCase {
  readonly given: string;
  readonly files: Record<string, JsonObject>;
  /** What the error message must say besides the root; null when the spec lints clean. */
  readonly want: readonly RegExp[] | null;
}

const lintCases: LintCase[] = [
  { given: 'a spec with nothing wrong', files: { 'openapi.yaml': root() }, want: null },
  {
    given: 'an operation without operationId',
    files: { 'openapi.yaml': root({ operationId: undefined as never }) },
    want: [/found 1 problem\(s\)/, /error operation-operationId: Operation object should contain `operationId`/],
  },
  {
    given: 'a $ref to a file that does not exist',
    files: { 'openapi.yaml': root(okWithSchema({ $ref: './schemas/Missing.yaml' })) },
    want: [/error no-unresolved-refs: Can't resolve \$ref/, /Missing\.yaml/],
  },
  {
    given: 'an operation without a 4XX response (a warning fails too)',
    files: { 'openapi.yaml': root({ responses: { '200': { description: 'The pet.' } } }) },
    want: [/warn operation-4xx-response/, /\/paths\/~1pets~1\{petId\}\/get\/responses/],
  },
  {
    given: 'a path parameter the path does not declare',
    files: {
      'openapi.yaml': root({ parameters: [{ name: 'ownerId', in: 'path', required: true, schema: { type: 'string' } }] }),
    },
    want: [/error path-parameters-defined/, /petId/],
  },
];

describe('lintSpec', () => {
  it.each(lintCases)('$given', async ({ files, want }) => {
    const spec = writeSpec(files);
    if (want === null) {
      await expect(lintSpec(spec)).resolves.toBeUndefined();
      return;
    }
    const failure = lintSpec(spec);
    await expect(failure).rejects.toThrow(`redocly lint found`);
    await expect(failure).rejects.toThrow(` in ${spec}:`);
    for (const pattern of want) await expect(failure).rejects.toThrow(pattern);
    // Each problem's location is the file and one JSON Pointer fragment (`openapi.yaml#/paths/…`).
    const message = await failure.then(
      () => '',
      (error: Error) => error.message,
    );
    expect(message).toMatch(/\.yaml#\//);
    expect(message).not.toContain('##');
  });
});

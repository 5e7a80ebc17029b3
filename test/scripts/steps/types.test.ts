/**
 * The types step (scripts/steps/types.ts): openapi-typescript over the bundle, with `x-known-values`
 * turned into open unions. Each case gives a fragment and the TypeScript it must emit (whitespace
 * collapsed), and what it must not.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../scripts/openapi-model.js';
import { emitTypes } from '../../../scripts/steps/types.js';
import { documentOf, fragmentSource, squeezed } from './fragments.js';

interface TypesCase {
  readonly given: string;
  readonly spec: JsonObject;
  readonly want: readonly string[];
  readonly wantNot?: readonly string[];
}

const schemas = (members: JsonObject): JsonObject => documentOf({ components: { schemas: members } });

const cases: TypesCase[] = [
  {
    given: 'an object with required and optional members',
    spec: schemas({
      Pet: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, age: { type: 'integer' } } },
    }),
    want: ['Pet: { name: string; age?: number; };'],
  },
  {
    given: 'an object whose members are not shown (type: object, no properties) takes any member',
    spec: schemas({ Debtor: { type: 'object', description: 'Inner shape not shown.' } }),
    want: ['Debtor: Record<string, unknown>;'],
    wantNot: ['Debtor: Record<string, never>'],
  },
  {
    given: 'a closed enum',
    spec: schemas({ Kind: { type: 'string', enum: ['cat', 'dog'] } }),
    want: ['/** @enum {string} */ Kind: "cat" | "dog";'],
    wantNot: ['(string & {})'],
  },
  {
    given: 'a nullable member (type: [string, null])',
    spec: schemas({ Pet: { type: 'object', required: ['owner'], properties: { owner: { type: ['string', 'null'] } } } }),
    want: ['Pet: { owner: string | null; };'],
  },
  {
    given: 'response-only values (x-known-values) become an open union',
    spec: schemas({ Status: { type: 'string', 'x-known-values': ['ACTIVE', 'BLOCKED'] } }),
    want: ['Status: "ACTIVE" | "BLOCKED" | (string & {});'],
  },
  {
    given: 'nullable known values stay nullable',
    spec: schemas({ Status: { type: ['string', 'null'], 'x-known-values': ['ACTIVE'] } }),
    want: ['Status: ("ACTIVE" | (string & {})) | null;'],
  },
  {
    given: 'a $ref between components and a format annotation',
    spec: schemas({
      Owner: { type: 'object', properties: { document: { type: 'string', format: 'cpf', description: 'CPF of the owner.' } } },
      Pet: { type: 'object', required: ['owner'], properties: { owner: { $ref: '#/components/schemas/Owner' } } },
    }),
    want: ['/** * Format: cpf * @description CPF of the owner. */ document?: string;', 'owner: components["schemas"]["Owner"];'],
  },
  {
    given: 'a path with a required path parameter, an optional query parameter and a header',
    spec: documentOf({
      paths: {
        '/pets/{petId}': {
          get: {
            operationId: 'pets.get',
            summary: 'One pet',
            parameters: [
              { name: 'petId', in: 'path', required: true, schema: { type: 'string' } },
              { name: 'verbose', in: 'query', schema: { type: 'boolean' } },
              { name: 'X-Request-Id', in: 'header', required: true, schema: { type: 'string' } },
            ],
            responses: { '200': { description: 'The pet.', content: { 'application/json': { schema: { type: 'string' } } } } },
          },
        },
      },
    }),
    want: [
      '"/pets/{petId}": {',
      '/** One pet */ get: operations["pets.get"];',
      'post?: never;',
      '"pets.get": { parameters: { query?: { verbose?: boolean; }; header: { "X-Request-Id": string; }; path: { petId: string; }; cookie?: never; };',
      '200: { headers: { [name: string]: unknown; }; content: { "application/json": string; }; };',
    ],
  },
  {
    given: 'a required JSON request body',
    spec: documentOf({
      paths: {
        '/pets': {
          post: {
            operationId: 'pets.create',
            requestBody: {
              required: true,
              content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string' } } } } },
            },
            responses: { '201': { description: 'Created.' } },
          },
        },
      },
    }),
    want: [
      'requestBody: { content: { "application/json": { name?: string; }; }; };',
      '201: { headers: { [name: string]: unknown; }; content?: never; };',
    ],
    wantNot: ['requestBody?:'],
  },
];

describe('emitTypes', () => {
  it.each(cases)('$given', async ({ spec, want, wantNot }) => {
    const emitted = squeezed(await emitTypes(spec, fragmentSource));
    for (const fragment of want) expect(emitted).toContain(fragment);
    for (const fragment of wantNot ?? []) expect(emitted).not.toContain(fragment);
  });

  it('starts with the banner naming the types step and the spec', async () => {
    const emitted = await emitTypes(schemas({ Kind: { type: 'string' } }), fragmentSource);
    expect(
      emitted.startsWith('/* generated by npm run regenerate (step: types, from specs/fragment/openapi.yaml); do not edit by hand */\n\n'),
    ).toBe(true);
  });

  it('leaves the document it is given unchanged', async () => {
    const spec = schemas({ Status: { type: 'string', 'x-known-values': ['ACTIVE'] } });
    const before = structuredClone(spec);
    await emitTypes(spec, fragmentSource);
    expect(spec).toEqual(before);
  });
});

/**
 * The strict response validator of `contrato validate --strict`: closed known values and closed objects,
 * without refusing what a composition (allOf, oneOf, $ref) or an open map declares; and every example
 * answer of every spec passes it, so the examples are answers a provider may really send.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { responseSchema, strictValidator } from '../../src/checks/strict-response.js';
import { interfaces } from '../../src/interfaces.js';
import { check } from '../../src/runtime/validation.js';

type Json = Record<string, any>;

const bundle: Json = {
  components: {
    schemas: {
      Base: { type: 'object', properties: { id: { type: 'string' } } },
      Charge: {
        allOf: [
          { $ref: '#/components/schemas/Base' },
          { type: 'object', properties: { status: { type: 'string', 'x-known-values': ['ATIVA'] } } },
        ],
      },
      Labels: { type: 'object', additionalProperties: { type: 'string' } },
      Reason: { type: ['string', 'null'], 'x-known-values': ['LATE'] },
      Either: {
        oneOf: [
          { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] },
          { type: 'object', properties: { b: { type: 'integer' } }, required: ['b'] },
        ],
      },
    },
  },
};
const validator = (name: string) => strictValidator(bundle, { $ref: `#/components/schemas/${name}` });
const issuesOf = (name: string, value: unknown) => check(validator(name), value).map((issue) => `${issue.pointer}: ${issue.message}`);

describe('strict response validator', () => {
  it.each([
    { given: 'members of both parts of an allOf', schema: 'Charge', value: { id: 'c1', status: 'ATIVA' }, want: [] },
    {
      given: 'a member neither part lists',
      schema: 'Charge',
      value: { id: 'c1', extra: true },
      want: ['/extra: is not a field the spec lists here: remove it, or check its spelling (unevaluatedProperties; got true)'],
    },
    {
      given: 'a value outside the known values',
      schema: 'Charge',
      value: { status: 'PAGA' },
      want: ['/status: must be one of "ATIVA" (enum; got "PAGA")'],
    },
    { given: 'an open map keeps any member', schema: 'Labels', value: { anything: 'x' }, want: [] },
    { given: 'null beside the known values of a nullable member', schema: 'Reason', value: null, want: [] },
    { given: 'a known value of a nullable member', schema: 'Reason', value: 'LATE', want: [] },
    { given: 'the members of the matching oneOf branch', schema: 'Either', value: { b: 1 }, want: [] },
  ])('$given', ({ schema, value, want }) => {
    expect(issuesOf(schema, value)).toEqual(want);
  });

  it('finds a response body schema through a component response, and none for a status without a body', () => {
    const withResponses: Json = {
      ...bundle,
      paths: { '/x': { get: { responses: { '200': { $ref: '#/components/responses/Ok' }, '204': { description: 'empty' } } } } },
      components: {
        ...bundle.components,
        responses: { Ok: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Base' } } } } },
      },
    };
    expect(responseSchema(withResponses, 'get', '/x', '200')).toEqual({ $ref: '#/components/schemas/Base' });
    expect(responseSchema(withResponses, 'get', '/x', '204')).toBeNull();
  });
});

describe('every example answer of the specs is one a strict provider check accepts', () => {
  const cases = interfaces.flatMap((document) => {
    const spec = JSON.parse(readFileSync(join(projectRoot, 'generated', document.name, 'openapi.json'), 'utf8')) as Json;
    const resolve = (node: Json, kind: string): Json =>
      typeof node.$ref === 'string' ? spec.components[kind][String(node.$ref.split('/').pop())] : node;
    return Object.entries(spec.paths as Json).flatMap(([path, item]) =>
      Object.entries(item as Json).flatMap(([method, operation]) =>
        Object.entries((operation as Json).responses ?? {}).flatMap(([status, reference]) => {
          const response = resolve(reference as Json, 'responses');
          const media = Object.entries(response.content ?? {}).find(([type]) => /json/.test(type))?.[1] as Json | undefined;
          return Object.entries(media?.examples ?? {}).map(([example, value]) => ({
            name: `${document.name} ${method.toUpperCase()} ${path} ${status} ${example}`,
            spec,
            method,
            path,
            status,
            value: resolve(value as Json, 'examples').value,
          }));
        }),
      ),
    );
  });

  it('covers the examples of every interface', () => {
    expect(new Set(cases.map((entry) => entry.name.split(' ')[0])).size).toBe(interfaces.length);
    expect(cases.length).toBeGreaterThan(1000);
  });

  it.each(cases)('$name', ({ spec, method, path, status, value }) => {
    const schema = responseSchema(spec, method, path, status);
    expect(check(strictValidator(spec, schema), value)).toEqual([]);
  });
});

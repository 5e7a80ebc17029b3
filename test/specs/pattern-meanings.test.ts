/**
 * One pattern, one meaning: a value a parameter's pattern refuses is described by that parameter's own
 * x-pattern-description, as `contrato validate <interface> <METHOD> <path> request` reports it (error
 * messages find the words by the pattern alone, so a second meaning of a pattern would speak of another
 * field). The cases are every pattern parameter of every document; the documents an interface validates as
 * one agree on each pattern's words.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isObject, type JsonObject, operationsOf, resolveLocal } from '../../scripts/openapi-model.js';
import { bundledSpecPath, loadInterface } from '../../src/checks/registry.js';
import { findOperation } from '../../src/checks/router.js';
import { validateDocument } from '../../src/checks/validate.js';
import { definitions } from '../../src/interfaces.js';

/** Values tried in turn as the refused one: the first the pattern does not match. */
const refusedCandidates = ['abc', '!', '0'.repeat(200)];

interface ParameterCase {
  readonly interfaceName: string;
  readonly label: string;
  readonly method: string;
  readonly target: string;
  readonly query: Record<string, unknown>;
  readonly header: Record<string, unknown>;
  readonly operationId: string;
  readonly pointer: string;
  readonly meaning: string;
}

/** Every parameter with a pattern of every document: the request that sends a value it refuses, the rest from examples. */
const parameterCases: ParameterCase[] = definitions.flatMap((definition) =>
  definition.documents.flatMap((doc) => {
    const document = JSON.parse(readFileSync(bundledSpecPath(doc.name), 'utf8')) as JsonObject;
    return operationsOf(document).flatMap((model) =>
      model.parameters.flatMap((parameter): ParameterCase[] => {
        const schema = resolveLocal(document, parameter.schema);
        if (!isObject(schema) || typeof schema.pattern !== 'string' || parameter.in === 'cookie') return [];
        const pattern = new RegExp(schema.pattern, 'u');
        const refused = refusedCandidates.find((value) => !pattern.test(value));
        if (refused === undefined) return [];
        const pathValue = (name: string): string =>
          name === parameter.name ? refused : String(model.parameters.find((other) => other.in === 'path' && other.name === name)?.example);
        const target = model.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(pathValue(name)));
        const given =
          parameter.in === 'path' ? {} : { [parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name]: refused };
        return [
          {
            interfaceName: definition.name,
            label: `${doc.name} ${model.operationId} ${parameter.in} ${parameter.name} = ${JSON.stringify(refused.slice(0, 12))}`,
            method: model.method.toUpperCase(),
            target,
            query: parameter.in === 'query' ? given : {},
            header: parameter.in === 'header' ? given : {},
            operationId: model.operationId,
            pointer: `/${parameter.in}/${parameter.name}`,
            meaning: String(schema['x-pattern-description']),
          },
        ];
      }),
    );
  }),
);

const modulesOf = new Map(
  await Promise.all(definitions.map(async (definition) => [definition.name, await loadInterface(definition.name)] as const)),
);

/** The messages `contrato validate` gives the request, `<pointer>: <message>`. */
function refusal(interfaceName: string, method: string, target: string, parts = { query: {}, header: {} }): string[] {
  const modules = modulesOf.get(interfaceName)!;
  const operation = findOperation(modules, method, target);
  expect(operation, `${method} ${target}`).not.toBeNull();
  return validateDocument(modules, { kind: 'request' }, undefined, operation!, () => new Date(), parts).map(
    (issue) => `${issue.pointer}: ${issue.message}`,
  );
}

describe('a value a pattern refuses, as contrato validate reports it', () => {
  it.each([
    {
      given: 'GET /lotecobv/abc',
      interfaceName: 'pix',
      method: 'GET',
      target: '/lotecobv/abc',
      want: '/path/id: must be 1 to 19 digits (pattern; got "abc")',
    },
    {
      given: 'GET /loc/abc',
      interfaceName: 'pix',
      method: 'GET',
      target: '/loc/abc',
      want: '/path/id: must be 1 to 19 digits (pattern; got "abc")',
    },
  ])('$given: says what the pattern accepts, and names no other field', ({ interfaceName, method, target, want }) => {
    expect(refusal(interfaceName, method, target)).toEqual([want]);
  });

  it('derives its cases from every parameter with a pattern, lotecobv.get among them', () => {
    expect(parameterCases.length).toBeGreaterThan(20);
    expect(parameterCases.map((c) => c.operationId)).toContain('lotecobv.get');
  });

  it.each(parameterCases.map((c) => [c.label, c] as const))('%s: its own words', (_label, c) => {
    const modules = modulesOf.get(c.interfaceName)!;
    expect(findOperation(modules, c.method, c.target)?.info.operationId).toBe(c.operationId);
    const messages = refusal(c.interfaceName, c.method, c.target, { query: c.query, header: c.header });
    expect(messages).toContainEqual(expect.stringContaining(`${c.pointer}: must be ${c.meaning}`));
  });
});

describe('the documents an interface validates as one', () => {
  it.each(definitions.filter((definition) => definition.documents.length > 1).map((definition) => definition.name))(
    '%s: give each pattern one meaning',
    async (name) => {
      const definition = definitions.find((candidate) => candidate.name === name)!;
      const meanings = new Map<string, Set<string>>();
      for (const doc of definition.documents)
        for (const [pattern, meaning] of Object.entries((await doc.load()).patternDescriptions))
          meanings.set(pattern, (meanings.get(pattern) ?? new Set()).add(meaning));
      expect([...meanings].filter(([, said]) => said.size > 1).map(([pattern, said]) => `${pattern}: ${[...said].join(' | ')}`)).toEqual(
        [],
      );
    },
  );
});

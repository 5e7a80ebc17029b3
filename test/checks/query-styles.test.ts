/**
 * Query styles end to end: a fixture operation declares a list query parameter in each style the runtime sends
 * (and a deepObject), the real generator steps emit its operation table and validators, the client's send step
 * (`buildRequest`) writes a call's query, and the one checking path (`checkHttpRequest`, which `contrato
 * validate`, the sandbox and the mock front share) reads it back to the same arguments and accepts it. A list
 * written in another style than declared, or a value the schema refuses, is refused.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { emitOperations } from '../../scripts/steps/operations.js';
import { emitValidators } from '../../scripts/steps/validators.js';
import { checkHttpRequest } from '../../src/checks/http-check.js';
import type { InterfaceModules } from '../../src/checks/registry.js';
import type { OperationInfo } from '../../src/runtime/contract.js';
import { buildRequest } from '../../src/runtime/steps/send.js';
import { callOf } from '../runtime/steps/fixtures.js';
import { documentOf, fragmentSource, operationAt, relocatedValidators, scratchDir } from '../scripts/steps/fragments.js';

const letters = { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c', 'd e'] } };
const spec = documentOf({
  paths: operationAt('/widgets', {
    operationId: 'widgets.list',
    parameters: [
      { name: 'formExploded', in: 'query', schema: letters },
      { name: 'formJoined', in: 'query', explode: false, schema: letters },
      { name: 'spaced', in: 'query', style: 'spaceDelimited', schema: letters },
      { name: 'piped', in: 'query', style: 'pipeDelimited', explode: false, schema: letters },
      {
        name: 'filter',
        in: 'query',
        style: 'deepObject',
        explode: true,
        schema: { type: 'object', properties: { status: { type: 'string' }, owner: { type: 'string' } }, additionalProperties: false },
      },
    ],
  }),
});

const scratch = scratchDir('query-styles');
afterAll(() => scratch.remove());

const { operationTable } = await scratch.import<{ operationTable: Record<string, OperationInfo> }>(
  'operations.ts',
  emitOperations(spec, 'widgets', fragmentSource),
);
const { validators, patternDescriptions } = await scratch.import<Pick<InterfaceModules, 'validators' | 'patternDescriptions'>>(
  'validators.js',
  relocatedValidators(emitValidators(spec, 'widgets', fragmentSource).code),
);
const modules: InterfaceModules = { operationTable, validators, patternDescriptions, crossFieldChecks: {} };
const list = operationTable['widgets.list']!;
const baseUrl = 'https://api.invalid/v1';

/** The request target below the base URL that the client's send step writes for `query`. */
async function clientTarget(query: Record<string, unknown>): Promise<string> {
  const { url } = await buildRequest(baseUrl, callOf(list, { query }));
  return url.slice(baseUrl.length);
}

const verdictOf = (target: string) => checkHttpRequest(modules, { method: 'GET', target, headers: {}, body: undefined });

describe('a query the client writes in the declared style is read back the same by the checking path', () => {
  it.each([
    { given: 'form, exploded (the default)', query: { formExploded: ['a', 'd e'] }, want: '/widgets?formExploded=a&formExploded=d%20e' },
    { given: 'form, not exploded', query: { formJoined: ['a', 'b'] }, want: '/widgets?formJoined=a,b' },
    { given: 'spaceDelimited', query: { spaced: ['a', 'b'] }, want: '/widgets?spaced=a%20b' },
    { given: 'pipeDelimited', query: { piped: ['a', 'b', 'c'] }, want: '/widgets?piped=a|b|c' },
    { given: 'deepObject', query: { filter: { status: 'ATIVA', owner: 'Ana' } }, want: '/widgets?filter[status]=ATIVA&filter[owner]=Ana' },
    {
      given: 'every style at once',
      query: { formExploded: ['c'], formJoined: ['c', 'd e'], spaced: ['b'], piped: ['a', 'c'], filter: { status: 'x' } },
      want: '/widgets?formExploded=c&formJoined=c,d%20e&spaced=b&piped=a|c&filter[status]=x',
    },
  ])('$given: $want', async ({ query, want }) => {
    const target = await clientTarget(query);
    expect(target).toBe(want);
    const verdict = verdictOf(target);
    expect(verdict.operation?.info.operationId).toBe('widgets.list');
    expect(verdict.issues).toEqual([]);
    expect(verdict.args.query).toEqual(query);
  });
});

describe('the checking path refuses', () => {
  it.each([
    { given: 'an item the schema refuses, written by the client (pipeDelimited)', query: { piped: ['a', 'z'] }, pointer: '/query/piped/1' },
    {
      given: 'an item the schema refuses, written by the client (form, joined)',
      query: { formJoined: ['z'] },
      pointer: '/query/formJoined/0',
    },
    { given: 'a deepObject member the schema does not declare', query: { filter: { colour: 'red' } }, pointer: '/query/filter/colour' },
  ])('$given', async ({ query, pointer }) => {
    expect(verdictOf(await clientTarget(query)).issues.map((issue) => issue.pointer)).toEqual([pointer]);
  });

  it.each([
    { given: 'a pipeDelimited list sent joined by commas (form)', target: '/widgets?piped=a,b', pointer: '/query/piped/0' },
    { given: 'a form list, not exploded, sent joined by pipes', target: '/widgets?formJoined=a|b', pointer: '/query/formJoined/0' },
    { given: 'a spaceDelimited list sent joined by pipes', target: '/widgets?spaced=a|b', pointer: '/query/spaced/0' },
    { given: 'a deepObject sent as one form value', target: '/widgets?filter=status,ATIVA', pointer: '/query/filter' },
  ])('$given ($target)', ({ target, pointer }) => {
    expect(verdictOf(target).issues.map((issue) => issue.pointer)).toEqual([pointer]);
  });
});

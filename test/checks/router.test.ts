/**
 * The one router (src/checks/router.ts), which the sandbox, `contrato validate` and the mock front share:
 * every route of every document is reached by its own template and by a concrete path; ties between
 * templates and case-insensitive segments are settled as the given/want table says.
 */
import { describe, expect, it } from 'vitest';
import { loadInterface } from '../../src/checks/registry.js';
import { findOperation } from '../../src/checks/router.js';
import { interfaces } from '../../src/interfaces.js';

describe.each(interfaces.map((info) => info.name))('the router of %s', (name) => {
  it('reaches every operation by its template, and by a concrete path to an operation of the same method and shape', async () => {
    const modules = await loadInterface(name);
    let reached = 0;
    for (const info of Object.values(modules.operationTable)) {
      const byTemplate = findOperation(modules, info.method.toUpperCase(), info.path);
      expect(byTemplate?.info.operationId, `${info.method} ${info.path}`).toBe(info.operationId);
      const concrete = info.path.replace(/\{[^}]+\}/g, 'x1');
      const found = findOperation(modules, info.method, `${concrete}?a=1`);
      expect(found?.info.method).toBe(info.method);
      expect(found?.info.path.split('/').length).toBe(info.path.split('/').length);
      reached += 1;
    }
    expect(reached).toBe(Object.keys(modules.operationTable).length);
  });

  it('finds nothing for a path or method no route has', async () => {
    const modules = await loadInterface(name);
    expect(findOperation(modules, 'get', '/no/such/route/here/at/all')).toBeNull();
    expect(findOperation(modules, 'brew', '/')).toBeNull();
  });
});

const cases: { given: string; document: string; method: string; target: string; want: string | null; pathParameters?: object }[] = [
  {
    given: 'a txid beside a location token of the same shape: the valid txid wins',
    document: 'pix',
    method: 'GET',
    target: '/cobv/fc9a4366ff3d4964b5dbc6c91a8722d3',
    want: 'cobv.get',
    pathParameters: { txid: 'fc9a4366ff3d4964b5dbc6c91a8722d3' },
  },
  {
    given: 'a literal segment beats a parameter',
    document: 'accounts',
    method: 'POST',
    target: '/webhooks/TRANSFER',
    want: 'webhooks.registerTransfer',
  },
  {
    given: 'a webhook type in another case (section 4.5)',
    document: 'accounts',
    method: 'POST',
    target: '/webhooks/transfer',
    want: 'webhooks.registerTransfer',
  },
  { given: 'a parameter segment that is not a type', document: 'accounts', method: 'GET', target: '/webhooks/42', want: 'webhooks.get' },
  { given: 'an empty parameter segment', document: 'accounts', method: 'GET', target: '/webhooks/', want: null },
  { given: 'a segment that is not valid percent-encoding', document: 'accounts', method: 'GET', target: '/webhooks/%E0%A4%A', want: null },
  {
    given: 'a percent-encoded value, decoded',
    document: 'pix',
    method: 'GET',
    target: '/cob/abc%20def',
    want: 'cob.get',
    pathParameters: { txid: 'abc def' },
  },
];

describe('the router settles', () => {
  it.each(cases.map((c) => [c.given, c] as const))('%s', async (_given, c) => {
    const modules = await loadInterface(c.document);
    const found = findOperation(modules, c.method, c.target);
    expect(found?.info.operationId ?? null).toBe(c.want);
    if (c.pathParameters) expect(found?.pathParameters).toEqual(c.pathParameters);
  });
});

/**
 * The sandbox's router finds the same operation as `contrato validate` (cli/validate.ts matchOperation)
 * for a concrete path of every route of every document, with parameters that fit their formats and with
 * ones that do not; and nothing for a path no route has.
 */
import { describe, expect, it } from 'vitest';
import { loadInterface } from '../../src/checks/registry.js';
import { matchOperation } from '../../src/checks/validate.js';
import { interfaces } from '../../src/interfaces.js';
import { createRouter } from '../../src/sandbox/router.js';

const samples = ['fc9a4366ff3d4964b5dbc6c91a8722d3', '42', 'E9999902020250101120000abcdefghijk', 'CRYPTO', 'x'];

describe.each(interfaces.map((info) => info.name))('router of %s', (name) => {
  it('agrees with matchOperation on a concrete path of every route', async () => {
    const modules = await loadInterface(name);
    const route = createRouter(modules);
    let compared = 0;
    for (const info of Object.values(modules.operationTable)) {
      for (const sample of samples) {
        const path = info.path.replace(/\{[^}]+\}/g, sample);
        const expected = matchOperation(modules, info.method, path);
        // matchOperation takes a template as is; a concrete path without parameters is the template itself.
        expect(route(info.method, `${path}?a=1`)?.info.operationId, `${info.method} ${path}`).toBe(expected?.info.operationId);
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(0);
  });

  it('answers null for a path no route has', async () => {
    const route = createRouter(await loadInterface(name));
    expect(route('get', '/no/such/route/here/at/all')).toBeNull();
    expect(route('brew', '/')).toBeNull();
  });
});

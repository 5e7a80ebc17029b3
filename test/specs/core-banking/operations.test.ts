/**
 * Every operation of interface D in the inventory is accounted for: shown paths exactly (method, path,
 * operationId), unshown ones provisional under their operationId, release-note-only ones listed as
 * named, not specified.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../scripts/lib.js';
import { operationsOf, type JsonObject } from '../../../scripts/openapi-model.js';

interface InventoryOperation {
  id: string;
  interface: string;
  method: string | null;
  path: string | null;
  pathShown: boolean;
  existenceOnly?: boolean;
}

const spec = JSON.parse(readFileSync(join(projectRoot, 'generated/core-banking/openapi.json'), 'utf8')) as JsonObject;
const inventory = JSON.parse(readFileSync(join(projectRoot, 'specs/inventory.json'), 'utf8')) as { operations: InventoryOperation[] };
const ofD = inventory.operations.filter((o) => o.interface === 'D');
const modelled = new Map(operationsOf(spec).map((o) => [o.operationId, o]));
const namedOnly = new Set((spec['x-named-not-specified'] as JsonObject[]).map((entry) => entry.id as string));

describe('operations of interface D', () => {
  it.each(ofD.map((o) => [o.id, o] as const))('%s', (id, operation) => {
    const operationId = id.slice('D.'.length);
    if (operation.existenceOnly) {
      expect(namedOnly.has(id), `${id} should be listed in x-named-not-specified`).toBe(true);
      expect(modelled.has(operationId)).toBe(false);
      return;
    }
    const found = modelled.get(operationId);
    expect(found, `${operationId} is missing`).toBeDefined();
    if (operation.pathShown && operation.method && operation.path) {
      expect([found!.method.toUpperCase(), found!.path]).toEqual([operation.method, operation.path]);
      expect(found!.operation['x-provisional']).toBeUndefined();
    } else {
      expect(found!.operation['x-provisional']).toBe(true);
      expect(String(found!.operation['x-provisional-reason'] ?? '')).not.toBe('');
    }
  });

  it('models nothing the inventory does not name', () => {
    const known = new Set(ofD.map((o) => o.id.slice('D.'.length)));
    expect([...modelled.keys()].filter((id) => !known.has(id))).toEqual([]);
  });
});

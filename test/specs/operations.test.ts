/**
 * Every operation of the inventory is accounted for in the specs of its interface: shown paths exactly
 * (method, path, operationId), unshown ones provisional, release-note-only ones listed as named-not-specified
 * or described from the standard (`x-source`). Nothing else is modelled, except what the standard adds.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { operationsOf, type JsonObject, type OperationModel } from '../../scripts/openapi-model.js';
import { bundledSpecPath } from '../../src/checks/registry.js';
import { interfaces, type InterfaceName } from '../../src/interfaces.js';

interface InventoryOperation {
  id: string;
  interface: string;
  method: string | null;
  path: string | null;
  pathShown: boolean;
  existenceOnly?: boolean;
  requestFields?: { in?: string }[];
  responseShape?: unknown;
}

const inventory = JSON.parse(readFileSync(join(projectRoot, 'specs/inventory.json'), 'utf8')) as { operations: InventoryOperation[] };
// The interfaces the interface specification describes (its inventory names their letters); an interface of the
// toolkit it does not describe has nothing there to match.
const letters = [...new Set(interfaces.map((info) => info.letter))].filter((letter) =>
  inventory.operations.some((o) => o.interface === letter),
);

describe.each(letters)('operations of interface %s', (letter) => {
  const documents = interfaces
    .filter((info) => info.letter === letter && existsSync(bundledSpecPath(info.name as InterfaceName)))
    .map((info) => JSON.parse(readFileSync(bundledSpecPath(info.name as InterfaceName), 'utf8')) as JsonObject);
  const modelled = new Map<string, OperationModel>(
    documents.flatMap((document) => operationsOf(document).map((o) => [o.operationId, o] as const)),
  );
  const namedOnly = new Set(
    documents.flatMap((document) =>
      ((document['x-named-not-specified'] as JsonObject[] | undefined) ?? []).map((entry) => entry.id as string),
    ),
  );
  const ofInterface = inventory.operations.filter((o) => o.interface === letter);

  it.each(ofInterface.map((o) => [o.id, o] as const))('%s', (id, operation) => {
    const operationId = id.slice(2);
    const found = modelled.get(operationId);
    // Named with no shape at all (C.dictInfractionReports.create: 4.9 names it, 2.12 gives no payload) counts as named only.
    const shapeless = (operation.requestFields ?? []).every((field) => field.in === 'header') && !operation.responseShape;
    if (operation.existenceOnly || (shapeless && namedOnly.has(id))) {
      const described = found !== undefined && found.operation['x-source'] === 'api-pix-standard';
      expect(namedOnly.has(id) || described, `${id}: named-not-specified, or described from the standard`).toBe(true);
      return;
    }
    expect(found, `${operationId} is missing`).toBeDefined();
    if (operation.pathShown && operation.method && operation.path) {
      expect([found!.method.toUpperCase(), found!.path]).toEqual([operation.method, operation.path]);
      expect(found!.operation['x-provisional']).toBeUndefined();
    } else {
      expect(found!.operation['x-provisional']).toBe(true);
      expect(String(found!.operation['x-provisional-reason'] ?? '')).not.toBe('');
    }
  });

  it('models nothing the inventory does not name, except operations of the standard marked x-source', () => {
    const known = new Set(ofInterface.map((o) => o.id.slice(2)));
    const extra = [...modelled.values()].filter((o) => !known.has(o.operationId) && o.operation['x-source'] !== 'api-pix-standard');
    expect(extra.map((o) => o.operationId)).toEqual([]);
  });
});

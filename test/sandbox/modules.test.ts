/**
 * The sandbox covers the contract: every spec document has a module, each module serves a document of
 * src/interfaces.ts under a prefix of its own, and every operation of the document has a handler (none
 * answers 501).
 */
import { describe, expect, it } from 'vitest';
import { interfaces } from '../../src/interfaces.js';
import { sandboxModules } from '../../src/sandbox/modules.js';

describe('sandbox modules', () => {
  it('one module per spec document, each under its own prefix', () => {
    expect(sandboxModules.map((module) => module.document).sort()).toEqual(interfaces.map((info) => info.name).sort());
    const prefixes = sandboxModules.map((module) => module.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    for (const prefix of prefixes) expect(prefix).toMatch(/^\/[a-z-]+(\/[a-z0-9-]+)*$/);
  });

  it.each(sandboxModules.map((module) => [module.document, module] as const))(
    '%s has a handler for every operation',
    async (document, module) => {
      const { operationTable } = await interfaces.find((info) => info.name === document)!.load();
      const operations = Object.keys(operationTable);
      expect(operations.length).toBeGreaterThan(0);
      expect(operations.filter((operationId) => !(operationId in module.handlers))).toEqual([]);
      expect(Object.keys(module.handlers).filter((operationId) => !(operationId in operationTable))).toEqual([]);
    },
  );
});

/**
 * The sandbox serves every spec document of src/interfaces.ts: the hand-written module of a document when
 * there is one, the generic one otherwise, each under the prefix its definition gives; every operation of
 * the document has a handler (none answers 501).
 */
import { describe, expect, it } from 'vitest';
import { interfaces } from '../../src/interfaces.js';
import { handWrittenModules, modulesOf, sandboxModules } from '../../src/sandbox/modules.js';

describe('sandbox modules', () => {
  it('one module per spec document, in the order of src/interfaces.ts, each under the prefix of its definition', () => {
    expect(sandboxModules.map((module) => [module.document, module.prefix])).toEqual(
      interfaces.map((info) => [info.name, info.sandboxPrefix]),
    );
    const prefixes = sandboxModules.map((module) => module.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    for (const prefix of prefixes) expect(prefix).toMatch(/^\/[a-z-]+(\/[a-z0-9-]+)*$/);
  });

  it('has no hand-written module for a document no definition names', () => {
    const names = new Set(interfaces.map((info) => info.name));
    expect(handWrittenModules.map((module) => module.document).filter((document) => !names.has(document))).toEqual([]);
  });

  it.each([
    { given: 'a document with a hand-written module', document: interfaces[0]!, want: 'hand-written' },
    { given: 'a document without one', document: { name: 'gadgets', sandboxPrefix: '/gadgets/v1' }, want: 'generic' },
  ])('mounts $want for $given', ({ document, want }) => {
    const [module] = modulesOf([document]);
    expect([module!.document, module!.prefix]).toEqual([document.name, document.sandboxPrefix]);
    expect(handWrittenModules.includes(module!) ? 'hand-written' : 'generic').toBe(want);
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

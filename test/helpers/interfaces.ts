/** What the tests derive from the interface definitions (src/interfaces.ts) instead of listing interfaces. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../scripts/lib.js';
import { definitions } from '../../src/interfaces.js';

export { definitions, findDefinition } from '../../src/interfaces.js';

/** The environment variable the README's examples read an interface's address from: `core-banking` → `CORE_BANKING_URL`. */
export function addressVariableOf(name: string): string {
  return `${name.toUpperCase().replace(/-/g, '_')}_URL`;
}

/**
 * The definitions of the interfaces the interface specification describes (its inventory, specs/inventory.json,
 * names their letters): the hand-written docs (the README's table and examples) cover these; an interface of
 * the toolkit it does not describe is documented by what derives from its definition alone.
 */
export function describedDefinitions(): typeof definitions {
  const inventory = JSON.parse(readFileSync(join(projectRoot, 'specs/inventory.json'), 'utf8')) as { operations: { interface: string }[] };
  const letters = new Set(inventory.operations.map((operation) => operation.interface));
  return definitions.filter((definition) => letters.has(definition.letter));
}

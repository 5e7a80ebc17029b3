/** What the tests derive from the interface definitions (src/interfaces.ts) instead of listing interfaces. */
export { definitions, findDefinition } from '../../src/interfaces.js';

/** The environment variable the README's examples read an interface's address from: `core-banking` → `CORE_BANKING_URL`. */
export function addressVariableOf(name: string): string {
  return `${name.toUpperCase().replace(/-/g, '_')}_URL`;
}

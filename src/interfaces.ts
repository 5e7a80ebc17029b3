/**
 * The interfaces contrato describes, as their definitions (src/<interface>/definition.ts). Everything
 * that lists interfaces derives from this list: the generators, the CLI, the mocks, the docs site,
 * coverage and the package checks. Adding an interface: its specs, its folder with a definition, one
 * line here, and its subpath in package.json (test/package checks the exports against this list).
 */
import { accountsDefinition } from './accounts/definition.js';
import { coreBankingDefinition } from './core-banking/definition.js';
import { messagesDefinition } from './messages/definition.js';
import { pixDefinition } from './pix/definition.js';
import { type DocumentDefinition, type InterfaceDefinition, sandboxPrefixOf } from './runtime/definition.js';

export const definitions: readonly InterfaceDefinition<never>[] = [
  accountsDefinition as InterfaceDefinition<never>,
  pixDefinition as InterfaceDefinition<never>,
  messagesDefinition as InterfaceDefinition<never>,
  coreBankingDefinition as InterfaceDefinition<never>,
];

/** One spec document of an interface, with the names the generators, the CLI and the mocks use. */
export interface InterfaceInfo {
  /** Name used in specs/, generated/, the mocks and the CLI. */
  readonly name: string;
  /** Name used in TypeScript identifiers. */
  readonly identifier: string;
  readonly title: string;
  /** Letter of the interface in the interface specification. */
  readonly letter: string;
  /** Fixed loopback port of its Prism mock (`contrato mock`, `npm start`). */
  readonly mockPort: number;
  /** The interface the document belongs to (its package subpath and client). */
  readonly interfaceName: string;
  /** Its path at the sandbox (`contrato sandbox`), the base URL of its operations there. */
  readonly sandboxPrefix: string;
  readonly load: DocumentDefinition['load'];
}

/** Every spec document, in the order of the definitions. */
export const interfaces: readonly InterfaceInfo[] = definitions.flatMap((definition) =>
  definition.documents.map((document) => ({
    name: document.name,
    identifier: document.identifier,
    title: document.title,
    letter: definition.letter,
    mockPort: document.mockPort,
    interfaceName: definition.name,
    sandboxPrefix: sandboxPrefixOf(document),
    load: document.load,
  })),
);

export type InterfaceName = string;

/** Port of the documentation site served by `contrato docs` and `npm start`. */
export const docsPort = 4000;

export function findInterface(name: string): InterfaceInfo | undefined {
  return interfaces.find((info) => info.name === name);
}

export function findDefinition(name: string): InterfaceDefinition<never> | undefined {
  return definitions.find((definition) => definition.name === name);
}

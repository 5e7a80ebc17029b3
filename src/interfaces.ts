/**
 * The interfaces contrato describes. One registry, read by the generators, the CLI and the mock server,
 * so a new interface is added in exactly one place.
 */
export interface InterfaceInfo {
  /** Name used in folders, subpaths and the CLI. */
  readonly name: string;
  /** Name used in TypeScript identifiers. */
  readonly identifier: string;
  readonly title: string;
  /** Letter of the interface in the interface specification. */
  readonly letter: 'A' | 'B' | 'C' | 'D';
  /** Fixed loopback port of its Prism mock (`contrato mock`, `npm start`). */
  readonly mockPort: number;
}

export const interfaces = [
  { name: 'accounts', identifier: 'accounts', title: 'Accounts API', letter: 'A', mockPort: 4011 },
  { name: 'pix', identifier: 'pix', title: 'Pix receiving API', letter: 'B', mockPort: 4012 },
  { name: 'pix-location', identifier: 'pixLocation', title: 'Pix payload locations', letter: 'B', mockPort: 4015 },
  { name: 'messages', identifier: 'messages', title: 'Pix message exchange API', letter: 'C', mockPort: 4013 },
  { name: 'core-banking', identifier: 'coreBanking', title: 'Core banking API', letter: 'D', mockPort: 4014 },
] as const satisfies readonly InterfaceInfo[];

export type InterfaceName = (typeof interfaces)[number]['name'];

/** Port of the documentation site served by `contrato docs` and `npm start`. */
export const docsPort = 4000;

export function findInterface(name: string): InterfaceInfo | undefined {
  return interfaces.find((info) => info.name === name);
}

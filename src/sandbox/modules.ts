/**
 * The sandbox modules `contrato sandbox` and `npm start` serve: one per spec document of src/interfaces.ts,
 * the hand-written module of the document when there is one (its state and rules), the generic one
 * (generic.ts: answers from the spec) otherwise. A hand-written module is an upgrade, never a requirement.
 */
import { type InterfaceInfo, interfaces } from '../interfaces.js';
import { accountsSandbox } from './accounts/index.js';
import type { MountableModule } from './contract.js';
import { coreBankingSandbox } from './core-banking/index.js';
import { genericSandbox } from './generic.js';
import { messagesSandbox } from './messages/index.js';
import { pixSandbox } from './pix/index.js';
import { pixLocationSandbox } from './pix-location/index.js';

/** The modules written for a document, each naming the document it serves. */
export const handWrittenModules: readonly MountableModule[] = [
  accountsSandbox,
  pixSandbox,
  pixLocationSandbox,
  messagesSandbox,
  coreBankingSandbox,
];

/** The module of each document: the hand-written one of its name, else the generic one under the document's prefix. */
export function modulesOf(
  documents: readonly Pick<InterfaceInfo, 'name' | 'sandboxPrefix'>[],
  written: readonly MountableModule[] = handWrittenModules,
): MountableModule[] {
  return documents.map((info) => written.find((module) => module.document === info.name) ?? genericSandbox(info.name, info.sandboxPrefix));
}

/** Every document's module, in the order of src/interfaces.ts. */
export const sandboxModules: readonly MountableModule[] = modulesOf(interfaces);

/** Loopback port of the sandbox when nothing else is asked (the docs site is on 4000, each Prism mock on its definition's port). */
export const sandboxPort = 4010;

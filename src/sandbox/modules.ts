/**
 * The sandbox modules `contrato sandbox` and `npm start` serve, one per spec document that has one.
 * A module's document must be one of src/interfaces.ts (test/sandbox/modules.test.ts checks it).
 */
import { accountsSandbox } from './accounts/index.js';
import type { MountableModule } from './contract.js';
import { coreBankingSandbox } from './core-banking/index.js';
import { messagesSandbox } from './messages/index.js';
import { pixSandbox } from './pix/index.js';
import { pixLocationSandbox } from './pix-location/index.js';

export const sandboxModules: readonly MountableModule[] = [
  accountsSandbox,
  pixSandbox,
  pixLocationSandbox,
  messagesSandbox,
  coreBankingSandbox,
];

/** Loopback port of the sandbox when nothing else is asked (the docs site is on 4000, the Prism mocks on 4011 to 4015). */
export const sandboxPort = 4010;

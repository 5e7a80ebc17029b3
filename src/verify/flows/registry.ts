/** The flows of each interface (one file per interface in this folder). */
import type { Flow } from './flow.js';
import { accountsFlows } from './accounts.js';
import { coreBankingFlows } from './core-banking.js';
import { messagesFlows } from './messages.js';
import { pixFlows } from './pix.js';

const flows: readonly Flow[] = [...pixFlows, ...coreBankingFlows, ...messagesFlows, ...accountsFlows];

export function flowsOf(interfaceName: string): readonly Flow[] {
  return flows.filter((flow) => flow.interfaceName === interfaceName);
}

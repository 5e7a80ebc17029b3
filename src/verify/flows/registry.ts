/** The flows of each interface (one file per interface in this folder). */
import type { Flow } from './index.js';
import { pixFlows } from './pix.js';

const flows: readonly Flow[] = [...pixFlows];

export function flowsOf(interfaceName: string): readonly Flow[] {
  return flows.filter((flow) => flow.interfaceName === interfaceName);
}

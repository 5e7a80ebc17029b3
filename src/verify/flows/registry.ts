/** The flows of each interface (one file per interface in this folder). */
import type { Flow } from './index.js';

const flows: readonly Flow[] = [];

export function flowsOf(interfaceName: string): readonly Flow[] {
  return flows.filter((flow) => flow.interfaceName === interfaceName);
}

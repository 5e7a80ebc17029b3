/**
 * `contrato changelog [--check]`: rewrites the contract changes region of the root CHANGELOG.md from the
 * release snapshots and the diff (src/governance/changelog.ts), or with --check only says whether it is
 * current. Exit 0 written or current, 1 stale (--check), 2 the markers are missing or misplaced.
 */
import { writeFileSync } from 'node:fs';
import { checkoutRoot } from '../checkout.js';
import { ChangelogMarkersError, changelogCheckoutMarkers, changelogState } from '../governance/changelog.js';
import type { Output } from './format-commands.js';

export interface ChangelogOptions {
  readonly check?: boolean;
  /** The checkout to read and write; the one this CLI runs from when absent. */
  readonly root?: string;
}

export async function changelogCommand(options: ChangelogOptions, output: Output): Promise<number> {
  const root = options.root ?? checkoutRoot(changelogCheckoutMarkers);
  if (root === null)
    throw new Error(
      'contrato changelog runs in a checkout of contrato (it reads specs/releases and generated/): clone it, npm ci, then npm run changelog',
    );
  let state: Awaited<ReturnType<typeof changelogState>>;
  try {
    state = await changelogState(root);
  } catch (error) {
    if (!(error instanceof ChangelogMarkersError)) throw error;
    output.err(`contrato: ${error.message}`);
    return 2;
  }
  if (options.check) {
    if (!state.stale) {
      output.out('CHANGELOG.md is up to date');
      return 0;
    }
    output.err('CHANGELOG.md is stale: its contract changes differ from specs/releases and generated/; run npm run changelog');
    return 1;
  }
  if (!state.stale) {
    output.out('CHANGELOG.md is up to date');
    return 0;
  }
  writeFileSync(state.path, state.next);
  output.out('wrote the contract changes of CHANGELOG.md');
  return 0;
}

/**
 * The lines a watch prints: one per regeneration, stamped with the local time, saying what it did (or why
 * it failed) and how long it took.
 */
import type { Output } from './format-commands.js';
import type { RegenerationAnswer, RegenerationResult } from './watch-regenerator.js';

const clock = (): string => new Date().toTimeString().slice(0, 8);
const seconds = (milliseconds: number): string => `${(milliseconds / 1000).toFixed(2)} s`;

/** What one regeneration did, in a few words: the documents regenerated (or not) and the pages rebuilt. */
export function describeRegeneration(result: RegenerationResult): string {
  const parts = [
    result.documents.length > 0
      ? `regenerated ${result.documents.join(', ')}`
      : result.manifestWritten
        ? 'manifest updated'
        : 'nothing changed',
  ];
  const pages = result.pages.filter((page) => page.endsWith('.html'));
  if (pages.length > 4) parts.push(`site built (${pages.length} pages)`);
  else if (pages.length > 0) parts.push(`pages ${pages.join(', ')}`);
  return parts.join('; ');
}

/**
 * Prints the line of a regeneration begun at `started` (performance.now()): what it did and `extra` (what
 * followed it: the generator reloaded, the sandbox restarted) on `out`, or its failure on `err`.
 */
export function reportRegeneration(output: Output, answer: RegenerationAnswer, started: number, extra = ''): void {
  const took = seconds(performance.now() - started);
  if (answer.type === 'failed') output.err(`${clock()}  regeneration failed after ${took}: ${answer.message}`);
  else output.out(`${clock()}  ${describeRegeneration(answer.result)}${extra} in ${took}`);
}

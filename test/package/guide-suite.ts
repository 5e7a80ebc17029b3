/**
 * The vitest suite the sandbox guide prints ("The sandbox in your own tests"), as printed: the block after
 * `<!-- sandbox-suite: <file> -->` in docs/guides/sandbox.md. The package test runs it in the consumer that
 * installed the packed tarball; test/sandbox/library.test.ts runs it against this checkout's sources.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../scripts/lib.js';

export const sandboxGuidePath = 'docs/guides/sandbox.md';

export interface GuideSuite {
  /** The file name the guide gives it (`checkout.test.ts`). */
  readonly file: string;
  readonly code: string;
}

/** The one suite of `markdown`; none, or more than one, is an error naming the marker. */
export function guideSuiteOf(markdown: string): GuideSuite {
  const found = [...markdown.matchAll(/<!-- sandbox-suite: ([\w.-]+\.test\.ts) -->\n```ts\n([\s\S]*?)```/g)];
  if (found.length !== 1)
    throw new Error(`${sandboxGuidePath} must hold one <!-- sandbox-suite: <name>.test.ts --> block of ts, found ${found.length}`);
  return { file: found[0]![1]!, code: found[0]![2]! };
}

export const sandboxGuideSuite = (): GuideSuite => guideSuiteOf(readFileSync(join(projectRoot, sandboxGuidePath), 'utf8'));

/** The package subpaths the suite imports (`contrato/pix`, …): it may import nothing of contrato otherwise. */
export function contratoImportsOf(code: string): string[] {
  return [...code.matchAll(/from '(contrato(?:\/[^']*)?)'/g)].map((match) => match[1]!);
}

/** How many tests the suite declares (`it(` at the start of a line): the count a passing run reports. */
export const testCountOf = (code: string): number => [...code.matchAll(/^\s*it\(/gm)].length;

/**
 * No test can start a strict sandbox and forget its drifts: startSeeded's sandboxes are checked after each
 * test by test/helpers/sandbox.ts, and a test file that starts one with startSandbox({ strict: true }) must
 * read its drifts itself (`.drifts()`) or hand it to watchDrifts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';

const testRoot = join(projectRoot, 'test');
const testFiles = (readdirSync(testRoot, { recursive: true }) as string[]).filter((file) => file.endsWith('.test.ts'));

/** The text of each `startSandbox(…)` call of `text`, up to its closing `);`. */
function startCalls(text: string): string[] {
  const calls: string[] = [];
  for (let at = text.indexOf('startSandbox('); at >= 0; at = text.indexOf('startSandbox(', at + 1)) {
    const end = text.indexOf(');', at);
    calls.push(text.slice(at, end < 0 ? undefined : end));
  }
  return calls;
}

describe('strict sandboxes in the test suite', () => {
  it('finds the test files', () => {
    expect(testFiles.length).toBeGreaterThan(50);
  });

  it('every file that starts a strict sandbox with startSandbox judges its drifts', () => {
    const forgetful = testFiles.filter((file) => {
      const text = readFileSync(join(testRoot, file), 'utf8');
      const strict = startCalls(text).some((call) => /\bstrict:\s*true\b/.test(call));
      return strict && !/\.drifts\(\)|watchDrifts\(/.test(text);
    });
    expect(forgetful, 'start them with startSeeded, or hand them to watchDrifts (test/helpers/sandbox.ts)').toEqual([]);
  });

  it("startSeeded's sandboxes are strict and watched after each test", () => {
    const helper = readFileSync(join(testRoot, 'helpers', 'sandbox.ts'), 'utf8');
    expect(helper).toMatch(/startSandbox\(\{ \.\.\.options, modules, seed, strict: true \}\)/);
    expect(helper).toMatch(/watched\.set\(sandbox, 0\)/);
    expect(helper).toMatch(/^afterEach\(/m);
  });
});

/** `contrato validate` prints at most 50 issues, then how many more there are. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { feeRule } from '../helpers/fee-rule.js';

const scratch = mkdtempSync(join(tmpdir(), 'contrato-report-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function validate(args: string[], document: unknown) {
  const path = join(scratch, `${args.join('-').replace(/\W/g, '_')}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(document));
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'src/cli/main.ts'), 'validate', ...args, path], {
    cwd: projectRoot,
    encoding: 'utf8',
    input: '',
    timeout: 20_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const rule = feeRule;

/** A page of `count` fee rules whose weight is 0 (the minimum is 1): one issue per rule. */
const pageOfBadRules = (count: number) => ({
  meta: { total: count, page: 1, perPage: count },
  data: Array.from({ length: count }, () => ({ ...rule, weight: 0 })),
});
const issueLine = /^\/data\/\d+\/weight: must be at least 1 \(minimum; got 0\)$/;

describe('contrato validate report', () => {
  it('prints the first 50 issues of 120, then one line counting the other 70', () => {
    const run = validate(['core-banking', 'GET', '/fee-rules', 'response:200'], pageOfBadRules(120));
    expect(run.code).toBe(1);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(51);
    for (const line of lines.slice(0, 50)) expect(line).toMatch(issueLine);
    expect(lines[50]).toBe('… and 70 more problems (fix these first)');
  });

  it('prints every issue when there are 50 (the cap itself) or fewer, and nothing else', () => {
    for (const count of [3, 50]) {
      const run = validate(['core-banking', 'schema', 'FeeRuleList'], pageOfBadRules(count));
      expect(run.code).toBe(1);
      const lines = run.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(count);
      for (const line of lines) expect(line).toMatch(issueLine);
    }
  });

  it('counts a single issue past the cap in the singular', () => {
    const run = validate(['core-banking', 'schema', 'FeeRuleList'], pageOfBadRules(51));
    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe('… and 1 more problem (fix these first)');
  });
});

/**
 * Every rule of the interface specification that applies to interface D and that a request or response
 * payload can break: a valid and an invalid case each, through the generated validators exactly as the
 * client runs them before sending (pointers are rooted at /body, /query, /path, /header).
 */
import { describe, expect, it } from 'vitest';
import { operationTable } from '../../../generated/core-banking/operations.js';
import { validators } from '../../../generated/core-banking/validators.js';
import type { OperationValidatorSet } from '../../../src/runtime/pipeline.js';
import { validateRequest } from '../../../src/runtime/steps/validate.js';
import { check } from '../../../src/runtime/validation.js';
import { cases, type Case } from './payload-cases.js';

function issuesOf(c: Case) {
  if (c.schema) return check(validators.schemas[c.schema], c.document);
  const info = operationTable[c.operation!];
  const set = validators.operations[c.operation!] as OperationValidatorSet;
  return validateRequest(info, set, c.args ?? {});
}

describe('payload rules of interface D', () => {
  it.each(cases.map((c) => [`${c.rule}: ${c.given}`, c] as const))('%s', (_label, c) => {
    const issues = issuesOf(c);
    if (c.want === 'valid') expect(issues).toEqual([]);
    else expect(issues.map((issue) => ({ pointer: issue.pointer, rule: issue.rule }))).toContainEqual(c.want);
  });

  it('has a valid and an invalid case for every rule it covers', () => {
    const byRule = new Map<string, Set<string>>();
    for (const c of cases) byRule.set(c.rule, (byRule.get(c.rule) ?? new Set()).add(c.want === 'valid' ? 'valid' : 'invalid'));
    for (const [rule, kinds] of byRule) expect([rule, [...kinds].sort()]).toEqual([rule, ['invalid', 'valid']]);
  });
});

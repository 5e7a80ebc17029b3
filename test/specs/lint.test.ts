/** Every spec passes Redocly's recommended rules with zero errors and zero warnings, and the contract rules. */
import { describe, expect, it } from 'vitest';
import { bundleSpec, lintSpec } from '../../scripts/steps/bundle.js';
import { contractProblems } from '../../scripts/steps/contract-lint.js';
import { interfaces } from '../../src/interfaces.js';

describe('redocly lint', () => {
  it.each(interfaces.map((info) => info.name))('%s has no problems', async (name) => {
    await expect(lintSpec(`specs/${name}/openapi.yaml`)).resolves.toBeUndefined();
  });
});

describe('contract lint (scripts/steps/contract-lint.ts)', () => {
  it.each(interfaces.map((info) => info.name))('%s has no problems', async (name) => {
    expect(contractProblems(await bundleSpec(`specs/${name}/openapi.yaml`))).toEqual([]);
  });
});

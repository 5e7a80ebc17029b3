/** Every spec passes Redocly's recommended rules with zero errors and zero warnings. */
import { describe, expect, it } from 'vitest';
import { lintSpec } from '../../scripts/steps/bundle.js';
import { interfaces } from '../../src/interfaces.js';

describe('redocly lint', () => {
  it.each(interfaces.map((info) => info.name))('%s has no problems', async (name) => {
    await expect(lintSpec(`specs/${name}/openapi.yaml`)).resolves.toBeUndefined();
  });
});

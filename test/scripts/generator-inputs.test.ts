/**
 * What regenerate hashes as its generator: every file it lists exists, and the interface definitions are
 * among them — the code samples read each document's sandbox prefix and credential there, so a changed
 * definition makes generated/ stale instead of leaving samples that call the wrong address.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { generatorInputs } from '../../scripts/regenerate.js';
import { definitions } from '../helpers/interfaces.js';

describe('generator inputs', () => {
  it('are files of the checkout', () => {
    expect(generatorInputs().filter((file) => !existsSync(join(projectRoot, file)))).toEqual([]);
  });

  it('hold every interface definition and the definition contract', () => {
    expect(generatorInputs()).toEqual(
      expect.arrayContaining([
        'src/interfaces.ts',
        'src/runtime/definition.ts',
        ...definitions.map((definition) => `src/${definition.name}/definition.ts`),
      ]),
    );
  });
});

/**
 * Every file of generated/ says which step wrote it: the manifest records a known step for each, every
 * file that can carry a comment opens with the banner naming that same step and its spec, and no file of
 * the folder is one no step claims. generated/README.md lists them all.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bannerFor, type GeneratorStep, generatorSteps, listFiles, projectRoot } from '../../scripts/lib.js';
import { interfaces } from '../../src/interfaces.js';

const manifest = JSON.parse(readFileSync(join(projectRoot, 'generated/manifest.json'), 'utf8')) as {
  outputs: Record<string, string>;
  producers: Record<string, string>;
};
const files = listFiles('generated');
const read = (file: string): string => readFileSync(join(projectRoot, file), 'utf8');

/** The comment a commentable file must open with, as the producer recorded for it would write it. */
function expectedBanner(file: string, step: GeneratorStep): string | null {
  const spec = /^generated\/([^/]+)\//.exec(file)?.[1];
  const input = spec ? `specs/${spec}/openapi.yaml` : 'scripts/steps/readme.ts';
  if (/\.(ts|js)$/.test(file)) return `/* ${bannerFor(step, input)} */\n`;
  if (file.endsWith('.md')) return `<!-- ${bannerFor(step, input)} -->\n`;
  return null;
}

describe('generated/: which step wrote each file', () => {
  it('the manifest names a known step for every file of generated/, and no file it does not hold', () => {
    expect(Object.keys(manifest.producers).sort()).toEqual(files);
    for (const [file, step] of Object.entries(manifest.producers)) expect(generatorSteps, file).toContain(step);
    // Every output hashed is one produced, and the other way round (the manifest cannot hash itself).
    expect(Object.keys(manifest.outputs).sort()).toEqual(files.filter((file) => file !== 'generated/manifest.json'));
  });

  it('keeps producers sorted, so the manifest is written the same way every time', () => {
    const keys = Object.keys(manifest.producers);
    expect(keys).toEqual([...keys].sort());
  });

  it('has the files each step is responsible for, for every interface', () => {
    const want: Record<string, GeneratorStep> = {
      'generated/README.md': 'readme',
      'generated/manifest.json': 'regenerate',
    };
    for (const info of interfaces) {
      want[`generated/${info.name}/openapi.json`] = 'bundle';
      want[`generated/${info.name}/types.ts`] = 'types';
      want[`generated/${info.name}/validators.js`] = 'validators';
      want[`generated/${info.name}/validators.d.ts`] = 'validators';
      want[`generated/${info.name}/operations.ts`] = 'operations';
      want[`generated/${info.name}/named-types.ts`] = 'operations';
      want[`generated/${info.name}/requests.json`] = 'requests';
    }
    expect(manifest.producers).toEqual(want);
  });

  it.each(files.filter((file) => /\.(ts|js|md)$/.test(file)))('%s opens with the banner naming its step', (file) => {
    const step = manifest.producers[file] as GeneratorStep;
    const banner = expectedBanner(file, step)!;
    expect(read(file).slice(0, banner.length)).toBe(banner);
    // The old wording, or a banner naming another step, appears nowhere else in it.
    expect(read(file)).not.toContain('Do not edit it by hand');
    const steps = [...read(file).matchAll(/\(step: ([a-z]+), from /g)].map((match) => match[1]);
    expect(new Set(steps)).toEqual(new Set([step]));
  });

  it('has a banner on every file but JSON', () => {
    expect(files.filter((file) => !/\.(ts|js|md)$/.test(file)).every((file) => file.endsWith('.json'))).toBe(true);
  });
});

describe('generated/README.md', () => {
  const readme = read('generated/README.md');

  it('lists every file of generated/ with the step that writes it', () => {
    for (const [file, step] of Object.entries(manifest.producers)) {
      expect(readme).toContain(`| \`${file.slice('generated/'.length)}\` | ${step} |`);
    }
  });

  it('says nothing is edited by hand, how staleness is caught, and where generated code reads src/', () => {
    const text = readme.replace(/\s+/g, ' ');
    expect(text).toContain('Nothing here is edited by hand');
    expect(text).toContain('`npm run regenerate` writes the same bytes from the same inputs');
    expect(text).toContain('`npm run regenerate -- --check` exits 1');
    expect(text).toContain('a stale `generated/` fails CI');
    expect(text).toContain('"Generated code reads src/ in exactly two places"');
    expect(text).toContain('every `validators.js` imports `src/formats/validator-formats.ts`');
    expect(text).toContain('every `operations.ts` imports `src/runtime/contract.ts` **type-only**');
  });

  it('is right about the two places: validators import the format table, operation tables the contract type-only', () => {
    for (const file of files) {
      const imports = [...read(file).matchAll(/^import (type )?.* from "((?:\.\.\/)+src\/[^"]+)";$/gm)].map((match) => ({
        typeOnly: match[1] !== undefined,
        from: match[2],
      }));
      if (file.endsWith('/validators.js')) expect(imports).toEqual([{ typeOnly: false, from: '../../src/formats/validator-formats.js' }]);
      else if (file.endsWith('/operations.ts')) expect(imports).toEqual([{ typeOnly: true, from: '../../src/runtime/contract.js' }]);
      else expect(imports, file).toEqual([]);
    }
  });

  it('agrees with docs/decisions.md', () => {
    expect(read('docs/decisions.md')).toContain('**Generated code reads src/ in exactly two places**');
  });
});

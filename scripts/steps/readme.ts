/**
 * generated/README.md: what each file of generated/ is and which step writes it, written from the
 * producers regenerate recorded, so the list cannot drift from the folder.
 */
import { bannerFor, type GeneratorStep } from '../lib.js';
import { namedTypeSuffixes } from './named-types.js';

/** What a file is, by its name inside generated/<interface>/ (or generated/). */
const descriptions: Record<string, { step: GeneratorStep; what: string }> = {
  'openapi.json': {
    step: 'bundle',
    what: 'the spec linted and bundled into one JSON document, with a TypeScript and a curl `x-codeSamples` on every operation (the package exports it as `contrato/specs/<name>.json`)',
  },
  'types.ts': { step: 'types', what: 'TypeScript types of its paths, components and operations (openapi-typescript)' },
  'validators.js': {
    step: 'validators',
    what: 'ajv standalone validators: every component schema, parameter location, request and response body',
  },
  'validators.d.ts': { step: 'validators', what: 'the declarations of validators.js, typed with types.ts' },
  'operations.ts': {
    step: 'operations',
    what: 'the operation table (one row per operationId) and the typed facade `client.<group>.<name>()` (ts-morph)',
  },
  'named-types.ts': {
    step: 'operations',
    what: 'the named types of every operation (`FeeRulesCreateParams`, `FeeRulesCreateBody`, `FeeRulesCreateResult`, …), re-exported from operations.ts for the package subpath',
  },
  'requests.json': {
    step: 'requests',
    what: 'per operation, the valid request its code samples send and the Link Objects naming the calls that make what it needs (read by `contrato verify`)',
  },
  'README.md': { step: 'readme', what: 'this file' },
  'manifest.json': {
    step: 'regenerate',
    what: 'tool versions, hashes of every input and output, and the step that wrote each file (`producers`)',
  },
};

const steps: Record<GeneratorStep, { file: string; what: string }> = {
  bundle: {
    file: 'scripts/steps/bundle.ts',
    what: 'Redocly lint with `redocly.yaml` (any error or warning fails), then one JSON document whose `$ref`s across files point into its components, linted with the contract rules of `scripts/steps/contract-lint.ts` (an operation that can refuse its request declares a 400); once the other steps ran, `x-codeSamples` on every operation (`scripts/steps/samples.ts`, below).',
  },
  types: { file: 'scripts/steps/types.ts', what: 'openapi-typescript over the bundle; `x-known-values` become open unions.' },
  validators: { file: 'scripts/steps/validators.ts', what: 'ajv standalone code, one ES module and its declarations.' },
  operations: {
    file: 'scripts/steps/operations.ts',
    what: 'the operation table, the named types of every operation and the facade whose signatures use them, with ts-morph.',
  },
  requests: {
    file: 'scripts/steps/requests.ts',
    what: 'the request of every operation that its code samples send, and its links, as data for `contrato verify`.',
  },
  readme: { file: 'scripts/steps/readme.ts', what: 'this file, from the list of what each step wrote.' },
  regenerate: {
    file: 'scripts/regenerate.ts',
    what: 'runs the steps for every interface of `src/interfaces.ts`, then writes `manifest.json`.',
  },
};

/** `producers`: path below generated/ -> the step that wrote it, for every file of the folder. */
export function emitReadme(producers: Readonly<Record<string, GeneratorStep>>): string {
  const rows = Object.keys(producers)
    .sort()
    .map((path) => {
      const name = path.slice(path.lastIndexOf('/') + 1);
      const description = descriptions[name];
      if (!description) throw new Error(`generated/${path}: the README does not say what it is (scripts/steps/readme.ts)`);
      if (description.step !== producers[path]) {
        throw new Error(`generated/${path} is written by ${producers[path]}, the README says ${description.step}`);
      }
      return `| \`${path}\` | ${description.step} | ${description.what} |`;
    });
  return [
    `<!-- ${bannerFor('readme', 'scripts/steps/readme.ts')} -->`,
    '',
    '# generated/',
    '',
    'Everything in this folder is written by `npm run regenerate` from the specs in `specs/`. Nothing here is',
    'edited by hand: a change belongs in a spec (or in a generator under `scripts/`), followed by',
    '`npm run regenerate`.',
    '',
    '## The files and the step that writes each',
    '',
    'Every file that can carry a comment (`.ts`, `.js`, `.d.ts`, this one) starts with a banner naming its',
    'step and the spec it comes from; JSON cannot, so `manifest.json` records the step of every file under',
    '`producers`.',
    '',
    '| File | Step | What it is |',
    '| --- | --- | --- |',
    ...rows,
    '',
    '## The steps',
    '',
    ...Object.entries(steps).map(([step, { file, what }]) => `- **${step}** (\`${file}\`): ${what}`),
    '',
    '## Named types of every operation',
    '',
    "Every operation has named types, declared in `operations.ts` (the facade's signatures use them, so an editor",
    "and a compiler error name them) and re-exported by `named-types.ts`; each interface's subpath exports them",
    "(`import type { FeeRulesCreateBody, FeeRulesCreateResult } from 'contrato/core-banking'`). One flat name per",
    "type: `<Group><Name><Suffix>`, the operationId's two parts in PascalCase (`feeRules.create` → `FeeRulesCreate`,",
    '`cob.get` → `CobGet`) followed by one of:',
    '',
    ...Object.entries(namedTypeSuffixes).map(([suffix, what]) => `- \`${suffix}\`: ${what};`),
    '',
    'so `FeeRulesCreateParams`, `FeeRulesCreateBody`, `FeeRulesCreateResult`, `FeeRulesListQuery`, `FeeRulesListItem`,',
    '`CobGetPath`. The operations step refuses two operations whose names would collide.',
    '',
    '## Code samples',
    '',
    'Every operation of `openapi.json` carries `x-codeSamples` (Redoc shows them beside the operation), made by',
    '`scripts/steps/samples.ts` from the operation table, never written in `specs/`: a TypeScript sample (the',
    "interface's client built for the local sandbox, `npx contrato sandbox`, and the call by its facade method with",
    "the spec's own example arguments) and a curl sample of the same request against the sandbox, with the",
    "interface's token request first. Every argument a sample sends is checked with the generated validators: a",
    'sample they refuse fails the regenerate. `test/docs/samples.test.ts` runs samples of every interface against a',
    'sandbox.',
    '',
    '## Deterministic, and checked',
    '',
    '`npm run regenerate` writes the same bytes from the same inputs and tool versions, so a second run',
    'changes nothing. `manifest.json` holds the hashes of the inputs (specs, generators, their configuration)',
    'and of every output: a run with nothing changed is a no-op, and `npm run regenerate -- --check` exits 1',
    'when `generated/` is stale or was edited by hand. CI runs `npm test`, whose `test/generated/` regenerates',
    'into a scratch folder, compares it byte for byte with this folder and runs `--check`: a stale',
    '`generated/` fails CI.',
    '',
    '## Where generated code reads src/',
    '',
    '`src/` imports `generated/`, never the reverse, with exactly two exceptions (`docs/decisions.md`,',
    '"Generated code reads src/ in exactly two places"), both leaves of `src/` that import nothing of',
    '`generated/`:',
    '',
    '1. every `validators.js` imports `src/formats/validator-formats.ts`: the standalone validators call the',
    '   very format checks `contrato format` runs;',
    '2. every `operations.ts` imports `src/runtime/contract.ts` **type-only** (erased at run time): the row of',
    '   an operation, the call options, the argument and result types and the runtime a facade calls are the',
    "   runtime's own contract, written and type-checked as source.",
    '',
  ].join('\n');
}

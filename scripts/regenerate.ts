/**
 * `npm run regenerate`: specs/ -> generated/ (bundle, types, validators, operation table and facade,
 * README.md) and site/ (Redoc pages). Deterministic; a manifest of input and output hashes makes a run
 * with nothing changed a no-op, and `--check` exits 1 when generated/ is stale or was edited by hand.
 * The manifest also records which step wrote each file of generated/ (`producers`).
 *
 * Flags: --check | --force | --lint-only | --no-docs | --out <dir> (write the generated tree elsewhere)
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { interfaces } from '../src/interfaces.js';
import { type GeneratorStep, listFiles, projectRoot, readJson, sha256, stableJson, writeFile } from './lib.js';

// The steps load Redocly, openapi-typescript, ajv and ts-morph: imported only when there is work to do,
// so a run with nothing changed stays well under a second.
const loadSteps = async () => {
  const [bundle, types, validators, operations, readme, site] = await Promise.all([
    import('./steps/bundle.js'),
    import('./steps/types.js'),
    import('./steps/validators.js'),
    import('./steps/operations.js'),
    import('./steps/readme.js'),
    import('../src/cli/site.js'),
  ]);
  return { ...bundle, ...types, ...validators, ...operations, ...readme, ...site };
};

interface Manifest {
  readonly tools: Record<string, string>;
  readonly inputs: Record<string, string>;
  readonly outputs: Record<string, string>;
  /** Every file of generated/ (this one included) -> the step that wrote it. */
  readonly producers: Record<string, GeneratorStep>;
}

const args = process.argv.slice(2);
const flag = (name: string): boolean => args.includes(name);
const outIndex = args.indexOf('--out');
const outDir = outIndex >= 0 ? args[outIndex + 1] : undefined;
const generatedDir = outDir ? resolve(process.cwd(), outDir) : join(projectRoot, 'generated');
const siteDir = join(projectRoot, 'site');
const manifestPath = join(projectRoot, 'generated/manifest.json');

const tools = ['@redocly/openapi-core', '@redocly/cli', 'openapi-typescript', 'ajv', 'ajv-formats', 'ts-morph', 'typescript'];

function toolVersions(): Record<string, string> {
  return Object.fromEntries(
    tools.map((name) => [name, readJson<{ version: string }>(join(projectRoot, 'node_modules', name, 'package.json')).version]),
  );
}

function currentInputs(): Record<string, string> {
  // What the generated files are made from: the spec sources, the generator and its configuration.
  // specs/traceability.yaml is read by `npm run coverage`, not by the generators.
  const specSources = listFiles('specs').filter((file) => /\.(ya?ml)$|\.schema\.json$/.test(file) && file !== 'specs/traceability.yaml');
  const generator = [...listFiles('scripts/steps'), 'scripts/regenerate.ts', 'scripts/lib.ts', 'scripts/openapi-model.ts'];
  const files = [
    ...specSources,
    ...generator,
    'src/interfaces.ts',
    'src/formats/registry.ts',
    'src/bundle-operations.ts',
    'src/runtime/json-pointer.ts',
    'src/runtime/contract.ts',
    'redocly.yaml',
  ];
  return Object.fromEntries(files.map((file) => [file, sha256(readFileSync(join(projectRoot, file)))]));
}

function hashOutputs(): Record<string, string> {
  return Object.fromEntries(
    listFiles('generated')
      .filter((file) => file !== 'generated/manifest.json')
      .map((file) => [file, sha256(readFileSync(join(projectRoot, file)))]),
  );
}

/** Why generated/ is not what the inputs would produce, or an empty list when it is. */
function staleness(): string[] {
  if (!existsSync(manifestPath)) return ['generated/manifest.json is missing'];
  const manifest = readJson<Manifest>(manifestPath);
  const reasons: string[] = [];
  const compare = (label: string, recorded: Record<string, string>, actual: Record<string, string>): void => {
    for (const key of new Set([...Object.keys(recorded), ...Object.keys(actual)])) {
      if (recorded[key] !== actual[key]) reasons.push(`${label} ${key} ${actual[key] ? (recorded[key] ? 'changed' : 'added') : 'removed'}`);
    }
  };
  compare('tool', manifest.tools, toolVersions());
  compare('input', manifest.inputs, currentInputs());
  compare('output', manifest.outputs, hashOutputs());
  return reasons;
}

async function timed<T>(label: string, work: () => Promise<T> | T): Promise<T> {
  const started = performance.now();
  const result = await work();
  console.log(`  ✓ ${label.padEnd(34)} ${Math.round(performance.now() - started)} ms`);
  return result;
}

async function main(): Promise<number> {
  const started = performance.now();
  if (flag('--lint-only')) {
    const { lintSpec } = await import('./steps/bundle.js');
    for (const info of interfaces) await timed(`${info.name}: lint`, () => lintSpec(`specs/${info.name}/openapi.yaml`));
    return 0;
  }
  if (!outDir && !flag('--force')) {
    const reasons = staleness();
    if (flag('--check')) {
      if (reasons.length === 0) {
        console.log('generated/ is up to date');
        return 0;
      }
      console.error(`generated/ is stale; run npm run regenerate:\n  ${reasons.slice(0, 20).join('\n  ')}`);
      return 1;
    }
    if (reasons.length === 0) {
      console.log(`generated/ is up to date (checked in ${Math.round(performance.now() - started)} ms)`);
      if (!flag('--no-docs')) {
        const { buildSite } = await import('../src/cli/site.js');
        const siteStarted = performance.now();
        const built = await buildSite(siteDir, {
          log: console.log,
          onBuildStart: () => console.log('site/ is older than its sources; building it'),
        });
        console.log(built ? `site/ built in ${Math.round(performance.now() - siteStarted)} ms` : 'site/ is up to date');
      }
      return 0;
    }
  }

  const { lintSpec, bundleSpec, emitTypes, emitValidators, emitOperations, emitReadme, buildSite } = await loadSteps();
  if (!outDir) rmSync(generatedDir, { recursive: true, force: true });
  console.log(`regenerating into ${outDir ?? 'generated/'}`);
  // Path below generated/ -> the step that wrote it: the manifest's `producers` and the README's table.
  const producers: Record<string, GeneratorStep> = { 'manifest.json': 'regenerate', 'README.md': 'readme' };
  const emit = (step: GeneratorStep, file: string, content: string): void => {
    writeFile(join(generatedDir, file), content);
    producers[file] = step;
  };
  for (const info of interfaces) {
    const source = `specs/${info.name}/openapi.yaml`;
    const out = (file: string): string => `${info.name}/${file}`;
    await timed(`${info.name}: lint`, () => lintSpec(source));
    const document = await timed(`${info.name}: bundle`, () => bundleSpec(source));
    emit('bundle', out('openapi.json'), stableJson(document));
    const types = await timed(`${info.name}: types (openapi-typescript)`, () => emitTypes(document, source));
    emit('types', out('types.ts'), types);
    const validators = await timed(`${info.name}: validators (ajv)`, () => emitValidators(document, info.name, source));
    emit('validators', out('validators.js'), validators.code);
    emit('validators', out('validators.d.ts'), validators.declarations);
    const operations = await timed(`${info.name}: operations (ts-morph)`, () => emitOperations(document, info.identifier, source));
    emit('operations', out('operations.ts'), operations);
  }
  emit('readme', 'README.md', emitReadme(producers));

  if (!outDir) {
    const manifest: Manifest = {
      tools: toolVersions(),
      inputs: currentInputs(),
      outputs: hashOutputs(),
      producers: Object.fromEntries(
        Object.keys(producers)
          .sort()
          .map((file) => [`generated/${file}`, producers[file]!]),
      ),
    };
    writeFile(manifestPath, stableJson(manifest));
    if (!flag('--no-docs'))
      console.log((await buildSite(siteDir, { force: flag('--force'), log: console.log })) ? 'site/ built' : 'site/ is up to date');
  }
  console.log(`done in ${Math.round(performance.now() - started)} ms`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);

/**
 * `npm run regenerate`: specs/ -> generated/ (bundle, types, validators, operation table and facade,
 * README.md) and site/ (Redoc pages). Deterministic, and incremental: generated/manifest.json holds the
 * hashes of every input and output and, per spec document, the spec files its bundle reads
 * (`dependencies`: its root and every file its `$ref`s reach). A run regenerates only the documents one of
 * whose files changed (a file of specs/_shared/ counts for every document that reads it), all of them when
 * the generator, its configuration or a tool changed, and nothing when nothing did; the site then rebuilds
 * only the pages whose document changed. `--check` exits 1 when generated/ is stale or was edited by hand.
 * The manifest also records which step wrote each file of generated/ (`producers`).
 *
 * Flags: --check | --force | --lint-only | --no-docs | --watch
 *   --out <dir>    write the generated tree elsewhere, all of it, without a manifest (a scratch copy to compare)
 *   --manifest     with --out: keep a manifest there too, and regenerate into it incrementally
 *   --specs <dir>  read the specs from another folder laid out as specs/ (tests and the benchmark edit a copy)
 *   --site <dir>   build the docs site there (default site/; with --out, only when given)
 *   --watch        regenerate on every save: `contrato regenerate --watch` (src/cli/watch.ts)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { definitions, interfaces, type InterfaceInfo } from '../src/interfaces.js';
import type { JsonObject } from './openapi-model.js';
import { type GeneratorStep, listFiles, projectRoot, readJson, sha256, specDependencies, stableJson, writeFile } from './lib.js';

// The steps load Redocly, openapi-typescript, ajv and ts-morph: imported only when there is work to do,
// so a run with nothing changed stays well under a second.
const loadSteps = async () => {
  const [bundle, contractLint, types, validators, operations, samples, requests, readme] = await Promise.all([
    import('./steps/bundle.js'),
    import('./steps/contract-lint.js'),
    import('./steps/types.js'),
    import('./steps/validators.js'),
    import('./steps/operations.js'),
    import('./steps/samples.js'),
    import('./steps/requests.js'),
    import('./steps/readme.js'),
  ]);
  return { ...bundle, ...contractLint, ...types, ...validators, ...operations, ...samples, ...requests, ...readme };
};
type Steps = Awaited<ReturnType<typeof loadSteps>>;

/** What a step of one document is given: the document's names, the spec it came from, its bundle. */
interface DocumentContext {
  readonly info: InterfaceInfo;
  /** The spec named in the banners: `specs/<name>/openapi.yaml`, wherever the specs were read from. */
  readonly source: string;
  readonly document: JsonObject;
}

/**
 * What regenerate writes for one spec document after its bundle, in order: each step answers files below
 * generated/<name>/. Adding a step is one entry here (and its name in lib.ts's `generatorSteps`); which
 * documents run is decided from their inputs, whatever the steps are, and a change under scripts/steps/
 * regenerates every document.
 */
const documentSteps: readonly {
  readonly step: GeneratorStep;
  readonly label: string;
  run(steps: Steps, context: DocumentContext): Promise<Record<string, string>> | Record<string, string>;
}[] = [
  {
    step: 'types',
    label: 'types (openapi-typescript)',
    run: async (steps, { document, source }) => ({ 'types.ts': await steps.emitTypes(document, source) }),
  },
  {
    step: 'validators',
    label: 'validators (ajv)',
    run: (steps, { document, info, source }) => {
      const validators = steps.emitValidators(document, info.name, source);
      return { 'validators.js': validators.code, 'validators.d.ts': validators.declarations };
    },
  },
  {
    step: 'operations',
    label: 'operations (ts-morph)',
    run: (steps, { document, info, source }) => ({
      'operations.ts': steps.emitOperations(document, info.identifier, source),
      'named-types.ts': steps.emitNamedTypes(document, source),
    }),
  },
  {
    step: 'requests',
    label: 'verify requests',
    // After validators: the requests are checked with the checks that step compiled for this bundle.
    run: (steps, { document, info, source }) => ({ 'requests.json': steps.emitRequests(document, info.name, source) }),
  },
];

interface Manifest {
  readonly tools: Record<string, string>;
  readonly inputs: Record<string, string>;
  /** Spec document -> the spec files its bundle reads, sorted (the root and every file a `$ref` reaches). */
  readonly dependencies: Record<string, string[]>;
  readonly outputs: Record<string, string>;
  /** Every file of generated/ (this one included) -> the step that wrote it. */
  readonly producers: Record<string, GeneratorStep>;
}

export interface RegenerateOptions {
  /** Where the specs are read from (default specs/). */
  readonly specsDir?: string;
  /** Where the generated tree goes (default generated/). */
  readonly generatedDir?: string;
  /** Keep a manifest in `generatedDir` and regenerate incrementally (default: true unless `generatedDir` is given). */
  readonly manifest?: boolean;
  /** The docs site folder, or null for none (default site/ unless `generatedDir` is given). */
  readonly siteDir?: string | null;
  /** Regenerate every document and rebuild every page. */
  readonly force?: boolean;
  /** One line per step; nothing by default. */
  readonly log?: (line: string) => void;
  /** The step modules, already loaded (the watch keeps them). */
  readonly steps?: Steps;
}

export interface RegenerateResult {
  /** The spec documents regenerated, in the order of src/interfaces.ts. */
  readonly documents: readonly string[];
  /** Why: inputs or outputs that differ from the manifest. */
  readonly reasons: readonly string[];
  /** Whether generated/manifest.json (or README.md) was rewritten although no document was. */
  readonly manifestWritten: boolean;
  /** Files of the site written, relative to it (none when it was current or not built). */
  readonly pages: readonly string[];
  readonly milliseconds: number;
}

const defaultSpecsDir = join(projectRoot, 'specs');
const defaultGeneratedDir = join(projectRoot, 'generated');
const tools = ['@redocly/openapi-core', '@redocly/cli', 'openapi-typescript', 'ajv', 'ajv-formats', 'ts-morph', 'typescript'];

/** The files the generator is made of: a change of any regenerates every document. */
export const generatorInputs = (): string[] => [
  ...listFiles('scripts/steps'),
  'scripts/regenerate.ts',
  'scripts/lib.ts',
  'scripts/openapi-model.ts',
  'src/interfaces.ts',
  // The definitions: the code samples take each document's sandbox prefix and credential from them.
  'src/runtime/definition.ts',
  ...definitions.map((definition) => `src/${definition.name}/definition.ts`),
  'src/formats/registry.ts',
  'src/bundle-operations.ts',
  'src/runtime/json-pointer.ts',
  'src/runtime/contract.ts',
  'redocly.yaml',
];

function toolVersions(): Record<string, string> {
  return Object.fromEntries(
    tools.map((name) => [name, readJson<{ version: string }>(join(projectRoot, 'node_modules', name, 'package.json')).version]),
  );
}

/** Where a `specs/…` key is read from. */
const specFile = (specsDir: string, key: string): string => join(specsDir, key.slice('specs/'.length));
const isSpecSource = (file: string): boolean => /\.(ya?ml)$|\.schema\.json$/.test(file) && file !== 'specs/traceability.yaml';

/**
 * What the generated files are made from: the spec sources (and any other file a document reads), then
 * the generator and its configuration. specs/traceability.yaml is read by `npm run coverage`, not here.
 */
function currentInputs(specsDir: string, dependencies: Record<string, readonly string[]>): Record<string, string> {
  const specs = new Set(
    listFiles(relative(projectRoot, specsDir))
      .map((file) => `specs/${relative(relative(projectRoot, specsDir), file).split('\\').join('/')}`)
      .filter(isSpecSource),
  );
  for (const files of Object.values(dependencies)) for (const file of files) if (existsSync(specFile(specsDir, file))) specs.add(file);
  return {
    ...Object.fromEntries([...specs].sort().map((file) => [file, sha256(readFileSync(specFile(specsDir, file)))])),
    ...Object.fromEntries(generatorInputs().map((file) => [file, sha256(readFileSync(join(projectRoot, file)))])),
  };
}

/** generated/… key -> hash of every file below `generatedDir` but the manifest. */
function hashOutputs(generatedDir: string): Record<string, string> {
  const below = relative(projectRoot, generatedDir);
  return Object.fromEntries(
    listFiles(below)
      .map((file) => [file, `generated/${relative(below, file).split('\\').join('/')}`] as const)
      .filter(([, key]) => key !== 'generated/manifest.json')
      .map(([file, key]) => [key, sha256(readFileSync(join(projectRoot, file)))]),
  );
}

/** The document a file of generated/ belongs to, or null for the files of the whole folder. */
const documentOf = (key: string): string | null => /^generated\/([^/]+)\//.exec(key)?.[1] ?? null;

interface Plan {
  /** Every document must be regenerated (generator, tools, no usable manifest, a file no document owns). */
  readonly all: boolean;
  readonly documents: ReadonlySet<string>;
  readonly reasons: readonly string[];
  /** The manifest differs from what it would now record, even if no document is regenerated. */
  readonly manifestStale: boolean;
}

/** What the inputs and outputs say must be regenerated, against the manifest of the last run. */
function plan(manifest: Manifest | null, specsDir: string, generatedDir: string): Plan {
  if (!manifest) return { all: true, documents: new Set(), reasons: ['generated/manifest.json is missing'], manifestStale: true };
  if (!manifest.dependencies)
    return {
      all: true,
      documents: new Set(),
      reasons: ['generated/manifest.json has no dependencies (older format)'],
      manifestStale: true,
    };
  const reasons: string[] = [];
  const documents = new Set<string>();
  let all = false;
  const describe = (recorded: string | undefined, actual: string | undefined): string =>
    actual ? (recorded ? 'changed' : 'added') : 'removed';
  const actualTools = toolVersions();
  for (const key of new Set([...Object.keys(manifest.tools), ...Object.keys(actualTools)]))
    if (manifest.tools[key] !== actualTools[key]) {
      reasons.push(`tool ${key} ${describe(manifest.tools[key], actualTools[key])}`);
      all = true;
    }
  const inputs = currentInputs(specsDir, manifest.dependencies);
  for (const key of new Set([...Object.keys(manifest.inputs), ...Object.keys(inputs)])) {
    if (manifest.inputs[key] === inputs[key]) continue;
    const readers = interfaces.filter((info) => manifest.dependencies[info.name]?.includes(key)).map((info) => info.name);
    reasons.push(`input ${key} ${describe(manifest.inputs[key], inputs[key])}${readers.length > 0 ? ` (${readers.join(', ')})` : ''}`);
    if (!key.startsWith('specs/')) all = true;
    for (const name of readers) documents.add(name);
  }
  for (const info of interfaces)
    if (!manifest.dependencies[info.name]) {
      reasons.push(`document ${info.name} has no dependencies in the manifest`);
      documents.add(info.name);
    }
  const outputs = hashOutputs(generatedDir);
  for (const key of new Set([...Object.keys(manifest.outputs), ...Object.keys(outputs)])) {
    if (manifest.outputs[key] === outputs[key]) continue;
    reasons.push(`output ${key} ${describe(manifest.outputs[key], outputs[key])}`);
    const owner = documentOf(key);
    if (owner && interfaces.some((info) => info.name === owner)) documents.add(owner);
    else if (key !== 'generated/README.md') all = true;
  }
  return { all, documents, reasons, manifestStale: reasons.length > 0 };
}

async function timed<T>(log: (line: string) => void, label: string, work: () => Promise<T> | T): Promise<T> {
  const started = performance.now();
  const result = await work();
  log(`  ✓ ${label.padEnd(34)} ${Math.round(performance.now() - started)} ms`);
  return result;
}

/** Why generated/ is not what the inputs would produce, or an empty list when it is. */
export function staleness(options: Pick<RegenerateOptions, 'specsDir' | 'generatedDir'> = {}): string[] {
  const generatedDir = options.generatedDir ?? defaultGeneratedDir;
  const manifestPath = join(generatedDir, 'manifest.json');
  return [
    ...plan(existsSync(manifestPath) ? readJson<Manifest>(manifestPath) : null, options.specsDir ?? defaultSpecsDir, generatedDir).reasons,
  ];
}

/** Regenerates what is stale (everything with `force`, or without a manifest), then the site's stale pages. */
export async function regenerate(options: RegenerateOptions = {}): Promise<RegenerateResult> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const specsDir = options.specsDir ?? defaultSpecsDir;
  const generatedDir = options.generatedDir ?? defaultGeneratedDir;
  const keepManifest = options.manifest ?? options.generatedDir === undefined;
  const siteDir = options.siteDir === undefined ? (options.generatedDir === undefined ? join(projectRoot, 'site') : null) : options.siteDir;
  const manifestPath = join(generatedDir, 'manifest.json');
  const previous = keepManifest && existsSync(manifestPath) ? readJson<Manifest>(manifestPath) : null;
  const planned: Plan =
    options.force || !keepManifest
      ? { all: true, documents: new Set(), reasons: [options.force ? '--force' : 'no manifest kept'], manifestStale: true }
      : plan(previous, specsDir, generatedDir);
  const chosen = interfaces.filter((info) => planned.all || planned.documents.has(info.name));

  // Path below generated/ -> the step that wrote it; the documents not regenerated keep theirs.
  const producers: Record<string, GeneratorStep> = { 'manifest.json': 'regenerate', 'README.md': 'readme' };
  for (const [key, step] of Object.entries(previous?.producers ?? {})) {
    const owner = documentOf(key);
    if (!planned.all && owner && !chosen.some((info) => info.name === owner) && interfaces.some((info) => info.name === owner))
      producers[key.slice('generated/'.length)] = step;
  }
  if (chosen.length > 0) {
    const steps = options.steps ?? (await loadSteps());
    for (const info of chosen) {
      const source = `specs/${info.name}/openapi.yaml`;
      // Lint and bundle read the copy when --specs names one; the banners name the spec as it is in the project.
      const root = relative(projectRoot, join(specsDir, info.name, 'openapi.yaml'));
      // Kept in memory until every step of the document succeeded: a spec that fails leaves its old files in place.
      const written: Record<string, { step: GeneratorStep; content: string }> = {};
      const emit = (step: GeneratorStep, files: Record<string, string>): void => {
        for (const [file, content] of Object.entries(files)) written[file] = { step, content };
      };
      await timed(log, `${info.name}: lint`, () => steps.lintSpec(root));
      const document = await timed(log, `${info.name}: bundle`, () => steps.bundleSpec(root));
      await timed(log, `${info.name}: contract lint`, () => steps.lintContract(document, root));
      for (const step of documentSteps)
        emit(step.step, await timed(log, `${info.name}: ${step.label}`, () => step.run(steps, { info, source, document })));
      // The bundle with x-codeSamples on every operation, their arguments checked by the validators just compiled.
      const sampled = await timed(log, `${info.name}: code samples`, () => steps.withCodeSamples(document, info));
      emit('bundle', { 'openapi.json': stableJson(sampled) });
      for (const key of Object.keys(producers)) if (key.startsWith(`${info.name}/`)) delete producers[key];
      rmSync(join(generatedDir, info.name), { recursive: true, force: true });
      for (const [file, { step, content }] of Object.entries(written)) {
        writeFile(join(generatedDir, info.name, file), content);
        producers[`${info.name}/${file}`] = step;
      }
    }
    // The folder regenerate keeps holds what the steps wrote and nothing else (a plain --out writes into the folder it is given).
    if (planned.all && keepManifest)
      for (const [key] of Object.entries(hashOutputs(generatedDir)))
        if (!(key.slice('generated/'.length) in producers)) rmSync(join(generatedDir, key.slice('generated/'.length)), { force: true });
  }
  // Also when only inputs no document reads changed, or README.md was edited: the manifest and the README follow.
  const manifestWritten = keepManifest && (chosen.length > 0 || planned.manifestStale);
  if (chosen.length > 0 || manifestWritten) {
    const { emitReadme } = options.steps ?? (await import('./steps/readme.js'));
    // Written only when it differs: a run that regenerated one document leaves the others' files, and this one, as they were.
    const readme = emitReadme(producers);
    const readmePath = join(generatedDir, 'README.md');
    if (!existsSync(readmePath) || readFileSync(readmePath, 'utf8') !== readme) writeFile(readmePath, readme);
  }
  if (manifestWritten) writeManifest(manifestPath, specsDir, generatedDir, previous, chosen, producers);

  let pages: string[] = [];
  if (siteDir) {
    const { buildSite } = await import('../src/cli/site.js');
    await buildSite(siteDir, {
      force: options.force === true,
      generatedDir,
      log,
      onWritten: (files) => {
        pages = [...files];
      },
    });
  }
  return {
    documents: chosen.map((info) => info.name),
    reasons: planned.reasons,
    manifestWritten,
    pages,
    milliseconds: performance.now() - started,
  };
}

function writeManifest(
  manifestPath: string,
  specsDir: string,
  generatedDir: string,
  previous: Manifest | null,
  regenerated: readonly InterfaceInfo[],
  producers: Record<string, GeneratorStep>,
): void {
  // A document not regenerated reads the same files as before: none of them changed, so neither did its $refs.
  const dependencies = Object.fromEntries(
    interfaces.map((info) => [
      info.name,
      regenerated.includes(info) || !previous?.dependencies?.[info.name]
        ? specDependencies(specsDir, `${info.name}/openapi.yaml`)
        : previous.dependencies[info.name]!,
    ]),
  );
  const manifest: Manifest = {
    tools: toolVersions(),
    inputs: currentInputs(specsDir, dependencies),
    dependencies,
    outputs: hashOutputs(generatedDir),
    producers: Object.fromEntries(
      Object.keys(producers)
        .sort()
        .map((file) => [`generated/${file}`, producers[file]!]),
    ),
  };
  writeFile(manifestPath, stableJson(manifest));
}

/** One line saying what a run did and how long it took. */
export function summary(result: RegenerateResult): string {
  const seconds = `${(result.milliseconds / 1000).toFixed(2)} s`;
  const documents =
    result.documents.length === 0
      ? result.manifestWritten
        ? 'no document regenerated (manifest updated)'
        : 'nothing to regenerate'
      : result.documents.length === interfaces.length
        ? `regenerated all ${interfaces.length} documents`
        : `regenerated ${result.documents.join(', ')}`;
  const pages = result.pages.length > 0 ? `, site: ${result.pages.filter((page) => page !== '.stamp').join(', ')}` : '';
  return `${documents}${pages} in ${seconds}`;
}

/**
 * `--ipc`: the warm regenerator of a watch (src/cli/watch.ts). It loads the steps once, answers each
 * `{ type: 'regenerate' }` with the result (or the failure), and ends when its parent goes.
 */
async function serveParent(options: RegenerateOptions): Promise<void> {
  const send = (message: unknown): void => void process.send?.(message);
  process.on('disconnect', () => process.exit(0));
  const steps = await loadSteps();
  let queue = Promise.resolve();
  process.on('message', (message: { type?: string; force?: boolean }) => {
    if (message.type !== 'regenerate') return;
    queue = queue.then(async () => {
      const lines: string[] = [];
      try {
        const result = await regenerate({ ...options, steps, force: message.force === true, log: (line) => lines.push(line) });
        send({ type: 'done', result, lines });
      } catch (error) {
        send({ type: 'failed', message: error instanceof Error ? error.message : String(error), lines });
      }
    });
  });
  send({ type: 'ready', specsDir: options.specsDir ?? defaultSpecsDir, generatorInputs: generatorInputs() });
}

async function main(args: readonly string[]): Promise<number> {
  const flag = (name: string): boolean => args.includes(name);
  const value = (name: string): string | undefined => {
    const index = args.indexOf(name);
    return index >= 0 ? args[index + 1] : undefined;
  };
  const started = performance.now();
  if (flag('--watch')) {
    // The watch itself is the CLI command's: one implementation, whichever way it is started.
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'src/cli/main.ts'), 'regenerate', ...args], {
      stdio: 'inherit',
    });
    return run.status ?? 1;
  }
  const outDir = value('--out');
  const specsDir = value('--specs') ? resolve(process.cwd(), value('--specs')!) : undefined;
  const siteOption = value('--site');
  const options: RegenerateOptions = {
    ...(specsDir ? { specsDir } : {}),
    ...(outDir ? { generatedDir: resolve(process.cwd(), outDir), manifest: flag('--manifest') } : {}),
    siteDir: flag('--no-docs') ? null : siteOption ? resolve(process.cwd(), siteOption) : outDir ? null : join(projectRoot, 'site'),
    force: flag('--force'),
    log: console.log,
  };
  if (flag('--ipc')) {
    await serveParent(options);
    return -1;
  }
  if (flag('--lint-only')) {
    const [{ bundleSpec, lintSpec }, { lintContract }] = await Promise.all([
      import('./steps/bundle.js'),
      import('./steps/contract-lint.js'),
    ]);
    for (const info of interfaces) {
      const root = relative(projectRoot, join(specsDir ?? defaultSpecsDir, info.name, 'openapi.yaml'));
      await timed(console.log, `${info.name}: lint`, () => lintSpec(root));
      // The contract rules read the bundle: what the generators read.
      await timed(console.log, `${info.name}: contract lint`, async () => lintContract(await bundleSpec(root), root));
    }
    return 0;
  }
  if (flag('--check')) {
    const reasons = staleness(options);
    if (reasons.length === 0) {
      console.log('generated/ is up to date');
      return 0;
    }
    console.error(`generated/ is stale; run npm run regenerate:\n  ${reasons.slice(0, 20).join('\n  ')}`);
    return 1;
  }
  const result = await regenerate(options);
  for (const reason of result.reasons.slice(0, 20)) if (result.documents.length > 0 || result.manifestWritten) console.log(`  · ${reason}`);
  if (result.documents.length === 0 && !result.manifestWritten)
    console.log(`generated/ is up to date (checked in ${Math.round(performance.now() - started)} ms)`);
  console.log(summary(result));
  return 0;
}

if (process.argv[1] && pathToFileURL(resolve(process.argv[1])).href === import.meta.url) {
  main(process.argv.slice(2)).then(
    (code) => {
      if (code >= 0) process.exit(code);
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}

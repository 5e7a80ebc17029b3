/**
 * The code samples of the docs (the `x-codeSamples` regenerate writes into generated/<name>/openapi.json)
 * run as a reader would run them, so they cannot rot:
 *
 * - every TypeScript sample of every operation type-checks under the project's strict settings, in a
 *   folder where `contrato` is a package whose entry points are this checkout's sources (as
 *   test/readme.test.ts installs it);
 * - every sample of every operation of every spec document runs as printed — the TypeScript sample imported
 *   by one runner process (test/docs/sample-runner.ts), the curl sample in a shell (real `curl` and `jq` when
 *   both are on PATH, else the same requests through `fetch`, test/docs/sample-shell.ts; the test says
 *   which) — each against a strict sandbox reset to one seed before each sample, with only the sandbox's
 *   address put in place of `http://127.0.0.1:4010`. Each must end with the operation's first declared
 *   success status (or the one its sample documents, `x-sample-status`), throw nothing and write nothing to
 *   stderr, and the sandbox must find no drift from the contract. The TypeScript and curl samples run side
 *   by side, each language on its own sandbox.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { type JsonObject, type OperationModel, operationsOf } from '../../scripts/openapi-model.js';
import { sampleStatusOf } from '../../scripts/steps/sample-sources.js';
import { sandboxOrigin } from '../../scripts/steps/samples.js';
import { bundledSpecPath } from '../../src/checks/registry.js';
import { writeDevCertificates } from '../../src/cli/dev-certs.js';
import { interfaces } from '../../src/interfaces.js';
import { sandboxModules } from '../../src/sandbox/modules.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { startSeeded } from '../helpers/sandbox.js';
import { startTypescriptRunner, type TypescriptRunner } from './sample-runner.js';
import { runShellWithFetch } from './sample-shell.js';

const run = promisify(execFile);
const tsxLoader = import.meta.resolve('tsx');
const seed = `samples-${Date.now()}`;

interface Sample {
  readonly lang: string;
  readonly label: string;
  readonly source: string;
}
interface Documented {
  readonly document: string;
  readonly model: OperationModel;
  readonly typescript: string;
  readonly curl: string;
}

/** Every operation of every bundle, with its two samples. */
const documented: Documented[] = interfaces.flatMap((info) => {
  const bundle = JSON.parse(readFileSync(bundledSpecPath(info.name), 'utf8')) as JsonObject;
  return operationsOf(bundle).map((model) => {
    const samples = (model.operation['x-codeSamples'] ?? []) as unknown as Sample[];
    const of = (label: string): string => samples.find((sample) => sample.label === label)?.source ?? '';
    return { document: info.name, model, typescript: of('TypeScript'), curl: of('curl') };
  });
});

/** The status a sample must end with: the one its sample documents (`x-sample-status`), else the first success status declared. */
function expectedStatus(model: OperationModel): number {
  const documented = sampleStatusOf(model);
  if (documented !== null) return documented;
  const success = model.responses.map((response) => response.status).filter((status) => /^2\d\d$/.test(status));
  if (success.length === 0) throw new Error(`${model.operationId} declares no success status`);
  return Number(success[0]);
}

const onPath = (command: string): boolean =>
  (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && existsSync(join(dir, command)));
const realCurl = onPath('curl') && onPath('jq');
const folder = mkdtempSync(join(tmpdir(), 'contrato-samples-'));
/** One sandbox per language, so that a TypeScript and a curl sample run at the same time. */
let typescriptSandbox: RunningSandbox;
let curlSandbox: RunningSandbox;
let runner: TypescriptRunner;
const passed = { typescript: 0, curl: 0 };

/** contrato as npm would install it into `folder`: each subpath's types and code lead to this checkout's sources. */
function installContrato(into: string): void {
  const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { default: string }>;
  };
  const packageDir = join(into, 'node_modules/contrato');
  mkdirSync(packageDir, { recursive: true });
  const exports: Record<string, { types: string; default: string }> = {};
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    const source = /^\.\/dist\/(src\/.+)\.js$/.exec(typeof target === 'string' ? target : target.default)?.[1];
    if (!source) continue;
    const file = subpath === '.' ? 'index' : subpath.slice(2);
    writeFileSync(join(packageDir, `${file}.mjs`), `export * from ${JSON.stringify(join(projectRoot, `${source}.ts`))};\n`);
    writeFileSync(join(packageDir, `${file}.d.ts`), `export * from ${JSON.stringify(join(projectRoot, `${source}.js`))};\n`);
    exports[subpath] = { types: `./${file}.d.ts`, default: `./${file}.mjs` };
  }
  writeFileSync(join(packageDir, 'package.json'), JSON.stringify({ name: 'contrato', version: '0.0.0-checkout', type: 'module', exports }));
  writeFileSync(join(into, 'package.json'), JSON.stringify({ name: 'samples-reader', private: true, type: 'module' }));
}

/** The path the operation's own request calls, as the sandbox sees it: the URL of the sample's last curl command. */
function samplePath(entry: Documented): string {
  const last = entry.curl.slice(entry.curl.lastIndexOf('\ncurl ') + 1);
  const url = /^curl [^']*'(http:\/\/127\.0\.0\.1:4010\/[^']*)'/.exec(last)?.[1];
  if (!url) throw new Error(`${entry.model.operationId}: no URL in the last command of its curl sample`);
  // A linked value ends the quoted part; the path up to it is enough to tell the operation's request apart.
  return new URL(url).pathname;
}

async function reset(sandbox: RunningSandbox): Promise<void> {
  const answer = await fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST', body: JSON.stringify({ seed }) });
  expect(answer.status).toBe(200);
}

/** Runs the TypeScript sample in the runner: the status of the operation's own request, what it threw and wrote. */
async function runTypescript(entry: Documented): Promise<{ status: number | undefined; error: string | null; stderr: string }> {
  await reset(typescriptSandbox);
  const file = join(folder, `${entry.document}-${entry.model.operationId}.mts`);
  writeFileSync(file, entry.typescript.replaceAll(sandboxOrigin, typescriptSandbox.url));
  const outcome = await runner.run(file);
  const path = samplePath(entry);
  const answer = outcome.answers.filter((each) => each.path.split('?')[0]!.startsWith(path)).at(-1);
  return { status: answer?.status, error: outcome.error, stderr: outcome.stderr };
}

/** Runs the curl sample: the status of its last answer (`curl -i` prints the status line) and its output. */
async function runCurl(entry: Documented, withCurl = realCurl): Promise<{ status: number | undefined; output: string }> {
  await reset(curlSandbox);
  const source = entry.curl.replaceAll(sandboxOrigin, curlSandbox.url);
  if (!withCurl) return { status: (await runShellWithFetch(source, folder)).at(-1), output: '' };
  const outcome = await run('sh', ['-c', `set -e\n${source}`], { cwd: folder, timeout: 60_000 }).then(
    ({ stdout, stderr }) => ({ stdout, stderr, code: 0 }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
      code: error.code ?? 1,
    }),
  );
  const statuses = [...outcome.stdout.matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)].map((match) => Number(match[1]));
  const output = `exit ${outcome.code}\n${outcome.stderr}${outcome.stdout}`.slice(0, 2000);
  return { status: outcome.code === 0 ? statuses.at(-1) : undefined, output };
}

/**
 * Every TypeScript sample, each a file, type-checked in one tsc run under the project's settings in a folder
 * where contrato is installed from the checkout: tsc's report, empty when all compile.
 */
async function typecheckSamples(): Promise<string> {
  const checkFolder = join(folder, 'typecheck');
  mkdirSync(checkFolder);
  installContrato(checkFolder);
  for (const entry of documented) writeFileSync(join(checkFolder, `${entry.document}-${entry.model.operationId}.mts`), entry.typescript);
  const tsconfig = {
    extends: join(projectRoot, 'tsconfig.json'),
    compilerOptions: { noEmit: true, typeRoots: [join(projectRoot, 'node_modules/@types')] },
    include: ['*.mts'],
    exclude: [],
  };
  writeFileSync(join(checkFolder, 'tsconfig.json'), JSON.stringify(tsconfig));
  const tsc = fileURLToPath(import.meta.resolve('typescript/bin/tsc'));
  const checked = await run(process.execPath, [tsc, '-p', join(checkFolder, 'tsconfig.json')], { maxBuffer: 16 * 1024 * 1024 }).catch(
    (error: { stdout: string }) => ({ stdout: error.stdout }),
  );
  return checked.stdout;
}
let typecheck: Promise<string>;
const started = Date.now();

beforeAll(async () => {
  installContrato(folder);
  writeDevCertificates(folder);
  // What a multipart sample uploads: the first bytes of a JPEG.
  writeFileSync(join(folder, 'file.jpg'), Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]));
  // tsc runs while the samples run: the type check is the slowest part.
  typecheck = typecheckSamples();
  typecheck.catch(() => {});
  [typescriptSandbox, curlSandbox, runner] = await Promise.all([
    startSeeded('samples-typescript', sandboxModules),
    startSeeded('samples-curl', sandboxModules),
    startTypescriptRunner(folder, tsxLoader),
  ]);
  console.log(`curl samples run with ${realCurl ? 'curl and jq' : 'fetch (curl or jq is not on PATH)'}`);
}, 120_000);
afterAll(async () => {
  const total = documented.length;
  console.log(
    `samples: ${passed.typescript}/${total} TypeScript, ${passed.curl}/${total} curl (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  await Promise.all([runner?.close(), typescriptSandbox?.stop(), curlSandbox?.stop()]);
  rmSync(folder, { recursive: true, force: true });
});

describe('code samples', () => {
  it('every operation of every document has a TypeScript and a curl sample', () => {
    expect(documented.length).toBeGreaterThan(150);
    for (const entry of documented) {
      expect(entry.typescript, entry.model.operationId).toContain('await client.');
      expect(entry.curl, entry.model.operationId).toMatch(/^curl |\ncurl |^TOKEN=\$\(curl /);
    }
  });

  it('every TypeScript sample type-checks against the checkout', async () => {
    expect(await typecheck).toBe('');
  }, 300_000);

  it.each(documented.map((entry) => [`${entry.document} ${entry.model.operationId}`, entry] as const))(
    '%s: the TypeScript and the curl sample run as printed and get the first declared success status',
    async (_label, entry) => {
      const want = expectedStatus(entry.model);
      const [typescript, curl] = await Promise.all([runTypescript(entry), runCurl(entry)]);
      if (typescript.status === want && typescript.error === null && typescript.stderr === '') passed.typescript += 1;
      if (curl.status === want) passed.curl += 1;
      expect({ status: typescript.status, error: typescript.error, stderr: typescript.stderr }, 'TypeScript').toEqual({
        status: want,
        error: null,
        stderr: '',
      });
      expect({ status: curl.status }, `curl\n${curl.output}`).toEqual({ status: want });
    },
    120_000,
  );

  it.skipIf(!realCurl)(
    'the fetch stand-in for curl sends the same requests as curl',
    async () => {
      // The samples that chain earlier calls, and a few that do not, of two documents.
      const chosen = documented.filter(
        (entry) => (entry.document === 'core-banking' || entry.document === 'accounts') && /\n# /.test(entry.curl),
      );
      chosen.push(...documented.filter((entry) => entry.document === 'pix').slice(0, 3));
      expect(chosen.length).toBeGreaterThan(3);
      for (const entry of chosen) {
        const withCurl = await runCurl(entry, true);
        expect((await runCurl(entry, false)).status, entry.model.operationId).toBe(withCurl.status);
      }
    },
    120_000,
  );
});

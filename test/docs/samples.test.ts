/**
 * The code samples of the docs (the `x-codeSamples` regenerate writes into generated/<name>/openapi.json)
 * run as a reader would run them, so they cannot rot:
 *
 * - every TypeScript sample of every operation type-checks under the project's strict settings, in a
 *   folder where `contrato` is a package whose entry points are this checkout's sources (as
 *   test/readme.test.ts installs it);
 * - for at least three operations of every spec document, chosen by a fixed rule (a read of a collection,
 *   a write with a body, a read by identifier, then the table's order), the TypeScript sample runs in its
 *   own process and the curl sample runs in a shell — real `curl` and `jq` when both are on PATH, else the
 *   same requests through `fetch` (the test says which) — each against a strict sandbox reset to the same
 *   seed, with only the sandbox's address put in place of `http://127.0.0.1:4010`. Both must get the same
 *   answer, a status the operation declares, and the sandbox must find no drift from the contract.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { type JsonObject, type OperationModel, operationsOf } from '../../scripts/openapi-model.js';
import { sandboxOrigin } from '../../scripts/steps/samples.js';
import { bundledSpecPath } from '../../src/checks/registry.js';
import { writeDevCertificates } from '../../src/cli/dev-certs.js';
import { interfaces } from '../../src/interfaces.js';
import { sandboxModules } from '../../src/sandbox/modules.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { startSeeded } from '../helpers/sandbox.js';

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

/**
 * The operations run of a document: the first read of a collection (GET, no path parameter), the first
 * write with a body that needs a token, the first operation naming a resource by its path, then the
 * table's order until there are three.
 */
function chosenOperations(models: readonly OperationModel[]): OperationModel[] {
  const hasPath = (model: OperationModel): boolean => model.parameters.some((parameter) => parameter.in === 'path');
  const picks = [
    models.find((model) => model.method === 'get' && !hasPath(model)),
    models.find((model) => model.requestBody !== null && model.secured),
    models.find((model) => hasPath(model) && !(model.method === 'get' && !hasPath(model))),
  ].filter((model): model is OperationModel => model !== undefined);
  const chosen = [...new Set(picks)];
  for (const model of models) if (chosen.length < 3 && !chosen.includes(model)) chosen.push(model);
  return chosen;
}

const runs = interfaces.flatMap((info) => {
  const ofDocument = documented.filter((entry) => entry.document === info.name);
  const chosen = chosenOperations(ofDocument.map((entry) => entry.model));
  return ofDocument.filter((entry) => chosen.includes(entry.model));
});

const onPath = (command: string): boolean => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
const realCurl = onPath('curl') && onPath('jq');
const folder = mkdtempSync(join(tmpdir(), 'contrato-samples-'));
let sandbox: RunningSandbox;

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

/** Records the status of every request the client sends (undici's diagnostics channel), printed when the process ends. */
const statusHook = `import diagnostics from 'node:diagnostics_channel';
const answers = [];
diagnostics.subscribe('undici:request:headers', ({ request, response }) => answers.push({ method: request.method, path: request.path, status: response.statusCode }));
process.on('exit', () => process.stderr.write('\\nSAMPLE-ANSWERS ' + JSON.stringify(answers) + '\\n'));
`;

const atSandbox = (source: string): string => source.replaceAll(sandboxOrigin, sandbox.url);

/** The path the operation's sample calls, as the sandbox sees it (the sample's own URL, without its query). */
function samplePath(entry: Documented): string {
  const url = /'(http:\/\/127\.0\.0\.1:4010\/[^']*)'/.exec(
    entry.curl
      .split('\n')
      .filter((line) => !line.includes('TOKEN=$'))
      .join('\n'),
  )?.[1];
  if (!url) throw new Error(`${entry.model.operationId}: no URL in its curl sample`);
  return new URL(url).pathname;
}

async function resetSandbox(): Promise<void> {
  const answer = await fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST', body: JSON.stringify({ seed }) });
  expect(answer.status).toBe(200);
}

/** Runs the TypeScript sample; the status of its request (not the token's) and how the process ended. */
async function runTypescript(entry: Documented): Promise<{ status: number; exitCode: number; stdout: string; stderr: string }> {
  const file = join(folder, `${entry.document}-${entry.model.operationId}.mts`);
  writeFileSync(file, atSandbox(entry.typescript));
  const outcome = await run(process.execPath, ['--import', tsxLoader, '--import', './status-hook.mjs', file], {
    cwd: folder,
    timeout: 60_000,
  }).then(
    ({ stdout, stderr }) => ({ exitCode: 0, stdout, stderr }),
    (error: { code?: number; stdout: string; stderr: string }) => ({
      exitCode: error.code ?? 1,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
  const line = /\nSAMPLE-ANSWERS (.*)\n/.exec(outcome.stderr)?.[1];
  const answers = line ? (JSON.parse(line) as { path: string; status: number }[]) : [];
  const path = samplePath(entry);
  const answer = answers.filter((each) => each.path.split('?')[0] === path).at(-1);
  if (!answer) throw new Error(`${entry.model.operationId}: the TypeScript sample sent no request to ${path}:\n${outcome.stderr}`);
  return { status: answer.status, ...outcome, stderr: outcome.stderr.replace(/\nSAMPLE-ANSWERS .*\n/, '') };
}

/** Shell words of a command whose arguments are single-quoted, double-quoted (with $TOKEN) or plain. */
function shellWords(command: string, token: string): string[] {
  const words: string[] = [];
  const pattern = /'((?:[^']|'\\'')*)'|"([^"]*)"|(\S+)/g;
  for (const match of command.replace(/\\\n/g, ' ').matchAll(pattern)) {
    if (match[1] !== undefined) words.push(match[1].replaceAll(`'\\''`, "'"));
    else if (match[2] !== undefined) words.push(match[2].replaceAll('$TOKEN', token));
    else words.push(match[3]!);
  }
  return words;
}

/** One curl command of a sample sent with fetch: its status and JSON answer. */
async function fetchCurl(command: string, token: string): Promise<{ status: number; body: unknown }> {
  const words = shellWords(command, token);
  let method = 'GET';
  let url = '';
  const headers = new Headers();
  const form = new URLSearchParams();
  const multipart = new FormData();
  let body: string | URLSearchParams | FormData | undefined;
  for (let index = 1; index < words.length; index += 1) {
    const word = words[index]!;
    const next = (): string => words[++index]!;
    if (word === '-X') method = next();
    else if (word === '-H') {
      const [name, ...value] = next().split(':');
      headers.set(name!, value.join(':').trim());
    } else if (word === '-d') {
      body = next();
      if (method === 'GET') method = 'POST';
    } else if (word === '--data-urlencode') {
      const [name, ...value] = next().split('=');
      form.append(name!, value.join('='));
      body = form;
      if (method === 'GET') method = 'POST';
    } else if (word === '-F') {
      const [name, ...value] = next().split('=');
      const text = value.join('=');
      if (text.startsWith('@')) {
        const [file, type] = text.slice(1).split(';type=');
        multipart.append(name!, new Blob([readFileSync(join(folder, file!))], { type: type ?? '' }), file);
      } else multipart.append(name!, text);
      body = multipart;
      if (method === 'GET') method = 'POST';
    } else if (word === '-u') headers.set('authorization', `Basic ${Buffer.from(next()).toString('base64')}`);
    else if (/^https?:/.test(word)) url = word;
  }
  if (body === undefined || typeof body === 'string') headers.set('content-type', headers.get('content-type') ?? 'application/json');
  const answer = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await answer.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: answer.status, body: parsed };
}

/** Runs the curl sample: the status of its last answer (`curl -i` prints the status line). */
async function runCurl(entry: Documented, withCurl = realCurl): Promise<number> {
  const source = atSandbox(entry.curl);
  if (withCurl) {
    const { stdout } = await run('sh', ['-c', `set -e\n${source}`], { cwd: folder, timeout: 60_000 });
    const statuses = [...stdout.matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)].map((match) => Number(match[1]));
    expect(statuses.length, stdout).toBeGreaterThan(0);
    return statuses.at(-1)!;
  }
  const [tokenCommand, command] = source.includes('TOKEN=$(') ? source.split(/\)\n(?=curl )/) : [undefined, source];
  let token = '';
  if (tokenCommand) {
    const member = /jq -r '\.(?:\["([^"]+)"\]|(\w+))'$/m.exec(tokenCommand)!;
    const answer = await fetchCurl(tokenCommand.replace(/^TOKEN=\$\(/, '').replace(/\s*\\\n\s*\| jq[^\n]*$/, ''), '');
    token = String((answer.body as Record<string, unknown>)[member[1] ?? member[2]!]);
  }
  return (await fetchCurl(command!, token)).status;
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

beforeAll(async () => {
  installContrato(folder);
  writeDevCertificates(folder);
  // What a multipart sample uploads: the first bytes of a JPEG.
  writeFileSync(join(folder, 'file.jpg'), Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]));
  writeFileSync(join(folder, 'status-hook.mjs'), statusHook);
  // tsc runs while the samples run: the type check is the slowest part.
  typecheck = typecheckSamples();
  typecheck.catch(() => {});
  sandbox = await startSeeded('samples', sandboxModules);
  console.log(`curl samples run with ${realCurl ? 'curl and jq' : 'fetch (curl or jq is not on PATH)'}`);
}, 60_000);
afterAll(async () => {
  await sandbox?.stop();
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

  it('runs at least three operations of every document', () => {
    for (const info of interfaces) expect(runs.filter((entry) => entry.document === info.name).length, info.name).toBeGreaterThanOrEqual(3);
  });

  it('every TypeScript sample type-checks against the checkout', async () => {
    expect(await typecheck).toBe('');
  }, 180_000);

  it.each(runs.map((entry) => [`${entry.document} ${entry.model.operationId}`, entry] as const))(
    '%s: the TypeScript and the curl sample get the same declared answer',
    async (_label, entry) => {
      const declared = entry.model.responses.map((response) => response.status);
      const driftsBefore = sandbox.drifts().length;

      await resetSandbox();
      const typescript = await runTypescript(entry);
      expect(declared, `${entry.model.operationId} answered ${typescript.status}`).toContain(String(typescript.status));
      if (typescript.status < 300) {
        expect(typescript.exitCode, typescript.stderr).toBe(0);
        expect(typescript.stderr).toBe('');
      } else {
        // A refusal the state explains (an example id the fresh sandbox does not hold) is thrown as an HttpError.
        expect(typescript.exitCode).not.toBe(0);
        expect(typescript.stderr).toContain(String(typescript.status));
      }

      await resetSandbox();
      expect(await runCurl(entry)).toBe(typescript.status);
      console.log(`${entry.document} ${entry.model.operationId}: ${typescript.status} from both samples`);
      expect(sandbox.drifts().slice(driftsBefore)).toEqual([]);
    },
    120_000,
  );

  it.skipIf(!realCurl)(
    'the fetch stand-in for curl sends the same requests as curl',
    async () => {
      for (const entry of runs.filter((each) => each.document === 'core-banking' || each.document === 'pix')) {
        await resetSandbox();
        const withCurl = await runCurl(entry, true);
        await resetSandbox();
        expect(await runCurl(entry, false), entry.model.operationId).toBe(withCurl);
      }
    },
    60_000,
  );
});

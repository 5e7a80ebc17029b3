/**
 * `npm run bench`: where contrato stands against its peers and the limit, as ratios measured in one run
 * (these machines are noisy: competitors are interleaved round by round and the median ratio is kept).
 * Prints a table and writes bench/results.json. Not part of `npm test`.
 */
import { Validator } from '@cfworker/json-schema';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormatsPlugin from 'ajv-formats';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpus, totalmem, tmpdir } from 'node:os';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { parse } from 'yaml';
import { eventTable } from '../generated/accounts/operations.js';
import { validators as accountsValidators } from '../generated/accounts/validators.js';
import { messageTable } from '../generated/messages/operations.js';
import { validators as messagesValidators } from '../generated/messages/validators.js';
import { validators as pixValidators } from '../generated/pix/validators.js';
import { projectRoot } from '../scripts/lib.js';
import { validatorFormats } from '../src/formats/validator-formats.js';
import type { CompiledValidator } from '../src/runtime/validation.js';
import { benchClient } from './client-overhead.js';
import { validatePacs008 } from './handwritten-pacs008.js';
import { benchPostgres } from './postgres.js';
import { benchOneFile } from './regenerate.js';
import { benchSandbox } from './sandbox.js';
import { benchStartup } from './startup.js';
import { benchVerify } from './verify.js';

type Json = Record<string, any>;
const addFormats = ajvFormatsPlugin.default;
const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const round2 = (value: number): number => Math.round(value * 100) / 100;
const log = (line: string): void => void process.stderr.write(`${line}\n`);

/** Calls per second of `fn` over about `budgetMs`. */
function opsPerSecond(fn: () => unknown, budgetMs = 150): number {
  let calls = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < budgetMs) {
    for (let i = 0; i < 200; i += 1) fn();
    calls += 200;
    elapsed = performance.now() - started;
  }
  return (calls / elapsed) * 1000;
}

function wallMs(command: string, args: string[], options: { cwd?: string } = {}): number {
  const started = performance.now();
  const run = spawnSync(command, args, { cwd: options.cwd ?? projectRoot, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${run.stdout}${run.stderr}`);
  return performance.now() - started;
}

// 1. Regenerate: full (into an empty folder), no-op (nothing changed), and one spec file saved (bench/regenerate.ts).
async function benchRegenerate() {
  log('regenerate …');
  const full: number[] = [];
  const noop: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    const out = mkdtempSync(join(tmpdir(), 'contrato-bench-regen-'));
    full.push(wallMs(process.execPath, ['--import', 'tsx', 'scripts/regenerate.ts', '--force', '--no-docs', '--out', out]));
    rmSync(out, { recursive: true, force: true });
    noop.push(wallMs(process.execPath, ['--import', 'tsx', 'scripts/regenerate.ts']));
  }
  log('regenerate, one file saved …');
  const oneFile = await benchOneFile(Math.min(rounds, 3));
  return { fullSeconds: round2(median(full) / 1000), noopSeconds: round2(median(noop) / 1000), ...oneFile };
}

// 2. Validators: generated standalone vs ajv compiled at run time vs an interpreter vs hand-written (pacs.008).
function benchValidators() {
  log('validators …');
  const bundles = Object.fromEntries(
    ['accounts', 'pix', 'messages'].map((name) => [
      name,
      JSON.parse(readFileSync(join(projectRoot, 'generated', name, 'openapi.json'), 'utf8')) as Json,
    ]),
  );
  const runtimeAjv = (name: string, pointer: string) => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    for (const [format, check] of Object.entries(validatorFormats)) ajv.addFormat(format, check as (value: string) => boolean);
    ajv.addSchema(bundles[name]!, `https://contrato.invalid/${name}`);
    const validate = ajv.getSchema(`https://contrato.invalid/${name}#${pointer}`)!;
    return (value: unknown) => validate(value);
  };
  const strip = (value: any): any =>
    Array.isArray(value)
      ? value.map(strip)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value)
              .filter(([key]) => key !== 'example' && key !== 'examples' && !key.startsWith('x-'))
              .map(([key, inner]) => [key, strip(inner)]),
          )
        : value;
  const interpreter = (name: string, pointer: string) => {
    const validator = new Validator({ $ref: `https://contrato.invalid/${name}#${pointer}` } as never, '2020-12', false);
    validator.addSchema({ components: { schemas: strip(bundles[name]!.components.schemas) } } as never, `https://contrato.invalid/${name}`);
    return (value: unknown) => validator.validate(value).valid;
  };
  const example = (path: string): Json => (parse(readFileSync(join(projectRoot, path), 'utf8')) as { value: Json }).value;
  const requestExample = (name: string, path: string, method: string): Json => {
    const media = bundles[name]!.paths[path][method].requestBody.content['application/json'];
    const first = Object.values(media.examples as Json)[0] as Json;
    return (first.$ref ? bundles[name]!.components.examples[String(first.$ref).split('/').pop()!] : first).value as Json;
  };
  const webhookExample = (): Json => {
    const media = bundles.accounts!.webhooks['invoice.paid'].post.requestBody.content['application/json'];
    const first = Object.values(media.examples as Json)[0] as Json;
    return (first.$ref ? bundles.accounts!.components.examples[String(first.$ref).split('/').pop()!] : first).value as Json;
  };
  const pacs008 = example('specs/messages/examples/pacs.008/full.yaml');
  const cobv = requestExample('pix', '/cobv/{txid}', 'put');
  const order = requestExample('accounts', '/crypto-caas/orders', 'post');
  const event = webhookExample();
  const schemaRef = (schema: unknown): string => String((schema as Json).$ref);
  const cases = [
    {
      name: 'pacs.008',
      generated: (messagesValidators.schemas as Record<string, CompiledValidator>)[messageTable['pacs.008'].schema]!,
      pointer: `/components/schemas/${messageTable['pacs.008'].schema}`,
      bundle: 'messages',
      valid: pacs008,
      invalid: {
        ...pacs008,
        participanteDoUsuarioPagador: '0036',
        cpfCnpjUsuarioRecebedor: '11222333000180',
        tipoContaUsuarioPagador: 'CHCK',
      },
      handwritten: validatePacs008,
    },
    {
      name: 'cobv PUT body',
      generated: (pixValidators.operations as Record<string, { body: CompiledValidator }>)['cobv.create']!.body,
      pointer: schemaRef(bundles.pix!.paths['/cobv/{txid}'].put.requestBody.content['application/json'].schema).slice(1),
      bundle: 'pix',
      valid: cobv,
      // Broken in ways every competitor can see (the interpreter knows none of contrato's formats).
      invalid: {
        ...Object.fromEntries(Object.entries(cobv).filter(([key]) => key !== 'calendario')),
        valor: { ...cobv.valor, original: 10 },
        chave: 'not a key',
      },
    },
    {
      name: 'CaaS order',
      generated: (accountsValidators.operations as Record<string, { body: CompiledValidator }>)['caasOrders.create']!.body,
      pointer: schemaRef(bundles.accounts!.paths['/crypto-caas/orders'].post.requestBody.content['application/json'].schema).slice(1),
      bundle: 'accounts',
      valid: order,
      invalid: { ...order, amountAsset: '0.01', destinationWalletId: '0' },
    },
    {
      name: 'webhook invoice.paid',
      generated: (accountsValidators.schemas as Record<string, CompiledValidator>)[eventTable['invoice.paid'].schema]!,
      pointer: `/components/schemas/${eventTable['invoice.paid'].schema}`,
      bundle: 'accounts',
      valid: event,
      invalid: { ...event, data: { status: 'COMPLETED' } },
    },
  ];
  return cases.map((c) => {
    const runtime = runtimeAjv(c.bundle, c.pointer);
    const interpreted = interpreter(c.bundle, c.pointer);
    // The competitors must agree on what is valid before their speed means anything.
    for (const [label, fn] of [
      ['generated', c.generated],
      ['runtime ajv', runtime],
      ['interpreter', interpreted],
      ...(c.handwritten ? [['hand-written', (v: unknown) => c.handwritten!(v).length === 0]] : []),
    ] as [string, (v: unknown) => unknown][]) {
      if (!fn(c.valid) || fn(c.invalid)) throw new Error(`${c.name}: ${label} disagrees on the valid or invalid input`);
    }
    const both = (fn: (value: unknown) => unknown) => () => {
      fn(c.valid);
      fn(c.invalid);
    };
    const ratios = { handwritten: [] as number[], interpreter: [] as number[], runtime: [] as number[], ops: [] as number[] };
    for (let r = 0; r < rounds; r += 1) {
      const generated = opsPerSecond(both(c.generated));
      ratios.ops.push(generated * 2);
      ratios.runtime.push(generated / opsPerSecond(both(runtime)));
      ratios.interpreter.push(generated / opsPerSecond(both(interpreted)));
      if (c.handwritten) ratios.handwritten.push(generated / opsPerSecond(both(c.handwritten)));
    }
    return {
      name: c.name,
      opsPerSecond: Math.round(median(ratios.ops)),
      generatedVsHandwritten: c.handwritten ? round2(median(ratios.handwritten)) : null,
      generatedVsInterpreter: round2(median(ratios.interpreter)),
      generatedVsRuntimeAjv: round2(median(ratios.runtime)),
    };
  });
}

// 3. Client overhead: the facade against undici request(), fetch and openapi-fetch (bench/client-overhead.ts).

// 4. Import cost of each subpath in a fresh process, and its bundle size (minified + gzip).
async function benchImports() {
  log('imports …');
  const subpaths: Record<string, string> = {
    accounts: 'accounts',
    pix: 'pix',
    messages: 'messages',
    'core-banking': 'core-banking',
    events: 'events',
    formats: 'formats',
    '.': '',
  };
  const entry = (subpath: string) => join(projectRoot, 'dist/src', subpath, 'index.js');
  const empty: number[] = [];
  const times: Record<string, number[]> = {};
  for (let r = 0; r < rounds; r += 1) {
    empty.push(wallMs(process.execPath, ['--input-type=module', '-e', '']));
    for (const [name, subpath] of Object.entries(subpaths))
      (times[name] ??= []).push(wallMs(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(entry(subpath))})`]));
  }
  const result: Record<string, { addedMs: number; gzipBytes: number; otherInterfacesLoaded: string[] }> = {};
  for (const [name, subpath] of Object.entries(subpaths)) {
    const bundled = await build({
      entryPoints: [entry(subpath)],
      bundle: true,
      minify: true,
      platform: 'node',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
      external: ['undici'],
    });
    const generated = [
      ...new Set(
        Object.keys(bundled.metafile.inputs)
          .map((input) => /generated\/([^/]+)\//.exec(input)?.[1])
          .filter((x): x is string => x !== undefined),
      ),
    ];
    const own =
      name === 'events' ? ['accounts'] : name === 'pix' ? ['pix', 'pix-location'] : name === 'formats' || name === '.' ? null : [name];
    result[name === '.' ? 'contrato' : `contrato/${name}`] = {
      addedMs: Math.round(median(times[name]!) - median(empty)),
      gzipBytes: gzipSync(bundled.outputFiles[0]!.contents).length,
      otherInterfacesLoaded: own ? generated.filter((interfaceName) => !own.includes(interfaceName)) : [],
    };
  }
  return result;
}

// 5. Type-check cost of a consumer of all four clients.
function benchTypecheck() {
  log('type-check …');
  const consumer = mkdtempSync(join(tmpdir(), 'contrato-bench-tsc-'));
  mkdirSync(join(consumer, 'node_modules/@types'), { recursive: true });
  symlinkSync(projectRoot, join(consumer, 'node_modules/contrato'));
  symlinkSync(join(projectRoot, 'node_modules/@types/node'), join(consumer, 'node_modules/@types/node'));
  copyFileSync(join(projectRoot, 'test/package/consumer/consumer.ts'), join(consumer, 'consumer.ts'));
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'bench-consumer', type: 'module', private: true }));
  writeFileSync(
    join(consumer, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        resolveJsonModule: true,
        types: ['node'],
        noEmit: true,
        skipLibCheck: true,
      },
      files: ['consumer.ts'],
    }),
  );
  const tsc = join(projectRoot, 'node_modules/typescript/bin/tsc');
  const seconds: number[] = [];
  for (let r = 0; r < 3; r += 1) {
    const started = performance.now();
    const run = spawnSync(process.execPath, [tsc, '-p', consumer], { encoding: 'utf8' });
    seconds.push((performance.now() - started) / 1000);
    if (run.status !== 0) throw new Error(`tsc failed:\n${run.stdout}`);
    if (/excessively deep/.test(run.stdout)) throw new Error('type instantiation is excessively deep');
  }
  rmSync(consumer, { recursive: true, force: true });
  return { seconds: round2(median(seconds)), excessivelyDeep: false };
}

function machine(): string {
  const cores = cpus();
  return `${cores[0]?.model ?? 'unknown CPU'}, ${cores.length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

const only = new Set(
  (process.env.BENCH_ONLY ?? 'regenerate,validators,client,import,typecheck,startup,sandbox,postgres,verify').split(','),
);
execFileSync(process.execPath, [join(projectRoot, 'scripts/build.mjs')], { stdio: 'ignore' });
const results = {
  machine: machine(),
  rounds,
  ...(only.has('regenerate') ? { regenerate: await benchRegenerate() } : {}),
  ...(only.has('validators') ? { validators: benchValidators() } : {}),
  ...(only.has('client') ? { client: (log('client overhead …'), await benchClient(rounds)) } : {}),
  ...(only.has('import') ? { import: await benchImports() } : {}),
  ...(only.has('typecheck') ? { typecheck: benchTypecheck() } : {}),
  ...(only.has('startup') ? { startup: (log('startup …'), await benchStartup(Math.min(rounds, 3))) } : {}),
  ...(only.has('sandbox') ? { sandbox: (log('sandbox against Prism …'), await benchSandbox()) } : {}),
  ...(only.has('postgres') ? { postgres: (log('PostgreSQL inbox …'), await benchPostgres(Math.min(rounds, 5))) } : {}),
  ...(only.has('verify') ? { verify: (log('verify against the sandbox …'), await benchVerify(Math.min(rounds, 3))) } : {}),
};
// BENCH_ONLY runs some sections: the others keep the figures of the run that measured them.
const previous = process.env.BENCH_ONLY ? (JSON.parse(readFileSync(join(projectRoot, 'bench/results.json'), 'utf8')) as object) : {};
writeFileSync(join(projectRoot, 'bench/results.json'), `${JSON.stringify({ ...previous, ...results }, null, 2)}\n`);

const rows: [string, string, string][] = [];
if (results.regenerate)
  rows.push(
    ['regenerate, full (s)', String(results.regenerate.fullSeconds), '≤ 8'],
    ['regenerate, no-op (s)', String(results.regenerate.noopSeconds), '≤ 0.5'],
    ['regenerate, one core-banking file saved (s)', String(results.regenerate.oneFileSeconds['core-banking']), '≤ 2'],
    ['regenerate, one accounts file saved (s)', String(results.regenerate.oneFileSeconds.accounts), '≤ 4'],
    ['regenerate --watch, core-banking file saved (s)', String(results.regenerate.oneFileWatchSeconds['core-banking']), '≤ 2'],
    ['regenerate --watch, accounts file saved (s)', String(results.regenerate.oneFileWatchSeconds.accounts), '≤ 4'],
  );
for (const v of results.validators ?? []) {
  rows.push([`${v.name}: ops/s (valid + invalid)`, String(v.opsPerSecond), '']);
  if (v.generatedVsHandwritten !== null) rows.push([`${v.name}: generated / hand-written`, `${v.generatedVsHandwritten}×`, '≥ 0.7×']);
  rows.push(
    [`${v.name}: generated / interpreter`, `${v.generatedVsInterpreter}×`, '≥ 3×'],
    [`${v.name}: generated / ajv at run time`, `${v.generatedVsRuntimeAjv}×`, ''],
  );
}
if (results.client) {
  const c = results.client;
  const us = (key: string) => `${c.perCallMedianUs[key]} µs`;
  rows.push(
    ['GET, median call: undici request(), fetch, openapi-fetch', `${us('request')}, ${us('fetch')}, ${us('openapiFetch')}`, ''],
    ['GET, median call: facade without / with request validation', `${us('facade')}, ${us('facadeChecked')}`, ''],
  );
  for (const [facade, words] of [
    ['facade', 'facade, no request validation'],
    ['facadeChecked', 'facade with request validation'],
  ] as const) {
    const vs = c.facadeVs[facade]!;
    rows.push(
      [`${words} / undici request()`, `${vs.request}× (CPU ${c.facadeVsRequestCpu[facade]}×)`, '≤ 1.10×'],
      [`${words} / fetch, / openapi-fetch`, `${vs.fetch}×, ${vs.openapiFetch}×`, ''],
    );
  }
  rows.push(['fetch, openapi-fetch / undici request()', `${c.vsRequest.fetch}×, ${c.vsRequest.openapiFetch}×`, '']);
  if (c.tracingOnVsOff !== undefined)
    rows.push([`tracing on (${us('facadeTracingOn')}) / off, spans dropped`, `${c.tracingOnVsOff}×`, '≤ 1.15×']);
}
for (const [name, value] of Object.entries(results.import ?? {}))
  rows.push([
    `import ${name}: added ms, gzip bytes`,
    `${value.addedMs} ms, ${value.gzipBytes} B${value.otherInterfacesLoaded.length ? `, loads ${value.otherInterfacesLoaded.join(', ')}` : ''}`,
    '≤ 50 ms',
  ]);
if (results.typecheck) rows.push(['tsc --noEmit, consumer of all clients (s)', String(results.typecheck.seconds), '≤ 3']);
if (results.startup) {
  const s = results.startup;
  rows.push(
    ['npm start until all ready, site to build (first start) (s)', String(s.startColdSeconds), ''],
    ['npm start until the sandbox is ready, first start (s)', String(s.startColdSandboxReadySeconds), ''],
    ['npm start until all ready, site built (s)', String(s.startWarmSeconds), '≤ 2'],
    ['npm start, its own "all ready in", site built (s)', String(s.startWarmPrintedSeconds), ''],
    ['npm run mock until the first mock is ready (s)', String(s.mockFirstReadySeconds), ''],
    ['npm run mock until all mocks are ready (s)', String(s.mockAllReadySeconds), ''],
    ['npx contrato --version, empty npm cache (s)', String(s.npxFirstSeconds), '≤ 3'],
    ['npx contrato --version, again (s)', String(s.npxWarmSeconds), '≤ 3'],
    ['node dist/src/cli/main.js --version (s)', String(s.binDirectSeconds), ''],
    ['load average of the machine as each round began (1 min)', String(s.loadAverage), ''],
  );
}
if (results.sandbox) {
  const s = results.sandbox;
  rows.push(
    ['contrato sandbox until all ready (s)', String(s.readySeconds), '≤ 2'],
    ['contrato mock (5 Prism) until all ready (s)', String(s.prismReadySeconds), ''],
    ['GET /cob/{txid}, 20 concurrent: sandbox req/s', String(s.requestsPerSecond), ''],
    ['GET /cob/{txid}, 20 concurrent: Prism req/s', String(s.prismRequestsPerSecond), ''],
    ['sandbox throughput / Prism', `${s.throughputVsPrism}×`, '≥ 20×'],
  );
}
if (results.postgres) {
  const { claimsPerSecond: perSecond, claimLatencyMs: latency } = results.postgres;
  const ms = ({ medianMs, p95Ms }: { medianMs: number; p95Ms: number }) => `${medianMs} / ${p95Ms} ms`;
  rows.push(
    ['inbox claim+complete per second, 1 worker', String(perSecond.oneWorker), ''],
    ['inbox claim+complete per second, 4 workers', String(perSecond.fourWorkers), ''],
    ['inbox claim+runClaimed per second, 1 worker', String(perSecond.oneWorkerInTransaction), ''],
    ['inbox claim+complete, median / p95', ms(latency.postgres), ''],
    ['inbox claim+complete, 4 workers, median / p95', ms(latency.postgresFourWorkers), ''],
    ['inbox claim+runClaimed, median / p95', ms(latency.postgresInTransaction), ''],
    ['memory store claim+complete, median / p95', ms(latency.memory), ''],
  );
}
for (const [name, figure] of Object.entries(results.verify?.byInterface ?? {}))
  rows.push([`verify ${name} --allow-writes, sandbox (s)`, `${figure.seconds} (${figure.checks} checks)`, '']);
const width = Math.max(...rows.map((row) => row[0].length));
console.log(`${results.machine}; ${rounds} rounds, medians\n`);
for (const [what, value, goal] of rows) console.log(`${what.padEnd(width)}  ${value.padStart(18)}  ${goal}`);

/**
 * The published package as a user gets it: `npm pack`, then independent consumer projects that install the
 * tarball (from the npm cache where it can) without an install-script warning — an ES module one (module
 * NodeNext) and a CommonJS one ("type": "commonjs", module node16) — each type-checks the same file using every
 * subpath under strict settings and runs it against the Prism mocks; `require()` of the package, the bin, and
 * `npx contrato` in the checkout with no build; the tarball holds the license and the changelog and no tests
 * or scripts; publint, attw (every resolution mode) and `npm publish --dry-run` are clean; the lockfile records
 * no download address; bundling one interface pulls in no other interface's validators; contrato/postgres
 * imports without its optional peer pg; and the sandbox guide's vitest suite (a merchant's checkout against
 * contrato/sandbox) type-checks and passes in the consumer as printed.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify, stripVTControlCharacters } from 'node:util';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { startMock, type RunningServer } from '../../src/cli/servers.js';
import { createTestPki, type TestPki } from '../helpers/certificates.js';
import { freePort } from '../helpers/ports.js';
import { addressVariableOf, definitions, findDefinition } from '../helpers/interfaces.js';
import { contratoImportsOf, sandboxGuideSuite, testCountOf } from './guide-suite.js';

const require = createRequire(import.meta.url);
const execFileAsync = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'contrato-package-'));
const consumer = join(work, 'consumer');
/** The CommonJS project: a folder of the consumer with its own package.json, sharing its node_modules. */
const cjsConsumer = join(consumer, 'cjs');
let tarball = '';
/** What `npm install` of the tarball printed on stderr. */
let installWarnings = '';
let pki: TestPki;
const guideSuite = sandboxGuideSuite();
const mocks: RunningServer[] = [];
// npm hands its settings to the processes it starts (vitest under npm test, so these): `nodedir`, a setting of
// this machine's npmrc that npm 11 no longer knows, would come back as an "Unknown env config" warning.
const { npm_config_nodedir: _nodedir, ...inherited } = process.env;
const npmEnv = { ...inherited, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: npmEnv });
const manifestOf = (folder: string) => JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Record<string, unknown>;
/** The settings both consumers type-check with, as strict as contrato's own. */
const strictOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  resolveJsonModule: true,
  skipLibCheck: false,
  types: ['node'],
  outDir: 'out',
};
/** The warnings in what npm printed (`npm warn …`), less the one about this machine's npmrc (`nodedir`, see above). */
const npmWarnings = (stderr: string): string[] =>
  stderr.split('\n').filter((line) => /^npm warn/i.test(line) && !/Unknown user config "nodedir"/.test(line));

beforeAll(() => {
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', work], projectRoot)) as { filename: string }[];
  tarball = join(work, packed[0]!.filename);
  mkdirSync(consumer);
  const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify(
      {
        name: 'contrato-consumer',
        private: true,
        type: 'module',
        dependencies: { contrato: `file:${tarball}` },
        devDependencies: { '@types/node': manifest.devDependencies['@types/node'] },
      },
      null,
      2,
    ),
  );
  writeFileSync(
    join(consumer, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', ...strictOptions },
      files: ['esm.ts', 'calls.ts'],
    }),
  );
  mkdirSync(cjsConsumer);
  writeFileSync(
    join(cjsConsumer, 'package.json'),
    JSON.stringify({ name: 'contrato-cjs-consumer', private: true, type: 'commonjs' }, null, 2),
  );
  writeFileSync(
    join(cjsConsumer, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'node16', moduleResolution: 'node16', ...strictOptions },
      files: ['cjs.ts', 'calls.ts'],
    }),
  );
  for (const [file, folder] of [
    ['esm.ts', consumer],
    ['calls.ts', consumer],
    ['telemetry.mjs', consumer],
    ['cjs.ts', cjsConsumer],
    ['calls.ts', cjsConsumer],
  ] as const) {
    copyFileSync(join(projectRoot, 'test/package/consumer', file), join(folder, file));
  }
  // The cache first (npm ci filled it with the tarballs of contrato's own dependencies), the registry for
  // what it lacks: a fresh machine's cache has no registry metadata, so --offline would fail there.
  const install = spawnSync('npm', ['install', '--prefer-offline', '--no-package-lock'], { cwd: consumer, encoding: 'utf8', env: npmEnv });
  if (install.status !== 0) throw new Error(`npm install of the tarball failed:\n${install.stderr}`);
  installWarnings = install.stderr;
  // The guide's suite, and the test runner it is written for (this checkout's, as the user's own would be).
  writeFileSync(join(consumer, guideSuite.file), guideSuite.code);
  symlinkSync(join(projectRoot, 'node_modules/vitest'), join(consumer, 'node_modules/vitest'));
  pki = createTestPki();
}, 240_000);

afterAll(async () => {
  await Promise.all(mocks.map((mock) => mock.stop()));
  pki?.dispose();
  rmSync(work, { recursive: true, force: true });
});

/** The mocks of every interface, started once for both consumers; the variables their addresses go in. */
let mockEnvironment: Promise<Record<string, string>> | undefined;
function startMocks(): Promise<Record<string, string>> {
  mockEnvironment ??= (async () => {
    // ACCOUNTS_URL, PIX_URL, …: one address per interface, as the README's examples read them.
    const env: Record<string, string> = {};
    for (const definition of definitions) {
      const mock = await startMock(definition.name, await freePort());
      mocks.push(mock);
      env[addressVariableOf(definition.name)] = mock.url;
    }
    const pfx = join(work, 'client.pfx');
    writeFileSync(pfx, pki.clientPfx);
    return { ...env, CLIENT_PFX: pfx, CLIENT_PFX_PASSPHRASE: pki.pfxPassphrase };
  })();
  return mockEnvironment;
}

/** What each consumer prints: the same answers whichever module system loaded contrato. */
const consumerAnswers = {
  accounts: expect.any(Number),
  pix: expect.any(String),
  coreBanking: true,
  coreBankingError: 404,
  messages: expect.any(Object),
  events: 'invoice-90215-invoice.paid',
  formats: true,
  qr: true,
  specs: 'Pix receiving API',
  // The package's own list: every document of the definitions, in their order.
  interfaces: definitions.flatMap((definition) => definition.documents.map((document) => document.name)).join(','),
};

describe('the packed contrato', () => {
  it('holds the built package, its license and changelog, and nothing of test/ or scripts/', () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(files.filter((file) => /^package\/(test|scripts|specs|src|generated)\//.test(file))).toEqual([]);
    for (const expected of [
      'package/dist/src/index.js',
      'package/dist/src/index.d.ts',
      'package/dist/src/index.cjs',
      'package/dist/src/index.d.cts',
      'package/dist/src/accounts/index.d.ts',
      'package/dist/src/messages/index.js',
      'package/dist/src/events/index.js',
      'package/dist/src/formats/qr.js',
      'package/dist/generated/pix/openapi.json',
      'package/dist/src/cli/main.js',
      'package/bin/contrato.js',
      'package/README.md',
      'package/LICENSE',
      'package/CHANGELOG.md',
    ]) {
      expect(files).toContain(expected);
    }
    // Every declaration file has its CommonJS twin, so no import inside a .d.cts leads out of CommonJS.
    const declarations = files.filter((file) => file.endsWith('.d.ts'));
    expect(declarations.filter((file) => !files.includes(file.replace(/\.d\.ts$/, '.d.cts')))).toEqual([]);
    const manifest = manifestOf(join(consumer, 'node_modules/contrato')) as {
      sideEffects: boolean;
      exports: Record<string, unknown>;
      scripts: Record<string, string>;
    };
    expect(manifest.sideEffects).toBe(false);
    expect(Object.keys(manifest.exports)).toEqual(
      expect.arrayContaining([
        '.',
        './events',
        './formats',
        ...definitions.map((definition) => `./${definition.name}`),
        ...definitions.flatMap((definition) => definition.documents.map((document) => `./specs/${document.name}.json`)),
      ]),
    );
    // Nothing npm would run when the package is installed (prepare included: npm flags it as an install script).
    expect(Object.keys(manifest.scripts).filter((name) => /^(pre|post)?(install|prepare)$/.test(name))).toEqual([]);
  });

  it('installs without a warning (no install script to approve)', () => {
    expect(npmWarnings(installWarnings)).toEqual([]);
  });

  it('is licensed as its LICENSE says, with the metadata a provenance-signed publish needs', () => {
    const manifest = manifestOf(projectRoot) as {
      license: string;
      repository: { type: string; url: string };
      homepage: string;
      bugs: { url: string };
      keywords: string[];
      publishConfig: Record<string, unknown>;
    };
    expect(manifest.license).toBe('Apache-2.0');
    expect(readFileSync(join(projectRoot, 'LICENSE'), 'utf8')).toMatch(/^\s*Apache License\s+Version 2\.0, January 2004/);
    // One repository: homepage and bugs are its pages; provenance is checked against repository.url.
    const repository = /^git\+(https:\/\/github\.com\/[\w.-]+\/[\w.-]+)\.git$/.exec(manifest.repository.url)?.[1];
    expect(repository, manifest.repository.url).toBeDefined();
    expect(manifest.repository.type).toBe('git');
    expect(manifest.homepage).toBe(`${repository}#readme`);
    expect(manifest.bugs.url).toBe(`${repository}/issues`);
    expect(manifest.keywords).toEqual(expect.arrayContaining(['pix', 'openapi']));
    // No registry named here (the machine's npm settings decide where it goes).
    expect(manifest.publishConfig).toEqual({ access: 'public', provenance: true });
  });

  it('npm publish --dry-run exits 0 without a warning', () => {
    // As a publisher who is logged in: a user config with a placeholder token for the configured registry and
    // nothing else (npm warns "requires you to be logged in" otherwise). Nothing is sent: this is a dry run.
    const registry = new URL(execFileSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8', env: npmEnv }).trim());
    const userConfig = join(work, 'publisher.npmrc');
    writeFileSync(userConfig, `//${registry.host}${registry.pathname}:_authToken=dry-run-placeholder\n`);
    const run = spawnSync('npm', ['publish', '--dry-run', '--userconfig', userConfig], { cwd: projectRoot, encoding: 'utf8', env: npmEnv });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr.split('\n').filter((line) => /^npm (warn|error)/i.test(line))).toEqual([]);
    expect(run.stderr).toMatch(/\(dry-run\)/);
  }, 120_000);

  it('reviews every install script the lockfile holds (allowScripts, so npm ci prints no advisory), and no other', () => {
    const lock = JSON.parse(readFileSync(join(projectRoot, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    const { allowScripts } = manifestOf(projectRoot) as { allowScripts?: Record<string, boolean> };
    expect(Object.keys(allowScripts ?? {}).sort()).toEqual([...new Set(withScripts)].sort());
  });

  it('records no download address in the lockfile, and keeps every platform of Biome', () => {
    const lock = readFileSync(join(projectRoot, 'package-lock.json'), 'utf8');
    expect(lock).not.toMatch(/"resolved":/);
    const packages = (JSON.parse(lock) as { packages: Record<string, unknown> }).packages;
    const biome = Object.keys(
      (manifestOf(join(projectRoot, 'node_modules/@biomejs/biome')) as { optionalDependencies: Record<string, string> })
        .optionalDependencies,
    );
    expect(biome.length).toBeGreaterThan(5);
    expect(biome.filter((name) => !(`node_modules/${name}` in packages))).toEqual([]);
  });

  it('type-checks an ES module consumer of every subpath under strict settings (module NodeNext)', () => {
    const run = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', consumer], { encoding: 'utf8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  }, 120_000);

  it('type-checks the same consumer as CommonJS ("type": "commonjs", module node16): no TS1479', () => {
    const run = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', cjsConsumer], { encoding: 'utf8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  }, 120_000);

  it('runs the ES module consumer against the mocks of every interface', async () => {
    const env = await startMocks();
    // Asynchronously: the mocks' fronts run in this process and must keep answering meanwhile.
    const run = await execFileAsync(process.execPath, [join(consumer, 'out/esm.js')], {
      cwd: consumer,
      encoding: 'utf8',
      env: { ...process.env, ...env },
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ ...consumerAnswers, format: 'esm' });
  }, 120_000);

  it('runs the CommonJS consumer against the same mocks, through the .cjs entry points', async () => {
    const env = await startMocks();
    const run = await execFileAsync(process.execPath, [join(cjsConsumer, 'out/cjs.js')], {
      cwd: cjsConsumer,
      encoding: 'utf8',
      env: { ...process.env, ...env },
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ ...consumerAnswers, format: 'cjs', entry: 'dist/src/formats/index.cjs' });
  }, 120_000);

  it('works with require() on this Node (the ES modules behind the .cjs entry points, one instance)', () => {
    const run = spawnSync(
      process.execPath,
      [
        '-e',
        [
          "const f = require('contrato/formats'); const e = require('contrato/events');",
          "const viaRequire = require('contrato/core-banking').ProblemError;",
          "import('contrato/core-banking').then((m) => console.log(f.checkFormat('cnpj', '11222333000181').valid, typeof e.parseEvent, m.ProblemError === viaRequire));",
        ].join(' '),
      ],
      { cwd: consumer, encoding: 'utf8' },
    );
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('true function true');
  });

  it('imports contrato/postgres without pg installed (an optional peer), its SQL migrations shipped beside it', () => {
    expect(existsSync(join(consumer, 'node_modules/pg'))).toBe(false);
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
    const shipped = files.filter((file) => file.startsWith('package/dist/src/postgres/migrations/') && file.endsWith('.sql'));
    expect(shipped.length).toBeGreaterThanOrEqual(4);
    const run = spawnSync(
      process.execPath,
      [
        '-e',
        [
          "const viaRequire = require('contrato/postgres');",
          "import('contrato/postgres').then((m) => console.log(m.migrations().map((each) => each.id).join(','), typeof m.migrate, viaRequire.migrate === m.migrate));",
        ].join(' '),
      ],
      { cwd: consumer, encoding: 'utf8' },
    );
    expect(run.stderr).toBe('');
    const ids = shipped.map((file) => file.slice(file.lastIndexOf('/') + 1, -'.sql'.length)).sort();
    expect(run.stdout.trim()).toBe(`${ids.join(',')} function true`);
    // The command that needs pg says so in one line, and exits 2.
    const migrate = spawnSync(
      process.execPath,
      [join(consumer, 'node_modules/contrato/bin/contrato.js'), 'db', 'migrate', 'postgres://someone@127.0.0.1:1/db'],
      {
        cwd: consumer,
        encoding: 'utf8',
      },
    );
    expect(migrate.status).toBe(2);
    expect(migrate.stderr).toBe('contrato: db migrate needs the pg package beside contrato: npm install pg\n');
  });

  it('imports every subpath and calls a client without @opentelemetry/api (an optional peer); with it, the call makes spans', () => {
    const run = (mode: string) => spawnSync(process.execPath, ['telemetry.mjs', mode], { cwd: consumer, encoding: 'utf8' });
    const without = run('without-sdk');
    expect(without.stderr).toBe('');
    const subpaths = Object.keys(JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')).exports).filter(
      (each) => !each.endsWith('.json'),
    );
    expect(JSON.parse(without.stdout)).toEqual({ subpaths: subpaths.length, balance: 1, spans: [] });
    // The user installs the API and an SDK (this checkout's copies, linked as npm would place them).
    const linked = join(consumer, 'node_modules/@opentelemetry');
    symlinkSync(join(projectRoot, 'node_modules/@opentelemetry'), linked);
    try {
      const traced = run('with-sdk');
      expect(traced.stderr).toBe('');
      expect(JSON.parse(traced.stdout)).toEqual({
        subpaths: subpaths.length,
        balance: 1,
        spans: ['token', 'GET /accounts/{id}/balance', 'accounts.balance'],
      });
    } finally {
      rmSync(linked);
    }
  });

  it("type-checks the sandbox guide's vitest suite, which imports nothing of contrato but its subpaths", () => {
    const imported = [...guideSuite.code.matchAll(/from '([^']+)'/g)].map((match) => match[1]!);
    expect(imported.filter((name) => !/^(node:|vitest$)/.test(name))).toEqual(contratoImportsOf(guideSuite.code));
    expect(contratoImportsOf(guideSuite.code)).toContain('contrato/sandbox');
    // Strict, as the consumers; the test runner's own declarations (and what they import) are its business.
    const tsconfig = join(consumer, 'tsconfig.guide-suite.json');
    writeFileSync(
      tsconfig,
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          ...strictOptions,
          skipLibCheck: true,
          noEmit: true,
        },
        files: [guideSuite.file],
      }),
    );
    const run = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', tsconfig], { encoding: 'utf8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  }, 120_000);

  it("runs the sandbox guide's vitest suite as printed: contrato/sandbox started in beforeAll, closed in afterAll", async () => {
    const vitest = join(consumer, 'node_modules/vitest/vitest.mjs');
    const run = await execFileAsync(process.execPath, [vitest, 'run', guideSuite.file], {
      cwd: consumer,
      encoding: 'utf8',
      timeout: 150_000,
    });
    // The count of its tests, read from the file: each one passed.
    const count = testCountOf(guideSuite.code);
    expect(count).toBeGreaterThan(0);
    expect(stripVTControlCharacters(run.stdout)).toMatch(new RegExp(`Tests\\s+${count} passed \\(${count}\\)`));
  }, 180_000);

  it('runs the contrato bin', () => {
    const run = spawnSync(join(consumer, 'node_modules/.bin/contrato'), ['format', 'cpf', '52998224725'], {
      cwd: consumer,
      encoding: 'utf8',
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const bad = spawnSync(join(consumer, 'node_modules/.bin/contrato'), ['validate', 'messages', 'pacs.002', '-'], {
      cwd: consumer,
      encoding: 'utf8',
      input: '{}',
    });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/idInstrucaoOriginal/);
  });

  it('judges a sandbox with the installed bin: contrato verify reads the requests the tarball ships', async () => {
    const { startSandbox } = await import('../../src/sandbox/index.js');
    const sandbox = await startSandbox({ port: 0 });
    try {
      // Asynchronous: the sandbox answers from this process.
      const run = await execFileAsync(
        join(consumer, 'node_modules/.bin/contrato'),
        [
          'verify',
          'core-banking',
          '--base-url',
          sandbox.urlOf('core-banking'),
          '--allow-writes',
          '--skip',
          'bankarizationApplications.list',
        ],
        {
          cwd: consumer,
          encoding: 'utf8',
          timeout: 120_000,
          env: { ...process.env, CONTRATO_CLIENT_ID: 'sandbox-core', CONTRATO_CLIENT_SECRET: 'sandbox-secret' },
        },
      );
      expect(run.stdout).toMatch(/verify core-banking at .*: \d+ checks, 0 failed — passed/);
    } finally {
      await sandbox.close();
    }
  }, 150_000);

  /** `npx --yes contrato --version` in `folder` with a cold npx cache. */
  const npxVersion = (folder: string, cache: string) =>
    spawnSync('npx', ['--yes', 'contrato', '--version'], {
      cwd: folder,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, npm_config_cache: join(work, cache), npm_config_update_notifier: 'false' },
    });
  const version = (manifestOf(projectRoot) as { version: string }).version;

  it('answers `npx contrato` in the checkout with a cold npx cache, from the sources, building nothing', () => {
    // npm links the checkout into npx's cache and runs no script there; bin/contrato.js runs src/ with tsx.
    const stamp = join(projectRoot, '.cache/build-stamp');
    const stampedAt = existsSync(stamp) ? statSync(stamp).mtimeMs : undefined;
    const run = npxVersion(projectRoot, 'npx-cache');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(`${version}\n`);
    expect(existsSync(stamp) ? statSync(stamp).mtimeMs : undefined).toBe(stampedAt);
  }, 90_000);

  it('answers `npx contrato` in a clone that has no dist/ at all', () => {
    // A clone after `npm ci`: the sources, the generated files and node_modules, nothing built.
    const clone = join(work, 'clone');
    mkdirSync(join(clone, 'bin'), { recursive: true });
    copyFileSync(join(projectRoot, 'package.json'), join(clone, 'package.json'));
    copyFileSync(join(projectRoot, 'bin/contrato.js'), join(clone, 'bin/contrato.js'));
    for (const folder of ['src', 'generated', 'node_modules']) symlinkSync(join(projectRoot, folder), join(clone, folder));
    const run = npxVersion(clone, 'npx-cache-clone');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(`${version}\n`);
    expect(existsSync(join(clone, 'dist'))).toBe(false);
  }, 90_000);

  it('is clean for publint --strict and for attw in every resolution mode (node10, node16 from CommonJS and ESM, bundler)', () => {
    const publint = spawnSync(
      process.execPath,
      [join(projectRoot, 'node_modules/publint/src/cli.js'), '--strict', join(consumer, 'node_modules/contrato')],
      { encoding: 'utf8' },
    );
    expect(publint.status, publint.stdout + publint.stderr).toBe(0);
    const attw = spawnSync(
      process.execPath,
      [join(projectRoot, 'node_modules/@arethetypeswrong/cli/dist/index.js'), tarball, '--profile', 'strict', '--format', 'ascii'],
      { encoding: 'utf8' },
    );
    expect(attw.status, attw.stdout + attw.stderr).toBe(0);
    expect(attw.stdout).toMatch(/No problems found/);
  }, 120_000);

  it.each([...definitions.map((definition) => definition.name), 'events', 'formats'])(
    'bundling contrato/%s pulls in no other interface',
    async (subpath) => {
      const result = await build({
        stdin: { contents: `export * from 'contrato/${subpath}';`, resolveDir: consumer },
        bundle: true,
        platform: 'node',
        format: 'esm',
        write: false,
        metafile: true,
        logLevel: 'silent',
        external: ['undici', 'openapi-fetch', 'ajv', 'ajv-formats'],
      });
      const generated = Object.keys(result.metafile.inputs)
        .map((input) => /generated\/([^/]+)\//.exec(input)?.[1])
        .filter((name): name is string => name !== undefined);
      // An interface's own documents; events read the webhooks of the interface that declares them.
      const documentsOf = (name: string) => findDefinition(name)?.documents.map((document) => document.name) ?? [];
      const own = subpath === 'events' ? documentsOf('accounts') : documentsOf(subpath);
      expect([...new Set(generated)].filter((name) => !own.includes(name))).toEqual([]);
    },
  );
});

/**
 * The published package as a user gets it: `npm pack`, then an independent consumer project that
 * installs the tarball (from the npm cache where it can), type-checks a file using every subpath under strict settings, runs it
 * against the Prism mocks, `require()`s the package, runs the bin; the tarball holds no tests or
 * scripts; publint and attw are clean; and bundling one interface pulls in no other interface's validators.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

const require = createRequire(import.meta.url);
const execFileAsync = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'contrato-package-'));
const consumer = join(work, 'consumer');
let tarball = '';
let pki: TestPki;
const mocks: RunningServer[] = [];
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
  });

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
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        resolveJsonModule: true,
        skipLibCheck: false,
        types: ['node'],
        outDir: 'out',
      },
      files: ['consumer.ts'],
    }),
  );
  copyFileSync(join(projectRoot, 'test/package/consumer/consumer.ts'), join(consumer, 'consumer.ts'));
  // The cache first (npm ci filled it with the tarballs of contrato's own dependencies), the registry for
  // what it lacks: a fresh machine's cache has no registry metadata, so --offline would fail there.
  npm(['install', '--prefer-offline', '--no-package-lock'], consumer);
  pki = createTestPki();
}, 240_000);

afterAll(async () => {
  await Promise.all(mocks.map((mock) => mock.stop()));
  pki?.dispose();
  rmSync(work, { recursive: true, force: true });
});

describe('the packed contrato', () => {
  it('holds the built package and nothing of test/ or scripts/', () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(files.filter((file) => /^package\/(test|scripts|specs|src|generated)\//.test(file))).toEqual([]);
    for (const expected of [
      'package/dist/src/index.js',
      'package/dist/src/index.d.ts',
      'package/dist/src/accounts/index.d.ts',
      'package/dist/src/messages/index.js',
      'package/dist/src/events/index.js',
      'package/dist/generated/pix/openapi.json',
      'package/dist/src/cli/main.js',
      'package/README.md',
    ]) {
      expect(files).toContain(expected);
    }
    const manifest = JSON.parse(readFileSync(join(consumer, 'node_modules/contrato/package.json'), 'utf8')) as {
      sideEffects: boolean;
      exports: Record<string, unknown>;
    };
    expect(manifest.sideEffects).toBe(false);
    expect(Object.keys(manifest.exports)).toEqual(
      expect.arrayContaining([
        '.',
        './accounts',
        './pix',
        './messages',
        './core-banking',
        './events',
        './formats',
        './specs/accounts.json',
        './specs/pix.json',
        './specs/messages.json',
        './specs/core-banking.json',
      ]),
    );
  });

  it('type-checks a consumer of every subpath under strict settings', () => {
    const run = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', consumer], { encoding: 'utf8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  }, 120_000);

  it('runs the consumer against the mocks of all four interfaces', async () => {
    // ACCOUNTS_URL, PIX_URL, …: one address per interface, as the README's examples read them.
    const ports = Object.fromEntries(definitions.map((definition) => [addressVariableOf(definition.name), definition.name]));
    const env: Record<string, string> = {};
    for (const [variable, name] of Object.entries(ports)) {
      const mock = await startMock(name, await freePort());
      mocks.push(mock);
      env[variable] = mock.url;
    }
    const pfx = join(work, 'client.pfx');
    writeFileSync(pfx, pki.clientPfx);
    // Asynchronously: the mocks' fronts run in this process and must keep answering meanwhile.
    const run = await execFileAsync(process.execPath, [join(consumer, 'out/consumer.js')], {
      cwd: consumer,
      encoding: 'utf8',
      env: { ...process.env, ...env, CLIENT_PFX: pfx, CLIENT_PFX_PASSPHRASE: pki.pfxPassphrase },
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      accounts: expect.any(Number),
      pix: expect.any(String),
      coreBanking: true,
      coreBankingError: 404,
      messages: expect.any(Object),
      events: 'invoice-90215-invoice.paid',
      formats: true,
      specs: 'Pix receiving API',
      interfaces: 'accounts,pix,pix-location,messages,core-banking',
    });
  }, 120_000);

  it('works with require() on this Node (require of ES modules)', () => {
    const run = spawnSync(
      process.execPath,
      [
        '-e',
        "const f = require('contrato/formats'); const e = require('contrato/events'); console.log(f.checkFormat('cnpj', '11222333000181').valid, typeof e.parseEvent)",
      ],
      { cwd: consumer, encoding: 'utf8' },
    );
    expect(run.stdout.trim()).toBe('true function');
  });

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

  it('answers `npx contrato` in the checkout at once, with a cold npx cache, without building again', () => {
    // npm installs the checkout into npx's cache and runs `prepare` there: the build stamp makes it a no-op.
    const bin = join(projectRoot, 'dist/src/cli/main.js');
    const builtAt = statSync(bin).mtimeMs;
    const run = spawnSync('npx', ['--yes', 'contrato', '--version'], {
      cwd: projectRoot,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, npm_config_cache: join(work, 'npx-cache'), npm_config_update_notifier: 'false' },
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(`${(JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version}\n`);
    expect(statSync(bin).mtimeMs).toBe(builtAt);
  }, 90_000);

  it('is clean for publint --strict and attw --profile esm-only', () => {
    const publint = spawnSync(
      process.execPath,
      [join(projectRoot, 'node_modules/publint/src/cli.js'), '--strict', join(consumer, 'node_modules/contrato')],
      { encoding: 'utf8' },
    );
    expect(publint.status, publint.stdout + publint.stderr).toBe(0);
    const attw = spawnSync(
      process.execPath,
      [join(projectRoot, 'node_modules/@arethetypeswrong/cli/dist/index.js'), tarball, '--profile', 'esm-only', '--format', 'ascii'],
      { encoding: 'utf8' },
    );
    expect(attw.status, attw.stdout + attw.stderr).toBe(0);
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

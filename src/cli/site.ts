/**
 * The documentation site: one Redoc page per interface, rendered by Redocly's build-docs with the Redoc
 * scripts inlined (no CDN, telemetry off), and a landing page. Used by `npm run regenerate` and
 * `contrato docs`. Needs @redocly/cli (a dev dependency of contrato, an optional peer for users).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { interfaces } from '../interfaces.js';
import { bundledSpecPath } from './registry.js';

const run = promisify(execFile);

function redoclyBin(): string {
  const require = createRequire(import.meta.url);
  try {
    return join(dirname(require.resolve('@redocly/cli/package.json')), 'bin/cli.js');
  } catch {
    throw new Error('building the docs needs @redocly/cli: npm install --save-dev @redocly/cli');
  }
}

async function buildReferencePage(specPath: string, output: string): Promise<void> {
  await run(process.execPath, [redoclyBin(), 'build-docs', specPath, '--output', output, '--inlineBundle', '--lint-config', 'off'], {
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    maxBuffer: 16 * 1024 * 1024,
  });
}

function landingPage(): string {
  const items = interfaces
    .map((info) => `      <li><a href="${info.name}.html">${info.title}</a> — interface ${info.letter}, <code>contrato/${info.name}</code></li>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>contrato — API reference</title>
    <style>body { font: 16px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 3rem auto; padding: 0 1rem; } code { background: #f3f3f3; padding: 0 .2em; }</style>
  </head>
  <body>
    <h1>contrato</h1>
    <p>Contract-first toolkit for the banking platform: typed clients, validators, mocks and this reference are all generated from the hand-written OpenAPI specs.</p>
    <h2>Interfaces</h2>
    <ul>
${items}
    </ul>
    <p>Operations marked <strong>Provisional</strong> have a method or path the provider has not published; their shapes are the provider's.</p>
  </body>
</html>
`;
}

/** Builds the site into `siteDir` unless it was already built from the same specs. Returns whether it built. */
export async function buildSite(siteDir: string, options: { force?: boolean; log?: (line: string) => void } = {}): Promise<boolean> {
  const specs = interfaces.map((info) => bundledSpecPath(info.name));
  const stamp = createHash('sha256')
    .update(specs.map((path) => readFileSync(path, 'utf8')).join('\n'))
    .update(landingPage())
    .digest('hex');
  const stampPath = join(siteDir, '.stamp');
  if (!options.force && existsSync(stampPath) && readFileSync(stampPath, 'utf8') === stamp) return false;
  mkdirSync(siteDir, { recursive: true });
  for (const info of interfaces) {
    const started = Date.now();
    await buildReferencePage(bundledSpecPath(info.name), join(siteDir, `${info.name}.html`));
    options.log?.(`  ✓ ${`${info.name}: reference page (redoc)`.padEnd(34)} ${Date.now() - started} ms`);
  }
  writeFileSync(join(siteDir, 'index.html'), landingPage());
  writeFileSync(stampPath, stamp);
  return true;
}

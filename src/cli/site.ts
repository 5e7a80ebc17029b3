/**
 * The documentation site: one Redoc page per interface and one of the webhook events, rendered by
 * Redocly's build-docs with the Redoc scripts inlined (no CDN, telemetry off), the landing page, the
 * guides and the coverage report (site-pages.ts). Used by `npm run regenerate` and
 * `contrato docs`. Needs @redocly/cli (a dev dependency of contrato, an optional peer for users).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
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

/** Redoc's footer draws its logo from Redocly's CDN; the site loads nothing from elsewhere, so it gets a local blank. */
const cdnLogos = ['https://cdn.redoc.ly/redoc/logo-mini-full.svg', 'https://cdn.redoc.ly/redoc/logo-mini.svg'];
const blankSvg = 'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 width=%221%22 height=%221%22/%3E';

async function buildReferencePage(specPath: string, output: string): Promise<void> {
  await run(process.execPath, [redoclyBin(), 'build-docs', specPath, '--output', output, '--inlineBundle', '--lint-config', 'off'], {
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    maxBuffer: 16 * 1024 * 1024,
  });
  writeFileSync(output, cdnLogos.reduce((html, logo) => html.replaceAll(logo, blankSvg), readFileSync(output, 'utf8')));
}

/** Builds the site into `siteDir` unless it was already built from the same specs. Returns whether it built. */
/** The project's docs folder (guides, coverage report), when contrato runs from its repository. */
function docsDir(): string | null {
  for (const relative of ['../../docs', '../../../docs']) {
    const dir = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(join(dir, 'guides'))) return dir;
  }
  return null;
}

/** Builds the site into `siteDir` unless it was already built from the same sources. Returns whether it built. */
export async function buildSite(siteDir: string, options: { force?: boolean; log?: (line: string) => void } = {}): Promise<boolean> {
  // Loaded here: the pages need `marked`, an optional peer like @redocly/cli, which only building the site needs.
  const { coveragePage, eventsDocument, forReading, guidePages, landingPage } = await import('./site-pages.js');
  const docs = docsDir();
  const guides = docs ? guidePages(docs) : [];
  const coveragePath = docs ? join(docs, 'coverage.md') : null;
  const coverageMarkdown = coveragePath && existsSync(coveragePath) ? readFileSync(coveragePath, 'utf8') : null;
  const documents = interfaces.map((info) => ({ name: info.name, title: info.title, document: JSON.parse(readFileSync(bundledSpecPath(info.name), 'utf8')) as Record<string, unknown> }));
  const pages: { file: string; html: string }[] = [
    { file: 'index.html', html: landingPage() },
    { file: 'coverage.html', html: coveragePage(documents, coverageMarkdown) },
    ...guides.map((guide) => ({ file: join('guides', `${guide.name}.html`), html: guide.html })),
  ];
  const stamp = createHash('sha256')
    // The code that makes the pages is an input too.
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .update(readFileSync(fileURLToPath(new URL(`./site-pages${extname(fileURLToPath(import.meta.url))}`, import.meta.url))))
    .update(JSON.stringify(documents))
    .update(JSON.stringify(pages))
    .digest('hex');
  const stampPath = join(siteDir, '.stamp');
  if (!options.force && existsSync(stampPath) && readFileSync(stampPath, 'utf8') === stamp) return false;
  rmSync(siteDir, { recursive: true, force: true });
  mkdirSync(join(siteDir, 'guides'), { recursive: true });
  const scratch = mkdtempSync(join(tmpdir(), 'contrato-site-'));
  try {
    const references = [
      ...documents.map(({ name, document }) => ({ name, document: forReading(document) })),
      { name: 'events', document: forReading(eventsDocument(documents.find((entry) => entry.name === 'accounts')!.document)) },
    ];
    for (const { name, document } of references) {
      const started = Date.now();
      const input = join(scratch, `${name}.json`);
      writeFileSync(input, JSON.stringify(document));
      await buildReferencePage(input, join(siteDir, `${name}.html`));
      options.log?.(`  ✓ ${`${name}: reference page (redoc)`.padEnd(34)} ${Date.now() - started} ms`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  for (const page of pages) writeFileSync(join(siteDir, page.file), page.html);
  writeFileSync(stampPath, stamp);
  return true;
}

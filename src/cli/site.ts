/**
 * The documentation site: one Redoc page per interface and one of the webhook events, rendered by
 * Redocly's build-docs (telemetry off) and all loading the site's one copy of Redoc's script (no CDN),
 * the landing page, the guides and the coverage report (site-pages.ts, in the frame of site-layout.ts), the
 * specs as Redoc shows them (site-documents.ts), Redoc's page made a page of the site (site-redoc.ts), the
 * icon (favicon.ts). Used by
 * `npm run regenerate` and `contrato docs`. Needs @redocly/cli (a dev dependency of contrato, an optional
 * peer for users).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { checkoutRoot } from '../checkout.js';
import { interfaces } from '../interfaces.js';
import { bundledSpecPath } from '../checks/registry.js';
import { faviconIco, faviconSvg } from './favicon.js';
import { keepFile, keepUnchangedFiles, pageCodeIdentity, readSiteStamp, referenceIsCurrent, siteStamp, stampText } from './site-stamp.js';

const run = promisify(execFile);

function redoclyDir(): string {
  const require = createRequire(import.meta.url);
  try {
    return dirname(require.resolve('@redocly/cli/package.json'));
  } catch {
    throw new Error('building the docs needs @redocly/cli: npm install --save-dev @redocly/cli');
  }
}

function redoclyVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(redoclyDir(), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'none';
  }
}

/**
 * Redoc's sidebar badge ("API docs by" and Redocly's logo) draws the logo from Redocly's CDN; the site loads
 * nothing from elsewhere, so the logo is a local one: the name as a wordmark (full) or its initial (collapsed),
 * sized by Redoc's height of the image (12 and 14 px).
 */
const wordmark = (width: number, text: string): string =>
  `data:image/svg+xml,${encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="14" viewBox="0 0 ${width} 14"><text x="${width / 2}" y="11.5" text-anchor="middle" font-family="system-ui,sans-serif" font-size="12" font-weight="700" fill="#3e5573">${text}</text></svg>`,
  )}`;
export const localRedocLogos: Readonly<Record<string, string>> = {
  'https://cdn.redoc.ly/redoc/logo-mini-full.svg': wordmark(50, 'Redocly'),
  'https://cdn.redoc.ly/redoc/logo-mini.svg': wordmark(14, 'R'),
};

/**
 * Redoc's browser script, the very file build-docs inlines with `--inlineBundle` (and whose CDN copy it
 * imports without it), with the sidebar badge's logo made local. The site serves it once, for every reference page.
 */
function redocScriptText(): string {
  const file = join(redoclyDir(), 'lib/chunks/redoc.standalone.js');
  if (!existsSync(file)) throw new Error(`Redoc's script is not at ${file}: a new @redocly/cli? see redocScriptText in src/cli/site.ts`);
  return Object.entries(localRedocLogos).reduce((script, [cdn, local]) => script.replaceAll(cdn, local), readFileSync(file, 'utf8'));
}

/** Renders `specPath` with Redoc into a page of the site named `page` (the file written is `output`); returns its Redoc sections. */
async function buildReferencePage(specPath: string, output: string, page: string): Promise<string[]> {
  const { headerHeight } = await import('./site-layout.js');
  const { referencePage } = await import('./site-redoc.js');
  // Without --inlineBundle: the page imports Redoc's script, which referencePage points at the site's copy.
  // One config file for Redoc's settings: an --openapi.* flag would replace the whole openapi section, and with it
  // the code samples' languages (Redoc shows only the listed ones; TypeScript is not a default). JSON is YAML.
  const config = `${output}.redocly.yaml`;
  writeFileSync(
    config,
    JSON.stringify({
      telemetry: 'off',
      openapi: { scrollYOffset: headerHeight, codeSamples: { languages: [{ lang: 'TypeScript' }, { lang: 'curl' }] } },
    }),
  );
  const args = ['build-docs', specPath, '--output', output, '--lint-config', 'off', '--config', config];
  await run(process.execPath, [join(redoclyDir(), 'bin/cli.js'), ...args], {
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    maxBuffer: 16 * 1024 * 1024,
  });
  rmSync(config, { force: true });
  const { html, routes } = referencePage(readFileSync(output, 'utf8'), page);
  writeFileSync(output, html);
  return routes;
}

/** The project's docs folder (guides, coverage report), when contrato runs from its repository. */
function docsDir(): string | null {
  const root = checkoutRoot(['docs/guides']);
  return root === null ? null : join(root, 'docs');
}

/** The file of the site that lists each reference page's Redoc sections: `{ "core-banking": ["accounts", "fee-rules", …] }`. */
export const referenceRoutesFile = 'routes.json';

export interface BuildSiteOptions {
  readonly force?: boolean;
  /** The generated tree whose bundled specs the reference pages show (default: generated/ of this package). */
  readonly generatedDir?: string;
  /** The files written (relative to the site), once the new site is in place: the pages that changed. */
  readonly onWritten?: (files: readonly string[]) => void;
  /** One line per page built. */
  readonly log?: (line: string) => void;
  /**
   * Called once when the stamp shows the site must be built (it takes seconds), before the first page; the
   * pages wait for what it returns (`npm start` lets the sandbox start first, with the cores to itself).
   */
  readonly onBuildStart?: () => void | Promise<void>;
}

/**
 * Moves `from` to `to`, replacing it. The old `to` is first renamed aside (one step), never deleted in place: a
 * server reading the site, or another builder putting its own `to` there meanwhile (two test files building the
 * same site), never sees a half-deleted folder; if one did put its own there, the next try moves that aside too.
 */
function replaceFolder(from: string, to: string): void {
  const aside = `${from}-replaced`;
  for (let attempt = 1; ; attempt += 1) {
    try {
      renameSync(to, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    try {
      renameSync(from, to);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (attempt >= 5 || (code !== 'ENOTEMPTY' && code !== 'EEXIST')) throw error;
    } finally {
      rmSync(aside, { recursive: true, force: true });
    }
  }
}

/**
 * Redoc pages built at once: one per core (each build is one busy process), never more than there are pages.
 * With a core a page, a first build costs about its slowest page; with fewer, the pages are shared out.
 */
export const pageBuildsAtOnce = (pages: number): number => Math.max(1, Math.min(pages, availableParallelism()));

/**
 * Builds the site into `siteDir` unless it was already built from the same sources. Returns whether it
 * built. The pages are written to a scratch folder beside `siteDir` that replaces it at the end, so a
 * second builder or a server reading the site never sees half of one.
 */
export async function buildSite(siteDir: string, options: BuildSiteOptions = {}): Promise<boolean> {
  // Loaded here: the pages need `marked`, an optional peer like @redocly/cli, which only building the site needs.
  const { coveragePage, guidePages, landingPage } = await import('./site-pages.js');
  const { eventsDocument, forReading } = await import('./site-documents.js');
  const { redocScript } = await import('./site-redoc.js');
  const docs = docsDir();
  const guides = docs ? guidePages(docs) : [];
  const coveragePath = docs ? join(docs, 'coverage.md') : null;
  const coverageMarkdown = coveragePath && existsSync(coveragePath) ? readFileSync(coveragePath, 'utf8') : null;
  const documents = interfaces.map((info) => ({
    name: info.name,
    title: info.title,
    document: JSON.parse(
      readFileSync(options.generatedDir ? join(options.generatedDir, info.name, 'openapi.json') : bundledSpecPath(info.name), 'utf8'),
    ) as Record<string, unknown>,
  }));
  const pages: { file: string; html: string }[] = [
    { file: 'index.html', html: landingPage() },
    { file: 'coverage.html', html: coveragePage(documents, coverageMarkdown) },
    ...guides.map((guide) => ({ file: join('guides', `${guide.name}.html`), html: guide.html })),
  ];
  const references = [
    ...documents.map(({ name, document }) => ({ name, document: forReading(document) })),
    { name: 'events', document: forReading(eventsDocument(documents.find((entry) => entry.name === 'accounts')!.document)) },
  ].map((reference) => ({ ...reference, file: `${reference.name}.html`, input: JSON.stringify(reference.document) }));
  // The same stamp from src/ under tsx and from dist/ (site-stamp.ts); a reference page is rebuilt only when its document changed.
  const stamp = siteStamp(pageCodeIdentity(import.meta.url, redoclyVersion()), references, pages);
  const previous = options.force ? null : readSiteStamp(siteDir);
  if (previous?.site === stamp.site && existsSync(siteDir)) return false;
  const previousRoutes = ((): Record<string, string[] | undefined> => {
    try {
      return JSON.parse(readFileSync(join(siteDir, referenceRoutesFile), 'utf8')) as Record<string, string[]>;
    } catch {
      return {};
    }
  })();
  await options.onBuildStart?.();
  mkdirSync(dirname(resolve(siteDir)), { recursive: true });
  const building = mkdtempSync(join(dirname(resolve(siteDir)), `.${basename(siteDir)}-building-`));
  const scratch = mkdtempSync(join(tmpdir(), 'contrato-site-'));
  try {
    mkdirSync(join(building, 'guides'), { recursive: true });
    const routes: Record<string, string[]> = {};
    const toRender = references.filter((reference) => {
      const kept = previousRoutes[reference.name];
      if (!kept || !referenceIsCurrent(siteDir, previous, stamp, reference.file)) return true;
      // Rendered from the same document by the same code: the old page is kept, not rendered again.
      keepFile(siteDir, building, reference.file);
      routes[reference.name] = kept;
      return false;
    });
    // The largest documents first: the page that takes longest never starts last, behind the others.
    const queue = [...toRender].sort((a, b) => b.input.length - a.input.length);
    const atOnce = pageBuildsAtOnce(queue.length);
    if (queue.length > 0)
      options.log?.(
        `building ${queue.length} reference ${queue.length === 1 ? 'page' : 'pages'} with Redoc, ${atOnce} at a time (${queue.map(({ name }) => name).join(', ')})`,
      );
    const worker = async (): Promise<void> => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const started = Date.now();
        options.log?.(`  … ${next.name}: reference page (redoc)`);
        const input = join(scratch, `${next.name}.json`);
        writeFileSync(input, next.input);
        routes[next.name] = await buildReferencePage(input, join(building, `${next.name}.html`), `${next.name}.html`);
        options.log?.(`  ✓ ${`${next.name}: reference page (redoc)`.padEnd(34)} ${Date.now() - started} ms`);
      }
    };
    await Promise.all(Array.from({ length: atOnce }, worker));
    for (const page of pages) writeFileSync(join(building, page.file), page.html);
    writeFileSync(join(building, redocScript), redocScriptText());
    writeFileSync(join(building, 'favicon.svg'), faviconSvg);
    writeFileSync(join(building, 'favicon.ico'), faviconIco());
    // The Redoc sections of each reference page, for the docs server's redirects of path-style links (servers.ts).
    writeFileSync(
      join(building, referenceRoutesFile),
      `${JSON.stringify(Object.fromEntries(references.map(({ name }) => [name, routes[name]])), null, 2)}\n`,
    );
    const written = keepUnchangedFiles(building, siteDir);
    writeFileSync(join(building, '.stamp'), stampText(stamp));
    replaceFolder(building, siteDir);
    options.onWritten?.(written);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    rmSync(building, { recursive: true, force: true });
  }
  return true;
}

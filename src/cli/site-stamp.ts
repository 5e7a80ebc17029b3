/**
 * What decides whether the docs site, or one page of it, must be built again: `site/.stamp`. Every path
 * that builds the site — `npm run regenerate`, `contrato docs` (also from dist/, as `npx contrato docs`
 * runs it), `npm start` — computes the same stamp from the same sources, so alternating them rebuilds
 * nothing; and a change of one document rebuilds its reference page only (Redoc takes seconds a page),
 * while every other file of the site that comes out the same is kept as it was: same file, same time.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The modules that make the pages, below src/: their code is an input of every page. What they are given
 * (the documents, the guides) is hashed apart. A new one joins this list; test/cli/site-stamp.test.ts
 * checks it against the imports of the site's modules.
 */
export const pageModules = [
  'cli/site',
  'cli/site-layout',
  'cli/site-pages',
  'cli/site-documents',
  'cli/site-redoc',
  'cli/favicon',
  'bundle-operations',
  'checkout',
  'runtime/json-pointer',
] as const;

/**
 * The code that makes the pages, as one hash that is the same whichever form runs it: the TypeScript
 * sources (under tsx) or their build in dist/. A build counts as its sources when none of its files is
 * older than its source (scripts/build.mjs rebuilds dist/ whenever src/ changed); otherwise, and in an
 * installed package without src/, the built files themselves are hashed, so a stale build never passes
 * for the current code. `siteModuleUrl` is site.ts's (or site.js's) own URL; `extra` (the Redoc version)
 * is part of the hash.
 */
export function pageCodeIdentity(siteModuleUrl: string, extra: string): string {
  const extension = extname(fileURLToPath(siteModuleUrl));
  // site.ts is src/cli/site.ts, site.js is dist/src/cli/site.js: the folder src/ of either.
  const running = pageModules.map((name) => fileURLToPath(new URL(`../${name}${extension}`, siteModuleUrl)));
  let code = running;
  if (extension === '.js') {
    const sources = pageModules.map((name) => fileURLToPath(new URL(`../../../src/${name}.ts`, siteModuleUrl)));
    // A module absent from both (an older version of the site) counts as built from its source.
    const builtFrom = (source: string, built: string): boolean =>
      existsSync(source) ? existsSync(built) && statSync(built).mtimeMs >= statSync(source).mtimeMs : !existsSync(built);
    if (existsSync(sources[0]!) && sources.every((source, index) => builtFrom(source, running[index]!))) code = sources;
  }
  const hash = createHash('sha256');
  for (const [index, file] of code.entries()) {
    hash.update(`${pageModules[index]}\0`);
    if (existsSync(file)) hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.update(extra).digest('hex');
}

/** `site/.stamp`: the whole site's hash, and per reference page the hash of what Redoc was given. */
export interface SiteStamp {
  readonly site: string;
  readonly references: Readonly<Record<string, string>>;
}

const sha256 = (...parts: string[]): string => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex');
};

/**
 * The stamp of a site made by `code` from `references` (page file -> the JSON Redoc renders) and `pages`
 * (the other files, with their content).
 */
export function siteStamp(
  code: string,
  references: readonly { readonly file: string; readonly input: string }[],
  pages: readonly { readonly file: string; readonly html: string }[],
): SiteStamp {
  const byFile = Object.fromEntries(
    references
      .map((reference) => [reference.file, sha256(code, reference.input)] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  const site = sha256(
    code,
    JSON.stringify(byFile),
    ...[...pages].sort((a, b) => (a.file < b.file ? -1 : 1)).flatMap((page) => [page.file, sha256(page.html)]),
  );
  return { site, references: byFile };
}

/** The stamp of the site in `siteDir`, or null (none, or the single hash of earlier versions: all is built). */
export function readSiteStamp(siteDir: string): SiteStamp | null {
  try {
    const stamp = JSON.parse(readFileSync(join(siteDir, '.stamp'), 'utf8')) as Partial<SiteStamp> | null;
    if (typeof stamp?.site === 'string' && stamp.references && typeof stamp.references === 'object') return stamp as SiteStamp;
  } catch {
    // Missing or unreadable.
  }
  return null;
}

export const stampText = (stamp: SiteStamp): string => `${JSON.stringify(stamp, null, 2)}\n`;

/** Whether the reference page `file` of the site in `siteDir` was rendered from what `stamp` says it is made of now. */
export function referenceIsCurrent(siteDir: string, previous: SiteStamp | null, stamp: SiteStamp, file: string): boolean {
  return previous !== null && previous.references[file] === stamp.references[file] && existsSync(join(siteDir, file));
}

/** Puts the old site's `file` into the site being put together, as the same file (a link; a copy across devices). */
export function keepFile(siteDir: string, building: string, file: string): void {
  mkdirSync(dirname(join(building, file)), { recursive: true });
  try {
    linkSync(join(siteDir, file), join(building, file));
  } catch {
    copyFileSync(join(siteDir, file), join(building, file));
  }
}

const filesBelow = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesBelow(join(dir, entry.name)).map((file) => join(entry.name, file)) : [entry.name],
  );

function sameFile(a: string, b: string): boolean {
  const [first, second] = [statSync(a), statSync(b)];
  return first.ino === second.ino && first.dev === second.dev;
}

function sameContent(a: string, b: string): boolean {
  return sameFile(a, b) || (statSync(a).size === statSync(b).size && readFileSync(a).equals(readFileSync(b)));
}

/**
 * In the site being put together in `building`, every file that is the same as in the old `siteDir`
 * becomes a link to the old file (so its time is kept, and a server or a browser sees it unchanged).
 * Answers the files that are new or differ, relative to the site.
 */
export function keepUnchangedFiles(building: string, siteDir: string): string[] {
  const written: string[] = [];
  for (const file of filesBelow(building)) {
    const old = join(siteDir, file);
    const fresh = join(building, file);
    if (file !== '.stamp' && existsSync(old) && statSync(old).isFile() && sameContent(fresh, old)) {
      if (sameFile(fresh, old)) continue;
      try {
        linkSync(old, `${fresh}.kept`);
        renameSync(`${fresh}.kept`, fresh);
        continue;
      } catch {
        // Another builder replaced the old site meanwhile: the new file stays.
        rmSync(`${fresh}.kept`, { force: true });
      }
    }
    written.push(file.split('\\').join('/'));
  }
  return written.sort();
}

/**
 * A crawler over the documentation site in Chromium: from the landing page it collects every same-origin
 * link (the anchors of each page, the Redoc sidebar's among them, as rendered) and opens EACH as a fresh
 * page — a new tab and a new navigation to the URL, never a click — as someone does who opens a link in a
 * new tab, follows a bookmark or a shared link. On every page: no response of 400 or more (the page, its
 * script, its icon), no console error, nothing asked of another host, Redoc's "no page at this address"
 * never shown, and the site header with its links to the landing page, every reference page, the webhook
 * events, the coverage report and every guide.
 *
 * Bounded: at most `CONTRATO_CRAWL_LIMIT` pages (default below; about 0.6 s a page here), opened in order
 * of kind — the site's pages, then Redoc's sections (`#/fee-rules`), then its operations, then anchors inside
 * a page (Redoc's deep links: thousands), each kind spread over the pages — so every file and every section
 * is opened within the bound (asserted), and the count is printed. The site has about 2,900 internal URLs;
 * `CONTRATO_CRAWL_LIMIT=3000` opens them all (half an hour).
 *
 * Then every operation of every reference page, reached through its sidebar link in one tab per page
 * (Redoc renders an operation's panel only when it is shown): its request samples offer TypeScript first
 * and curl in the language menu.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { serveStatic, type RunningServer } from '../../src/cli/servers.js';
import { buildSite } from '../../src/cli/site.js';
import { guideTitles } from '../../src/cli/site-layout.js';
import { interfaces } from '../../src/interfaces.js';
import { launchChromium } from '../helpers/browser.js';

const siteDir = join(projectRoot, 'site');
const limit = Number(process.env.CONTRATO_CRAWL_LIMIT ?? 120);
/** Tabs open at once (two cores; Redoc keeps one busy while it hydrates). */
const concurrency = 3;

let browser: Browser;
let context: BrowserContext;
let site: RunningServer;

beforeAll(async () => {
  await buildSite(siteDir);
  site = await serveStatic(siteDir, 0);
  browser = (await launchChromium()).browser;
  // One context: the browser cache keeps Redoc's script between pages as it does for a reader (revalidated, 304).
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

interface Visit {
  readonly url: string;
  readonly status: number | undefined;
  /** Responses of 400 or more while the page loaded, with their URLs. */
  readonly failed: string[];
  readonly errors: string[];
  readonly external: string[];
  /** Redoc's own "No page at this address" (its router knows no such route). */
  readonly redocNotFound: boolean;
  /** Paths the header links to. */
  readonly header: string[];
  /** Same-origin links of the page, absolute. */
  readonly links: string[];
}

/** Opens `url` in a new tab of its own, as a fresh page load. */
async function visit(url: string): Promise<Visit> {
  const tab = await context.newPage();
  const failed: string[] = [];
  const errors: string[] = [];
  const external: string[] = [];
  tab.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  tab.on('pageerror', (error) => errors.push(error.message));
  tab.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  await tab.route('**/*', (route) => {
    const target = new URL(route.request().url());
    if (target.protocol === 'data:' || target.protocol === 'blob:' || target.hostname === '127.0.0.1') return route.continue();
    external.push(route.request().url());
    return route.abort();
  });
  try {
    const response = await tab.goto(url, { waitUntil: 'networkidle' });
    // Page functions as strings: they run in the browser, whose DOM types this Node project does not load.
    const found = (await tab.evaluate(`({
      links: [...document.querySelectorAll('a[href]')].map((a) => a.href),
      header: [...document.querySelectorAll('header.site-header a[href]')].map((a) => new URL(a.href).pathname),
      redocNotFound: document.querySelector('.not-found-page') !== null,
    })`)) as { links: string[]; header: string[]; redocNotFound: boolean };
    const origin = new URL(url).origin;
    return {
      url,
      status: response?.status(),
      failed,
      errors,
      external,
      redocNotFound: found.redocNotFound,
      header: found.header,
      links: found.links.filter((link) => new URL(link).origin === origin),
    };
  } finally {
    await tab.close();
  }
}

/**
 * Which kind of URL, opened first to last: 0 a page of the site, 1 a Redoc section or its top (`#/`,
 * `#/fee-rules`), 2 an operation (`#/fee-rules/feerules.create`), 3 an anchor in a page (`#signature`,
 * Redoc's deep links `#/fee-rules/feerules.list#…/request`).
 */
function kind(url: string): number {
  const { hash } = new URL(url);
  if (!hash) return 0;
  if (!hash.startsWith('#/') || hash.indexOf('#', 1) > 0) return 3;
  return hash.split('/').filter(Boolean).length <= 2 ? 1 : 2;
}

describe('documentation site crawled in Chromium, every link opened as a fresh page', () => {
  it('answers every internal URL: no 404, no console error, the header on every page', async () => {
    const start = `${site.url}/index.html`;
    const found = new Map<string, number>([[start, 0]]);
    const pending: string[] = [start];
    const visits: Visit[] = [];
    // The next URL: of the first kind left; within operations and anchors, of the page opened least so far, so
    // a bound below their number still spreads over every page.
    const taken = new Map<string, number>();
    const rank = (url: string): number => found.get(url)! * 1e6 + (found.get(url)! >= 2 ? (taken.get(new URL(url).pathname) ?? 0) : 0);
    const take = (): string | undefined => {
      if (pending.length === 0) return undefined;
      let best = 0;
      for (let index = 1; index < pending.length; index += 1) if (rank(pending[index]!) < rank(pending[best]!)) best = index;
      const [url] = pending.splice(best, 1);
      const { pathname } = new URL(url!);
      taken.set(pathname, (taken.get(pathname) ?? 0) + 1);
      return url;
    };
    let opening = 0;
    const worker = async (): Promise<void> => {
      while (visits.length + opening < limit) {
        const url = take();
        if (!url) {
          // Nothing to open now; the pages the other tabs are opening may bring more.
          if (opening === 0) return;
          await new Promise((resolve) => setTimeout(resolve, 50));
          continue;
        }
        opening += 1;
        try {
          const visited = await visit(url);
          visits.push(visited);
          for (const link of visited.links)
            if (!found.has(link)) {
              found.set(link, kind(link));
              pending.push(link);
            }
        } finally {
          opening -= 1;
        }
      }
    };
    const started = Date.now();
    await Promise.all(Array.from({ length: concurrency }, worker));
    const byKind = [0, 1, 2, 3].map(
      (which) => `${visits.filter((v) => kind(v.url) === which).length}/${[...found.values()].filter((k) => k === which).length}`,
    );
    console.log(
      `crawled ${visits.length} pages of ${found.size} internal URLs found (limit ${limit}; pages, sections, operations, anchors: ${byKind.join(', ')}) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );

    const relative = (url: string): string => url.slice(site.url.length);
    expect(visits.filter((v) => v.status !== 200).map((v) => `${v.status} ${relative(v.url)}`)).toEqual([]);
    expect(visits.flatMap((v) => v.failed.map((failure) => `${relative(v.url)}: ${failure}`))).toEqual([]);
    expect(visits.flatMap((v) => v.errors.map((error) => `${relative(v.url)}: ${error}`))).toEqual([]);
    expect(visits.flatMap((v) => v.external.map((request) => `${relative(v.url)}: ${request}`))).toEqual([]);
    expect(visits.filter((v) => v.redocNotFound).map((v) => relative(v.url))).toEqual([]);
    const headerLinks = [
      '/index.html',
      ...interfaces.map((info) => `/${info.name}.html`),
      '/events.html',
      '/coverage.html',
      ...Object.keys(guideTitles).map((name) => `/guides/${name}.html`),
    ];
    expect(visits.filter((v) => headerLinks.some((link) => !v.header.includes(link))).map((v) => relative(v.url))).toEqual([]);

    // Within the bound: every file of the site and every Redoc section the pages link to.
    const opened = new Set(visits.map((v) => v.url));
    expect(headerLinks.filter((link) => !opened.has(`${site.url}${link}`))).toEqual([]);
    expect([...found].filter(([url, which]) => which <= 1 && !opened.has(url)).map(([url]) => relative(url))).toEqual([]);
    // The sidebar's sections of each reference page were among the links.
    for (const info of interfaces) expect([...opened].some((url) => url.startsWith(`${site.url}/${info.name}.html#/`))).toBe(true);
  }, 900_000);

  it('shows a TypeScript and a curl sample on every operation of every reference page', async () => {
    const missing: string[] = [];
    let shown = 0;
    for (const info of interfaces) {
      const bundle = JSON.parse(readFileSync(join(projectRoot, 'generated', info.name, 'openapi.json'), 'utf8')) as {
        paths: Record<string, Record<string, unknown>>;
      };
      const methods = new Set(['get', 'put', 'post', 'patch', 'delete']);
      // Redoc's operation slug is the operationId in lower case; the webhook deliveries (`#/events/…`) are no calls.
      const operations = new Set(
        Object.values(bundle.paths).flatMap((item) =>
          Object.entries(item)
            .filter(([method]) => methods.has(method))
            .map(([, operation]) => (operation as { operationId: string }).operationId.toLowerCase()),
        ),
      );
      const tab = await context.newPage();
      try {
        await tab.goto(`${site.url}/${info.name}.html`, { waitUntil: 'networkidle' });
        // The sidebar's operation links (`#/<tag>/<operation>`); it lists a group's operations once the group is open.
        const linksOfDepth = async (depth: number): Promise<string[]> =>
          (await tab.evaluate(`[...new Set([...document.querySelectorAll('a[href*="#/"]')]
            .map((a) => new URL(a.href).hash)
            .filter((hash) => hash.indexOf('#', 1) < 0 && hash.split('/').filter(Boolean).length === ${depth + 1}))]`)) as string[];
        const hashes = new Set<string>();
        const operationHashesSeen = (): string[] => [...hashes].filter((hash) => operations.has(hash.slice(hash.lastIndexOf('/') + 1)));
        // A loaded machine can miss a click while Redoc is still rendering: the groups whose operations did not
        // appear are opened again, at most three rounds (a group of text only never lists any: the count tells).
        const opened = new Set<string>();
        for (let round = 0; round < 3 && operationHashesSeen().length < operations.size; round++) {
          for (const group of await linksOfDepth(1)) {
            if (opened.has(group)) continue;
            // A click, as a reader opens a group: the sidebar then lists its operations.
            await tab.locator(`nav a[href="${group}"], aside a[href="${group}"], a[href="${group}"]`).first().click();
            const listed = await tab
              .waitForFunction(`document.querySelectorAll('a[href^="${group}/"]').length > 0`, undefined, { timeout: 5_000 })
              .then(() => true)
              .catch(() => false);
            if (listed) opened.add(group);
            for (const hash of await linksOfDepth(2)) hashes.add(hash);
          }
        }
        const operationHashes = operationHashesSeen();
        expect(operationHashes.length, `${info.name}: sidebar links to operations`).toBe(operations.size);
        for (const hash of operationHashes) {
          await tab.evaluate(`location.hash = ${JSON.stringify(hash)}`);
          const section = tab.locator(`[data-section-id="${hash.slice(1)}"]`);
          const language = section.locator('button', { hasText: 'TypeScript' }).first();
          try {
            await language.click({ timeout: 10_000 });
          } catch {
            missing.push(`${info.name}.html${hash}: no TypeScript sample`);
            continue;
          }
          // Redoc renders the open language menu at the end of the page, outside the section.
          const menu = tab.locator('[role="menu"]:visible');
          await menu
            .getByRole('menuitem', { name: 'curl' })
            .waitFor({ timeout: 5_000 })
            .catch(() => undefined);
          const items = (await menu.getByRole('menuitem').allTextContents()).map((item) => item.trim());
          if (!items.includes('curl')) missing.push(`${info.name}.html${hash}: languages ${items.join(', ')}`);
          else shown += 1;
          // Its own button closes it again, so that no open menu covers the next operation's.
          await language.click({ timeout: 5_000 });
          await menu.waitFor({ state: 'hidden', timeout: 5_000 });
        }
      } finally {
        await tab.close();
      }
    }
    console.log(`${shown} operations show a TypeScript and a curl sample`);
    expect(missing).toEqual([]);
  }, 600_000);
});

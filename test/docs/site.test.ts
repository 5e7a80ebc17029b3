/**
 * The documentation site in a real browser (Chromium driven by playwright-core; see helpers/browser.ts): every page
 * loads without console errors and without a single request leaving 127.0.0.1, every operationId of
 * every spec is on its interface's page, every event on the events page, provisional operations are
 * marked; every line of the guides' code blocks is in view on a wide and a phone screen; Redoc's "API docs by"
 * badge shows its logo; a screenshot of each page goes to test-artifacts/screenshots.
 */
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { bundledSpecPath } from '../../src/checks/registry.js';
import { serveStatic, type RunningServer } from '../../src/cli/servers.js';
import { buildSite } from '../../src/cli/site.js';
import { guideTitles } from '../../src/cli/site-layout.js';
import { interfaces } from '../../src/interfaces.js';
import { launchChromium } from '../helpers/browser.js';

const siteDir = join(projectRoot, 'site');
const screenshots = join(projectRoot, 'test-artifacts/screenshots');
let browser: Browser;
let site: RunningServer;

beforeAll(async () => {
  await buildSite(siteDir);
  site = await serveStatic(siteDir, 0);
  mkdirSync(screenshots, { recursive: true });
  const launched = await launchChromium();
  browser = launched.browser;
  console.log(`browser: ${launched.source}`);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

interface Visit {
  readonly text: string;
  readonly html: string;
  /** Where the page's links point (Redoc routes each operation as `#/<tag>/<operationid>`). */
  readonly links: string[];
  /** The operationIds shown as text when each linked operation was opened (Redoc renders on navigation). */
  readonly shown: string[];
  /** Provisional operations whose section said so when opened. */
  readonly markedProvisional: string[];
  readonly errors: string[];
  readonly external: string[];
}

async function visit(
  page: string,
  options: { openOperations?: readonly { id: string; tag: string; provisional?: boolean; reason?: string }[] } = {},
): Promise<Visit> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const tab = await context.newPage();
  const errors: string[] = [];
  const external: string[] = [];
  tab.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  tab.on('pageerror', (error) => errors.push(error.message));
  await tab.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'data:' || url.protocol === 'blob:' || url.hostname === '127.0.0.1') return route.continue();
    external.push(route.request().url());
    return route.abort();
  });
  const response = await tab.goto(`${site.url}/${page}`, { waitUntil: 'networkidle' });
  expect(response?.status(), page).toBe(200);
  await tab.screenshot({ path: join(screenshots, `${page.replace(/\//g, '_').replace(/\.html$/, '')}.png`), fullPage: false });
  // Page functions as strings: they run in the browser, whose DOM types this Node project does not load.
  const links = (await tab.evaluate("[...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href') ?? '')")) as string[];
  const shown: string[] = [];
  // Redoc routes an operation as #/<tag slug>/<operationid>; it renders a section when it is navigated to.
  const slug = (tag: string): string =>
    tag
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
  const markedProvisional: string[] = [];
  for (const { id, tag, provisional, reason } of options.openOperations ?? []) {
    await tab.evaluate(`window.location.hash = ${JSON.stringify(`/${slug(tag)}/${id.toLowerCase()}`)}`);
    const found = await tab
      .waitForFunction(`document.body.innerText.includes(${JSON.stringify(`operationId ${id}`)})`, undefined, { timeout: 5_000 })
      .then(
        () => true,
        () => false,
      );
    if (found) shown.push(id);
    // Its own section says so, with its own reason (the sidebar's "[Provisional]" alone would not prove it).
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's page.innerText (the rendered text), not a DOM node's.
    if (found && provisional && (await tab.innerText('body')).includes(`Provisional — ${(reason ?? '').slice(0, 40)}`))
      markedProvisional.push(id);
  }
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's page.innerText (the rendered text), not a DOM node's.
  const result = { text: await tab.innerText('body'), html: await tab.content(), links, shown, markedProvisional, errors, external };
  await context.close();
  return result;
}

const documentOf = (name: string) =>
  JSON.parse(readFileSync(bundledSpecPath(name as Parameters<typeof bundledSpecPath>[0]), 'utf8')) as Record<string, any>;
const operationIdsOf = (
  document: Record<string, any>,
): { id: string; tag: string; provisional: boolean; reason: string; summary: string }[] =>
  Object.values((document.paths ?? {}) as Record<string, Record<string, any>>).flatMap((item) =>
    Object.values(item)
      .filter((operation) => operation && typeof operation === 'object' && 'operationId' in operation)
      .map((operation) => ({
        id: String(operation.operationId),
        tag: String(operation.tags?.[0] ?? ''),
        provisional: operation['x-provisional'] === true,
        reason: String(operation['x-provisional-reason'] ?? ''),
        summary: String(operation.summary ?? ''),
      })),
  );

describe('documentation site in Chromium', () => {
  it.each(interfaces.map((info) => info.name))(
    '%s: loads offline and clean, shows every operationId, marks provisional operations',
    async (name) => {
      const operations = operationIdsOf(documentOf(name));
      expect(operations.length).toBeGreaterThan(0);
      const page = await visit(`${name}.html`, { openOperations: operations });
      expect(page.errors).toEqual([]);
      expect(page.external).toEqual([]);
      // Every operation opened from its link shows its operationId (and the client method named after it).
      expect(operations.map((operation) => operation.id).filter((id) => !page.shown.includes(id))).toEqual([]);
      const provisional = operations.filter((operation) => operation.provisional).map((operation) => operation.id);
      expect(provisional.filter((id) => !page.markedProvisional.includes(id))).toEqual([]);
    },
    120_000,
  );

  it('events: every webhook event type is on its page', async () => {
    const webhooks = documentOf('accounts').webhooks as Record<string, { post: { operationId: string } }>;
    expect(Object.keys(webhooks)).toHaveLength(14);
    const events = Object.values(webhooks).map((item) => ({ id: item.post.operationId, tag: 'Events' }));
    const page = await visit('events.html', { openOperations: events });
    expect(page.errors).toEqual([]);
    expect(page.external).toEqual([]);
    expect(events.map((event) => event.id).filter((id) => !page.shown.includes(id))).toEqual([]);
  }, 60_000);

  it('landing page, coverage report and every guide load offline and clean, and link to each other', async () => {
    const guides = readdirSync(join(projectRoot, 'docs/guides')).map((file) => `guides/${file.replace(/\.md$/, '.html')}`);
    expect(guides).toHaveLength(Object.keys(guideTitles).length);
    for (const page of ['index.html', 'coverage.html', ...guides]) {
      const visited = await visit(page);
      expect(visited.errors, page).toEqual([]);
      expect(visited.external, page).toEqual([]);
      expect(visited.html, page).toContain('href="');
    }
    const landing = await visit('index.html');
    for (const info of interfaces) expect(landing.html).toContain(`href="${info.name}.html"`);
    expect(landing.text).toContain('npm ci && npm start');
    const coverage = await visit('coverage.html');
    expect(coverage.text).toMatch(/Accounts API[\s\S]*described/);
  }, 120_000);

  it.each([
    { given: 'a wide screen', width: 1280 },
    { given: 'a phone', width: 390 },
  ])(
    'guides on $given: no line of a code block runs past its edge',
    async ({ width }) => {
      const guides = Object.keys(guideTitles).map((name) => `guides/${name}.html`);
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const tab = await context.newPage();
      const clipped: string[] = [];
      let longLines = 0;
      try {
        for (const page of guides) {
          await tab.goto(`${site.url}/${page}`, { waitUntil: 'load' });
          // Per block: whether its content is wider than its box (what a reader could not see without a scrollbar)
          // and its longest line in characters, so the check is known to meet lines longer than the box.
          const blocks = (await tab.evaluate(`[...document.querySelectorAll('main pre')].map((pre) => ({
          hidden: pre.scrollWidth - pre.clientWidth,
          right: pre.getBoundingClientRect().right - document.documentElement.clientWidth,
          longest: Math.max(...pre.textContent.split('\\n').map((line) => line.length)),
          fits: Math.floor(pre.clientWidth / 8),
        }))`)) as { hidden: number; right: number; longest: number; fits: number }[];
          for (const [index, block] of blocks.entries()) {
            if (block.longest > block.fits) longLines += 1;
            if (block.hidden > 1 || block.right > 1) clipped.push(`${page} block ${index + 1}: ${block.hidden} px hidden`);
          }
        }
      } finally {
        await context.close();
      }
      expect(longLines).toBeGreaterThan(0);
      expect(clipped).toEqual([]);
    },
    120_000,
  );

  it('shows the logo of Redoc’s "API docs by" badge, drawn from the site', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const tab = await context.newPage();
    try {
      await tab.goto(`${site.url}/pix.html`, { waitUntil: 'networkidle' });
      const badge = tab.locator('a[href="https://redocly.com/redoc/"]', { hasText: 'API docs by' });
      const logo = badge.locator('img');
      await logo.waitFor({ state: 'visible', timeout: 10_000 });
      const drawn = (await tab.evaluate(`(() => {
        const img = document.querySelector('a[href="https://redocly.com/redoc/"] img');
        return { loaded: img.complete && img.naturalWidth > 1, width: img.getBoundingClientRect().width, local: img.src.startsWith('data:image/svg+xml') };
      })()`)) as { loaded: boolean; width: number; local: boolean };
      expect(drawn).toEqual({ loaded: true, width: expect.any(Number), local: true });
      // A word, not the 1-pixel blank the badge once had.
      expect(drawn.width).toBeGreaterThan(20);
    } finally {
      await context.close();
    }
  }, 60_000);
});

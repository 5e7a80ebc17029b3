/**
 * The documentation site over plain HTTP: built offline from the bundled specs and served on loopback;
 * the reference pages share one copy of Redoc's script; the icon; the redirects of path-style links to
 * the reference pages' sections, and a 404 for a path no page owns; validators and gzip; the pages given
 * the addresses in use when the servers they name moved, the site on disk left as built.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledSpecPath } from '../../src/checks/registry.js';
import { serveStatic, type RunningServer } from '../../src/cli/servers.js';
import { withMovedAddresses } from '../../src/cli/site-server.js';
import { buildSite, localRedocLogos } from '../../src/cli/site.js';
import { interfaces } from '../../src/interfaces.js';

const siteDir = mkdtempSync(join(tmpdir(), 'contrato-site-'));
let server: RunningServer;

beforeAll(async () => {
  await buildSite(siteDir);
  server = await serveStatic(siteDir, 0);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  rmSync(siteDir, { recursive: true, force: true });
});

/** A request that does not follow redirects. */
const get = (path: string, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(`${server.url}${path}`, { redirect: 'manual', headers });

describe('documentation site', () => {
  it('serves a landing page linking every interface', async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    const html = await response.text();
    for (const info of interfaces) expect(html).toContain(`href="${info.name}.html"`);
  });

  it.each(interfaces.map((info) => info.name))(
    'serves the %s reference, loading the site’s one copy of Redoc’s script, with every operationId',
    async (name) => {
      const response = await fetch(`${server.url}/${name}.html`);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).not.toMatch(/<script[^>]+src="https?:/);
      expect(html).not.toContain('cdn.redocly.com');
      expect(html).toContain('import { hydrate } from "./redoc.standalone.js";');
      // Not inlined: the page is its prerendered HTML, its styles and its definition.
      expect(html).not.toContain('export{RedocStandalone');
      expect(html).toContain('<header class="site-header">');
      const spec = JSON.parse(readFileSync(bundledSpecPath(name), 'utf8')) as {
        paths: Record<string, Record<string, { operationId?: string }>>;
      };
      const operationIds = Object.values(spec.paths).flatMap((item) =>
        Object.values(item)
          .map((op) => op.operationId)
          .filter(Boolean),
      );
      for (const id of operationIds) expect(html).toContain(`"operationId":"${id}"`);
    },
  );

  it('routes by hash: the prerendered Redoc links and the coverage report’s links name sections and operations the pages have', async () => {
    const routes = JSON.parse(readFileSync(join(siteDir, 'routes.json'), 'utf8')) as Record<string, string[]>;
    expect(Object.keys(routes).sort()).toEqual([...interfaces.map((info) => info.name), 'events'].sort());
    for (const [page, sections] of Object.entries(routes)) {
      const html = await (await fetch(`${server.url}/${page}.html`)).text();
      const prerendered = html.slice(html.indexOf('<div id="redoc">'), html.lastIndexOf('<script type="module">'));
      // No history-style link left (they answered 404 when opened in a new tab).
      expect(prerendered.match(/ href="\/[^"]*"/g) ?? [], page).toEqual([]);
      for (const section of sections) expect(prerendered, page).toContain(` href="#/${section}"`);
    }
    const coverage = await (await fetch(`${server.url}/coverage.html`)).text();
    const links = [...coverage.matchAll(/href="([a-z-]+)\.html#\/([^"/]+)\/([^"/]+)"/g)];
    const operationIds = Object.fromEntries(
      interfaces.map((info) => {
        const spec = JSON.parse(readFileSync(bundledSpecPath(info.name), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
        const ids = Object.values(spec.paths)
          .flatMap((item) => Object.values(item))
          .flatMap((op) => (typeof op === 'object' && op !== null && 'operationId' in op ? [String(op.operationId).toLowerCase()] : []));
        return [info.name, ids];
      }),
    );
    // One link per operation, to its section and its route as Redoc names them.
    expect(links.length).toBe(Object.values(operationIds).flat().length);
    for (const [, page = '', section = '', operation = ''] of links) {
      expect(routes[page], page).toContain(section);
      expect(operationIds[page], page).toContain(decodeURIComponent(operation));
    }
  });

  it('serves Redoc’s script once for all pages, as JavaScript', async () => {
    const response = await fetch(`${server.url}/redoc.standalone.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const script = await response.text();
    expect(script).toContain('export{RedocStandalone,hydrate,init}');
    expect(script).not.toContain('https://cdn.redoc.ly/');
    // The sidebar badge ("API docs by") draws a local logo instead of an empty image.
    for (const logo of Object.values(localRedocLogos)) expect(script).toContain(logo);
  });

  it('serves the icon at /favicon.ico (an ICO holding a 32×32 PNG) and /favicon.svg, and every page links it', async () => {
    const ico = await fetch(`${server.url}/favicon.ico`);
    expect(ico.status).toBe(200);
    expect(ico.headers.get('content-type')).toBe('image/x-icon');
    const bytes = Buffer.from(await ico.arrayBuffer());
    expect([...bytes.subarray(0, 6)]).toEqual([0, 0, 1, 0, 1, 0]);
    expect([bytes[6], bytes[7]]).toEqual([32, 32]);
    const offset = bytes.readUInt32LE(18);
    expect(bytes.subarray(offset, offset + 8).toString('latin1')).toBe('\x89PNG\r\n\x1a\n');
    expect(offset + bytes.readUInt32LE(14)).toBe(bytes.length);
    const svg = await fetch(`${server.url}/favicon.svg`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    for (const page of ['index.html', 'coverage.html', 'pix.html', 'events.html'])
      expect(await (await fetch(`${server.url}/${page}`)).text()).toContain('<link rel="icon" href="favicon.ico"');
    expect(await (await fetch(`${server.url}/guides/sandbox.html`)).text()).toContain('<link rel="icon" href="../favicon.ico"');
  });

  it('sends a path-style link to a section to its reference page (hash route), and answers 404 for a path no page owns', async () => {
    const redirects: [string, string][] = [
      ['/pix/cob', '/pix.html#/cob'],
      ['/core-banking/fee-rules', '/core-banking.html#/fee-rules'],
      ['/core-banking/fee-rules/feerules.create', '/core-banking.html#/fee-rules/feerules.create'],
      ['/accounts/authentication', '/accounts.html#/authentication'],
      ['/events/events', '/events.html#/events'],
      // Links of the sites built before hash routing, when one page alone has the section.
      ['/fee-rules', '/core-banking.html#/fee-rules'],
      ['/cob', '/pix.html#/cob'],
    ];
    for (const [path, location] of redirects) {
      const response = await get(path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get('location'), path).toBe(location);
      // Followed, as a browser does on a fresh load.
      expect((await fetch(`${server.url}${path}`)).status, path).toBe(200);
    }
    // A section of several pages: the list of them.
    const several = await get('/authentication');
    expect(several.status).toBe(300);
    const choices = await several.text();
    for (const page of ['accounts', 'pix', 'messages', 'core-banking']) expect(choices).toContain(`href="/${page}.html#/authentication"`);
    for (const path of [
      '/nope',
      '/nope.html',
      '/core-banking/nope',
      '/pix.html/cob',
      '/guides/nope.html',
      '/core-banking/',
      '/guides/',
      '/guides',
    ])
      expect((await get(path)).status, path).toBe(404);
    expect((await get('/%E0%A4%A')).status).toBe(400);
    // What the path carries stays encoded in the redirect and the list (no header split, no markup).
    const split = await get('/fee-rules/%0D%0ASet-Cookie:%20x=1');
    expect(split.status).toBe(302);
    expect(split.headers.get('location')).toBe('/core-banking.html#/fee-rules/%0D%0ASet-Cookie:%20x=1');
    expect(split.headers.get('set-cookie')).toBeNull();
    const markup = await (await get('/authentication/%3Cscript%3Ealert(1)%3C/script%3E')).text();
    expect(markup).not.toContain('<script');
    expect(markup).toContain('href="/pix.html#/authentication/%3Cscript%3Ealert(1)%3C/script%3E"');
  });

  it('revalidates (ETag, 304) and gzips for a browser that accepts it', async () => {
    const first = await get('/redoc.standalone.js', { 'accept-encoding': 'identity' });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    expect(first.headers.get('content-encoding')).toBeNull();
    const plain = Buffer.from(await first.arrayBuffer());
    expect((await get('/redoc.standalone.js', { 'if-none-match': etag! })).status).toBe(304);
    // undici's fetch would unzip: read the bytes as sent.
    const { request } = await import('node:http');
    const zipped = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      request(`${server.url}/redoc.standalone.js`, { headers: { 'accept-encoding': 'gzip, br' } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ encoding: response.headers['content-encoding'], body: Buffer.concat(chunks) }));
      })
        .on('error', reject)
        .end();
    });
    expect(zipped.encoding).toBe('gzip');
    expect(zipped.body.length).toBeLessThan(plain.length / 3);
    expect(gunzipSync(zipped.body).equals(plain)).toBe(true);
  });

  it('does not rebuild when nothing changed, and refuses paths outside the site', async () => {
    await expect(buildSite(siteDir)).resolves.toBe(false);
    const outside = join(siteDir, '..', `${siteDir.split('/').pop()}-outside.txt`);
    writeFileSync(outside, 'not for the web');
    try {
      expect((await get(`/..%2f${outside.split('/').pop()}`)).status).toBe(404);
    } finally {
      rmSync(outside);
    }
    expect((await get('/nope.html')).status).toBe(404);
  });

  it.each([
    { given: 'a sample URL', text: "baseUrl: 'http://127.0.0.1:4010/pix'", want: "baseUrl: 'http://127.0.0.1:5810/pix'" },
    { given: 'every occurrence', text: '127.0.0.1:4010 and 127.0.0.1:4010/x', want: '127.0.0.1:5810 and 127.0.0.1:5810/x' },
    { given: 'a longer port', text: 'http://127.0.0.1:40100/', want: 'http://127.0.0.1:40100/' },
    { given: 'the docs site itself', text: 'open http://127.0.0.1:4000/', want: 'open http://127.0.0.1:5800/' },
    { given: 'another address', text: 'http://127.0.0.1:4011', want: 'http://127.0.0.1:4011' },
  ])('gives $given the address in use', ({ text, want }) => {
    const moved = new Map([
      ['127.0.0.1:4010', '127.0.0.1:5810'],
      ['127.0.0.1:4000', '127.0.0.1:5800'],
    ]);
    expect(withMovedAddresses(text, moved)).toBe(want);
  });

  it('serves the pages with the addresses in use when the sandbox and the site moved, and leaves the built site as it is', async () => {
    const moved = await serveStatic(siteDir, 0, '127.0.0.1', {
      movedAddresses: () => new Map([['127.0.0.1:4010', '127.0.0.1:5810']]),
      ownDefaultAddress: '127.0.0.1:4000',
    });
    try {
      const own = new URL(moved.url).host;
      const onDisk = readFileSync(join(siteDir, 'pix.html'), 'utf8');
      expect(onDisk).toContain('127.0.0.1:4010');
      for (const encoding of ['identity', 'gzip']) {
        const response = await fetch(`${moved.url}/pix.html`, { headers: { 'accept-encoding': encoding } });
        const html = await response.text();
        expect(html, encoding).not.toMatch(/127\.0\.0\.1:4010(?!\d)/);
        expect(html, encoding).toContain('http://127.0.0.1:5810/pix');
        // Another representation of the same file: its own validator, which revalidates.
        const etag = response.headers.get('etag')!;
        expect(etag).not.toBe((await get('/pix.html')).headers.get('etag'));
        expect((await fetch(`${moved.url}/pix.html`, { headers: { 'if-none-match': etag } })).status).toBe(304);
      }
      const guide = await (await fetch(`${moved.url}/guides/getting-started.html`)).text();
      expect(guide).not.toMatch(/127\.0\.0\.1:40[01]0(?!\d)/);
      expect(guide).toContain(own);
      // Not a page: served as built.
      expect(await (await fetch(`${moved.url}/redoc.standalone.js`)).text()).toBe(
        readFileSync(join(siteDir, 'redoc.standalone.js'), 'utf8'),
      );
      expect(readFileSync(join(siteDir, 'pix.html'), 'utf8')).toBe(onDisk);
    } finally {
      await moved.stop();
    }
  });
});

/**
 * The hand-made pages of the documentation site — landing page, guides (rendered from docs/guides), the
 * coverage report — and the copies of the bundled specs Redoc renders, with provisional operations
 * marked where a reader sees them. Everything is local: no page loads anything from elsewhere.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Marked, marked } from 'marked';
import { bundleOperations } from '../bundle-operations.js';
import { interfaces } from '../interfaces.js';

/** An object of a bundled spec; its members are `unknown` until read and checked. */
type Json = Record<string, unknown>;

/** Whether a member of a spec is an object (not null, not an array). */
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Styles of the site's own pages (landing page, guides, coverage report). */
const style = `body { font: 16px/1.55 system-ui, sans-serif; margin: 0; color: #1d2433; }
main { max-width: 50rem; margin: 0 auto; padding: 1.5rem 1.25rem 4rem; }
a { color: #0b5cad; } code, pre { background: #f3f5f8; border-radius: 4px; } code { padding: 0 .25em; } pre { padding: .8rem; overflow-x: auto; } pre code { padding: 0; }
table { border-collapse: collapse; } th, td { border: 1px solid #dde2ea; padding: .3rem .6rem; text-align: left; vertical-align: top; }
.provisional { color: #8a4b00; font-weight: 600; }`;

/**
 * Height of the site header, in CSS pixels. The reference pages give it to Redoc as `scrollYOffset`, so
 * Redoc's sticky sidebar starts below it and a section opened from a link is not hidden under it.
 */
export const headerHeight = 48;

/**
 * Styles of the header, shared by every page; scoped to `.site-header` so they cannot touch Redoc. The
 * guides menu is a <details> (no script); its panel is `position: fixed` so the header's horizontal
 * scrolling on a narrow screen does not clip it.
 */
const headerStyle = `.site-header { position: sticky; top: 0; z-index: 50; box-sizing: border-box; height: ${headerHeight}px; padding: 0 1rem;
  background: #fff; border-bottom: 1px solid #dde2ea; font: 14px/1.2 system-ui, sans-serif; }
.site-header nav { display: flex; align-items: center; gap: 1.1rem; height: 100%; white-space: nowrap; overflow-x: auto; scrollbar-width: none; }
.site-header a, .site-header summary { color: #0b5cad; text-decoration: none; cursor: pointer; }
.site-header a:hover, .site-header summary:hover { text-decoration: underline; }
.site-header a[aria-current="page"] { color: #1d2433; font-weight: 600; }
.site-header .site-brand { display: flex; align-items: center; gap: .45rem; color: #1d2433; font-weight: 700; font-size: 15px; }
.site-header summary { list-style: none; }
.site-header summary::-webkit-details-marker { display: none; }
.site-header summary::after { content: " ▾"; }
.site-header details > div { position: fixed; top: ${headerHeight}px; z-index: 51; display: flex; flex-direction: column; gap: .5rem;
  padding: .75rem 1rem; background: #fff; border: 1px solid #dde2ea; border-radius: 0 0 6px 6px; box-shadow: 0 6px 16px rgb(0 0 0 / 8%); }
:root.dark .site-header, :root.dark .site-header details > div { background: #1e2128; border-color: #3a3f4b; }
:root.dark .site-header a, :root.dark .site-header summary { color: #8cb8ff; }
:root.dark .site-header .site-brand, :root.dark .site-header a[aria-current="page"] { color: #f0f2f5; }`;

export const guideTitles: Record<string, string> = {
  'getting-started': 'Getting started',
  'authentication-and-mtls': 'Authentication and mTLS',
  'retries-and-idempotency': 'Retries and idempotency',
  webhooks: 'Webhooks',
  'pix-notifications': 'Pix notifications',
  'long-polling': 'Long polling',
  'running-several-replicas': 'Several replicas',
  sandbox: 'Sandbox',
  mocks: 'Mocks',
  'updating-a-spec': 'Updating a spec',
};

/** The <head> lines every page carries: the icon (favicon.ico for every browser, the SVG where it is read) and the header's styles. */
export function siteHead(depth = 0): string {
  const up = '../'.repeat(depth);
  return `<link rel="icon" href="${up}favicon.ico" sizes="32x32">
<link rel="icon" href="${up}favicon.svg" type="image/svg+xml">
<style>${headerStyle}</style>`;
}

/**
 * The header of every page — the landing page, each interface's reference, the webhook events, the
 * coverage report and the guides — for the page `current` (its path from the site root, marked in the
 * header), `depth` folders below the root. Links are relative, so the site works under any prefix.
 */
export function siteHeader(current: string, depth = 0): string {
  const up = '../'.repeat(depth);
  const link = (page: string, text: string, title?: string): string =>
    `<a href="${up}${page}"${title ? ` title="${title}"` : ''}${page === current ? ' aria-current="page"' : ''}>${text}</a>`;
  const guides = Object.entries(guideTitles).map(([name, text]) => link(`guides/${name}.html`, text));
  return `<header class="site-header"><nav aria-label="Site">
<a class="site-brand" href="${up}index.html"${current === 'index.html' ? ' aria-current="page"' : ''}><img src="${up}favicon.svg" width="20" height="20" alt="">contrato</a>
${interfaces.map((info) => link(`${info.name}.html`, info.title.replace(/ API$/, ''), info.title)).join('\n')}
${link('events.html', 'Webhook events')}
${link('coverage.html', 'Coverage')}
<details><summary>Guides</summary><div>
${guides.join('\n')}
</div></details>
</nav></header>`;
}

/** A page of the site; `page` is its path from the site root (`index.html`, `guides/sandbox.html`). */
export function layout(title: string, body: string, page: string): string {
  const depth = page.split('/').length - 1;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} — contrato</title>
${siteHead(depth)}
<style>${style}</style>
</head>
<body>
${siteHeader(page, depth)}
<main>
${body}
</main>
</body>
</html>
`;
}

export function landingPage(): string {
  const rows = interfaces
    .map(
      (info) =>
        `<tr><td><a href="${info.name}.html">${info.title}</a></td><td>${info.letter}</td><td><code>contrato/${info.interfaceName}</code></td><td>127.0.0.1:${info.mockPort}</td></tr>`,
    )
    .join('\n');
  return layout(
    'API reference',
    `<h1>contrato</h1>
<p>A contract-first toolkit for the banking platform: accounts and BaaS, Pix receiving (the Central Bank's API Pix), interbank
messages and the key directory, and the core banking administrative API. Hand-written OpenAPI 3.1 and JSON Schema specs are the
single source; from them come typed clients, validators that reject a bad payload before it reaches the bank (naming the field and
the rule), mocks, and these pages.</p>
<h2>Interfaces</h2>
<table><thead><tr><th>Reference</th><th>Letter</th><th>Package subpath</th><th>Mock (<code>npm run mock</code>)</th></tr></thead>
<tbody>
${rows}
<tr><td><a href="events.html">Webhook events</a></td><td>6</td><td><code>contrato/events</code></td><td>—</td></tr>
</tbody></table>
<p>Operations marked <span class="provisional">Provisional</span> have a method or path the provider has not published; their
shapes are the provider's, and every client can replace their routes. The <a href="coverage.html">coverage report</a> lists what is
described, provisional, or only named.</p>
<h2>Quick start</h2>
<pre><code>npm ci &amp;&amp; npm start   # regenerates if stale, serves this site and the sandbox on 127.0.0.1
npm test              # everything, including the contract tests against the mocks and this site in Chromium</code></pre>
<h2>Guides</h2>
<ul>
${Object.entries(guideTitles)
  .map(([name, text]) => `<li><a href="guides/${name}.html">${text}</a></li>`)
  .join('\n')}
</ul>`,
    'index.html',
  );
}

/** Markdown of the guides, whose links to each other (`webhooks.md#…`) point at their pages. */
const guideMarkdown = new Marked({
  walkTokens: (token) => {
    if (token.type !== 'link') return;
    const [target = '', hash] = token.href.split('#');
    if (!target.includes(':') && !target.includes('/') && target.endsWith('.md'))
      token.href = `${target.slice(0, -'.md'.length)}.html${hash === undefined ? '' : `#${hash}`}`;
  },
});

/** The guides of docs/guides rendered as pages of the site (none when the folder is not there, as in the package). */
export function guidePages(docsDir: string): { name: string; html: string }[] {
  const dir = join(docsDir, 'guides');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.md'))
    .sort()
    .map((file) => {
      const name = file.slice(0, -'.md'.length);
      return {
        name,
        html: layout(
          guideTitles[name] ?? name,
          guideMarkdown.parse(readFileSync(join(dir, file), 'utf8'), { async: false }),
          `guides/${name}.html`,
        ),
      };
    });
}

interface OperationRow {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly provisional: boolean;
  /** Its section in Redoc: the slug of its first tag. */
  readonly section: string;
}

/** Redoc's slug of a tag, the section of its route (`Fee rules` → `fee-rules`, `Crypto risk` → `crypto-risk`). */
export const sectionSlug = (tag: string): string =>
  tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function operationsOf(document: Json): OperationRow[] {
  return bundleOperations(document)
    .filter(({ operation }) => typeof operation.operationId === 'string')
    .map(({ method, path, operation }) => ({
      operationId: String(operation.operationId),
      method: method.toUpperCase(),
      path,
      provisional: operation['x-provisional'] === true,
      section: sectionSlug(String((operation.tags as unknown[] | undefined)?.[0] ?? '')),
    }));
}

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** What each interface describes exactly, provisionally, or only names (the full report with rules is docs/coverage.md). */
export function coveragePage(documents: { name: string; title: string; document: Json }[], coverageMarkdown: string | null): string {
  const sections = documents.map(({ name, title, document }) => {
    const rows = operationsOf(document);
    const named = ((document['x-named-not-specified'] ?? []) as Json[]).map(
      (entry) =>
        `<li><code>${escapeHtml(String(entry.id))}</code> — ${escapeHtml(String(entry.name))}: ${escapeHtml(String(entry.reason))}</li>`,
    );
    const exact = rows.filter((row) => !row.provisional).length;
    return `<h2 id="${name}">${title}</h2>
<p>${rows.length} described (${exact} with the method and path shown, ${rows.length - exact} <span class="provisional">provisional</span>), ${named.length} named only.</p>
<table><thead><tr><th>operationId</th><th>Method and path</th><th></th></tr></thead><tbody>
${rows.map((row) => `<tr><td><a href="${name}.html#/${row.section}/${encodeURIComponent(row.operationId.toLowerCase())}"><code>${row.operationId}</code></a></td><td><code>${row.method} ${escapeHtml(row.path)}</code></td><td>${row.provisional ? '<span class="provisional">Provisional</span>' : ''}</td></tr>`).join('\n')}
</tbody></table>
${named.length ? `<h3>Named, not specified</h3><ul>${named.join('\n')}</ul>` : ''}`;
  });
  const report = coverageMarkdown
    ? `<h2>Rules and items of the interface specification</h2>\n${marked.parse(coverageMarkdown, { async: false })}`
    : '';
  return layout('Coverage', `<h1>Coverage of the interface specification</h1>\n${sections.join('\n')}\n${report}`, 'coverage.html');
}

/**
 * The bundle as Redoc shows it: each operation names its operationId and the client method it becomes,
 * and provisional operations say so in their summary and description.
 */
export function forReading(document: Json): Json {
  const copy = structuredClone(document);
  for (const item of Object.values((copy.paths ?? {}) as Record<string, Json>)) {
    for (const operation of Object.values(item)) {
      if (!isObject(operation) || typeof operation.operationId !== 'string') continue;
      const lead = [`operationId \`${operation.operationId}\` · client method \`client.${operation.operationId}()\``];
      if (operation['x-provisional'] === true) {
        operation.summary = `[Provisional] ${String(operation.summary ?? operation.operationId)}`;
        lead.push(`**Provisional** — ${String(operation['x-provisional-reason'] ?? 'the method or path is not shown by the provider')}`);
      }
      operation.description = `${lead.join('\n\n')}\n\n${String(operation.description ?? '')}`;
    }
  }
  for (const [type, item] of Object.entries((copy.webhooks ?? {}) as Record<string, Json>)) {
    const operation = item.post as Json | undefined;
    if (!operation || typeof operation.operationId !== 'string') continue;
    operation.description = `operationId \`${operation.operationId}\` · event type \`${type}\`, parsed by \`parseEvent\` of \`contrato/events\`\n\n${String(operation.description ?? '')}`;
  }
  return copy;
}

/**
 * The components `root` refers to, directly or through each other (`$ref`s and discriminator mappings,
 * every string `#/components/<kind>/<name>`), taken from `components`. Security schemes are kept whole.
 */
function componentsUsedBy(root: unknown, components: Json): Json {
  const used: Record<string, Json> = {};
  const pending: unknown[] = [root];
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      const match = /^#\/components\/([^/]+)\/([^/]+)$/.exec(value);
      if (!match) return;
      const [, kind = '', name = ''] = match;
      const found = (components[kind] as Json | undefined)?.[name];
      if (found === undefined || (used[kind] as Json | undefined)?.[name] !== undefined) return;
      used[kind] = { ...used[kind], [name]: found };
      pending.push(found);
    } else if (Array.isArray(value)) pending.push(...value);
    else if (isObject(value)) pending.push(...Object.values(value));
  };
  while (pending.length > 0) visit(pending.pop());
  const ordered: Json = {};
  for (const kind of Object.keys(components)) {
    if (kind === 'securitySchemes') ordered[kind] = components[kind];
    else if (used[kind])
      ordered[kind] = Object.fromEntries(
        Object.keys(components[kind] as Json)
          .filter((name) => name in used[kind]!)
          .map((name) => [name, used[kind]![name]]),
      );
  }
  return ordered;
}

/**
 * The webhook deliveries of a document on a page of their own: paths left out, and of the components
 * only those the deliveries use (the rest is the accounts API's, already on its own page).
 */
export function eventsDocument(document: Json): Json {
  return {
    openapi: document.openapi,
    info: {
      ...(document.info as Json | undefined),
      title: 'Webhook events',
      description:
        'The deliveries of section 6: one per event type, with the payload schema, the deduplication reference and the resend schedule. Parse and check them with `contrato/events`.',
    },
    paths: {},
    webhooks: document.webhooks,
    components: componentsUsedBy(document.webhooks, (document.components ?? {}) as Json),
  };
}

/** The copy of Redoc's script every reference page loads, at the site root. */
export const redocScript = 'redoc.standalone.js';

/** A reference page as Redoc wrote it, made a page of the site; `routes` are its Redoc sections (`cob`, `fee-rules`, …). */
export interface ReferencePage {
  readonly html: string;
  readonly routes: string[];
}

/**
 * The address build-docs loads Redoc from (`https://cdn.redocly.com/redoc/v<version>/bundles/redoc.standalone.js`),
 * found by scanning rather than by a pattern: an unanchored `[^"]+` is quadratic on hostile input, and the ReDoS
 * audit (test/specs/redos.test.ts) refuses it. Empty when the page has none.
 */
function redocCdnUrl(raw: string): string {
  const prefix = 'https://cdn.redocly.com/redoc/v';
  const suffix = '/bundles/redoc.standalone.js';
  const start = raw.indexOf(prefix);
  if (start < 0) return '';
  const end = raw.indexOf(suffix, start + prefix.length);
  const version = end < 0 ? '' : raw.slice(start + prefix.length, end);
  return version !== '' && /^[0-9A-Za-z.-]+$/.test(version) ? `${prefix}${version}${suffix}` : '';
}

/** `html` with the tag that starts with `opening` (up to its `>`) replaced by `tag`; unchanged when there is none. */
function replaceTag(html: string, opening: string, tag: string): string {
  const at = html.indexOf(opening);
  const close = at < 0 ? -1 : html.indexOf('>', at + opening.length);
  return close < 0 ? html : `${html.slice(0, at)}${tag}${html.slice(close + 1)}`;
}

/** Every ` href="/<route>"` (not `//`, another host) rewritten to ` href="<rewrite(route)>"`, by a scan for the same reason. */
function rewriteRootLinks(html: string, rewrite: (route: string) => string): string {
  const marker = ' href="/';
  let out = '';
  let from = 0;
  for (let at = html.indexOf(marker); at >= 0; at = html.indexOf(marker, from)) {
    const routeStart = at + marker.length;
    const close = html.indexOf('"', routeStart);
    if (close < 0) break;
    if (html[routeStart] === '/') {
      out += html.slice(from, routeStart);
      from = routeStart;
      continue;
    }
    out += `${html.slice(from, at)} href="${rewrite(html.slice(routeStart, close))}"`;
    from = close + 1;
  }
  return out + html.slice(from);
}

/**
 * Makes the page Redocly's build-docs wrote (without `--inlineBundle`) a page of the site:
 *
 * - Redoc's script comes from the site's one copy of it (`redoc.standalone.js`), not from Redocly's CDN and
 *   not inlined: build-docs either inlines the 2.3 MB bundle in every page or imports it from the CDN; this
 *   keeps its import and points it at the local file, so the browser loads it once for all six pages.
 * - Hash routing, as Redoc's `hydrate` does in the browser (`#/fee-rules`, `#/fee-rules/feerules.create`).
 *   The prerendered sidebar carries history-style links instead (`/fee-rules`: build-docs renders with base
 *   path `/`), which React's hydration keeps, so they answered 404 when opened in a new tab. Hash routes are
 *   chosen over a server fallback for them because five pages share sections of the same name
 *   (`/authentication` is in accounts, pix, messages and core banking; `/invoices` in two), which a server
 *   cannot tell apart, and because hash routes work wherever the site is put (any static host, a subfolder).
 *   The prerendered links are rewritten to the ones hydration would render (`#/fee-rules`).
 * - The icon and the site header, above Redoc (Redoc keeps its sidebar below it: `scrollYOffset`).
 *
 * Fails if Redoc's output no longer has the shape this relies on, rather than shipping a broken page.
 */
export function referencePage(raw: string, page: string): ReferencePage {
  const cdnScript = redocCdnUrl(raw);
  const preload = `<link rel="modulepreload" href="${cdnScript}"`;
  const importLine = `import { hydrate } from "${cdnScript}";`;
  const start = raw.indexOf('<div id="redoc">');
  const end = raw.lastIndexOf('<script type="module">');
  const shape = [
    raw.includes(preload),
    raw.includes(importLine),
    start >= 0 && end > start,
    raw.includes('</head>'),
    raw.includes('<body>'),
  ];
  if (shape.includes(false))
    throw new Error(
      `${page}: Redoc's page does not have the shape the site expects (${shape.join(', ')}); see referencePage in src/cli/site-pages.ts`,
    );
  const routes = new Set<string>();
  const prerendered = rewriteRootLinks(raw.slice(start, end), (route) => {
    const section = route.split('/')[0];
    if (section) routes.add(section);
    return `#/${route}`;
  });
  // The whole preload tag is replaced: its integrity and crossorigin attributes name the CDN's file, not ours.
  const html = replaceTag(
    `${raw.slice(0, start)}${prerendered}${raw.slice(end)}`,
    preload,
    `<link rel="modulepreload" href="${redocScript}">`,
  )
    .replace(importLine, `import { hydrate } from "./${redocScript}";`)
    .replace('</head>', `${siteHead()}\n</head>`)
    .replace('<body>', `<body>\n${siteHeader(page)}`);
  if (html.includes('cdn.redocly.com')) throw new Error(`${page}: Redoc's page still loads from Redocly's CDN`);
  return { html, routes: [...routes].sort() };
}

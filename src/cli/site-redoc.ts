/**
 * Redoc's pages made pages of the site: the page Redocly's build-docs writes, with its script loaded from
 * the site's one copy, hash routes instead of its prerendered history links, and the site's head and header.
 */
import { siteHead, siteHeader } from './site-layout.js';

/** Redoc's slug of a tag, the section of its route (`Fee rules` → `fee-rules`, `Crypto risk` → `crypto-risk`). */
export const sectionSlug = (tag: string): string =>
  tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

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
      `${page}: Redoc's page does not have the shape the site expects (${shape.join(', ')}); see referencePage in src/cli/site-redoc.ts`,
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

/**
 * The frame every page of the documentation site shares — the head lines (icon, styles), the header with
 * its links to every page, the layout of the site's own pages — and the guides' titles the header lists.
 * Everything is local: no page loads anything from elsewhere.
 */
import { interfaces } from '../interfaces.js';

/**
 * Styles of the site's own pages (landing page, guides, coverage report). A long line of a code block wraps
 * rather than running past the edge: a scrollbar that only shows while scrolling (phones, macOS) hid its end.
 */
const style = `body { font: 16px/1.55 system-ui, sans-serif; margin: 0; color: #1d2433; }
main { max-width: 50rem; margin: 0 auto; padding: 1.5rem 1.25rem 4rem; }
a { color: #0b5cad; } code, pre { background: #f3f5f8; border-radius: 4px; } code { padding: 0 .25em; } pre { padding: .8rem; overflow-x: auto; } pre code { padding: 0; }
pre, pre code { white-space: break-spaces; overflow-wrap: anywhere; }
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

/** The guides of docs/guides, by file name, with the title the header and the landing page show. */
export const guideTitles: Record<string, string> = {
  'getting-started': 'Getting started',
  'authentication-and-mtls': 'Authentication and mTLS',
  'retries-and-idempotency': 'Retries and idempotency',
  webhooks: 'Webhooks',
  'pix-notifications': 'Pix notifications',
  'long-polling': 'Long polling',
  'running-several-replicas': 'Several replicas',
  observability: 'Observability',
  sandbox: 'Sandbox',
  mocks: 'Mocks',
  'updating-a-spec': 'Updating a spec',
  'verifying-an-implementation': 'Verifying an implementation',
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

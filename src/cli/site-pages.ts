/**
 * The site's own pages — the landing page, the guides (rendered from docs/guides), the coverage report —
 * in the frame of site-layout.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Marked, marked } from 'marked';
import { bundleOperations } from '../bundle-operations.js';
import { interfaces } from '../interfaces.js';
import { guideTitles, layout } from './site-layout.js';
import { sectionSlug } from './site-redoc.js';

/** An object of a bundled spec; its members are `unknown` until read and checked. */
type Json = Record<string, unknown>;

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

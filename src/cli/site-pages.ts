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

const style = `body { font: 16px/1.55 system-ui, sans-serif; max-width: 50rem; margin: 0 auto; padding: 1rem 1.25rem 4rem; color: #1d2433; }
nav { display: flex; flex-wrap: wrap; gap: .4rem 1rem; padding: .8rem 0; border-bottom: 1px solid #dde2ea; margin-bottom: 1.5rem; font-size: .95rem; }
a { color: #0b5cad; } code, pre { background: #f3f5f8; border-radius: 4px; } code { padding: 0 .25em; } pre { padding: .8rem; overflow-x: auto; }
table { border-collapse: collapse; } th, td { border: 1px solid #dde2ea; padding: .3rem .6rem; text-align: left; vertical-align: top; }
.provisional { color: #8a4b00; font-weight: 600; }`;

export const guideTitles: Record<string, string> = {
  'getting-started': 'Getting started',
  'authentication-and-mtls': 'Authentication and mTLS',
  'retries-and-idempotency': 'Retries and idempotency',
  webhooks: 'Webhooks',
  'pix-notifications': 'Pix notifications',
  'long-polling': 'Long polling',
  sandbox: 'Sandbox',
  mocks: 'Mocks',
  'updating-a-spec': 'Updating a spec',
};

/** A page of the site; `depth` is how many folders below the site root it lives. */
export function layout(title: string, body: string, depth = 0): string {
  const up = '../'.repeat(depth);
  const links = [
    `<a href="${up}index.html">contrato</a>`,
    ...interfaces.map((info) => `<a href="${up}${info.name}.html">${info.title}</a>`),
    `<a href="${up}events.html">Webhook events</a>`,
    `<a href="${up}coverage.html">Coverage</a>`,
    ...Object.entries(guideTitles).map(([name, text]) => `<a href="${up}guides/${name}.html">${text}</a>`),
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} — contrato</title>
<style>${style}</style>
</head>
<body>
<nav>${links.join('\n')}</nav>
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
<table><thead><tr><th>Reference</th><th>Letter</th><th>Package subpath</th><th>Mock</th></tr></thead>
<tbody>
${rows}
<tr><td><a href="events.html">Webhook events</a></td><td>6</td><td><code>contrato/events</code></td><td>—</td></tr>
</tbody></table>
<p>Operations marked <span class="provisional">Provisional</span> have a method or path the provider has not published; their
shapes are the provider's, and every client can replace their routes. The <a href="coverage.html">coverage report</a> lists what is
described, provisional, or only named.</p>
<h2>Quick start</h2>
<pre><code>npm ci &amp;&amp; npm start   # regenerates if stale, serves this site and the mocks on 127.0.0.1
npm test              # everything, including the contract tests against the mocks and this site in Chromium</code></pre>
<h2>Guides</h2>
<ul>
${Object.entries(guideTitles)
  .map(([name, text]) => `<li><a href="guides/${name}.html">${text}</a></li>`)
  .join('\n')}
</ul>`,
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
        html: layout(guideTitles[name] ?? name, guideMarkdown.parse(readFileSync(join(dir, file), 'utf8'), { async: false }), 1),
      };
    });
}

interface OperationRow {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly provisional: boolean;
}

function operationsOf(document: Json): OperationRow[] {
  return bundleOperations(document)
    .filter(({ operation }) => typeof operation.operationId === 'string')
    .map(({ method, path, operation }) => ({
      operationId: String(operation.operationId),
      method: method.toUpperCase(),
      path,
      provisional: operation['x-provisional'] === true,
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
${rows.map((row) => `<tr><td><a href="${name}.html#operation/${encodeURIComponent(row.operationId)}"><code>${row.operationId}</code></a></td><td><code>${row.method} ${escapeHtml(row.path)}</code></td><td>${row.provisional ? '<span class="provisional">Provisional</span>' : ''}</td></tr>`).join('\n')}
</tbody></table>
${named.length ? `<h3>Named, not specified</h3><ul>${named.join('\n')}</ul>` : ''}`;
  });
  const report = coverageMarkdown
    ? `<h2>Rules and items of the interface specification</h2>\n${marked.parse(coverageMarkdown, { async: false })}`
    : '';
  return layout('Coverage', `<h1>Coverage of the interface specification</h1>\n${sections.join('\n')}\n${report}`);
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

/** The webhook deliveries of a document on a page of their own (paths left out). */
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
    components: document.components,
  };
}

/**
 * The guides' links to local servers answer: every http://127.0.0.1 link of docs/guides, as the site
 * renders it, is opened against what `npm start` serves (`startAll` with the sandbox and the docs site, on
 * free ports: the default port of each server is mapped to the one it got). A link to a port `npm start`
 * does not serve, or one that answers 400 or more (an API's root answers 404), fails: a base URL is written
 * as code, not as a link.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { type RunningServer, startAll } from '../../src/cli/servers.js';
import { guidePages } from '../../src/cli/site-pages.js';
import { docsPort } from '../../src/interfaces.js';
import { sandboxPort } from '../../src/sandbox/modules.js';

let servers: RunningServer[] = [];
/** Default port of a server of `npm start` -> the address it got here. */
const served = new Map<number, string>();

beforeAll(async () => {
  const lines: string[] = [];
  servers = await startAll([], join(projectRoot, 'site'), { port: 0, sandbox: {}, log: (line) => lines.push(line) });
  const address = (pattern: RegExp): string => {
    const found = lines.map((line) => pattern.exec(line)?.[1]).find(Boolean);
    if (!found) throw new Error(`no ${pattern} in:\n${lines.join('\n')}`);
    return found;
  };
  served.set(docsPort, address(/^docs {2}site\s+(http:\/\/127\.0\.0\.1:\d+)/));
  served.set(sandboxPort, address(/^sandbox \(stateful\)\s+(http:\/\/127\.0\.0\.1:\d+)/));
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});

describe('links of the guides to local servers', () => {
  it('answer, under npm start, with less than 400', async () => {
    const links = guidePages(join(projectRoot, 'docs')).flatMap(({ name, html }) =>
      [...html.matchAll(/href="(http:\/\/127\.0\.0\.1[^"]*)"/g)].map(([, href]) => ({ guide: name, href: href! })),
    );
    // The docs site is linked from several guides: the check below has something to check.
    expect(links.length).toBeGreaterThan(0);
    const failures: string[] = [];
    for (const { guide, href } of links) {
      const url = new URL(href.replace(/&amp;/g, '&'));
      const base = served.get(Number(url.port));
      if (!base) {
        failures.push(`${guide}: ${href} — npm start serves nothing on port ${url.port}`);
        continue;
      }
      const status = (await fetch(`${base}${url.pathname}${url.search}`)).status;
      if (status >= 400) failures.push(`${guide}: ${href} — ${status}`);
    }
    expect(failures).toEqual([]);
  });
});

/** The documentation site: built offline from the bundled specs and served on loopback. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledSpecPath } from '../../src/checks/registry.js';
import { serveStatic, type RunningServer } from '../../src/cli/servers.js';
import { buildSite } from '../../src/cli/site.js';
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

describe('documentation site', () => {
  it('serves a landing page linking every interface', async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    const html = await response.text();
    for (const info of interfaces) expect(html).toContain(`href="${info.name}.html"`);
  });

  it.each(interfaces.map((info) => info.name))(
    'serves the %s reference with the Redoc scripts inlined and every operationId',
    async (name) => {
      const response = await fetch(`${server.url}/${name}.html`);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).not.toMatch(/<script[^>]+src="https?:/);
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

  it('does not rebuild when nothing changed, and refuses paths outside the site', async () => {
    await expect(buildSite(siteDir)).resolves.toBe(false);
    const outside = join(siteDir, '..', `${siteDir.split('/').pop()}-outside.txt`);
    writeFileSync(outside, 'not for the web');
    try {
      expect((await fetch(`${server.url}/..%2f${outside.split('/').pop()}`)).status).toBe(404);
    } finally {
      rmSync(outside);
    }
    expect((await fetch(`${server.url}/nope.html`)).status).toBe(404);
  });
});

/**
 * The pieces of the docs site that need no build: Redoc's page made a page of the site (given a page of
 * the shape build-docs writes, want the shared script, hash routes, the header), the server's redirects of
 * path-style links, the events document's components, and the icon.
 */
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { faviconIco, faviconSvg } from '../../src/cli/favicon.js';
import { referenceFallback } from '../../src/cli/servers.js';
import { eventsDocument } from '../../src/cli/site-documents.js';
import { guideTitles, siteHeader } from '../../src/cli/site-layout.js';
import { referencePage, sectionSlug } from '../../src/cli/site-redoc.js';
import { interfaces } from '../../src/interfaces.js';

const cdn = 'https://cdn.redocly.com/redoc/v3.0.1/bundles/redoc.standalone.js';
/** A page of the shape Redocly's build-docs writes without --inlineBundle (its template, trimmed). */
const redocOutput = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf8" />
  <title>Core banking API</title>
  <link rel="modulepreload" href="${cdn}" integrity="sha384-abc" crossorigin="anonymous" /><style data-styled="true">.a{}</style>
</head>
<body>
  <div id="redoc"><div><a href="/">Core banking API</a><a href="/authentication">Authentication</a><a href="/fee-rules">Fee rules</a><a href="https://redocly.com/redoc/">Redocly</a><a href="//example.com/x">x</a></div></div>
  <script type="module">
  import { hydrate } from "${cdn}";
  const __redoc_definition = {"info":{"description":"<a href=\\"/fee-rules\\">"}};
  hydrate(__redoc_definition, {}, document.getElementById('redoc'));
  </script>
</body>
</html>`;

describe('referencePage', () => {
  const { html, routes } = referencePage(redocOutput, 'core-banking.html');

  it('loads the site’s copy of Redoc’s script, not the CDN’s', () => {
    expect(html).not.toContain('cdn.redocly.com');
    expect(html).toContain('<link rel="modulepreload" href="redoc.standalone.js">');
    expect(html).toContain('import { hydrate } from "./redoc.standalone.js";');
  });

  it('turns the prerendered history-style links into the hash routes hydration renders, and lists the sections', () => {
    expect(html).toContain(
      '<a href="#/">Core banking API</a><a href="#/authentication">Authentication</a><a href="#/fee-rules">Fee rules</a>',
    );
    expect(html).toContain('<a href="https://redocly.com/redoc/">');
    expect(html).toContain('<a href="//example.com/x">');
    // Only the prerendered part: the definition is left as it is.
    expect(html).toContain('{"info":{"description":"<a href=\\"/fee-rules\\">"}}');
    expect(routes).toEqual(['authentication', 'fee-rules']);
  });

  it('adds the icon and the site header, marking the page', () => {
    expect(html).toMatch(
      /<link rel="icon" href="favicon.ico" sizes="32x32">\n<link rel="icon" href="favicon.svg" type="image\/svg\+xml">\n<style>[^<]*<\/style>\n<\/head>/,
    );
    expect(html).toContain(`<body>\n${siteHeader('core-banking.html')}`);
    expect(html).toContain('<a href="core-banking.html" title="Core banking API" aria-current="page">Core banking</a>');
  });

  it('refuses a page of another shape rather than shipping a broken one', () => {
    expect(() => referencePage(redocOutput.replace(`import { hydrate } from "${cdn}";`, ''), 'x.html')).toThrow(/shape the site expects/);
    expect(() => referencePage(redocOutput.replace('<div id="redoc">', '<div>'), 'x.html')).toThrow(/shape the site expects/);
    expect(() => referencePage(redocOutput.replace(/<link rel="modulepreload"[^>]*>/, ''), 'x.html')).toThrow(/shape the site expects/);
  });
});

describe('siteHeader', () => {
  it('links the landing page, every reference, the events, the coverage report and every guide, relative to the page', () => {
    const header = siteHeader('guides/sandbox.html', 1);
    const links = [...header.matchAll(/href="([^"]+)"/g)].map(([, href]) => href);
    expect(links.slice(0, 1 + interfaces.length + 2)).toEqual([
      '../index.html',
      ...interfaces.map((info) => `../${info.name}.html`),
      '../events.html',
      '../coverage.html',
    ]);
    expect(links.filter((link) => link?.startsWith('../guides/'))).toHaveLength(Object.keys(guideTitles).length);
    expect(header).toContain('<a href="../guides/sandbox.html" aria-current="page">Sandbox</a>');
  });
});

describe('referenceFallback', () => {
  const routes = {
    accounts: ['authentication', 'invoices', 'pix-keys'],
    pix: ['authentication', 'cob', 'pix'],
    'core-banking': ['authentication', 'fee-rules', 'invoices'],
  };
  it.each([
    ['/pix/cob', { redirect: '/pix.html#/cob' }],
    ['/pix/cob/cob.create', { redirect: '/pix.html#/cob/cob.create' }],
    ['/core-banking/fee-rules', { redirect: '/core-banking.html#/fee-rules' }],
    ['/accounts/authentication', { redirect: '/accounts.html#/authentication' }],
    // A page and a section of the same name: the page's section first.
    ['/pix/pix', { redirect: '/pix.html#/pix' }],
    // Links of sites built before hash routing: the one page with that section…
    ['/fee-rules', { redirect: '/core-banking.html#/fee-rules' }],
    ['/pix-keys/keys.create', { redirect: '/accounts.html#/pix-keys/keys.create' }],
    ['/pix', { redirect: '/pix.html#/pix' }],
    // …or the list of the pages that have it.
    ['/invoices', { choices: ['/accounts.html#/invoices', '/core-banking.html#/invoices'] }],
    ['/authentication', { choices: ['/accounts.html#/authentication', '/pix.html#/authentication', '/core-banking.html#/authentication'] }],
    // No page owns these.
    ['/nope', null],
    ['/core-banking/nope', null],
    ['/core-banking', null],
    ['/', null],
  ])('%s → %j', (path, want) => {
    expect(referenceFallback(path, routes)).toEqual(want);
  });
});

describe('sectionSlug', () => {
  it.each([
    ['Fee rules', 'fee-rules'],
    ['Crypto risk', 'crypto-risk'],
    ['BaaS partners', 'baas-partners'],
    ['LoteCobV', 'lotecobv'],
    ['PayloadLocation', 'payloadlocation'],
  ])('%s → %s', (tag, want) => expect(sectionSlug(tag)).toBe(want));
});

describe('eventsDocument', () => {
  it('keeps the components the deliveries use, through $refs and discriminator mappings, and the security schemes', () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 'Accounts API', version: '1' },
      paths: { '/x': { get: { operationId: 'x.get', responses: { 200: { $ref: '#/components/responses/Unused' } } } } },
      webhooks: {
        TRANSFER: { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Event' } } } } } },
      },
      components: {
        schemas: {
          Event: {
            oneOf: [{ $ref: '#/components/schemas/Transfer' }],
            discriminator: { propertyName: 't', mapping: { r: '#/components/schemas/Refund' } },
          },
          Transfer: { properties: { amount: { $ref: '#/components/schemas/Money' }, self: { $ref: '#/components/schemas/Transfer' } } },
          Refund: { type: 'object' },
          Money: { type: 'string' },
          Unused: { type: 'object' },
        },
        responses: { Unused: { description: 'no' } },
        securitySchemes: { oauth2: { type: 'oauth2' } },
      },
    };
    const events = eventsDocument(document);
    expect(events.paths).toEqual({});
    expect(events.components).toEqual({
      schemas: {
        Event: document.components.schemas.Event,
        Transfer: document.components.schemas.Transfer,
        Refund: document.components.schemas.Refund,
        Money: document.components.schemas.Money,
      },
      securitySchemes: document.components.securitySchemes,
    });
  });
});

describe('favicon', () => {
  it('is an ICO holding one 32×32 RGBA PNG whose pixels are the blue square and the white "c"', () => {
    const ico = faviconIco();
    expect([...ico.subarray(0, 6)]).toEqual([0, 0, 1, 0, 1, 0]);
    const [size, offset] = [ico.readUInt32LE(14), ico.readUInt32LE(18)];
    expect(offset + size).toBe(ico.length);
    const png = ico.subarray(offset);
    expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20), png[24], png[25]]).toEqual([32, 32, 8, 6]);
    const idatLength = png.readUInt32BE(33);
    expect(png.subarray(37, 41).toString('latin1')).toBe('IDAT');
    const rows = inflateSync(png.subarray(41, 41 + idatLength));
    const pixel = (x: number, y: number): number[] => [...rows.subarray(y * 129 + 1 + x * 4, y * 129 + 1 + x * 4 + 4)];
    expect(pixel(0, 0)).toEqual([0, 0, 0, 0]); // outside the rounded corner
    expect(pixel(16, 3)).toEqual([0x0b, 0x5c, 0xad, 0xff]); // the square
    expect(pixel(8, 16)).toEqual([0xff, 0xff, 0xff, 0xff]); // the left of the "c"
    expect(pixel(24, 16)).toEqual([0x0b, 0x5c, 0xad, 0xff]); // its opening
    expect(faviconSvg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 32 32">/);
  });
});

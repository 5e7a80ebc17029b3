/**
 * The static server of the docs site: validators and gzip, the redirects of path-style links to the
 * reference pages' sections, and the addresses the pages name made the ones in use when servers moved.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { gzip } from 'node:zlib';
import { defaultHost, PortInUseError, urlOf } from './ports.js';
import { referenceRoutesFile } from './site.js';

export interface RunningSite {
  readonly url: string;
  stop(): Promise<void>;
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

/** What is sent gzipped to a browser that accepts it (the pages and Redoc's script: text, about a quarter of the bytes). */
const compressible = new Set(['.html', '.js', '.css', '.json', '.svg']);

/** Where a path that is no file of the site goes instead. */
export type Fallback = { readonly redirect: string } | { readonly choices: readonly string[] } | null;

/**
 * A path-style link to a section of a reference page, sent to the page with the hash route Redoc reads
 * (the pages use hash routing; see referencePage in site-redoc.ts): `/pix/cob/cob.create` →
 * `/pix.html#/cob/cob.create`, and — the links of sites built before hash routing, which may be
 * bookmarked — `/fee-rules` → `/core-banking.html#/fee-rules` when one page alone has that section.
 * A section several pages have (`/authentication`) gets their list; a path no page owns, null (404).
 * `pathname` is as sent, percent-encoded; `routes` is the site's routes.json: each reference page's sections.
 */
export function referenceFallback(pathname: string, routes: Readonly<Record<string, readonly string[]>>): Fallback {
  const route = pathname.replace(/^\/+/, '');
  const [first = '', second = ''] = route.split('/');
  if (routes[first]?.includes(second.toLowerCase())) return { redirect: `/${first}.html#/${route.slice(first.length + 1)}` };
  const pages = Object.keys(routes).filter((page) => routes[page]!.includes(first.toLowerCase()));
  if (pages.length === 1) return { redirect: `/${pages[0]}.html#/${route}` };
  if (pages.length > 1) return { choices: pages.map((page) => `/${page}.html#/${route}`) };
  return null;
}

/** The reference pages' sections, from the site's routes.json (read when needed: the site may be rebuilt while served). */
function siteRoutes(root: string): Record<string, string[]> {
  try {
    return JSON.parse(readFileSync(join(root, referenceRoutesFile), 'utf8')) as Record<string, string[]>;
  } catch {
    return {};
  }
}

/** `host:port` of a URL (`http://127.0.0.1:4010` → `127.0.0.1:4010`). */
export const addressOf = (url: string): string => new URL(url).host;

/**
 * `text` with every address of `moved` (`127.0.0.1:4010`, the default the pages are built with) replaced by
 * where that server listens now (`127.0.0.1:5810`). An address followed by another digit (`127.0.0.1:40100`)
 * is another address and stays. By scanning, not by a pattern built from the addresses.
 */
export function withMovedAddresses(text: string, moved: ReadonlyMap<string, string>): string {
  let out = text;
  for (const [from, to] of moved) {
    if (from === to) continue;
    let result = '';
    let done = 0;
    for (let at = out.indexOf(from); at >= 0; at = out.indexOf(from, at + from.length)) {
      if (/\d/.test(out[at + from.length] ?? '')) continue;
      result += out.slice(done, at) + to;
      done = at + from.length;
    }
    out = result + out.slice(done);
  }
  return out;
}

export interface StaticOptions {
  /**
   * Servers the pages name at their default address that listen elsewhere now: default `host:port` →
   * `host:port` in use (the sandbox of a moved `npm start`). Read when a page is served.
   */
  readonly movedAddresses?: () => ReadonlyMap<string, string>;
  /** The address the pages give the docs site itself (`127.0.0.1:4000`), made the one this server listens on. */
  readonly ownDefaultAddress?: string;
}

/**
 * Serves the files of `siteDir` on `host`:`port` (0 picks a free port), with a validator on each file
 * (`ETag`, `Cache-Control: no-cache`: the browser keeps Redoc's script, which every reference page loads,
 * and asks again only whether it changed) and gzip when the browser accepts it. A path that is no file
 * may be a path-style link to a section of a reference page (referenceFallback); otherwise 404.
 *
 * The site on disk names the default addresses, whatever ports it is served with, so one build serves any
 * start; its HTML pages are given the addresses in use as they are sent (`options`), with an ETag of their own.
 */
export function serveStatic(siteDir: string, port: number, host: string = defaultHost, options: StaticOptions = {}): Promise<RunningSite> {
  const root = normalize(siteDir);
  /** Gzipped and rewritten bodies by path, kept while their ETag holds. */
  const gzipped = new Map<string, { etag: string; body: Buffer }>();
  const rewritten = new Map<string, { etag: string; body: Buffer }>();
  let ownAddress = '';
  const moved = (): Map<string, string> =>
    new Map([
      ...(options.movedAddresses?.() ?? new Map<string, string>()),
      ...(options.ownDefaultAddress && ownAddress ? [[options.ownDefaultAddress, ownAddress] as const] : []),
    ]);
  const server: Server = createServer((request, response) => {
    // As sent (percent-encoded: no quote, angle bracket or line break, so it goes into a header or the page as it is), and decoded.
    const sent = new URL(request.url ?? '/', 'http://localhost').pathname;
    let pathname: string;
    try {
      pathname = decodeURIComponent(sent);
    } catch {
      response.writeHead(400, { 'content-type': 'text/plain' }).end('bad request');
      return;
    }
    const file = normalize(join(root, pathname.endsWith('/') ? `${pathname}index.html` : pathname));
    const inside = file.startsWith(root + sep);
    const stats = inside && existsSync(file) ? statSync(file) : null;
    if (!stats?.isFile()) {
      const fallback = inside ? referenceFallback(sent, siteRoutes(root)) : null;
      if (fallback && 'redirect' in fallback) response.writeHead(302, { location: fallback.redirect, 'content-type': 'text/plain' }).end();
      else if (fallback) {
        const links = fallback.choices.map((choice) => `<li><a href="${choice}">${choice}</a></li>`).join('');
        response
          .writeHead(300, { 'content-type': 'text/html; charset=utf-8' })
          .end(`<!doctype html><title>Several pages</title><p>This section is on several reference pages:</p><ul>${links}</ul>`);
      } else response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const fileTag = `${stats.size.toString(36)}-${Math.trunc(stats.mtimeMs).toString(36)}`;
    const addresses = extname(file) === '.html' ? [...moved()].filter(([from, to]) => from !== to) : [];
    // A page given other addresses is another representation: its ETag says which.
    const etag =
      addresses.length === 0
        ? `"${fileTag}"`
        : `"${fileTag}-${createHash('sha256').update(JSON.stringify(addresses)).digest('base64url').slice(0, 12)}"`;
    const headers: Record<string, string> = {
      'content-type': contentTypes[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
      etag,
    };
    const zip = compressible.has(extname(file)) && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    if (zip) headers.vary = 'accept-encoding';
    if (request.headers['if-none-match'] === etag) {
      response.writeHead(304, headers).end();
      return;
    }
    const plain = (): Buffer => {
      if (addresses.length === 0) return readFileSync(file);
      const cached = rewritten.get(file);
      if (cached?.etag === etag) return cached.body;
      const body = Buffer.from(withMovedAddresses(readFileSync(file, 'utf8'), new Map(addresses)));
      rewritten.set(file, { etag, body });
      return body;
    };
    if (!zip) {
      if (addresses.length === 0) {
        response.writeHead(200, { ...headers, 'content-length': String(stats.size) });
        if (request.method === 'HEAD') response.end();
        else createReadStream(file).pipe(response);
        return;
      }
      const body = plain();
      response.writeHead(200, { ...headers, 'content-length': String(body.length) });
      response.end(request.method === 'HEAD' ? undefined : body);
      return;
    }
    const cached = gzipped.get(file);
    const send = (body: Buffer): void => {
      response.writeHead(200, { ...headers, 'content-encoding': 'gzip', 'content-length': String(body.length) });
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    if (cached?.etag === etag) return send(cached.body);
    gzip(plain(), (error, body) => {
      if (error) {
        response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
        return;
      }
      gzipped.set(file, { etag, body });
      send(body);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(host, [{ port, label: 'docs site' }]) : error),
    );
    server.listen(port, host, () => {
      const { port: actual } = server.address() as AddressInfo;
      const url = urlOf(host, actual);
      ownAddress = addressOf(url);
      resolve({
        url,
        stop: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

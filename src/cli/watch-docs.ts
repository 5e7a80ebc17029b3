/**
 * The docs site of a watch, with reloading: every HTML page gets a script that listens to an event stream
 * and reloads the page when the site was rebuilt, so a page open in the browser follows the saves.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { urlOf } from './ports.js';

/** The docs site being served: its address, the call that tells every open page, and its end. */
export interface DocsWithReload {
  readonly url: string;
  /** Tells every open page that these files of the site were rebuilt. */
  reload(pages: readonly string[]): void;
  stop(): Promise<void>;
}

/** The path of the event stream of rebuilt pages; the script that listens to it is at the same path plus `.js`. */
export const reloadPath = '/_contrato/reload';

/** The script every HTML page gets from the watch's docs server: reload when the site was rebuilt. */
const reloadScript = `(() => {
  const events = new EventSource(${JSON.stringify(reloadPath)});
  events.addEventListener('rebuilt', () => location.reload());
})();
`;

/**
 * The docs site with reloading: a front on `host`:`port` that serves the reload script and its event
 * stream, and hands everything else to contrato's static server of the site (servers.ts), adding the
 * script to each HTML page. `reload(pages)` tells every open page.
 */
export async function serveDocsWithReload(siteDir: string, port: number, host: string): Promise<DocsWithReload> {
  const { serveStatic } = await import('./servers.js');
  const site = await serveStatic(siteDir, 0, '127.0.0.1');
  const target = new URL(site.url);
  const listeners = new Set<ServerResponse>();
  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (path === reloadPath) {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      response.write('retry: 500\n\n');
      listeners.add(response);
      request.once('close', () => listeners.delete(response));
      return;
    }
    if (path === `${reloadPath}.js`) {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' }).end(reloadScript);
      return;
    }
    // Plain bytes from the site's server, so the script can be added to a page.
    const { 'accept-encoding': _encoding, ...headers } = request.headers;
    const forward = httpRequest(
      { host: target.hostname, port: target.port, method: request.method, path: request.url, headers },
      (answer: IncomingMessage) => {
        const html = /^text\/html/.test(String(answer.headers['content-type'] ?? ''));
        const { 'content-length': length, etag, ...rest } = answer.headers;
        response.writeHead(
          answer.statusCode ?? 502,
          html ? rest : { ...rest, ...(length ? { 'content-length': length } : {}), ...(etag ? { etag } : {}) },
        );
        answer.on('data', (chunk: Buffer) => response.write(chunk));
        answer.once('end', () =>
          response.end(html && request.method !== 'HEAD' ? `<script src="${reloadPath}.js"></script>\n` : undefined),
        );
      },
    );
    forward.once('error', () => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end('the docs server did not answer');
    });
    request.pipe(forward);
  };
  const front: Server = createServer(handle);
  await new Promise<void>((done, fail) => {
    front.once('error', fail);
    front.listen(port, host, () => done());
  });
  return {
    url: urlOf(host, (front.address() as AddressInfo).port),
    reload: (pages) => {
      for (const listener of listeners) listener.write(`event: rebuilt\ndata: ${JSON.stringify(pages)}\n\n`);
    },
    stop: async () => {
      for (const listener of listeners) listener.end();
      front.closeAllConnections();
      await new Promise<void>((done) => front.close(() => done()));
      await site.stop();
    },
  };
}

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer } from './servers.js';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export type Handler = (request: RecordedRequest, response: ServerResponse) => void;

export interface LoopbackServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 and an ephemeral port that records every request it answers. */
export function startLoopbackServer(handler: Handler): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request = {
        method: incoming.method ?? 'GET',
        path: incoming.url ?? '/',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      handler(request, response);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests,
        close: () => closeServer(server),
      });
    });
  });
}

export function sendJson(response: ServerResponse, status: number, body: unknown, contentType = 'application/json'): void {
  response.writeHead(status, { 'content-type': contentType }).end(JSON.stringify(body));
}

/**
 * `handler` behind an OAuth token endpoint: `/auth/token` answers `tok-1`, then `tok-2` and so on (one more
 * per token request, each valid an hour); every other request goes to `handler`.
 */
export function withTokenEndpoint(handler: Handler): Handler {
  let tokens = 0;
  return (request, response) => {
    if (request.path !== '/auth/token') return handler(request, response);
    tokens += 1;
    sendJson(response, 200, { access_token: `tok-${tokens}`, token_type: 'Bearer', expires_in: 3600 });
  };
}

import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestPki } from './certificates.js';
import { closeServer } from './servers.js';

export interface HttpsTestServer {
  readonly url: string;
  close(): Promise<void>;
}

/** An HTTPS server on 127.0.0.1 and an ephemeral port that demands a client certificate of the test CA. */
export async function startMutualTlsServer(
  pki: TestPki,
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<HttpsTestServer> {
  const server: Server = createServer({ ...pki.server, ca: pki.ca, requestCert: true, rejectUnauthorized: true }, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => closeServer(server),
  };
}

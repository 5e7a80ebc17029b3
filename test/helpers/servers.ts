/**
 * Closing the HTTP(S) servers a test started: `close()` alone waits for every open connection to end, and a
 * keep-alive (or abandoned) connection would hold it open, so the connections are closed too.
 */
import type { Server as HttpServer } from 'node:http';
import type { Server as HttpsServer } from 'node:https';

export type ClosableServer = HttpServer | HttpsServer;

/** Stops `server` listening and closes its connections; resolves once it is closed (or was not listening). */
export function closeServer(server: ClosableServer): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Closes every server in `servers` and empties the list: for a list a test file fills and closes in afterEach. */
export async function closeServers(servers: ClosableServer[]): Promise<void> {
  await Promise.all(servers.splice(0).map(closeServer));
}

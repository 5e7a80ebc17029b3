/**
 * A payment platform on 127.0.0.1 behind mutual TLS, for fault injection: it issues tokens, executes
 * each keyed payment (Idempotency-Key) once and answers a replay with the original, and before or after
 * executing can fail the way real servers do — drop the socket, reset mid-body, answer 503, or crash and
 * refuse connections while it restarts on the same port.
 */
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer } from './servers.js';
import type { TestPki } from './certificates.js';

export type Fault =
  | { readonly kind: 'none' }
  | { readonly kind: 'unavailable-before' }
  | { readonly kind: 'reset-during-body' }
  | { readonly kind: 'drop-after-commit' }
  | { readonly kind: 'restart-after-commit'; readonly downMs: number };

export interface PaymentServer {
  readonly url: string;
  /** Executions per idempotency key. */
  readonly executions: Map<string, number>;
  /** The fault for the next payment requests (taken in order; `none` when the list is empty). */
  faults: Fault[];
  /** Resolves once the server listens again after a restart. */
  up(): Promise<void>;
  close(): Promise<void>;
}

const send = (response: ServerResponse, status: number, body: unknown): void => {
  response.writeHead(status, { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' }).end(JSON.stringify(body));
};

export async function startPaymentServer(pki: TestPki): Promise<PaymentServer> {
  const executions = new Map<string, number>();
  const stored = new Map<string, unknown>();
  let nextId = 1;
  let restarting: Promise<void> = Promise.resolve();
  let down = false;
  let port = 0;
  const server: Server = createServer(
    { ...pki.server, ca: pki.ca, requestCert: true, rejectUnauthorized: true },
    (request: IncomingMessage, response: ServerResponse) => {
      if (request.url === '/auth/token') {
        request.resume();
        return send(response, 200, { access_token: 'fault-token', token_type: 'Bearer', expires_in: 3600 });
      }
      if (request.method !== 'POST') {
        // Reads are no payments: they take no fault (a test warms its connection with one).
        request.resume();
        return send(response, 200, {});
      }
      const fault = state.faults.shift() ?? { kind: 'none' };
      if (fault.kind === 'reset-during-body') {
        // The body has not been read: nothing is executed.
        request.socket.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (fault.kind === 'unavailable-before') return send(response, 503, { title: 'Unavailable', status: 503 });
        const key = String(request.headers['idempotency-key'] ?? '');
        let answer = stored.get(key);
        if (answer === undefined) {
          executions.set(key, (executions.get(key) ?? 0) + 1);
          answer = {
            id: nextId++,
            amount: (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { amount: number }).amount,
            status: 'REGISTERING',
          };
          stored.set(key, answer);
        }
        // A second crash while already down (two requests committed at once) is just the same outage.
        if (fault.kind === 'drop-after-commit' || (fault.kind === 'restart-after-commit' && down)) return void request.socket.destroy();
        if (fault.kind === 'restart-after-commit') {
          down = true;
          // A crash: this connection and every other one dropped, new ones refused until it is back.
          server.close();
          server.closeAllConnections();
          restarting = new Promise((resolve) =>
            setTimeout(
              () =>
                server.listen(port, '127.0.0.1', () => {
                  down = false;
                  resolve();
                }),
              fault.downMs,
            ),
          );
          return;
        }
        send(response, 201, answer);
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  const state: PaymentServer = {
    url: `https://127.0.0.1:${port}`,
    executions,
    faults: [],
    up: () => restarting,
    close: async () => {
      await restarting;
      await closeServer(server);
    },
  };
  return state;
}

/**
 * Test helpers for the webhook handler: a real node:http server on 127.0.0.1, port 0, that the test
 * closes; deliveries by fetch; a seeded random source (its seed printed) and a deliberately slow
 * asynchronous DeliveryStore built on it.
 */
import { closeServer } from '../helpers/servers.js';
import { seededRandom, testSeed as seededTestSeed } from '../helpers/seeded.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookHandler, type ClaimOutcome, type DeliveryStore, type WebhookHandlerOptions } from '../../src/events/index.js';

export interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers: Headers;
}

export interface Receiver {
  readonly port: number;
  deliver(body: unknown, init?: { readonly method?: string; readonly signal?: AbortSignal }): Promise<Answer>;
  close(): Promise<void>;
}

export async function startReceiver(options: WebhookHandlerOptions): Promise<Receiver> {
  const handler = createWebhookHandler(options);
  const server: Server = createServer((request, response) => void handler(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    async deliver(body, init = {}) {
      const response = await fetch(`http://127.0.0.1:${port}/hooks/contrato`, {
        method: init.method ?? 'POST',
        headers: { 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
        ...(init.signal ? { signal: init.signal } : {}),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown>, headers: response.headers };
    },
    close: () => closeServer(server),
  };
}

export const invoicePaid = (invoiceId: number) => ({
  type: 'invoice.paid',
  data: {
    invoiceId,
    txId: 'fc9a4366ff3d4964b5dbc6c91a8722d3',
    status: 'COMPLETED',
    paymentMethod: 'PIX',
    amount: 249.9,
    dueDate: '2025-04-10T00:00:00-03:00',
    description: 'Pedido 10482',
    customer: { name: 'Mariana Costa Ribeiro', document: '***.034.325-**' },
  },
});

/** The seed of this run: WEBHOOK_TEST_SEED to replay one, else the clock; printed either way. */
export const testSeed = (label: string): number => seededTestSeed(label, 'WEBHOOK_TEST_SEED');
export { seededRandom };

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * `inner` behind a network-like latency: every call waits 0–20 ms before and after reaching it, as a
 * database round trip would. The inner call itself stays atomic, as a database statement is.
 */
export function slowStore(inner: DeliveryStore, random: () => number): DeliveryStore {
  const latency = () => sleep(Math.floor(random() * 21));
  return {
    async claim(key, claim): Promise<ClaimOutcome> {
      await latency();
      const outcome = await inner.claim(key, claim);
      await latency();
      return outcome;
    },
    async complete(key, token) {
      await latency();
      await inner.complete(key, token);
      await latency();
    },
    async release(key, token) {
      await latency();
      await inner.release(key, token);
      await latency();
    },
  };
}

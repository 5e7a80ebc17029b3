/**
 * createWebhookHandler on a real node:http server on 127.0.0.1: 2xx only after onEvent resolved,
 * duplicates acknowledged without a second call, invalid payloads 400 with the field, handler failures
 * non-2xx and handled again on redelivery (section 6.1), unknown types passed through.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookHandler, memorySeenStore, type ParsedEvent, type SeenStore, type WebhookHandlerOptions } from '../../src/events/index.js';

const invoicePaid = (invoiceId: number) => ({
  type: 'invoice.paid',
  data: { invoiceId, txId: 'fc9a4366ff3d4964b5dbc6c91a8722d3', status: 'COMPLETED', paymentMethod: 'PIX', amount: 249.9, dueDate: '2025-04-10T00:00:00-03:00', description: 'Pedido 10482', customer: { name: 'Mariana Costa Ribeiro', document: '***.034.325-**' } },
});

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function receiver(options: WebhookHandlerOptions): Promise<(body: unknown, method?: string) => Promise<{ status: number; body: Record<string, unknown> }>> {
  const handler = createWebhookHandler(options);
  server = createServer((request, response) => void handler(request, response));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return async (body, method = 'POST') => {
    const response = await fetch(`http://127.0.0.1:${port}/hooks/contrato`, { method, headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
}

describe('createWebhookHandler', () => {
  it('acknowledges a valid delivery after onEvent resolved, with the typed event', async () => {
    const order: string[] = [];
    const deliver = await receiver({
      onEvent: async (event) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        order.push(event.known && event.type === 'invoice.paid' ? `paid ${event.data.invoiceId}` : 'other');
      },
    });
    const answer = await deliver(invoicePaid(90215));
    order.push('answered');
    expect(answer).toEqual({ status: 200, body: { received: true } });
    expect(order).toEqual(['paid 90215', 'answered']);
  });

  it('acknowledges a duplicate without calling onEvent again', async () => {
    const calls: string[] = [];
    const deliver = await receiver({ onEvent: (_event, { key }) => void calls.push(key) });
    expect((await deliver(invoicePaid(1))).body).toEqual({ received: true });
    expect((await deliver(invoicePaid(1))).body).toEqual({ received: true, duplicate: true });
    expect((await deliver(invoicePaid(2))).body).toEqual({ received: true });
    expect(calls).toEqual(['invoice-1-invoice.paid', 'invoice-2-invoice.paid']);
  });

  it('handles concurrent deliveries of one event once', async () => {
    let calls = 0;
    const deliver = await receiver({
      onEvent: async () => {
        calls += 1;
        await new Promise((resolve) => setTimeout(resolve, 50));
      },
    });
    const answers = await Promise.all([deliver(invoicePaid(5)), deliver(invoicePaid(5)), deliver(invoicePaid(5))]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(calls).toBe(1);
  });

  it('answers 500 when onEvent fails, so the platform resends; the redelivery is handled', async () => {
    let attempts = 0;
    const errors: unknown[] = [];
    const deliver = await receiver({
      onEvent: () => {
        attempts += 1;
        if (attempts === 1) throw new Error('database down');
      },
      onError: (error) => errors.push(error),
    });
    expect((await deliver(invoicePaid(7))).status).toBe(500);
    expect(await deliver(invoicePaid(7))).toEqual({ status: 200, body: { received: true } });
    expect(attempts).toBe(2);
    expect(String(errors[0])).toMatch(/database down/);
  });

  it.each([
    ['a payload that breaks its schema', { type: 'invoice.paid', data: { status: 'COMPLETED' } }, /invoiceId/],
    ['a body without type', { data: {} }, /\/type/],
    ['a body that is not JSON', '{"type":', /not JSON/],
  ])('answers 400 with the reason for %s, without calling onEvent', async (_label, body, reason) => {
    let called = false;
    const deliver = await receiver({ onEvent: () => void (called = true) });
    const answer = await deliver(body);
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toMatch(reason);
    expect(called).toBe(false);
  });

  it('passes an unknown event type to onEvent as known: false', async () => {
    const seen: ParsedEvent[] = [];
    const deliver = await receiver({ onEvent: (event) => void seen.push(event) });
    expect((await deliver({ type: 'pix.automatic.created', data: { id: 9 } })).status).toBe(200);
    expect(seen).toEqual([{ known: false, type: 'pix.automatic.created', data: { id: 9 }, payload: { type: 'pix.automatic.created', data: { id: 9 } } }]);
  });

  it('accepts deliveries by the registered method (PUT)', async () => {
    const deliver = await receiver({ onEvent: () => undefined });
    expect((await deliver(invoicePaid(11), 'PUT')).status).toBe(200);
  });

  it('refuses a body over the limit with 413', async () => {
    const deliver = await receiver({ onEvent: () => undefined, maxBodyBytes: 64 });
    expect((await deliver(invoicePaid(12))).status).toBe(413);
  });

  it('uses the seen-store it is given (a restart keeps what a persistent store remembers)', async () => {
    const keys = new Set<string>(['invoice-13-invoice.paid']);
    const store: SeenStore = { has: async (key) => keys.has(key), add: async (key) => void keys.add(key) };
    let calls = 0;
    const deliver = await receiver({ onEvent: () => void (calls += 1), seen: store });
    expect((await deliver(invoicePaid(13))).body).toEqual({ received: true, duplicate: true });
    expect((await deliver(invoicePaid(14))).body).toEqual({ received: true });
    expect(calls).toBe(1);
    expect(keys.has('invoice-14-invoice.paid')).toBe(true);
  });

  it('memorySeenStore forgets the oldest keys beyond its capacity', () => {
    const store = memorySeenStore(2);
    store.add('a');
    store.add('b');
    store.add('c');
    expect([store.has('a'), store.has('b'), store.has('c')]).toEqual([false, true, true]);
  });
});

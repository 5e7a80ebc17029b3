/**
 * createWebhookHandler on a real node:http server on 127.0.0.1: 2xx only after onEvent resolved,
 * duplicates acknowledged without a second call, invalid payloads 400 with the field, handler failures
 * non-2xx and handled again on redelivery (section 6.1), unknown types passed through, deeply nested
 * bodies refused deterministically. Claims under concurrency: claims.test.ts; the body deadline:
 * body-deadline.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookHandler, memoryDeliveryStore, type ParsedEvent, type WebhookHandlerOptions } from '../../src/events/index.js';
import { invoicePaid, startReceiver, type Receiver } from './receiver.js';

let receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  receivers = [];
});

async function receiver(options: WebhookHandlerOptions): Promise<Receiver['deliver']> {
  const started = await startReceiver(options);
  receivers.push(started);
  return started.deliver;
}

/** `{"type":…,"data":[[[…]]]}` with `depth` arrays, written directly: no recursion builds it. */
const nestedDelivery = (type: string, depth: number): string => `{"type":"${type}","data":${'['.repeat(depth)}${']'.repeat(depth)}}`;

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
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: { received: true } });
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

  it('handles concurrent deliveries of one event once; the others are asked to come back (503)', async () => {
    let calls = 0;
    const deliver = await receiver({
      onEvent: async () => {
        calls += 1;
        await new Promise((resolve) => setTimeout(resolve, 50));
      },
    });
    const answers = await Promise.all([deliver(invoicePaid(5)), deliver(invoicePaid(5)), deliver(invoicePaid(5))]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 503, 503]);
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
    const redelivered = await deliver(invoicePaid(7));
    expect({ status: redelivered.status, body: redelivered.body }).toEqual({ status: 200, body: { received: true } });
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
    expect(seen).toEqual([
      { known: false, type: 'pix.automatic.created', data: { id: 9 }, payload: { type: 'pix.automatic.created', data: { id: 9 } } },
    ]);
  });

  it('accepts deliveries by the registered method (PUT)', async () => {
    const deliver = await receiver({ onEvent: () => undefined });
    expect((await deliver(invoicePaid(11), { method: 'PUT' })).status).toBe(200);
  });

  it('refuses a body over the limit with 413, and tells onError', async () => {
    const errors: unknown[] = [];
    const deliver = await receiver({ onEvent: () => undefined, maxBodyBytes: 64, onError: (error) => errors.push(error) });
    expect((await deliver(invoicePaid(12))).status).toBe(413);
    expect(String(errors[0])).toMatch(/exceeds 64 bytes/);
  });

  it('uses the store it is given (a restart keeps what a persistent store remembers)', async () => {
    const store = memoryDeliveryStore();
    store.complete('invoice-13-invoice.paid', 'before-the-restart');
    let calls = 0;
    const deliver = await receiver({ onEvent: () => void (calls += 1), store });
    expect((await deliver(invoicePaid(13))).body).toEqual({ received: true, duplicate: true });
    expect((await deliver(invoicePaid(14))).body).toEqual({ received: true });
    expect(calls).toBe(1);
    expect(store.claim('invoice-14-invoice.paid', { token: 'later', leaseMs: 1000 })).toBe('handled');
  });
});

describe('a deeply nested delivery (a poison message before)', () => {
  it('answers 400 with rule maxNestingDepth to a 100 000-deep unknown event, every time, without calling onEvent', async () => {
    let calls = 0;
    const errors: unknown[] = [];
    const deliver = await receiver({ onEvent: () => void (calls += 1), onError: (error) => errors.push(error) });
    const body = nestedDelivery('pix.automatic.created', 100_000);
    for (const attempt of [1, 2]) {
      const answer = await deliver(body);
      expect({ attempt, status: answer.status }).toEqual({ attempt, status: 400 });
      expect(answer.body.issues).toEqual([
        { pointer: '', rule: 'maxNestingDepth', message: 'nests objects and arrays deeper than 64 levels' },
      ]);
    }
    expect(calls).toBe(0);
    expect(errors).toHaveLength(2);
    expect(errors.every((error) => !(error instanceof RangeError))).toBe(true);
  });

  it('accepts a body at the limit and refuses one level more (maxNestingDepth option)', async () => {
    const deliver = await receiver({ onEvent: () => undefined, maxNestingDepth: 8 });
    // The event object is the first level: 7 arrays inside it make 8.
    expect((await deliver(nestedDelivery('x.nested', 7))).status).toBe(200);
    expect((await deliver(nestedDelivery('x.nested', 8))).status).toBe(400);
  });

  it('does not count brackets inside strings', async () => {
    const deliver = await receiver({ onEvent: () => undefined, maxNestingDepth: 3 });
    expect((await deliver({ type: 'x.text', data: { note: '[[[[{{{{ \\" [[[[' } })).status).toBe(200);
  });
});

describe('options', () => {
  it('refuses the `seen` option of 0.1, whose check-then-add was not atomic, naming its replacement', () => {
    const legacy = { onEvent: () => undefined, seen: { has: () => false, add: () => undefined } };
    expect(() => createWebhookHandler(legacy as unknown as WebhookHandlerOptions)).toThrow(/`seen` option was replaced by `store`/);
  });

  it.each([
    ['claimLeaseMs', 0],
    ['bodyTimeoutMs', -1],
    ['maxBodyBytes', Number.NaN],
    ['maxNestingDepth', 0],
  ])('refuses %s = %s', (name, value) => {
    expect(() => createWebhookHandler({ onEvent: () => undefined, [name]: value })).toThrow(
      new RegExp(`${name} must be a positive number`),
    );
  });
});

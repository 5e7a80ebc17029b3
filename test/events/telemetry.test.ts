/**
 * The server span and the counter of every webhook delivery, read from the OpenTelemetry SDK in memory
 * (test/telemetry/sdk.ts), for both handlers (createWebhookHandler and the transactional one share them):
 * per outcome the span's name, kind, parent (the caller's `traceparent`), attributes and status and the
 * count by outcome; a missing or malformed `traceparent` starts a trace, one flagged not sampled is obeyed;
 * onEvent's own spans nest below the delivery's; below an HTTP server span already active the delivery's
 * span is its INTERNAL child; and no span shows the body's values, the dedupe key or a header's value.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind, trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTransactionalWebhookHandler } from '../../src/events/handler.js';
import { createWebhookHandler, type DeliveryStore, memoryDeliveryStore, type WebhookHandlerOptions } from '../../src/events/index.js';
import type { Handler } from '../../src/events/receiver.js';
import type { TransactionalDeliveryStore } from '../../src/events/store.js';
import { closeServers } from '../helpers/servers.js';
import { useTelemetry } from '../telemetry/sdk.js';
import { deliveriesByOutcome, expectNestedUnder, leafTexts, leaks, newCaller, serverSpanIn, summaryOf } from '../telemetry/server-spans.js';
import { invoicePaid } from './receiver.js';

const telemetry = useTelemetry();
const servers: Server[] = [];
afterEach(() => closeServers(servers));

/** A memory store given `runClaimed`: the work, then the mark, as a database transaction would commit them. */
function transactional(store: DeliveryStore): TransactionalDeliveryStore<string> {
  return {
    claim: (key, claim) => store.claim(key, claim),
    complete: (key, token) => store.complete(key, token),
    release: (key, token) => store.release(key, token),
    async runClaimed(key, token, work) {
      await work('transaction');
      await store.complete(key, token);
      return 'completed';
    },
  };
}

const variants: { readonly name: string; readonly handlerOf: (options: WebhookHandlerOptions) => Handler }[] = [
  { name: 'createWebhookHandler', handlerOf: (options) => createWebhookHandler(options) },
  {
    name: 'createTransactionalWebhookHandler',
    handlerOf: ({ store, onEvent, ...options }) =>
      createTransactionalWebhookHandler({ ...options, store: transactional(store ?? memoryDeliveryStore()), onEvent }),
  },
];

type Deliver = (body: unknown, headers?: Record<string, string>) => Promise<number>;

/** `handler` on 127.0.0.1 (port 0) behind `listener`, closed after the test; delivers by fetch and answers the status. */
async function serve(handler: Handler, listener = (run: () => Promise<void>) => run()): Promise<Deliver> {
  const server = createServer((request, response) => void listener(() => handler(request, response)));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return async (body, headers = {}) => {
    const response = await fetch(`http://127.0.0.1:${port}/hooks/contrato`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    await response.arrayBuffer();
    return response.status;
  };
}

class StoreDownError extends Error {
  override readonly name = 'StoreDownError';
  readonly unavailable = true;
}

const heldElsewhere: DeliveryStore = { claim: () => 'in-progress', complete() {}, release() {} };
const unreachable: DeliveryStore = {
  claim: () => Promise.reject(new StoreDownError('connection refused')),
  complete() {},
  release() {},
};

interface Row {
  readonly given: string;
  readonly body: unknown;
  readonly options?: Partial<WebhookHandlerOptions>;
  /** Delivered (without `traceparent`) before the delivery looked at. */
  readonly before?: unknown;
  readonly want: {
    readonly status: number;
    readonly outcome: string;
    readonly eventType?: string;
    readonly errorType?: string;
    readonly counts: Record<string, number>;
  };
}

const rows: Row[] = [
  {
    given: 'an event onEvent handles',
    body: invoicePaid(90215),
    want: { status: 200, outcome: 'handled', eventType: 'invoice.paid', counts: { handled: 1 } },
  },
  {
    given: 'an event handled before',
    body: invoicePaid(90216),
    before: invoicePaid(90216),
    want: { status: 200, outcome: 'duplicate', eventType: 'invoice.paid', counts: { handled: 1, duplicate: 1 } },
  },
  {
    given: 'an event another delivery is handling',
    body: invoicePaid(90217),
    options: { store: heldElsewhere },
    want: { status: 503, outcome: 'in-progress', eventType: 'invoice.paid', errorType: '503', counts: { 'in-progress': 1 } },
  },
  {
    given: 'an event onEvent fails on',
    body: invoicePaid(90218),
    options: {
      onEvent: () => {
        throw new Error('ledger locked');
      },
    },
    want: { status: 500, outcome: 'failed', eventType: 'invoice.paid', errorType: '500', counts: { failed: 1 } },
  },
  {
    given: 'a payload its type refuses (a 4xx is the caller’s error: no error status)',
    body: { type: 'invoice.paid', data: { invoiceId: 'not a number' } },
    want: { status: 400, outcome: 'invalid', eventType: 'invoice.paid', counts: { invalid: 1 } },
  },
  {
    given: 'a body with no type',
    body: { data: { invoiceId: 1 } },
    want: { status: 400, outcome: 'invalid', counts: { invalid: 1 } },
  },
  {
    given: 'a body over maxBodyBytes',
    body: invoicePaid(90219),
    options: { maxBodyBytes: 16 },
    want: { status: 413, outcome: 'invalid', counts: { invalid: 1 } },
  },
  {
    given: 'an event of a type this version does not know (its type is the sender’s text: _OTHER)',
    body: { type: 'loan.granted', data: { loanId: 'L-77' } },
    want: { status: 200, outcome: 'handled', eventType: '_OTHER', counts: { handled: 1 } },
  },
  {
    given: 'a store that cannot be reached',
    body: invoicePaid(90220),
    options: { store: unreachable },
    want: { status: 503, outcome: 'unavailable', eventType: 'invoice.paid', errorType: 'StoreDownError', counts: { unavailable: 1 } },
  },
];

describe.each(variants)('$name: a delivery', ({ handlerOf }) => {
  it.each(rows)('$given: $want.outcome, $want.status', async ({ body, options, before, want }) => {
    const deliver = await serve(handlerOf({ onEvent: () => undefined, onError: () => undefined, ...options }));
    if (before !== undefined) await deliver(before);
    const caller = newCaller();
    expect(await deliver(body, { traceparent: caller.traceparent })).toBe(want.status);

    const span = summaryOf(await serverSpanIn(telemetry, caller.traceId));
    expect(span).toEqual({
      name: 'webhook delivery',
      kind: 'server',
      traceId: caller.traceId,
      parentSpanId: caller.spanId,
      attributes: {
        'http.request.method': 'POST',
        'contrato.receiver': 'webhook',
        ...(want.eventType ? { 'contrato.event.type': want.eventType } : {}),
        'http.response.status_code': want.status,
        'contrato.outcome': want.outcome,
        ...(want.errorType ? { 'error.type': want.errorType } : {}),
      },
      status: want.errorType ? 'error' : 'unset',
    });
    expect(await deliveriesByOutcome(telemetry, 'webhook')).toEqual(want.counts);
  });
});

describe('webhook delivery spans: their place in a trace', () => {
  it.each([
    { given: 'no traceparent', headers: {} },
    { given: 'a traceparent that is not one', headers: { traceparent: 'not-a-traceparent' } },
    { given: 'an all-zero trace id', headers: { traceparent: `00-${'0'.repeat(32)}-b7ad6b7169203331-01` } },
    { given: 'version ff', headers: { traceparent: 'ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } },
    { given: 'version 00 with a fifth field', headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra' } },
    { given: 'upper-case hex', headers: { traceparent: '00-0AF7651916CD43DD8448EB211C80319C-B7AD6B7169203331-01' } },
  ])('$given starts a new trace', async ({ headers }) => {
    const deliver = await serve(createWebhookHandler({ onEvent: () => undefined }));
    expect(await deliver(invoicePaid(4), headers)).toBe(200);
    const [span] = await vi.waitFor(() => {
      const spans = telemetry.spans();
      if (spans.length !== 1) throw new Error(`${spans.length} spans`);
      return spans;
    });
    expect({ parent: span!.parentSpanContext, kind: span!.kind, traceId: span!.spanContext().traceId }).toEqual({
      parent: undefined,
      kind: SpanKind.SERVER,
      traceId: expect.not.stringMatching(/^(0+|0af7651916cd43dd8448eb211c80319c)$/i),
    });
  });

  it('records no span when the caller’s traceparent says not sampled, and still counts the delivery', async () => {
    const deliver = await serve(createWebhookHandler({ onEvent: () => undefined }));
    const notSampled = newCaller();
    expect(await deliver(invoicePaid(5), { traceparent: notSampled.traceparent.replace(/-01$/, '-00') })).toBe(200);
    // A sampled delivery after it: once its span ended, the first one's would have too.
    const sampled = newCaller();
    expect(await deliver(invoicePaid(50), { traceparent: sampled.traceparent })).toBe(200);
    await serverSpanIn(telemetry, sampled.traceId);
    expect(telemetry.spans().map((span) => span.spanContext().traceId)).toEqual([sampled.traceId]);
    expect(await deliveriesByOutcome(telemetry, 'webhook')).toEqual({ handled: 2 });
  });

  it('nests the spans onEvent starts, after an await, below the delivery span', async () => {
    const deliver = await serve(
      createWebhookHandler({
        onEvent: async () => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          trace.getTracer('application').startActiveSpan('book the payment', (span) => span.end());
        },
      }),
    );
    const caller = newCaller();
    expect(await deliver(invoicePaid(6), { traceparent: caller.traceparent })).toBe(200);
    const delivery = await serverSpanIn(telemetry, caller.traceId);
    expectNestedUnder(telemetry, 'book the payment', delivery, caller);
  });

  it('is the INTERNAL child of an HTTP server span already active (an HTTP instrumentation’s): one SERVER span per request', async () => {
    const tracer = trace.getTracer('http-instrumentation');
    let httpSpanId = '';
    const deliver = await serve(createWebhookHandler({ onEvent: () => undefined }), (run) =>
      tracer.startActiveSpan('POST', { kind: SpanKind.SERVER }, async (span) => {
        httpSpanId = span.spanContext().spanId;
        await run();
        span.end();
      }),
    );
    expect(await deliver(invoicePaid(7), { traceparent: newCaller().traceparent })).toBe(200);
    const delivery = await vi.waitFor(() => {
      const found = telemetry.spans().find((span) => span.name === 'webhook delivery');
      if (!found) throw new Error('no delivery span yet');
      return found;
    });
    expect({ kind: delivery.kind, parent: delivery.parentSpanContext?.spanId }).toEqual({ kind: SpanKind.INTERNAL, parent: httpSpanId });
  });
});

describe('webhook delivery spans: secrets', () => {
  it('show none of the body’s values (but its type), the dedupe key or a header’s value', async () => {
    const received: { key: string; headers: Record<string, unknown> }[] = [];
    const deliver = await serve(
      createWebhookHandler({ onEvent: (_event, { key, request }) => void received.push({ key, headers: { ...request.headers } }) }),
    );
    const { type: _type, ...body } = invoicePaid(773311);
    const caller = newCaller();
    const headers = { traceparent: caller.traceparent, authorization: 'Bearer whk-7f3c9a2e5b1d', 'x-signature': 'sha256=9c0e6b2d4f1a8c3e' };
    expect(await deliver({ type: 'invoice.paid', ...body }, headers)).toBe(200);
    await serverSpanIn(telemetry, caller.traceId);

    // Header values under four characters (a content-length of 312) would be found in any number.
    const headerValues = Object.values(received[0]!.headers)
      .flatMap(leafTexts)
      .filter((value) => value.length >= 4);
    const secrets = [...leafTexts(body), received[0]!.key, ...headerValues];
    expect(secrets).toEqual(
      expect.arrayContaining(['Mariana Costa Ribeiro', '773311', 'invoice-773311-invoice.paid', 'Bearer whk-7f3c9a2e5b1d']),
    );
    expect(leaks(telemetry.spans(), secrets)).toEqual([]);
  });
});

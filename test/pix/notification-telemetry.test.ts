/**
 * The server span and the counter of every Pix notification, read from the OpenTelemetry SDK in memory
 * (test/telemetry/sdk.ts): per outcome over the notification's items the span's name, kind, parent (the
 * caller's `traceparent`), attributes (the kind, the number of items) and status, and the count by outcome;
 * a callback's own spans nest below the notification's; and no span shows an item's values, its key, a
 * header's value or the `hmac` of the registered address's query.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeliveryStore } from '../../src/events/store.js';
import { createPixNotificationHandler, type PixNotificationHandlerOptions } from '../../src/pix/index.js';
import { closeServers } from '../helpers/servers.js';
import { useTelemetry } from '../telemetry/sdk.js';
import { deliveriesByOutcome, expectNestedUnder, leafTexts, leaks, newCaller, serverSpanIn, summaryOf } from '../telemetry/server-spans.js';
import { cobr, first, pix, rec, second } from './notification-receiver.js';

const telemetry = useTelemetry();
const servers: Server[] = [];
afterEach(() => closeServers(servers));

type Post = (suffix: string, body: unknown, init?: { method?: string; headers?: Record<string, string> }) => Promise<number>;

/** The handler on 127.0.0.1 (port 0), closed after the test; posts to `/hooks/loja42<suffix>` and answers the status. */
async function serve(options: PixNotificationHandlerOptions): Promise<Post> {
  const handler = createPixNotificationHandler(options);
  const server = createServer((request, response) => void handler(request, response));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return async (suffix, body, { method = 'POST', headers = {} } = {}) => {
    const response = await fetch(`http://127.0.0.1:${port}/hooks/loja42${suffix}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(method === 'POST' ? { body: JSON.stringify(body) } : {}),
    });
    await response.arrayBuffer();
    return response.status;
  };
}

class StoreDownError extends Error {
  override readonly name = 'StoreDownError';
  readonly unavailable = true;
}

const callbacks = { onPix: () => undefined, onRec: () => undefined, onCobR: () => undefined };

interface Row {
  readonly given: string;
  readonly suffix?: string;
  readonly method?: string;
  readonly body: unknown;
  readonly options?: Partial<PixNotificationHandlerOptions>;
  /** Posted (without `traceparent`) to the same suffix before the notification looked at. */
  readonly before?: unknown;
  readonly want: {
    readonly status: number;
    readonly outcome: string;
    readonly kind?: string;
    readonly items?: number;
    readonly errorType?: string;
    readonly counts: Record<string, number>;
  };
}

const rows: Row[] = [
  {
    given: 'two Pix, both handled',
    body: { pix: [pix(first), pix(second)] },
    want: { status: 200, outcome: 'handled', kind: 'pix', items: 2, counts: { handled: 1 } },
  },
  {
    given: 'two Pix handled before',
    body: { pix: [pix(first), pix(second)] },
    before: { pix: [pix(first), pix(second)] },
    want: { status: 200, outcome: 'duplicate', kind: 'pix', items: 2, counts: { handled: 1, duplicate: 1 } },
  },
  {
    given: 'a Pix handled before and a new one (a mix is handled)',
    body: { pix: [pix(first), pix(second)] },
    before: { pix: [pix(first)] },
    want: { status: 200, outcome: 'handled', kind: 'pix', items: 2, counts: { handled: 2 } },
  },
  {
    given: 'a Pix handled, then one onPix fails on',
    body: { pix: [pix(first), pix(second)] },
    options: {
      onPix: (item) => {
        if (item.endToEndId === second) throw new Error('ledger locked');
      },
    },
    want: { status: 500, outcome: 'failed', kind: 'pix', items: 2, errorType: '500', counts: { failed: 1 } },
  },
  {
    given: 'a Pix another delivery is handling',
    body: { pix: [pix(first)] },
    options: { store: { claim: () => 'in-progress', complete() {}, release() {} } satisfies DeliveryStore },
    want: { status: 503, outcome: 'in-progress', kind: 'pix', items: 1, errorType: '503', counts: { 'in-progress': 1 } },
  },
  {
    given: 'a store that cannot be reached',
    body: { pix: [pix(first)] },
    options: { store: { claim: () => Promise.reject(new StoreDownError('connection refused')), complete() {}, release() {} } },
    want: { status: 503, outcome: 'unavailable', kind: 'pix', items: 1, errorType: 'StoreDownError', counts: { unavailable: 1 } },
  },
  {
    given: 'a Pix without its endToEndId',
    body: { pix: [{ valor: '89.90' }] },
    want: { status: 400, outcome: 'invalid', kind: 'pix', counts: { invalid: 1 } },
  },
  {
    given: 'a recurrence that changed status',
    suffix: '/rec',
    body: rec('APROVADA', '2026-11-06T09:47:15.230Z'),
    want: { status: 200, outcome: 'handled', kind: 'rec', items: 1, counts: { handled: 1 } },
  },
  {
    given: 'a recurring charge, its kind at the end of the query',
    suffix: '?hmac=abc&ignorar=/cobr',
    body: cobr('CONCLUIDA'),
    want: { status: 200, outcome: 'handled', kind: 'cobr', items: 1, counts: { handled: 1 } },
  },
  {
    given: 'a path with no kind',
    suffix: '/other',
    body: { pix: [pix(first)] },
    want: { status: 404, outcome: 'invalid', counts: { invalid: 1 } },
  },
  {
    given: 'a GET',
    method: 'GET',
    body: undefined,
    want: { status: 405, outcome: 'invalid', kind: 'pix', counts: { invalid: 1 } },
  },
];

describe('a Pix notification', () => {
  it.each(rows)('$given: $want.outcome, $want.status', async ({ suffix = '/pix', method, body, options, before, want }) => {
    const post = await serve({ ...callbacks, onError: () => undefined, ...options });
    if (before !== undefined) await post(suffix, before);
    const caller = newCaller();
    expect(await post(suffix, body, { ...(method ? { method } : {}), headers: { traceparent: caller.traceparent } })).toBe(want.status);

    const span = summaryOf(await serverSpanIn(telemetry, caller.traceId));
    expect(span).toEqual({
      name: 'pix notification',
      kind: 'server',
      traceId: caller.traceId,
      parentSpanId: caller.spanId,
      attributes: {
        'http.request.method': method ?? 'POST',
        'contrato.receiver': 'pix-notification',
        ...(want.kind ? { 'contrato.notification.kind': want.kind } : {}),
        ...(want.items === undefined ? {} : { 'contrato.notification.items': want.items }),
        'http.response.status_code': want.status,
        'contrato.outcome': want.outcome,
        ...(want.errorType ? { 'error.type': want.errorType } : {}),
      },
      status: want.errorType ? 'error' : 'unset',
    });
    expect(await deliveriesByOutcome(telemetry, 'pix-notification')).toEqual(want.counts);
  });

  it('nests the spans a callback starts below the notification span', async () => {
    const post = await serve({
      onPix: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        trace.getTracer('application').startActiveSpan('credit the sale', (span) => span.end());
      },
    });
    const caller = newCaller();
    expect(await post('/pix', { pix: [pix(first)] }, { headers: { traceparent: caller.traceparent } })).toBe(200);
    const notification = await serverSpanIn(telemetry, caller.traceId);
    expectNestedUnder(telemetry, 'credit the sale', notification, caller);
  });

  it('shows no item’s value, key or header value, nor the hmac of the address', async () => {
    const received: { key: string; headers: Record<string, unknown> }[] = [];
    const post = await serve({ onPix: (_item, { key, request }) => void received.push({ key, headers: { ...request.headers } }) });
    const caller = newCaller();
    const body = { pix: [pix(first, { infoPagador: 'pedido 10482 de Mariana' })] };
    const headers = { traceparent: caller.traceparent, authorization: 'Bearer psp-4f0e8a557c1b' };
    expect(await post('?hmac=9c0e6b2d4f1a8c3e/pix', body, { headers })).toBe(200);
    await serverSpanIn(telemetry, caller.traceId);

    // Header values under four characters (a content-length of 312) would be found in any number.
    const headerValues = Object.values(received[0]!.headers)
      .flatMap(leafTexts)
      .filter((value) => value.length >= 4);
    const secrets = [...leafTexts(body), received[0]!.key, ...headerValues, '9c0e6b2d4f1a8c3e'];
    expect(secrets).toEqual(expect.arrayContaining([first, '89.90', 'pedido 10482 de Mariana', 'Bearer psp-4f0e8a557c1b']));
    expect(leaks(telemetry.spans(), secrets)).toEqual([]);
  });
});

/**
 * src/runtime/telemetry-server.ts on its own: which `traceparent` values it continues (W3C Trace Context,
 * given/want), and that it does no span work until a tracer provider is registered (the sandbox serves every
 * request through it), then records one span per request and counts deliveries.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { countDelivery, parseTraceparent, startServerSpan } from '../../src/runtime/telemetry-server.js';
import { installTelemetry, type InstalledTelemetry } from './sdk.js';

const traceId = '0af7651916cd43dd8448eb211c80319c';
const spanId = 'b7ad6b7169203331';

describe('parseTraceparent', () => {
  it.each([
    { given: 'version 00, sampled', value: `00-${traceId}-${spanId}-01`, want: { traceId, spanId, traceFlags: 1, isRemote: true } },
    { given: 'version 00, not sampled', value: `00-${traceId}-${spanId}-00`, want: { traceId, spanId, traceFlags: 0, isRemote: true } },
    { given: 'spaces around it', value: ` 00-${traceId}-${spanId}-01 `, want: { traceId, spanId, traceFlags: 1, isRemote: true } },
    {
      given: 'a later version with a fifth field (read as version 00)',
      value: `01-${traceId}-${spanId}-01-later`,
      want: { traceId, spanId, traceFlags: 1, isRemote: true },
    },
    { given: 'version ff', value: `ff-${traceId}-${spanId}-01`, want: undefined },
    { given: 'version 00 with a fifth field', value: `00-${traceId}-${spanId}-01-later`, want: undefined },
    { given: 'an all-zero trace id', value: `00-${'0'.repeat(32)}-${spanId}-01`, want: undefined },
    { given: 'an all-zero span id', value: `00-${traceId}-${'0'.repeat(16)}-01`, want: undefined },
    { given: 'upper-case hex', value: `00-${traceId.toUpperCase()}-${spanId}-01`, want: undefined },
    { given: 'a short trace id', value: `00-${traceId.slice(1)}-${spanId}-01`, want: undefined },
    { given: 'two values (a repeated header)', value: [`00-${traceId}-${spanId}-01`, `00-${traceId}-${spanId}-01`], want: undefined },
    { given: 'no header', value: undefined, want: undefined },
  ])('$given: $want', ({ value, want }) => {
    expect(parseTraceparent(value)).toEqual(want);
  });
});

describe('startServerSpan and countDelivery', () => {
  let telemetry: InstalledTelemetry | undefined;
  afterAll(() => telemetry?.uninstall());

  it('do no span work before a tracer provider is registered, then record a span per request', async () => {
    const start = () => startServerSpan({ name: 'webhook delivery', method: 'post', headers: {} });
    // Without a provider every request gets the one shared no-op span: nothing is made per request.
    expect(start()).toBe(start());
    expect(start().within(() => 'done')).toBe('done');

    telemetry = installTelemetry();
    const span = start();
    expect(span).not.toBe(start());
    span.end({ status: 200, outcome: 'handled' });
    countDelivery('webhook', 'handled');
    expect(telemetry.spans().map((ended) => [ended.name, ended.attributes['contrato.outcome']])).toEqual([['webhook delivery', 'handled']]);
    expect((await telemetry.metricPoints()).map((point) => [point.name, point.attributes, point.value])).toEqual([
      ['contrato.inbox.deliveries', { 'contrato.receiver': 'webhook', 'contrato.outcome': 'handled' }, 1],
    ]);
  });
});

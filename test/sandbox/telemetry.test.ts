/**
 * The sandbox's server span of each request, read from the OpenTelemetry SDK in memory (test/telemetry/sdk.ts):
 * named by the operation matched, with its interface, operation and path template (never the path with its
 * values); `METHOD route` for the control plane; the bare method where no route serves the path; the status
 * answered, a 5xx an error; continuing the caller's `traceparent`, so a client sending it and the sandbox in
 * one process make one trace.
 */
import { SpanKind } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateTxid } from '../../src/formats/pix.js';
import type { PixClient } from '../../src/pix/index.js';
import { pixSandbox } from '../../src/sandbox/pix/index.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { closeAll, expectNoNewDrifts, pixClientOf, planFault, startSeeded } from '../helpers/sandbox.js';
import { useTelemetry } from '../telemetry/sdk.js';
import { leaks, newCaller, serverSpanIn, summaryOf } from '../telemetry/server-spans.js';

const telemetry = useTelemetry();
let sandbox: RunningSandbox;
const clients: PixClient[] = [];
beforeAll(async () => {
  sandbox = await startSeeded('sandbox-telemetry', [pixSandbox]);
});
afterAll(() => closeAll(sandbox, clients));
expectNoNewDrifts(() => sandbox);

const basic = `Basic ${Buffer.from('sandbox-pix:sandbox-secret').toString('base64')}`;
const txid = 'spanpath0000000000000000000000001';

interface Row {
  readonly given: string;
  readonly method: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Done before the request looked at. */
  readonly before?: () => Promise<unknown>;
  readonly want: {
    readonly name: string;
    readonly status: number;
    readonly route?: string;
    readonly interface?: string;
    readonly operation?: string;
    readonly error?: boolean;
  };
}

const rows: Row[] = [
  {
    given: 'a token request',
    method: 'POST',
    path: '/pix/oauth/token',
    headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
    want: { name: 'auth.token', status: 200, route: '/pix/oauth/token', interface: 'pix', operation: 'auth.token' },
  },
  {
    given: 'a charge read without a token (a 4xx is the caller’s error)',
    method: 'GET',
    path: `/pix/cob/${txid}`,
    want: { name: 'cob.get', status: 403, route: '/pix/cob/{txid}', interface: 'pix', operation: 'cob.get' },
  },
  {
    given: 'a charge read while a fault makes it unavailable',
    method: 'GET',
    path: `/pix/cob/${txid}`,
    before: () => planFault(sandbox, { operationId: 'cob.get', kind: 'unavailable' }),
    want: { name: 'cob.get', status: 503, route: '/pix/cob/{txid}', interface: 'pix', operation: 'cob.get', error: true },
  },
  {
    given: 'a path of the interface no operation has',
    method: 'GET',
    path: `/pix/nothing/${txid}`,
    want: { name: 'GET', status: 404, interface: 'pix' },
  },
  {
    given: 'a path under no interface',
    method: 'GET',
    path: `/elsewhere/${txid}`,
    want: { name: 'GET', status: 404 },
  },
  {
    given: 'the control plane’s overview',
    method: 'GET',
    path: '/_sandbox',
    want: { name: 'GET /_sandbox', status: 200, route: '/_sandbox' },
  },
  {
    given: 'a control request with an id in its path',
    method: 'POST',
    path: `/_sandbox/deliveries/${txid}/resend`,
    want: { name: 'POST /_sandbox/deliveries/{id}/resend', status: 404, route: '/_sandbox/deliveries/{id}/resend' },
  },
  {
    given: 'a verb of the control plane',
    method: 'POST',
    path: '/_sandbox/pix/pay',
    body: JSON.stringify({ txid }),
    want: { name: 'POST /_sandbox/{document}/{verb}', status: 404, route: '/_sandbox/{document}/{verb}' },
  },
  {
    given: 'a control path with no route',
    method: 'GET',
    path: `/_sandbox/a/b/${txid}`,
    want: { name: 'GET', status: 404 },
  },
];

describe('a request to the sandbox', () => {
  it.each(rows)('$given: $want.name, $want.status', async ({ method, path, headers = {}, body, before, want }) => {
    await before?.();
    const caller = newCaller();
    const response = await fetch(`${sandbox.url}${path}`, {
      method,
      headers: { ...headers, traceparent: caller.traceparent },
      ...(body === undefined ? {} : { body }),
    });
    await response.arrayBuffer();
    expect(response.status).toBe(want.status);

    const span = await serverSpanIn(telemetry, caller.traceId);
    expect(summaryOf(span)).toEqual({
      name: want.name,
      kind: 'server',
      traceId: caller.traceId,
      parentSpanId: caller.spanId,
      attributes: {
        'http.request.method': method,
        ...(want.route ? { 'http.route': want.route } : {}),
        ...(want.interface ? { 'contrato.interface': want.interface } : {}),
        ...(want.operation ? { 'contrato.operation': want.operation } : {}),
        'http.response.status_code': want.status,
        ...(want.error ? { 'error.type': String(want.status) } : {}),
      },
      status: want.error ? 'error' : 'unset',
    });
    // The path's values (the txid) are in no name or attribute, nor is the token's credential.
    expect(leaks([span], [txid, basic])).toEqual([]);
  });
});

describe('a client and the sandbox in one process', () => {
  it('make one trace: the call is served in a span below the attempt that sent it', async () => {
    const client = pixClientOf(sandbox, { telemetry: { propagateTraceContext: true } });
    clients.push(client);
    const created = generateTxid();
    await client.cob.replace({
      path: { txid: created },
      body: { calendario: {}, valor: { original: '10.00' }, chave: 'cobrancas@sandbox.example.com' },
    });

    const spans = await vi.waitFor(() => {
      const ended = telemetry.spans();
      if (!ended.some((span) => span.kind === SpanKind.SERVER && span.name === 'cob.replace')) throw new Error('not served yet');
      return ended;
    });
    const call = spans.find((span) => span.kind === SpanKind.CLIENT && span.name === 'cob.replace')!;
    const attempt = spans.find(
      (span) =>
        span.kind === SpanKind.CLIENT &&
        span.parentSpanContext?.spanId === call.spanContext().spanId &&
        span.name === 'PUT /pix/cob/{txid}',
    );
    const served = spans.find((span) => span.kind === SpanKind.SERVER && span.name === 'cob.replace')!;
    expect(attempt, 'the attempt span of the call').toBeDefined();
    expect(summaryOf(served)).toMatchObject({
      traceId: call.spanContext().traceId,
      parentSpanId: attempt?.spanContext().spanId,
      attributes: { 'http.route': '/pix/cob/{txid}', 'contrato.operation': 'cob.replace', 'http.response.status_code': 201 },
    });
  });
});

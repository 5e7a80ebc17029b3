/**
 * The spans and metrics of a client call, read from the OpenTelemetry SDK's in-memory exporter and a metric
 * reader: a keyed call answered 503 twice, then 401 (its token revoked) and 201 after a token renewal, makes
 * exactly the tree and the attributes the observability guide shows; `traceparent` is sent only when asked.
 */
import { context, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { createCoreBankingClient, ProblemError } from '../../src/core-banking/index.js';
import { sendJson, startLoopbackServer, type LoopbackServer, type RecordedRequest, withTokenEndpoint } from '../helpers/loopback.js';
import { useTelemetry } from './sdk.js';
import requests from '../../generated/core-banking/requests.json' with { type: 'json' };

const operationId = 'invoices.create';
const sample = requests.operations[operationId].request;
const inAMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
const invoice = { ...sample, body: { ...sample.body, dueDate: inAMonth } };
const created = { id: 91, status: 'DRAFT' };
const problem = (status: number) => ({
  type: `https://banking.example.com/errors/${status === 401 ? 'unauthorized' : 'service-unavailable'}`,
  title: status === 401 ? 'Unauthorized' : 'Service unavailable',
  status,
});

const telemetry = useTelemetry();
let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** 503, 503 (Retry-After 0), then 401 to the first token, then 201 to the renewed one. */
async function bankOnABadDay(): Promise<LoopbackServer> {
  let calls = 0;
  server = await startLoopbackServer(
    withTokenEndpoint((request, response) => {
      calls += 1;
      if (calls <= 2) {
        response.setHeader('retry-after', '0');
        return sendJson(response, 503, problem(503), 'application/problem+json');
      }
      if (request.headers.authorization === 'Bearer tok-1') return sendJson(response, 401, problem(401), 'application/problem+json');
      sendJson(response, 201, created);
    }),
  );
  return server;
}

const clientOf = (bank: LoopbackServer, extra: object = {}) =>
  createCoreBankingClient({ baseUrl: bank.url, clientId: 'baas_partner', clientSecret: 's3cr3t-value', rateLimit: false, ...extra });

/** The spans as a tree of names, each child under its parent, in the order they started. */
function tree(spans: readonly ReadableSpan[]): string[] {
  const sorted = [...spans].sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
  const lines: string[] = [];
  const walk = (parentId: string | undefined, depth: number): void => {
    for (const span of sorted.filter((each) => each.parentSpanContext?.spanId === parentId))
      lines.push(`${'  '.repeat(depth)}${span.name}`) && walk(span.spanContext().spanId, depth + 1);
  };
  walk(undefined, 0);
  return lines;
}

const byName = (spans: readonly ReadableSpan[], name: string): ReadableSpan[] =>
  [...spans].filter((span) => span.name === name).sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);

describe('the spans of a call retried twice after 503 and sent again after a token renewal', () => {
  it('make the exact tree under the caller’s own span', async () => {
    const bank = await bankOnABadDay();
    const client = clientOf(bank);
    const tracer = trace.getTracer('checkout');
    await tracer.startActiveSpan('checkout', async (root) => {
      await client.invoices.create(invoice as never);
      root.end();
    });
    const template = 'POST /accounts/{accountId}/invoices';
    expect(tree(telemetry.spans())).toEqual([
      'checkout',
      '  invoices.create',
      '    token',
      `    ${template}`,
      `    ${template}`,
      `    ${template}`,
      '    token',
      `    ${template}`,
    ]);
    await client.close();
  });

  it('carry the HTTP client conventions and the contract’s attributes, never a secret', async () => {
    const bank = await bankOnABadDay();
    const client = clientOf(bank);
    await client.invoices.create(invoice as never);
    await client.close();
    const spans = telemetry.spans();
    const port = Number(new URL(bank.url).port);
    const http = {
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'server.port': port,
      'url.template': '/accounts/{accountId}/invoices',
    };
    const [call] = byName(spans, operationId);
    expect(call!.kind).toBe(2);
    expect(call!.attributes).toEqual({
      ...http,
      'contrato.interface': 'core-banking',
      'contrato.operation': operationId,
      'http.response.status_code': 201,
      'contrato.attempts': 4,
      'contrato.idempotency_key_sent': true,
      'contrato.outcome_unknown': false,
    });
    expect(call!.status.code).toBe(0);

    const attempts = byName(spans, 'POST /accounts/{accountId}/invoices');
    const attempt = { ...http, 'contrato.operation': operationId };
    expect(attempts.map((span) => span.attributes)).toEqual([
      { ...attempt, 'http.response.status_code': 503, 'error.type': '503' },
      {
        ...attempt,
        'http.request.resend_count': 1,
        'contrato.retry.reason': '503',
        'contrato.retry.wait_ms': 0,
        'http.response.status_code': 503,
        'error.type': '503',
      },
      {
        ...attempt,
        'http.request.resend_count': 2,
        'contrato.retry.reason': '503',
        'contrato.retry.wait_ms': 0,
        'http.response.status_code': 401,
        'error.type': '401',
      },
      {
        ...attempt,
        'http.request.resend_count': 3,
        'contrato.retry.reason': '401',
        'contrato.retry.wait_ms': 0,
        'http.response.status_code': 201,
      },
    ]);
    expect(attempts.map((span) => span.status.code)).toEqual([2, 2, 2, 0]);

    const token = {
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'server.port': port,
      'url.template': '/auth/token',
      'contrato.interface': 'core-banking',
    };
    expect(byName(spans, 'token').map((span) => span.attributes)).toEqual([
      { ...token, 'contrato.token.reason': 'first' },
      { ...token, 'contrato.token.reason': 'rejected' },
    ]);

    // Nothing the call carried that is secret or personal is in any attribute or event.
    const said = JSON.stringify(spans.map((span) => [span.name, span.attributes, span.events]));
    for (const secret of ['s3cr3t-value', 'tok-1', 'tok-2', invoice.body.pixKey, invoice.body.emailTo, String(invoice.path.accountId)])
      expect(said).not.toContain(secret);
    const key = bank.requests.find((request) => request.headers['idempotency-key'])!.headers['idempotency-key'] as string;
    expect(said).not.toContain(key);
  });

  it('count each attempt’s duration by status class, the retries and the token requests by reason', async () => {
    const bank = await bankOnABadDay();
    const client = clientOf(bank);
    await client.invoices.create(invoice as never);
    await client.close();
    const points = await telemetry.metricPoints();
    const durations = points.filter((point) => point.name === 'http.client.request.duration');
    expect(durations.map((point) => [point.attributes['contrato.status_class'], point.count]).sort()).toEqual([
      ['2xx', 1],
      ['4xx', 1],
      ['5xx', 2],
    ]);
    expect(durations.every((point) => point.unit === 's' && point.attributes['contrato.operation'] === operationId)).toBe(true);
    expect(points.filter((point) => point.name === 'contrato.client.retries').map((point) => [point.attributes, point.value])).toEqual([
      [{ 'contrato.operation': operationId, 'contrato.retry.reason': '503' }, 2],
    ]);
    expect(
      points
        .filter((point) => point.name === 'contrato.client.token.requests')
        .map((point) => [point.attributes['contrato.token.reason'], point.value])
        .sort(),
    ).toEqual([
      ['first', 1],
      ['rejected', 1],
    ]);
  });
});

describe('a call that fails', () => {
  it('ends its span with the error type, why it was not retried and whether its outcome is unknown', async () => {
    server = await startLoopbackServer((request, response) => {
      if (request.path === '/auth/token') return sendJson(response, 200, { access_token: 'tok', token_type: 'Bearer', expires_in: 3600 });
      sendJson(
        response,
        409,
        { ...problem(409), type: 'https://banking.example.com/errors/conflict', title: 'Conflict' },
        'application/problem+json',
      );
    });
    const client = clientOf(server);
    await expect(client.invoices.create(invoice as never)).rejects.toBeInstanceOf(ProblemError);
    await client.close();
    const [call] = byName(telemetry.spans(), operationId);
    expect(call!.attributes).toMatchObject({
      'http.response.status_code': 409,
      'error.type': '409',
      'contrato.attempts': 1,
      'contrato.not_retried': 'not-retryable-status',
      'contrato.outcome_unknown': false,
    });
    expect(call!.status.code).toBe(2);
  });

  it('refused before sending: a span with the error class, 0 attempts and no attempt span', async () => {
    server = await bankOnABadDay();
    const client = clientOf(server);
    await expect(client.invoices.create({ ...invoice, body: { ...invoice.body, amount: -1 } } as never)).rejects.toThrow();
    await client.close();
    const spans = telemetry.spans();
    expect(spans.map((span) => span.name)).toEqual([operationId]);
    expect(spans[0]!.attributes).toMatchObject({ 'error.type': 'RequestValidationError', 'contrato.attempts': 0 });
  });
});

describe('trace context on the wire', () => {
  const traceparentOf = (request: RecordedRequest): unknown => request.headers.traceparent;

  it('is not sent by default (the platform’s acceptance of extra headers is not shown)', async () => {
    const bank = await bankOnABadDay();
    const client = clientOf(bank);
    await client.invoices.create(invoice as never);
    await client.close();
    expect(bank.requests.map(traceparentOf)).toEqual(bank.requests.map(() => undefined));
  });

  it('names each attempt’s and each token request’s own span when propagateTraceContext is on', async () => {
    const bank = await bankOnABadDay();
    const client = clientOf(bank, { telemetry: { propagateTraceContext: true } });
    await client.invoices.create(invoice as never);
    await client.close();
    const spans = telemetry.spans();
    const traceparent = (span: ReadableSpan) => `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`;
    const sent = (token: boolean) => bank.requests.filter((request) => (request.path === '/auth/token') === token).map(traceparentOf);
    expect(sent(false)).toEqual(byName(spans, 'POST /accounts/{accountId}/invoices').map(traceparent));
    expect(sent(true)).toEqual(byName(spans, 'token').map(traceparent));
  });
});

describe('telemetry: false', () => {
  it('makes no span and no metric, even with providers registered', async () => {
    const bank = await bankOnABadDay();
    const client = clientOf(bank, { telemetry: false });
    await client.invoices.create(invoice as never);
    await client.close();
    expect(telemetry.spans()).toEqual([]);
    expect(await telemetry.metricPoints()).toEqual([]);
  });

  it('keeps the caller’s context: a span the caller starts after the call has the caller’s parent', async () => {
    const tracer = trace.getTracer('checkout');
    const root = tracer.startSpan('root');
    await context.with(trace.setSpan(context.active(), root), async () => {
      const bank = await bankOnABadDay();
      const client = clientOf(bank);
      await client.invoices.create(invoice as never);
      await client.close();
      tracer.startSpan('after').end();
    });
    root.end();
    const [after] = byName(telemetry.spans(), 'after');
    expect(after!.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
  });
});

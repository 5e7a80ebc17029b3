/**
 * Server spans of what contrato receives (deliveries pushed to an application) and of what its sandbox
 * serves: one span per request, continuing the caller's W3C `traceparent` when it sends a valid one, ended
 * with the outcome and the status answered; and the counter of deliveries by outcome. No-ops without
 * `@opentelemetry/api`, and no span work at all while no tracer provider is registered: the API's own no-op
 * spans cost a few microseconds a request, about 1% of what the sandbox spends on one.
 *
 * No attribute holds a body, a key's value, a header's (but the method) or the request's path or query: an
 * address registered with a sender may carry a secret in its query, so only route templates are recorded.
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  type Attributes,
  type Context,
  type Counter,
  contratoMeter,
  contratoTracer,
  tracerProviderRegistered,
  errorStatus,
  type Meter,
  type OpenTelemetryApi,
  openTelemetryApi,
  type Span,
  type SpanContext,
  spanKind,
} from './telemetry-api.js';

/** The span of one request served; `end` once, with how it ended. */
export interface ServerSpan {
  /** Runs `work` in the span's context, so spans started inside (a handler's own) nest below it. */
  within<T>(work: () => T): T;
  /**
   * What became known while serving: the operation matched (its name and route template replace the
   * provisional ones) or a low-cardinality fact of the body (an event's type).
   */
  update(facts: { readonly name?: string; readonly route?: string; readonly attributes?: Attributes }): void;
  /** `status` is the one answered; none when no answer was sent (the caller went away, a reset connection). */
  end(ending: { readonly status: number | undefined; readonly outcome?: string | undefined; readonly error?: unknown }): void;
}

const noServerSpan: ServerSpan = { within: (work) => work(), update() {}, end() {} };

/** The remote span context of a W3C `traceparent` (version 00 and later versions' first four fields), if valid. */
export function parseTraceparent(value: string | string[] | undefined): SpanContext | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/.exec(value.trim());
  if (!match) return undefined;
  const [, version, traceId, spanId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  // Version ff is invalid; version 00 has exactly four fields; an all-zero id is no id.
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return { traceId, spanId, traceFlags: Number.parseInt(flags, 16) & 0xff, isRemote: true };
}

export interface ServerSpanStart {
  /** The span's name: the operation served (`charges.create`), what was received (`webhook delivery`), or the method. */
  readonly name: string;
  readonly method: string;
  /** The route's template (`/webhooks/{id}`), never the path with its values. */
  readonly route?: string | undefined;
  readonly headers: IncomingHttpHeaders;
  /** contrato's own attributes (`contrato.receiver`, `contrato.interface`, `contrato.operation`). */
  readonly attributes?: Attributes;
}

/** The members of the API used here beyond telemetry-api.ts's: every API since 1.0 has them. */
type ServerApi = OpenTelemetryApi & {
  readonly trace: { getSpanContext(context: Context): SpanContext | undefined };
};
type RenamableSpan = Span & { updateName(name: string): unknown };

const validSpanContext = (spanContext: SpanContext | undefined): spanContext is SpanContext =>
  spanContext !== undefined && !/^0+$/.test(spanContext.traceId) && !/^0+$/.test(spanContext.spanId);

/**
 * Where the span belongs, and whether it is the request's SERVER span:
 * - below a local span already active (an HTTP server instrumentation made the request's SERVER span and
 *   continued `traceparent` itself): an INTERNAL child, as a request has one SERVER span;
 * - below a remote context already active (extracted upstream), or else the caller's valid `traceparent`;
 * - otherwise the root of a new trace (a malformed `traceparent` included).
 */
function parentOf(api: ServerApi, headers: IncomingHttpHeaders): { parent: Context; kind: number } {
  const active = api.context.active();
  const current = api.trace.getSpanContext(active);
  if (validSpanContext(current)) return { parent: active, kind: current.isRemote ? spanKind.server : spanKind.internal };
  const remote = parseTraceparent(headers.traceparent);
  return { parent: remote ? api.trace.setSpanContext(active, remote) : active, kind: spanKind.server };
}

/** A span for a request served, child of the caller's `traceparent` when it sent one. */
export function startServerSpan(start: ServerSpanStart): ServerSpan {
  const api = openTelemetryApi() as ServerApi | null;
  if (!api || !tracerProviderRegistered(api)) return noServerSpan;
  const { parent, kind } = parentOf(api, start.headers);
  const attributes: Attributes = {
    'http.request.method': start.method.toUpperCase(),
    ...(start.route ? { 'http.route': start.route } : {}),
    ...start.attributes,
  };
  const span = contratoTracer(api).startSpan(start.name, { kind, attributes }, parent) as RenamableSpan;
  const context = api.trace.setSpan(parent, span);
  return {
    within: (work) => api.context.with(context, work),
    update({ name, route, attributes }) {
      if (name) span.updateName(name);
      if (route) span.setAttribute('http.route', route);
      if (attributes) span.setAttributes(attributes);
    },
    end({ status, outcome, error }) {
      if (status !== undefined) span.setAttribute('http.response.status_code', status);
      if (outcome) span.setAttribute('contrato.outcome', outcome);
      // OpenTelemetry's server conventions: a 5xx (or a failure) is the server's error; a 4xx is the caller's.
      // Only the error's class is recorded, never its message: a handler's message may quote what it handled.
      if ((status !== undefined && status >= 500) || error !== undefined) {
        span.setAttribute('error.type', error instanceof Error ? error.name : String(status ?? '_OTHER'));
        span.setStatus({ code: errorStatus });
      }
      span.end();
    },
  };
}

let deliveries: { readonly meter: Meter; readonly counter: Counter } | undefined;

/** The counter, made again when the application registers another meter provider. */
function deliveriesCounter(api: OpenTelemetryApi): Counter {
  const meter = contratoMeter(api);
  if (deliveries?.meter === meter) return deliveries.counter;
  const counter = meter.createCounter('contrato.inbox.deliveries', {
    description: 'Deliveries a contrato receiver answered, by receiver and outcome',
    unit: '{delivery}',
  });
  deliveries = { meter, counter };
  return counter;
}

/** Counts a delivery received by its outcome (handled, duplicate, in-progress, failed, invalid…): `contrato.inbox.deliveries`. */
export function countDelivery(receiver: string, outcome: string): void {
  const api = openTelemetryApi();
  if (!api) return;
  deliveriesCounter(api).add(1, { 'contrato.receiver': receiver, 'contrato.outcome': outcome });
}

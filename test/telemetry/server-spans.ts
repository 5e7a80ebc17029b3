/**
 * What the server-span tests (webhook deliveries, Pix notifications, the sandbox) read from the SDK that
 * sdk.ts installs: a span summed up as the fields a test states (name, kind, trace, parent, attributes,
 * status), fresh `traceparent` values, the counter of deliveries by outcome, and the secrets scan.
 */
import { randomBytes } from 'node:crypto';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect, vi } from 'vitest';
import type { TelemetryReadings } from './sdk.js';

/** A caller's span context, and the `traceparent` that sends it (sampled). */
export interface Caller {
  readonly traceId: string;
  readonly spanId: string;
  readonly traceparent: string;
}

export function newCaller(): Caller {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

export interface SpanSummary {
  readonly name: string;
  readonly kind: string;
  readonly traceId: string;
  /** The parent's span id; none for the root of a trace. */
  readonly parentSpanId: string | undefined;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly status: 'unset' | 'ok' | 'error';
}

export function summaryOf(span: ReadableSpan): SpanSummary {
  return {
    name: span.name,
    kind: SpanKind[span.kind]!.toLowerCase(),
    traceId: span.spanContext().traceId,
    parentSpanId: span.parentSpanContext?.spanId,
    attributes: { ...span.attributes },
    status: span.status.code === SpanStatusCode.ERROR ? 'error' : span.status.code === SpanStatusCode.OK ? 'ok' : 'unset',
  };
}

/** The one span of contrato's `instrumentation scope` ended in trace `traceId`, waiting for it to end (servers end it after answering). */
export async function serverSpanIn(telemetry: TelemetryReadings, traceId: string): Promise<ReadableSpan> {
  return vi.waitFor(
    () => {
      const found = telemetry
        .spans()
        .filter((span) => span.instrumentationScope.name === 'contrato' && span.spanContext().traceId === traceId);
      if (found.length !== 1) throw new Error(`${found.length} contrato spans in trace ${traceId}`);
      return found[0]!;
    },
    { timeout: 2000, interval: 5 },
  );
}

/** `contrato.inbox.deliveries` of one receiver, by outcome (outcomes never counted are absent). */
export async function deliveriesByOutcome(telemetry: TelemetryReadings, receiver: string): Promise<Record<string, number>> {
  const points = (await telemetry.metricPoints()).filter(
    (point) => point.name === 'contrato.inbox.deliveries' && point.attributes['contrato.receiver'] === receiver,
  );
  return Object.fromEntries(points.map((point) => [String(point.attributes['contrato.outcome']), point.value ?? 0]));
}

/**
 * The texts of a JSON value worth looking for in spans: every string, and every number of three digits or
 * more (a shorter one, `1`, is found in any status code and proves nothing).
 */
export function leafTexts(value: unknown): string[] {
  if (typeof value === 'string') return value === '' ? [] : [value];
  if (typeof value === 'number') return String(value).length >= 3 ? [String(value)] : [];
  if (Array.isArray(value)) return value.flatMap(leafTexts);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(leafTexts);
  return [];
}

/** Where a span's name, attributes or events show one of `secrets`, one line each (none when clean). */
export function leaks(spans: readonly ReadableSpan[], secrets: readonly string[]): string[] {
  const shown = spans.flatMap((span) => [
    { where: `${span.name}: name`, text: span.name },
    ...Object.entries(span.attributes).map(([name, value]) => ({ where: `${span.name}: ${name}`, text: String(value) })),
    ...span.events.flatMap((event) => [
      { where: `${span.name}: event ${event.name}`, text: event.name },
      ...Object.entries(event.attributes ?? {}).map(([name, value]) => ({
        where: `${span.name}: event ${event.name} ${name}`,
        text: String(value),
      })),
    ]),
  ]);
  return shown.flatMap(({ where, text }) => secrets.filter((secret) => text.includes(secret)).map((secret) => `${where} shows ${secret}`));
}

/** The span named `name` that the application started inside a handler: it must be a child of `parent`, in the caller's trace. */
export function expectNestedUnder(telemetry: TelemetryReadings, name: string, parent: ReadableSpan, caller: Caller): void {
  const own = telemetry.spans().find((span) => span.name === name);
  expect({ traceId: own?.spanContext().traceId, parent: own?.parentSpanContext?.spanId }).toEqual({
    traceId: caller.traceId,
    parent: parent.spanContext().spanId,
  });
}

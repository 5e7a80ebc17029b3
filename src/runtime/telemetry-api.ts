/**
 * The OpenTelemetry API, when the application has it: `@opentelemetry/api` is an optional peer, loaded on
 * first use and never required. Its global registry (tracer and meter providers) lives on `globalThis`, so
 * the copy found from here shares the providers the application registered with its own copy.
 *
 * Only the few members contrato uses are typed here, structurally: the package's declarations must not
 * name a module its users may not have installed.
 */
import { createRequire } from 'node:module';
import { contratoManifest } from './package-manifest.js';

export type Attributes = Record<string, string | number | boolean>;

export interface SpanContext {
  readonly traceId: string;
  readonly spanId: string;
  readonly traceFlags: number;
  readonly isRemote?: boolean;
  readonly traceState?: { serialize(): string };
}

export interface Span {
  spanContext(): SpanContext;
  setAttribute(key: string, value: string | number | boolean): Span;
  setAttributes(attributes: Attributes): Span;
  addEvent(name: string, attributes?: Attributes): Span;
  setStatus(status: { code: number; message?: string }): Span;
  end(): void;
  isRecording(): boolean;
}

/** An opaque OpenTelemetry context. */
export type Context = object;

export interface Tracer {
  startSpan(name: string, options?: { kind?: number; attributes?: Attributes }, context?: Context): Span;
}

export interface Histogram {
  record(value: number, attributes?: Attributes): void;
}

export interface Counter {
  add(value: number, attributes?: Attributes): void;
}

export interface Meter {
  createHistogram(
    name: string,
    options?: { description?: string; unit?: string; advice?: { explicitBucketBoundaries?: number[] } },
  ): Histogram;
  createCounter(name: string, options?: { description?: string; unit?: string }): Counter;
}

export interface OpenTelemetryApi {
  readonly trace: {
    getTracer(name: string, version?: string): Tracer;
    getTracerProvider(): object;
    setSpan(context: Context, span: Span): Context;
    setSpanContext(context: Context, spanContext: SpanContext): Context;
  };
  readonly context: { active(): Context; with<T>(context: Context, run: () => T): T };
  readonly metrics: { getMeter(name: string, version?: string): Meter };
  /** Every API since 1.0 has them; checked before use all the same. */
  readonly ProxyTracerProvider?: new () => { getDelegate(): object };
  readonly createNoopMeter?: () => Meter;
}

/** OpenTelemetry's numbers for span kinds and the error status (stable since API 1.0). */
export const spanKind = { internal: 0, server: 1, client: 2 } as const;
export const errorStatus = 2;

let api: OpenTelemetryApi | null | undefined;

/** The application's OpenTelemetry API, or null when `@opentelemetry/api` is not installed. */
export function openTelemetryApi(): OpenTelemetryApi | null {
  if (api !== undefined) return api;
  try {
    api = createRequire(import.meta.url)('@opentelemetry/api') as OpenTelemetryApi;
  } catch (error) {
    // Absent is the normal case; anything else (a broken install) must not pass silently.
    if ((error as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw error;
    api = null;
  }
  return api;
}

/** contrato's tracer: its spans' instrumentation scope is the package's name and version. */
export const contratoTracer = (api: OpenTelemetryApi): Tracer => api.trace.getTracer('contrato', contratoManifest()?.version);

/** contrato's meter, under the same scope as its tracer. */
export const contratoMeter = (api: OpenTelemetryApi): Meter => api.metrics.getMeter('contrato', contratoManifest()?.version);

let noTracerProvider: object | undefined;

/**
 * Whether the application registered a tracer provider. The API's global provider is a proxy whose delegate is
 * the API's no-op provider until one is registered (a new proxy's delegate is that same no-op). Without one, the
 * API's no-op spans still cost tens of microseconds a call (npm run bench): contrato does no span work instead.
 */
export function tracerProviderRegistered(api: OpenTelemetryApi): boolean {
  if (typeof api.ProxyTracerProvider !== 'function') return true;
  noTracerProvider ??= new api.ProxyTracerProvider().getDelegate();
  const global = api.trace.getTracerProvider() as { getDelegate?: () => object };
  return typeof global.getDelegate !== 'function' || global.getDelegate() !== noTracerProvider;
}

/** Whether the application registered a meter provider: without one, the API hands out its one no-op meter. */
export function meterProviderRegistered(api: OpenTelemetryApi): boolean {
  return typeof api.createNoopMeter !== 'function' || contratoMeter(api) !== api.createNoopMeter();
}

/**
 * The OpenTelemetry SDK as an application registers it, for tests: a tracer provider exporting to memory,
 * a meter provider read on demand, and AsyncLocalStorage context (so spans started inside a call or a handler
 * nest). `installTelemetry()` in beforeAll, `reset()` between tests, `uninstall()` in afterAll: the API's
 * globals are process-wide, and a test file must leave none behind.
 *
 * `useTelemetry()`, called at the top of a test file (before the hooks that start what is observed), registers
 * exactly those three hooks and returns the spans and metrics to read in the tests. A file that must keep the
 * spans across its tests, or installs the SDK partway through a test, calls `installTelemetry()` itself.
 */
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AggregationTemporality, DataPointType, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** A metric reader that exports nothing by itself: the test collects when it wants to look. */
class OnDemandReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override async onShutdown(): Promise<void> {}
  protected override async onForceFlush(): Promise<void> {}
}

/** One data point of a metric, flattened: a counter's value, or a histogram's count and sum. */
export interface MetricPoint {
  readonly name: string;
  readonly unit: string;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly value?: number;
  readonly count?: number;
  readonly sum?: number;
}

/** What a test reads from the SDK installed. */
export interface TelemetryReadings {
  /** The spans ended so far. */
  spans(): ReadableSpan[];
  /** Every data point recorded so far. */
  metricPoints(): Promise<MetricPoint[]>;
}

export interface InstalledTelemetry extends TelemetryReadings {
  /** Forgets the spans and the metrics (a fresh meter provider), keeping the SDK installed. */
  reset(): void;
  uninstall(): Promise<void>;
}

export function installTelemetry(): InstalledTelemetry {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(tracerProvider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  let reader = new OnDemandReader();
  let meterProvider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    spans: () => exporter.getFinishedSpans(),
    async metricPoints() {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics.scopeMetrics.flatMap((scope) =>
        scope.metrics.flatMap((metric) =>
          metric.dataPoints.map((point): MetricPoint => {
            const base = { name: metric.descriptor.name, unit: metric.descriptor.unit, attributes: point.attributes };
            if (metric.dataPointType === DataPointType.HISTOGRAM) {
              const histogram = point.value as { count: number; sum?: number };
              return { ...base, count: histogram.count, ...(histogram.sum === undefined ? {} : { sum: histogram.sum }) };
            }
            return { ...base, value: point.value as number };
          }),
        ),
      );
    },
    reset() {
      exporter.reset();
      // The meter API keeps the first provider set: a new one means disabling the global and setting it again.
      void meterProvider.shutdown();
      metrics.disable();
      reader = new OnDemandReader();
      meterProvider = new MeterProvider({ readers: [reader] });
      metrics.setGlobalMeterProvider(meterProvider);
    },
    async uninstall() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      trace.disable();
      metrics.disable();
      context.disable();
    },
  };
}

/**
 * The SDK installed for the test file: `installTelemetry()` in beforeAll, `reset()` after each test,
 * `uninstall()` in afterAll. Readable from the tests and the hooks registered after this call.
 */
export function useTelemetry(): TelemetryReadings {
  let installed: InstalledTelemetry | undefined;
  const current = (): InstalledTelemetry => {
    if (installed === undefined) throw new Error('useTelemetry(): the SDK is installed in beforeAll, read it in a test or a hook');
    return installed;
  };
  beforeAll(() => {
    installed = installTelemetry();
  });
  afterEach(() => installed?.reset());
  afterAll(async () => {
    await installed?.uninstall();
    installed = undefined;
  });
  return { spans: () => current().spans(), metricPoints: () => current().metricPoints() };
}

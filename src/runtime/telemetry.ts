/**
 * Traces and metrics of the client's calls, through the OpenTelemetry API when the application has it and
 * has registered providers (telemetry-api.ts); otherwise every hook here is a shared no-op (checked on each call).
 *
 * The span tree of one call (docs/guides/observability.md has a real one):
 *
 *   payments.create            CLIENT: the logical call, HTTP client attributes plus the contract's
 *   ├── token                  CLIENT: a token request this call had to wait for
 *   ├── POST /v1/payments      CLIENT: one per physical request (attempt), `http.request.resend_count` from the 2nd
 *   └── POST /v1/payments      … with the reason and the wait that led to it
 *
 * Attempts are child spans, not events: each has its own duration, status and outcome, and it is the span a
 * server continues when `traceparent` is sent (OpenTelemetry's HTTP conventions: one client span per resend).
 * No attribute or event ever holds a body, a token, a secret or a query value (url.template, not url.full).
 */
import type { OperationInfo } from './contract.js';
import { ConfigurationError } from './errors.js';
import {
  type Attributes,
  type Context,
  contratoMeter,
  contratoTracer,
  meterProviderRegistered,
  tracerProviderRegistered,
  type Counter,
  errorStatus,
  type Histogram,
  type Meter,
  type OpenTelemetryApi,
  openTelemetryApi,
  type Span,
  spanKind,
  type Tracer,
} from './telemetry-api.js';

/** The client option `telemetry`: on by default (true), false turns spans and metrics off; `propagateTraceContext` sends `traceparent`. */
export type TelemetryOption = boolean | { readonly propagateTraceContext?: boolean };

/** The `telemetry` option checked: a boolean, or an object with only `propagateTraceContext` (a boolean). */
export function checkTelemetryOption(value: unknown): void {
  if (value === undefined || typeof value === 'boolean') return;
  const words = 'telemetry takes true (the default), false (no spans or metrics) or { propagateTraceContext: boolean }';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ConfigurationError(words);
  for (const [name, member] of Object.entries(value))
    if (name !== 'propagateTraceContext' || typeof member !== 'boolean') throw new ConfigurationError(`${words}; got ${name}`);
}

/** Why a token request was made: the first of the client, the last one about to expire, or the last one refused (401). */
export type TokenReason = 'first' | 'expiry' | 'rejected';

export interface TokenTelemetry {
  /** Headers the token request adds (`traceparent` when propagation is on). */
  readonly headers: Readonly<Record<string, string>>;
  end(error?: unknown, status?: number): void;
}

export interface AttemptTelemetry {
  /** Headers this attempt adds (`traceparent` when propagation is on). */
  readonly headers: Readonly<Record<string, string>>;
  /** Runs the send in the attempt's context, so an instrumentation of undici nests below it. */
  within<T>(send: () => Promise<T>): Promise<T>;
  answered(status: number): void;
  failed(error: unknown): void;
}

/** How a call ended, for its span's last attributes. */
export interface CallEnding {
  readonly status?: number | undefined;
  readonly error?: unknown;
  readonly attempts: number;
  readonly idempotencyKeySent: boolean;
  readonly outcomeUnknown: boolean;
  readonly notRetried?: string | undefined;
  readonly fromJournal: boolean;
}

export interface CallTelemetry {
  token(reason: TokenReason, url: string): TokenTelemetry;
  attempt(resendCount: number): AttemptTelemetry;
  /** The retry step tries again: the next attempt's reason (a status, an error class) and wait; counted as a retry. */
  retrying(reason: string, waitMs: number): void;
  /** The call is sent once more without a retry (after a 401 the token was renewed): the next attempt's reason. */
  resending(reason: string): void;
  end(ending: CallEnding): void;
}

export interface ClientTelemetry {
  call(info: OperationInfo): CallTelemetry;
}

const noHeaders: Readonly<Record<string, string>> = Object.freeze({});
export const noAttemptTelemetry: AttemptTelemetry = { headers: noHeaders, within: (send) => send(), answered() {}, failed() {} };
const noToken: TokenTelemetry = { headers: noHeaders, end() {} };
const noCall: CallTelemetry = { token: () => noToken, attempt: () => noAttemptTelemetry, retrying() {}, resending() {}, end() {} };
export const noTelemetry: ClientTelemetry = { call: () => noCall };

/** The `error.type` of OpenTelemetry's conventions: the status for an HTTP error, the error's class otherwise. */
export function errorTypeOf(error: unknown, status?: number): string | undefined {
  if (status !== undefined && status >= 400) return String(status);
  if (error === undefined) return undefined;
  return error instanceof Error ? error.name : '_OTHER';
}

/** Ends a client span with the status answered and, for an HTTP error or a failure, `error.type` and the error status; returns that type. */
function endClientSpan(span: Span, status: number | undefined, error: unknown): string | undefined {
  const errorType = errorTypeOf(error, status);
  if (status !== undefined) span.setAttribute('http.response.status_code', status);
  if (errorType) {
    span.setAttribute('error.type', errorType);
    span.setStatus({ code: errorStatus });
  }
  span.end();
  return errorType;
}

const statusClassOf = (status: number | undefined): string => (status === undefined ? 'none' : `${Math.floor(status / 100)}xx`);

/** `traceparent` of a span (W3C Trace Context), or nothing for a span without a valid context. */
export function traceparentOf(span: Span): string | undefined {
  const { traceId, spanId, traceFlags } = span.spanContext();
  if (!/^[0-9a-f]{32}$/.test(traceId) || /^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/** Where a base URL points, as OpenTelemetry's `server.*` attributes and the path the templates start with. */
function serverOf(baseUrl: string): { address: string; port: number; basePath: string } {
  const url = new URL(baseUrl);
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { address: url.hostname, port, basePath: url.pathname.replace(/\/$/, '') };
}

/** Bucket boundaries of OpenTelemetry's HTTP duration histograms, in seconds. */
const durationBuckets = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

interface Instruments {
  readonly duration: Histogram;
  readonly retries: Counter;
  readonly tokenRequests: Counter;
}

/** The client's instruments, made again when the application registers another meter provider. */
function instrumentsOf(api: OpenTelemetryApi): () => Instruments {
  let made: { meter: Meter; instruments: Instruments } | undefined;
  return () => {
    const meter = contratoMeter(api);
    if (made?.meter === meter) return made.instruments;
    const instruments: Instruments = {
      duration: meter.createHistogram('http.client.request.duration', {
        description: 'Duration of each HTTP request a contrato client sent (one per attempt)',
        unit: 's',
        advice: { explicitBucketBoundaries: durationBuckets },
      }),
      retries: meter.createCounter('contrato.client.retries', { description: 'Attempts a contrato client made again', unit: '{retry}' }),
      tokenRequests: meter.createCounter('contrato.client.token.requests', {
        description: 'Token requests of a contrato client, by reason (first, expiry, rejected: the last two are renewals)',
        unit: '{request}',
      }),
    };
    made = { meter, instruments };
    return instruments;
  };
}

export interface ClientTelemetryOptions {
  readonly interfaceName: string;
  readonly baseUrl: string;
  readonly option?: TelemetryOption | undefined;
}

/** What every call of one operation shares: its spans' names and attributes, made once per client. */
interface OperationTelemetry {
  readonly operationId: string;
  readonly attemptName: string;
  /** The call span's attributes at its start. */
  readonly call: Attributes;
  /** An attempt's attributes at its start, and the base of its duration's. */
  readonly attempt: Attributes;
}

/** What the calls of one client share. */
interface ClientScope {
  readonly api: OpenTelemetryApi;
  readonly interfaceName: string;
  readonly propagate: boolean;
  readonly instruments: () => Instruments;
}

/** The telemetry of a client: no-ops with `telemetry: false` or without `@opentelemetry/api`. */
export function clientTelemetry(options: ClientTelemetryOptions): ClientTelemetry {
  if (options.option === false) return noTelemetry;
  const api = openTelemetryApi();
  if (!api) return noTelemetry;
  const server = serverOf(options.baseUrl);
  const scope: ClientScope = {
    api,
    interfaceName: options.interfaceName,
    propagate: typeof options.option === 'object' && options.option.propagateTraceContext === true,
    instruments: instrumentsOf(api),
  };
  const operations = new Map<string, OperationTelemetry>();
  const operationOf = (info: OperationInfo): OperationTelemetry => {
    let known = operations.get(info.operationId);
    if (!known) {
      const http: Attributes = {
        'http.request.method': info.method.toUpperCase(),
        'server.address': server.address,
        'server.port': server.port,
        'url.template': server.basePath + info.path,
      };
      known = {
        operationId: info.operationId,
        attemptName: `${http['http.request.method']} ${http['url.template']}`,
        call: { ...http, 'contrato.interface': options.interfaceName, 'contrato.operation': info.operationId },
        attempt: { ...http, 'contrato.operation': info.operationId },
      };
      operations.set(info.operationId, known);
    }
    return known;
  };
  return {
    // Looked at on every call (the tracer too): the application may register its providers after making its clients.
    call(info) {
      const tracing = tracerProviderRegistered(api);
      const metering = meterProviderRegistered(api);
      if (!tracing && !metering) return noCall;
      return new RecordedCall(scope, operationOf(info), tracing ? contratoTracer(api) : undefined, metering);
    },
  };
}

/** Sets the attributes of an attempt that follows another: its place among the resends, and why it was made. */
function resendAttributes(base: Attributes, resendCount: number, next: { reason: string; waitMs: number } | undefined): Attributes {
  if (resendCount === 0 && !next) return base;
  const attributes: Attributes = { ...base };
  if (resendCount > 0) attributes['http.request.resend_count'] = resendCount;
  if (next) {
    attributes['contrato.retry.reason'] = next.reason;
    attributes['contrato.retry.wait_ms'] = next.waitMs;
  }
  return attributes;
}

/** One call's spans (when a tracer provider is registered) and metrics (when a meter provider is). */
class RecordedCall implements CallTelemetry {
  private readonly span: Span | undefined;
  private readonly context: Context | undefined;
  private next: { reason: string; waitMs: number } | undefined;

  constructor(
    private readonly scope: ClientScope,
    private readonly operation: OperationTelemetry,
    private readonly tracer: Tracer | undefined,
    private readonly metering: boolean,
  ) {
    if (!tracer) return;
    const active = scope.api.context.active();
    this.span = tracer.startSpan(operation.operationId, { kind: spanKind.client, attributes: operation.call }, active);
    this.context = scope.api.trace.setSpan(active, this.span);
  }

  token(reason: TokenReason, url: string): TokenTelemetry {
    const { interfaceName, propagate } = this.scope;
    let span: Span | undefined;
    if (this.tracer) {
      const where = serverOf(url);
      const attributes: Attributes = {
        'http.request.method': 'POST',
        'server.address': where.address,
        'server.port': where.port,
        'url.template': where.basePath,
        'contrato.interface': interfaceName,
        'contrato.token.reason': reason,
      };
      span = this.tracer.startSpan('token', { kind: spanKind.client, attributes }, this.context);
    }
    const traceparent = span && propagate ? traceparentOf(span) : undefined;
    return {
      headers: traceparent ? { traceparent } : noHeaders,
      end: (error, status) => {
        const errorType = span ? endClientSpan(span, status, error) : errorTypeOf(error, status);
        if (!this.metering) return;
        this.scope.instruments().tokenRequests.add(1, {
          'contrato.interface': interfaceName,
          'contrato.token.reason': reason,
          ...(errorType ? { 'error.type': errorType } : {}),
        });
      },
    };
  }

  attempt(resendCount: number): AttemptTelemetry {
    const { api, propagate } = this.scope;
    const { operation, tracer } = this;
    const attributes = resendAttributes(operation.attempt, resendCount, this.next);
    this.next = undefined;
    const span = tracer?.startSpan(operation.attemptName, { kind: spanKind.client, attributes }, this.context);
    const context = span && this.context ? api.trace.setSpan(this.context, span) : undefined;
    const traceparent = span && propagate ? traceparentOf(span) : undefined;
    const started = this.metering ? performance.now() : 0;
    const finish = (status: number | undefined, error: unknown): void => {
      const errorType = span ? endClientSpan(span, status, error) : errorTypeOf(error, status);
      if (!this.metering) return;
      const recorded: Attributes = { ...operation.attempt, 'contrato.status_class': statusClassOf(status) };
      if (status !== undefined) recorded['http.response.status_code'] = status;
      if (errorType) recorded['error.type'] = errorType;
      this.scope.instruments().duration.record((performance.now() - started) / 1000, recorded);
    };
    return {
      headers: traceparent ? { traceparent } : noHeaders,
      within: context ? (send) => api.context.with(context, send) : (send) => send(),
      answered: (status) => finish(status, undefined),
      failed: (error) => finish(undefined, error),
    };
  }

  retrying(reason: string, waitMs: number): void {
    this.next = { reason, waitMs };
    if (this.metering)
      this.scope.instruments().retries.add(1, { 'contrato.operation': this.operation.operationId, 'contrato.retry.reason': reason });
  }

  resending(reason: string): void {
    this.next = { reason, waitMs: 0 };
  }

  end(ending: CallEnding): void {
    const { span } = this;
    if (!span) return;
    const errorType = errorTypeOf(ending.error, ending.status);
    const attributes: Attributes = {
      'contrato.attempts': ending.attempts,
      'contrato.idempotency_key_sent': ending.idempotencyKeySent,
      'contrato.outcome_unknown': ending.outcomeUnknown,
    };
    if (ending.status !== undefined) attributes['http.response.status_code'] = ending.status;
    if (ending.notRetried) attributes['contrato.not_retried'] = ending.notRetried;
    if (ending.fromJournal) attributes['contrato.from_journal'] = true;
    if (errorType) {
      attributes['error.type'] = errorType;
      span.setStatus({ code: errorStatus });
    }
    span.setAttributes(attributes);
    span.end();
  }
}

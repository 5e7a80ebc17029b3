/**
 * What every receiver of deliveries shares (the accounts webhook handler, the Pix notification handler):
 * JSON answers, option checks, a logger that can never break the handler, and reading the body under a
 * size limit and a deadline with the refusals that go with them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from './body.js';
import { defaultMaxNestingDepth } from './json.js';
import { type DeliveryStore, memoryDeliveryStore } from './store.js';

/** The options every receiver takes beside its callbacks. */
export interface ReceiverOptions {
  /** Where dedupe keys are claimed and recorded (default: memoryDeliveryStore(), one process, forgotten on restart). */
  readonly store?: DeliveryStore;
  /** How long a claim holds if its handler crashed before finishing; longer than any handler (default 60 s). */
  readonly claimLeaseMs?: number;
  /** Larger bodies are refused with 413 (default 1 MiB). */
  readonly maxBodyBytes?: number;
  /** The whole body must arrive within this time from the headers, or 408 and the connection is closed (default 10 s). */
  readonly bodyTimeoutMs?: number;
  /** Bodies nesting objects and arrays deeper are refused with 400, rule `maxNestingDepth` (default 64). */
  readonly maxNestingDepth?: number;
  /** Told of every refusal and failure (invalid body, timeout, store or handler error), for logs. */
  readonly onError?: (error: unknown, request: IncomingMessage) => void;
}

/** The names of ReceiverOptions, for a receiver that refuses unknown options. */
export const receiverOptionNames = [
  'store',
  'claimLeaseMs',
  'maxBodyBytes',
  'bodyTimeoutMs',
  'maxNestingDepth',
  'onError',
] as const satisfies readonly (keyof ReceiverOptions)[];

export type Handler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;
export type Reporter = (error: unknown, request: IncomingMessage) => void;

export function answer(
  response: ServerResponse,
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

export function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number, not ${value}`);
  return value;
}

/** ReceiverOptions checked, with their defaults. */
export interface ReceiverSettings {
  readonly store: DeliveryStore;
  readonly leaseMs: number;
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;
  readonly maxNestingDepth: number;
  readonly report: Reporter;
}

export function receiverSettings(options: ReceiverOptions): ReceiverSettings {
  return {
    store: options.store ?? memoryDeliveryStore(),
    leaseMs: positive('claimLeaseMs', options.claimLeaseMs ?? 60_000),
    maxBodyBytes: positive('maxBodyBytes', options.maxBodyBytes ?? 1024 * 1024),
    bodyTimeoutMs: positive('bodyTimeoutMs', options.bodyTimeoutMs ?? 10_000),
    maxNestingDepth: positive('maxNestingDepth', options.maxNestingDepth ?? defaultMaxNestingDepth),
    report: safeReporter(options.onError),
  };
}

/** `onError` wrapped so that a failing logger never turns into an unhandled rejection that ends the process. */
export function safeReporter(onError: Reporter | undefined): Reporter {
  return (error, request) => {
    try {
      onError?.(error, request);
    } catch {
      // Nothing to do: the logger itself failed.
    }
  };
}

/** Answers `status` with the reason, and reports it. */
export function refuse(request: IncomingMessage, response: ServerResponse, status: number, reason: string, report: Reporter): void {
  report(new Error(reason), request);
  answer(response, status, { error: reason });
}

export interface BodyLimits {
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;
}

/**
 * The request's body, or undefined when it was refused (and answered): 408 when it did not arrive in time,
 * 413 when too large, 400 when empty; nothing when the client went away.
 */
export async function receiveBody(
  request: IncomingMessage,
  response: ServerResponse,
  limits: BodyLimits,
  report: Reporter,
): Promise<Buffer | undefined> {
  const read = await readBody(request, limits.maxBodyBytes, limits.bodyTimeoutMs);
  if (read.outcome === 'timed-out') {
    const reason = `the body did not arrive within ${limits.bodyTimeoutMs} ms`;
    report(new Error(reason), request);
    response.writeHead(408, { 'content-type': 'application/json', connection: 'close' });
    // Closed, not kept alive: the rest of a trickled body must not be read as the next request.
    response.end(JSON.stringify({ error: reason }), () => request.destroy());
    return undefined;
  }
  if (read.outcome === 'aborted') {
    report(new Error('the client closed the connection before the body ended'), request);
    return undefined;
  }
  if (read.outcome === 'too-large') {
    refuse(request, response, 413, `the body exceeds ${limits.maxBodyBytes} bytes`, report);
    return undefined;
  }
  if (read.bytes.length === 0) {
    refuse(request, response, 400, 'the delivery has no body', report);
    return undefined;
  }
  return read.bytes;
}

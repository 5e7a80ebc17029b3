/**
 * A node:http request handler for webhook deliveries. It answers 2xx only after `onEvent` resolved, so
 * a failure (or a crash) leaves the delivery unacknowledged and the platform resends it (section 6.1:
 * after 2 minutes up to 5 failures, then every 15 and 60 minutes; more than 15 consecutive failures
 * disable the webhook). Duplicates — the same dedupe key handled before — are acknowledged without
 * calling `onEvent` again; the same key arriving while it is being handled waits for that outcome.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dedupeKey, EventValidationError, parseEvent, type ParsedEvent } from './parse.js';

/** Keys of the deliveries already handled. Use a persistent store in production: memory forgets on restart. */
export interface SeenStore {
  has(key: string): boolean | Promise<boolean>;
  add(key: string): void | Promise<void>;
}

/**
 * An in-memory store that keeps the most recent `capacity` keys (default 100 000). The platform resends
 * a failed delivery for about six and a half hours (6.1), so that window is what a store must remember.
 */
export function memorySeenStore(capacity = 100_000): SeenStore {
  const keys = new Set<string>();
  return {
    has: (key) => keys.has(key),
    add: (key) => {
      keys.add(key);
      if (keys.size > capacity) keys.delete(keys.values().next().value as string);
    },
  };
}

export interface WebhookHandlerOptions {
  /** Handles one event; a rejection answers 500 so the platform resends it. */
  readonly onEvent: (event: ParsedEvent, context: { readonly key: string; readonly request: IncomingMessage }) => unknown;
  readonly seen?: SeenStore;
  /** Larger bodies are refused with 413 (default 1 MiB). */
  readonly maxBodyBytes?: number;
  /** Told of every refusal and failure (invalid payload, handler error), for logs. */
  readonly onError?: (error: unknown, request: IncomingMessage) => void;
}

function readBody(request: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        resolve('too-large');
        request.resume();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function answer(response: ServerResponse, status: number, body: Record<string, unknown>): void {
  if (response.headersSent) return;
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

export function createWebhookHandler(options: WebhookHandlerOptions): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const seen = options.seen ?? memorySeenStore();
  const limit = options.maxBodyBytes ?? 1024 * 1024;
  const inFlight = new Map<string, Promise<void>>();

  return async (request, response) => {
    let key: string | undefined;
    try {
      const body = await readBody(request, limit);
      if (body === 'too-large') return answer(response, 413, { error: `the body exceeds ${limit} bytes` });
      if (body.length === 0) return answer(response, 400, { error: 'the delivery has no body' });
      const event = parseEvent(body);
      key = dedupeKey(event);
      const running = inFlight.get(key);
      if (running) {
        await running;
        return answer(response, 200, { received: true, duplicate: true });
      }
      if (await seen.has(key)) return answer(response, 200, { received: true, duplicate: true });
      const handled = (async () => {
        await options.onEvent(event, { key: key!, request });
        await seen.add(key!);
      })();
      inFlight.set(key, handled);
      try {
        await handled;
      } finally {
        inFlight.delete(key);
      }
      answer(response, 200, { received: true });
    } catch (error) {
      options.onError?.(error, request);
      if (error instanceof EventValidationError) {
        return answer(response, 400, {
          error: error.message,
          issues: error.issues.map((issue) => ({ pointer: issue.pointer, rule: issue.rule, message: issue.message })),
        });
      }
      // Not acknowledged: the platform resends it, and the key was not marked as seen.
      answer(response, 500, { error: 'the event could not be handled; it will be resent' });
    }
  };
}

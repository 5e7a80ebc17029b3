/**
 * A node:http request handler for webhook deliveries. It answers 2xx only after `onEvent` resolved, so
 * a failure (or a crash) leaves the delivery unacknowledged and the platform resends it (section 6.1:
 * after 2 minutes up to 5 failures, then every 15 and 60 minutes; more than 15 consecutive failures
 * disable the webhook). Before handling, it claims the delivery's dedupe key in a DeliveryStore: of
 * simultaneous identical deliveries exactly one is handled, a key handled before is acknowledged as a
 * duplicate, and one being handled elsewhere is answered 503 so the platform resends it later.
 */
import type { IncomingMessage } from 'node:http';
import { handleOnce } from './once.js';
import { dedupeKey, EventValidationError, parseEvent, type ParsedEvent } from './parse.js';
import { answer, type Handler, type ReceiverOptions, receiveBody, receiverSettings } from './receiver.js';

export interface WebhookHandlerOptions extends ReceiverOptions {
  /** Handles one event; a rejection answers 500 so the platform resends it. */
  readonly onEvent: (event: ParsedEvent, context: { readonly key: string; readonly request: IncomingMessage }) => unknown;
}

export function createWebhookHandler(options: WebhookHandlerOptions): Handler {
  if ('seen' in options) {
    // 0.1 took a has/add store; checking then adding is not atomic, so it is refused rather than ignored.
    throw new TypeError(
      'the `seen` option was replaced by `store` (a DeliveryStore that claims keys atomically): see docs/guides/webhooks.md',
    );
  }
  const { store, leaseMs, maxBodyBytes, bodyTimeoutMs, maxNestingDepth, report } = receiverSettings(options);
  const retryAfterSeconds = String(Math.ceil(leaseMs / 1000));

  const handle: Handler = async (request, response) => {
    const bytes = await receiveBody(request, response, { maxBodyBytes, bodyTimeoutMs }, report);
    if (!bytes) return;

    let event: ParsedEvent;
    let key: string;
    try {
      event = parseEvent(bytes, { maxNestingDepth });
      key = dedupeKey(event);
    } catch (error) {
      if (!(error instanceof EventValidationError)) throw error;
      report(error, request);
      return answer(response, 400, {
        error: error.message,
        issues: error.issues.map((issue) => ({ pointer: issue.pointer, rule: issue.rule, message: issue.message })),
      });
    }

    const outcome = await handleOnce(key, () => options.onEvent(event, { key, request }), {
      store,
      leaseMs,
      report: (error) => report(error, request),
      workName: 'onEvent',
    });
    if (outcome === 'duplicate') return answer(response, 200, { received: true, duplicate: true });
    if (outcome === 'in-progress') {
      return answer(
        response,
        503,
        { error: 'this event is being handled by another delivery; resend it later' },
        { 'retry-after': retryAfterSeconds },
      );
    }
    if (outcome === 'failed') return answer(response, 500, { error: 'the event could not be handled; it will be resent' });
    answer(response, 200, { received: true });
  };

  return async (request, response) => {
    try {
      await handle(request, response);
    } catch (error) {
      // A store that failed, or anything unexpected: not acknowledged, so the platform resends it.
      report(error, request);
      answer(response, 500, { error: 'the event could not be handled; it will be resent' });
    }
  };
}

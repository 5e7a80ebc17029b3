/**
 * A node:http request handler for webhook deliveries. It answers 2xx only after `onEvent` resolved, so
 * a failure (or a crash) leaves the delivery unacknowledged and the platform resends it (section 6.1:
 * after 2 minutes up to 5 failures, then every 15 and 60 minutes; more than 15 consecutive failures
 * disable the webhook). Before handling, it claims the delivery's dedupe key in a DeliveryStore: of
 * simultaneous identical deliveries exactly one is handled, a key handled before is acknowledged as a
 * duplicate, and one being handled elsewhere is answered 503 so the platform resends it later. Each delivery
 * is an OpenTelemetry server span and a count by outcome (delivery-telemetry.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Attributes } from '../runtime/telemetry-api.js';
import { type DeliveryOutcome, type DeliveryTelemetry, deliveryTelemetry, refusedOutcome } from './delivery-telemetry.js';
import { handleOnce, handleOnceInTransaction, type OnceOutcome } from './once.js';
import { dedupeKey, EventValidationError, parseEvent, type ParsedEvent } from './parse.js';
import { answer, type Handler, type ReceiverOptions, type ReceiverSettings, receiveBody, receiverSettings } from './receiver.js';
import { storeUnavailable, type TransactionalDeliveryStore } from './store.js';

/** What `onEvent` is told besides the event: its dedupe key (for the caller's own records) and the request. */
export interface WebhookContext {
  readonly key: string;
  readonly request: IncomingMessage;
}

export interface WebhookHandlerOptions extends ReceiverOptions {
  /** Handles one event; a rejection answers 500 so the platform resends it. */
  readonly onEvent: (event: ParsedEvent, context: WebhookContext) => unknown;
}

/** The options of a handler whose store runs `onEvent` in its transaction (contrato/postgres builds one). */
export interface TransactionalWebhookHandlerOptions<Transaction> extends Omit<ReceiverOptions, 'store'> {
  readonly store: TransactionalDeliveryStore<Transaction>;
  /** Handles one event inside the store's transaction; a rejection rolls it back and answers 500. */
  readonly onEvent: (event: ParsedEvent, context: WebhookContext & { readonly transaction: Transaction }) => unknown;
}

type HandleEvent = (key: string, event: ParsedEvent, request: IncomingMessage) => Promise<OnceOutcome>;

export function createWebhookHandler(options: WebhookHandlerOptions): Handler {
  if ('seen' in options) {
    // 0.1 took a has/add store; checking then adding is not atomic, so it is refused rather than ignored.
    throw new TypeError(
      'the `seen` option was replaced by `store` (a DeliveryStore that claims keys atomically): see docs/guides/webhooks.md',
    );
  }
  const settings = receiverSettings(options);
  const { store, leaseMs, report } = settings;
  return webhookHandler(settings, (key, event, request) =>
    handleOnce(key, () => options.onEvent(event, { key, request }), {
      store,
      leaseMs,
      report: (error) => report(error, request),
      workName: 'onEvent',
    }),
  );
}

/**
 * A webhook handler whose `onEvent` runs inside the store's transaction together with the "handled" mark,
 * handed that transaction: the business writes made through it and the mark commit together.
 */
export function createTransactionalWebhookHandler<Transaction>(options: TransactionalWebhookHandlerOptions<Transaction>): Handler {
  const store = options.store;
  if (typeof store?.runClaimed !== 'function')
    throw new TypeError('createTransactionalWebhookHandler needs a store with runClaimed (a TransactionalDeliveryStore)');
  const settings = receiverSettings(options);
  const { leaseMs, report } = settings;
  return webhookHandler(settings, (key, event, request) =>
    handleOnceInTransaction(key, (transaction: Transaction) => options.onEvent(event, { key, request, transaction }), {
      store,
      leaseMs,
      report: (error) => report(error, request),
      workName: 'onEvent',
    }),
  );
}

/**
 * `contrato.event.type` of a delivery: a type this version knows, or `_OTHER` (OpenTelemetry's word for a
 * value outside the known set): an unknown `type` is whatever the sender wrote, of unbounded cardinality.
 */
const eventTypeAttribute = (type: string | undefined, known: boolean): Attributes =>
  type === undefined ? {} : { 'contrato.event.type': known ? type : '_OTHER' };

function webhookHandler(settings: ReceiverSettings, handleEvent: HandleEvent): Handler {
  const { leaseMs, maxBodyBytes, bodyTimeoutMs, maxNestingDepth, report } = settings;
  const retryAfterSeconds = String(Math.ceil(leaseMs / 1000));

  const handle = async (request: IncomingMessage, response: ServerResponse, telemetry: DeliveryTelemetry): Promise<DeliveryOutcome> => {
    const bytes = await receiveBody(request, response, { maxBodyBytes, bodyTimeoutMs }, report);
    if (!bytes) return refusedOutcome(response);

    let event: ParsedEvent;
    let key: string;
    try {
      event = parseEvent(bytes, { maxNestingDepth });
      key = dedupeKey(event);
    } catch (error) {
      if (!(error instanceof EventValidationError)) throw error;
      report(error, request);
      // eventType is set only for a type this version knows whose payload broke its schema.
      telemetry.describe(eventTypeAttribute(error.eventType, true));
      answer(response, 400, {
        error: error.message,
        issues: error.issues.map((issue) => ({ pointer: issue.pointer, rule: issue.rule, message: issue.message })),
      });
      return 'invalid';
    }

    telemetry.describe(eventTypeAttribute(event.type, event.known));
    const outcome = await telemetry.within(() => handleEvent(key, event, request));
    if (outcome === 'duplicate') answer(response, 200, { received: true, duplicate: true });
    else if (outcome === 'in-progress') {
      answer(
        response,
        503,
        { error: 'this event is being handled by another delivery; resend it later' },
        { 'retry-after': retryAfterSeconds },
      );
    } else if (outcome === 'failed') answer(response, 500, { error: 'the event could not be handled; it will be resent' });
    else answer(response, 200, { received: true });
    return outcome;
  };

  return async (request, response) => {
    const telemetry = deliveryTelemetry('webhook', 'webhook delivery', request);
    try {
      telemetry.end(await handle(request, response, telemetry), response);
    } catch (error) {
      // A store that failed, or anything unexpected: not acknowledged, so the platform resends it.
      report(error, request);
      if (storeUnavailable(error)) {
        answer(response, 503, { error: 'the delivery store cannot be reached now; resend the event later' });
        telemetry.end('unavailable', response, error);
      } else {
        answer(response, 500, { error: 'the event could not be handled; it will be resent' });
        telemetry.end('failed', response, error);
      }
    }
  };
}

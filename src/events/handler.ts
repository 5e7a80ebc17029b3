/**
 * A node:http request handler for webhook deliveries. It answers 2xx only after `onEvent` resolved, so
 * a failure (or a crash) leaves the delivery unacknowledged and the platform resends it (section 6.1:
 * after 2 minutes up to 5 failures, then every 15 and 60 minutes; more than 15 consecutive failures
 * disable the webhook). Before handling, it claims the delivery's dedupe key in a DeliveryStore: of
 * simultaneous identical deliveries exactly one is handled, a key handled before is acknowledged as a
 * duplicate, and one being handled elsewhere is answered 503 so the platform resends it later.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { dedupeKey, defaultMaxNestingDepth, EventValidationError, parseEvent, type ParsedEvent } from './parse.js';
import { answer, type Handler, positive, type ReceiverOptions, receiveBody, safeReporter } from './receiver.js';
import { memoryDeliveryStore, type ClaimOutcome, type DeliveryStore } from './store.js';

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
  const store = options.store ?? memoryDeliveryStore();
  const leaseMs = positive('claimLeaseMs', options.claimLeaseMs ?? 60_000);
  const maxBodyBytes = positive('maxBodyBytes', options.maxBodyBytes ?? 1024 * 1024);
  const bodyTimeoutMs = positive('bodyTimeoutMs', options.bodyTimeoutMs ?? 10_000);
  const maxNestingDepth = positive('maxNestingDepth', options.maxNestingDepth ?? defaultMaxNestingDepth);
  const retryAfterSeconds = String(Math.ceil(leaseMs / 1000));

  const report = safeReporter(options.onError);

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

    const token = randomUUID();
    const outcome: ClaimOutcome = await store.claim(key, { token, leaseMs });
    if (outcome === 'handled') return answer(response, 200, { received: true, duplicate: true });
    if (outcome === 'in-progress') {
      return answer(
        response,
        503,
        { error: 'this event is being handled by another delivery; resend it later' },
        { 'retry-after': retryAfterSeconds },
      );
    }
    if (outcome !== 'claimed')
      throw new TypeError(`the delivery store answered ${String(outcome)} to claim; expected claimed, handled or in-progress`);

    const startedAt = performance.now();
    try {
      await options.onEvent(event, { key, request });
    } catch (error) {
      report(error, request);
      try {
        await store.release(key, token);
      } catch (releaseError) {
        // Unreleased, the claim expires after its lease and a later resend is handled then.
        report(releaseError, request);
      }
      return answer(response, 500, { error: 'the event could not be handled; it will be resent' });
    }
    const tookMs = Math.round(performance.now() - startedAt);
    if (tookMs > leaseMs) {
      // The claim expired while onEvent ran: a resend in that time may have been handled a second time.
      report(new Error(`onEvent took ${tookMs} ms for ${key}, longer than claimLeaseMs (${leaseMs} ms): raise claimLeaseMs`), request);
    }
    try {
      await store.complete(key, token);
    } catch (error) {
      // The work is done, so it is acknowledged; only a lost answer would now bring it back after the lease.
      report(error, request);
    }
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

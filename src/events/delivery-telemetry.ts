/**
 * The telemetry every receiver of deliveries shares: one server span per delivery and the counter
 * `contrato.inbox.deliveries`, both labelled with the receiver and the outcome. The span is named by what was
 * received (`webhook delivery`), not by `METHOD route`: the receiver is mounted wherever the application
 * chose, and the address it registered may hold a secret in its path or query, so no route, path or query is
 * recorded; and the name is fixed when the span starts, before the body tells anything (an invalid body
 * tells nothing), so samplers see the name it keeps.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Attributes } from '../runtime/telemetry-api.js';
import { countDelivery, startServerSpan } from '../runtime/telemetry-server.js';
import type { OnceOutcome } from './once.js';

/**
 * How a delivery ended, the span's `contrato.outcome` and the counter's label:
 * - `handled`, `duplicate`, `in-progress`, `failed`: as handling once ended (once.ts), `failed` also for a
 *   failure of the receiver itself (500);
 * - `invalid`: refused (4xx) as no delivery this receiver takes: a body that is none, too large or empty, a
 *   path or method it does not serve;
 * - `timed-out`: the body did not arrive in time (408);
 * - `aborted`: the sender went away before its body ended; nothing was answered;
 * - `unavailable`: the delivery store could not be reached (503).
 */
export type DeliveryOutcome = OnceOutcome | 'invalid' | 'timed-out' | 'aborted' | 'unavailable';

/** The receivers, as `contrato.receiver`. */
export type ReceiverName = 'webhook' | 'pix-notification';

export interface DeliveryTelemetry {
  /** Runs the handling in the span's context: the spans of the application's callback nest below it. */
  within<T>(work: () => T): T;
  /** Low-cardinality facts the body told (its event type, the notification's kind): never its values. */
  describe(attributes: Attributes): void;
  /** Ends the span with the status the response carries (none if nothing was answered) and counts the delivery. */
  end(outcome: DeliveryOutcome, response: ServerResponse, error?: unknown): void;
}

/** The outcome of a delivery whose body was refused before it was read whole (receiveBody answered). */
export function refusedOutcome(response: ServerResponse): DeliveryOutcome {
  if (!response.headersSent) return 'aborted';
  return response.statusCode === 408 ? 'timed-out' : 'invalid';
}

export function deliveryTelemetry(receiver: ReceiverName, name: string, request: IncomingMessage): DeliveryTelemetry {
  const span = startServerSpan({
    name,
    method: request.method ?? 'POST',
    headers: request.headers,
    attributes: { 'contrato.receiver': receiver },
  });
  return {
    within: (work) => span.within(work),
    describe: (attributes) => span.update({ attributes }),
    end(outcome, response, error) {
      span.end({ status: response.headersSent ? response.statusCode : undefined, outcome, error });
      countDelivery(receiver, outcome);
    },
  };
}

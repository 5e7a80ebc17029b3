/**
 * Webhook deliveries of the accounts API (section 6): parse and validate a delivered body into a typed
 * union, derive its deduplication key (sections 6.3 and 6.4), and a node:http handler that acknowledges
 * only what was handled — a failure answers 500 so the platform resends it on the schedule of 6.1.
 */
import { createHash } from 'node:crypto';
import { eventTable, type EventPayloads } from '../../generated/accounts/operations.js';
import { patternDescriptions, validators } from '../../generated/accounts/validators.js';
import { ValidationError, type ValidationIssue } from '../runtime/errors.js';
import { check, type CompiledValidator } from '../runtime/validation.js';
import { defaultMaxNestingDepth, nestsDeeperThan, stringifyIteratively, valueNestsDeeperThan } from './json.js';

export type EventType = keyof EventPayloads;

/** An event of a type this version knows, checked against its schema. */
export type KnownEvent = {
  [T in EventType]: { readonly known: true; readonly type: T; readonly data: EventPayloads[T]['data']; readonly payload: EventPayloads[T] };
}[EventType];

/** An event of a type this version does not know (section 9.3: new types must not break a receiver). */
export interface UnknownEvent {
  readonly known: false;
  readonly type: string;
  readonly data: unknown;
  readonly payload: Record<string, unknown>;
}

export type ParsedEvent = KnownEvent | UnknownEvent;

/** The delivered body is not an event of its type: the field and the rule are in `issues`. */
export class EventValidationError extends ValidationError {
  override readonly name = 'EventValidationError';
  readonly eventType: string | undefined;
  constructor(eventType: string | undefined, issues: readonly ValidationIssue[]) {
    super(`${eventType ? `${eventType} event` : 'event'}: invalid payload`, issues);
    this.eventType = eventType;
  }
}

/** Every event type of section 6, as delivered in `type`. */
export const eventTypes = Object.keys(eventTable) as EventType[];

export function isEventType(type: string): type is EventType {
  return Object.hasOwn(eventTable, type);
}

/** The issues of `payload` as an event of `type` (an empty list when it is valid). */
export function checkEvent(type: EventType, payload: unknown): ValidationIssue[] {
  const validator = (validators.schemas as Record<string, CompiledValidator>)[eventTable[type].schema];
  if (!validator) throw new Error(`no validator for ${type} (${eventTable[type].schema}): regenerate`);
  return check(validator, payload, '', patternDescriptions);
}

export { defaultMaxNestingDepth };

export interface ParseEventOptions {
  /** Deeper bodies are refused with EventValidationError, rule `maxNestingDepth` (default 64). */
  readonly maxNestingDepth?: number;
}

function tooDeep(limit: number): EventValidationError {
  return new EventValidationError(undefined, [
    { pointer: '', rule: 'maxNestingDepth', message: `nests objects and arrays deeper than ${limit} levels` },
  ]);
}

function decode(body: unknown, maxNestingDepth: number): unknown {
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) {
    if (valueNestsDeeperThan(body, maxNestingDepth)) throw tooDeep(maxNestingDepth);
    return body;
  }
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  if (nestsDeeperThan(text, maxNestingDepth)) throw tooDeep(maxNestingDepth);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new EventValidationError(undefined, [{ pointer: '', rule: 'json', message: `is not JSON: ${(error as Error).message}` }]);
  }
}

/**
 * A delivered body (text, bytes or parsed JSON) as a typed event. An unknown `type` comes back as
 * `{ known: false }`; a known type whose payload breaks its schema, a body with no `type`, or one nested
 * deeper than `maxNestingDepth`, throws EventValidationError.
 */
export function parseEvent(body: unknown, options: ParseEventOptions = {}): ParsedEvent {
  const maxNestingDepth = options.maxNestingDepth ?? defaultMaxNestingDepth;
  const payload = decode(body, maxNestingDepth);
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new EventValidationError(undefined, [{ pointer: '', rule: 'type', message: 'must be a JSON object' }]);
  }
  const record = payload as Record<string, unknown>;
  const type = record.type;
  if (typeof type !== 'string' || type === '') {
    throw new EventValidationError(undefined, [
      { pointer: '/type', rule: 'required', message: 'must be the event type (a non-empty string)' },
    ]);
  }
  if (!isEventType(type)) return { known: false, type, data: record.data, payload: record };
  const issues = checkEvent(type, record);
  if (issues.length > 0) throw new EventValidationError(type, issues);
  return { known: true, type, data: record.data, payload: record } as KnownEvent;
}

const text = (value: unknown): string => (value === undefined || value === null ? '' : String(value));
const millis = (value: unknown): string | undefined => {
  const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isNaN(time) ? undefined : String(time);
};

/**
 * The key under which a delivery is handled at most once. Invoice and crypto events follow the
 * references of sections 6.3 and 6.4 (`{event}` = the full type; `{id}`, `{from}`, `{to}` = orderId,
 * previousStatus, status; `{updatedAtMs}` from `updatedAt` when the payload carries it). Section 6 gives
 * none for the other types: contrato keys them by their identity and status (docs/decisions.md).
 */
export function dedupeKey(event: ParsedEvent): string {
  const data = (typeof event.data === 'object' && event.data !== null ? event.data : {}) as Record<string, unknown>;
  if (!event.known) {
    // The same text as JSON.stringify, hence the same keys as before, but at any depth without recursion.
    return `${event.type}-${createHash('sha256')
      .update(stringifyIteratively(event.payload) ?? '')
      .digest('hex')
      .slice(0, 32)}`;
  }
  switch (event.type) {
    case 'invoice.registered':
    case 'invoice.paid':
    case 'invoice.settled':
    case 'invoice.cancelled':
    case 'invoice.overdue':
      return `invoice-${text(data.invoiceId)}-${event.type}`;
    case 'crypto.wallet.registered':
      return `crypto-wallet-${text(data.walletId)}-registered`;
    case 'crypto.wallet.first_purchase':
      return `crypto-wallet-${text(data.walletId)}-first_purchase`;
    case 'crypto.order.updated': {
      const at = millis(data.updatedAt);
      return `crypto-order-${text(data.orderId)}-${text(data.previousStatus)}-${text(data.status)}${at ? `-${at}` : ''}`;
    }
    case 'crypto.order.settled': {
      const at = millis(data.updatedAt);
      return `crypto-order-settled-${text(data.orderId)}${at ? `-${at}` : ''}`;
    }
    case 'REFUND': {
      // A transaction can be refunded in parts: each refund is its own event.
      const refunds = Array.isArray(data.refunds) ? (data.refunds as Record<string, unknown>[]) : [];
      const last = refunds.at(-1);
      return `refund-${text(data.id ?? data.endToEndId)}-${refunds.length}-${text(last?.endToEndId)}-${text(last?.status)}`;
    }
    case 'TRANSFER':
    case 'RECEIVE':
      return `${event.type.toLowerCase()}-${text(data.id ?? data.endToEndId)}-${text(data.status)}`;
    case 'CASHOUT': {
      const transaction = ((event.payload as Record<string, unknown>).transaction ?? {}) as Record<string, unknown>;
      return `cashout-${text(data.idempotencyKey ?? transaction.reference)}-${text(data.status ?? transaction.status)}`;
    }
    case 'INFRACTION':
      return `infraction-${text(data.id)}-${text(data.status)}-${text(data.lastModificationDate)}`;
  }
}

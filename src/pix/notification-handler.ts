/**
 * A node:http handler for the notifications of the API Pix standard, routed by the suffix the PSP appends
 * to the registered address (`…/pix`, `…/rec`, `…/cobr`). Each item of a notification is claimed in a
 * DeliveryStore under its key and handled once; the answer is 2xx only after every item was handled (or
 * was a duplicate), so a failure or a crash leaves the notification to the PSP's resends, and the items
 * already handled are then acknowledged as duplicates without a second call. Each notification is an
 * OpenTelemetry server span and a count by outcome (events/delivery-telemetry.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type DeliveryOutcome, type DeliveryTelemetry, deliveryTelemetry, refusedOutcome } from '../events/delivery-telemetry.js';
import { handleOnce, handleOnceInTransaction, type OnceOutcome } from '../events/once.js';
import {
  answer,
  type Handler,
  type ReceiverOptions,
  receiveBody,
  receiverOptionNames,
  receiverSettings,
  type ReceiverSettings,
  refuse,
} from '../events/receiver.js';
import { storeUnavailable, type TransactionalDeliveryStore } from '../events/store.js';
import {
  type NotificationItem,
  type NotifiedItems,
  PixNotificationError,
  type PixNotificationKind,
  parsePixNotification,
  pixNotificationKinds,
} from './notifications.js';
import { withoutTrailingSlashes } from '../runtime/text.js';

/** What a callback is told besides the item: its key (for the caller's own records) and the request. */
export interface NotificationContext<Kind extends PixNotificationKind = PixNotificationKind> {
  readonly kind: Kind;
  readonly key: string;
  readonly request: IncomingMessage;
}

type Callback<Kind extends PixNotificationKind> = (item: NotifiedItems[Kind], context: NotificationContext<Kind>) => unknown;

/** A callback run inside the store's transaction, handed that transaction. */
type TransactionalCallback<Kind extends PixNotificationKind, Transaction> = (
  item: NotifiedItems[Kind],
  context: NotificationContext<Kind> & { readonly transaction: Transaction },
) => unknown;

export interface PixNotificationHandlerOptions extends ReceiverOptions {
  /** Handles one Pix received (or one whose refund finished); a rejection answers 500 so the PSP resends it. */
  readonly onPix?: Callback<'pix'>;
  /** Handles one recurrence that changed status. */
  readonly onRec?: Callback<'rec'>;
  /** Handles one recurring charge that changed status. */
  readonly onCobR?: Callback<'cobr'>;
}

/** The options of a handler whose store runs each callback in its transaction (contrato/postgres builds one). */
export interface TransactionalPixNotificationHandlerOptions<Transaction> extends Omit<ReceiverOptions, 'store'> {
  readonly store: TransactionalDeliveryStore<Transaction>;
  /** Handles one Pix inside the store's transaction; a rejection rolls it back and answers 500. */
  readonly onPix?: TransactionalCallback<'pix', Transaction>;
  readonly onRec?: TransactionalCallback<'rec', Transaction>;
  readonly onCobR?: TransactionalCallback<'cobr', Transaction>;
}

const callbackOption = { pix: 'onPix', rec: 'onRec', cobr: 'onCobR' } as const satisfies Record<
  PixNotificationKind,
  keyof PixNotificationHandlerOptions
>;
const knownOptions = new Set<string>([...Object.values(callbackOption), ...receiverOptionNames]);

const isKind = (segment: string): segment is PixNotificationKind => (pixNotificationKinds as readonly string[]).includes(segment);

/**
 * The notification kind of a request target. The standard appends `/pix` (`/rec`, `/cobr`) to the registered
 * address as a string, so an address with a query string gets it at the end of the query
 * (`/hooks?hmac=…/pix`, or `/hooks?hmac=…&ignorar=/pix` where a PSP suggests a throwaway parameter); a PSP
 * that appends it to the path sends `/hooks/pix?hmac=…`. The end of the whole target is read first, then the
 * last segment of the path.
 */
export function notificationKindOf(url: string | undefined): PixNotificationKind | undefined {
  const target = url ?? '';
  const query = target.indexOf('?');
  if (query >= 0) {
    const tail = target.slice(query + 1).replace(/%2f/gi, '/');
    const kind = tail.slice(tail.lastIndexOf('/') + 1);
    if (tail.includes('/') && isKind(kind)) return kind;
  }
  const path = withoutTrailingSlashes(query >= 0 ? target.slice(0, query) : target);
  const last = path.slice(path.lastIndexOf('/') + 1);
  return isKind(last) ? last : undefined;
}

/** Claims one item, runs its callback and records it; a failed callback releases the claim for the resend. */
type HandleItem = (entry: NotificationItem, request: IncomingMessage) => Promise<OnceOutcome>;

type AnyCallbacks = Partial<Record<(typeof callbackOption)[PixNotificationKind], unknown>>;

/** Unknown options and missing or non-function callbacks refused, with the name of the function refusing them. */
function checkOptions(options: AnyCallbacks | null, functionName: string): void {
  if (options === null || typeof options !== 'object')
    throw new TypeError(`${functionName} takes an options object with onPix, onRec or onCobR`);
  for (const name of Object.keys(options)) {
    if (!knownOptions.has(name)) throw new TypeError(`unknown option ${name} of ${functionName}; known: ${[...knownOptions].join(', ')}`);
  }
  const callbacks = Object.values(callbackOption).filter((name) => options[name] !== undefined);
  if (callbacks.length === 0) throw new TypeError(`${functionName} needs at least one of onPix, onRec and onCobR`);
  for (const name of callbacks) if (typeof options[name] !== 'function') throw new TypeError(`${name} must be a function`);
}

export function createPixNotificationHandler(options: PixNotificationHandlerOptions): Handler {
  checkOptions(options, 'createPixNotificationHandler');
  const settings = receiverSettings(options);
  const { store, leaseMs, report } = settings;
  return pixNotificationHandler(options, settings, (entry, request) => {
    const name = callbackOption[entry.kind];
    const callback = options[name] as Callback<PixNotificationKind>;
    return handleOnce(entry.key, () => callback(entry.item, { kind: entry.kind, key: entry.key, request }), {
      store,
      leaseMs,
      report: (error) => report(error, request),
      workName: name,
    });
  });
}

/**
 * A Pix notification handler whose callbacks run inside the store's transaction together with each item's
 * "handled" mark, handed that transaction: the business writes made through it and the mark commit together.
 */
export function createTransactionalPixNotificationHandler<Transaction>(
  options: TransactionalPixNotificationHandlerOptions<Transaction>,
): Handler {
  checkOptions(options, 'createTransactionalPixNotificationHandler');
  const store = options.store;
  if (typeof store?.runClaimed !== 'function')
    throw new TypeError('createTransactionalPixNotificationHandler needs a store with runClaimed (a TransactionalDeliveryStore)');
  const settings = receiverSettings(options);
  const { leaseMs, report } = settings;
  return pixNotificationHandler(options, settings, (entry, request) => {
    const name = callbackOption[entry.kind];
    const callback = options[name] as TransactionalCallback<PixNotificationKind, Transaction>;
    const work = (transaction: Transaction) => callback(entry.item, { kind: entry.kind, key: entry.key, request, transaction });
    return handleOnceInTransaction(entry.key, work, { store, leaseMs, report: (error) => report(error, request), workName: name });
  });
}

/**
 * The outcome of a notification over its items, which are handled in order up to the first not handled here:
 * that item's `failed` or `in-progress` when there is one; else `duplicate` when every item was one, and
 * `handled` otherwise: a mix of handled items and duplicates (the resend of a notification that failed
 * halfway) is `handled`, as the notification as a whole was, and an empty notification too.
 */
function notificationOutcome(itemOutcomes: readonly OnceOutcome[]): OnceOutcome {
  const last = itemOutcomes.at(-1);
  if (last === 'failed' || last === 'in-progress') return last;
  return itemOutcomes.length > 0 && itemOutcomes.every((outcome) => outcome === 'duplicate') ? 'duplicate' : 'handled';
}

function pixNotificationHandler(options: AnyCallbacks, settings: ReceiverSettings, handleItem: HandleItem): Handler {
  const { leaseMs, maxBodyBytes, bodyTimeoutMs, maxNestingDepth, report } = settings;

  const handle = async (request: IncomingMessage, response: ServerResponse, telemetry: DeliveryTelemetry): Promise<DeliveryOutcome> => {
    const kind = notificationKindOf(request.url);
    if (!kind) {
      refuse(
        request,
        response,
        404,
        `no notification here: the path must end in ${pixNotificationKinds.map((k) => `/${k}`).join(', ')}`,
        report,
      );
      return 'invalid';
    }
    telemetry.describe({ 'contrato.notification.kind': kind });
    if (request.method !== 'POST') {
      report(new Error(`${request.method ?? ''} is not POST`), request);
      answer(response, 405, { error: 'notifications are POSTed' }, { allow: 'POST' });
      return 'invalid';
    }
    if (!options[callbackOption[kind]]) {
      refuse(request, response, 404, `this receiver takes no ${kind} notifications (no ${callbackOption[kind]})`, report);
      return 'invalid';
    }
    const bytes = await receiveBody(request, response, { maxBodyBytes, bodyTimeoutMs }, report);
    if (!bytes) return refusedOutcome(response);
    let items: NotificationItem[];
    try {
      items = parsePixNotification(kind, bytes, { maxNestingDepth });
    } catch (error) {
      if (!(error instanceof PixNotificationError)) throw error;
      report(error, request);
      answer(response, 400, {
        error: error.message,
        issues: error.issues.map((issue) => ({ pointer: issue.pointer, rule: issue.rule, message: issue.message })),
      });
      return 'invalid';
    }
    telemetry.describe({ 'contrato.notification.items': items.length });
    // In order, stopping at the first item not handled here: a later status of the same charge never
    // overtakes an earlier one, and of two concurrent identical posts one handles everything.
    const itemOutcomes: OnceOutcome[] = [];
    await telemetry.within(async () => {
      for (const entry of items) {
        const outcome = await handleItem(entry, request);
        itemOutcomes.push(outcome);
        if (outcome === 'failed' || outcome === 'in-progress') return;
      }
    });
    const outcome = notificationOutcome(itemOutcomes);
    if (outcome === 'failed') answer(response, 500, { error: 'the notification could not be handled; it will be resent' });
    else if (outcome === 'in-progress') {
      answer(
        response,
        503,
        { error: 'an item is being handled by another delivery; resend later' },
        { 'retry-after': String(Math.ceil(leaseMs / 1000)) },
      );
    } else answer(response, 200, { received: items.length, duplicates: itemOutcomes.filter((each) => each === 'duplicate').length });
    return outcome;
  };

  return async (request, response) => {
    const telemetry = deliveryTelemetry('pix-notification', 'pix notification', request);
    try {
      telemetry.end(await handle(request, response, telemetry), response);
    } catch (error) {
      // A store that failed, or anything unexpected: not acknowledged, so the PSP resends it.
      report(error, request);
      if (storeUnavailable(error)) {
        answer(response, 503, { error: 'the delivery store cannot be reached now; resend the notification later' });
        telemetry.end('unavailable', response, error);
      } else {
        answer(response, 500, { error: 'the notification could not be handled; it will be resent' });
        telemetry.end('failed', response, error);
      }
    }
  };
}

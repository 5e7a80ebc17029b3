/**
 * A node:http handler for the notifications of the API Pix standard, routed by the suffix the PSP appends
 * to the registered address (`…/pix`, `…/rec`, `…/cobr`). Each item of a notification is claimed in a
 * DeliveryStore under its key and handled once; the answer is 2xx only after every item was handled (or
 * was a duplicate), so a failure or a crash leaves the notification to the PSP's resends, and the items
 * already handled are then acknowledged as duplicates without a second call.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { answer, type Handler, positive, type ReceiverOptions, receiveBody, refuse, safeReporter } from '../events/receiver.js';
import { memoryDeliveryStore } from '../events/store.js';
import {
  type NotificationItem,
  type NotifiedItems,
  PixNotificationError,
  type PixNotificationKind,
  parsePixNotification,
  pixNotificationKinds,
} from './notifications.js';

/** What a callback is told besides the item: its key (for the caller's own records) and the request. */
export interface NotificationContext<Kind extends PixNotificationKind = PixNotificationKind> {
  readonly kind: Kind;
  readonly key: string;
  readonly request: IncomingMessage;
}

type Callback<Kind extends PixNotificationKind> = (item: NotifiedItems[Kind], context: NotificationContext<Kind>) => unknown;

export interface PixNotificationHandlerOptions extends ReceiverOptions {
  /** Handles one Pix received (or one whose refund finished); a rejection answers 500 so the PSP resends it. */
  readonly onPix?: Callback<'pix'>;
  /** Handles one recurrence that changed status. */
  readonly onRec?: Callback<'rec'>;
  /** Handles one recurring charge that changed status. */
  readonly onCobR?: Callback<'cobr'>;
}

const callbackOption = { pix: 'onPix', rec: 'onRec', cobr: 'onCobR' } as const satisfies Record<
  PixNotificationKind,
  keyof PixNotificationHandlerOptions
>;
const knownOptions = new Set<string>([
  ...Object.values(callbackOption),
  'store',
  'claimLeaseMs',
  'maxBodyBytes',
  'bodyTimeoutMs',
  'maxNestingDepth',
  'onError',
]);

/** The notification kind of a request path: its last segment (`/hooks/pix?hmac=…` -> `pix`). */
export function notificationKindOf(url: string | undefined): PixNotificationKind | undefined {
  const path = (url ?? '').split('?')[0]!.replace(/\/+$/, '');
  const last = path.slice(path.lastIndexOf('/') + 1);
  return (pixNotificationKinds as readonly string[]).includes(last) ? (last as PixNotificationKind) : undefined;
}

type ItemOutcome = 'handled' | 'duplicate' | 'in-progress' | 'failed';

export function createPixNotificationHandler(options: PixNotificationHandlerOptions): Handler {
  for (const name of Object.keys(options)) {
    if (!knownOptions.has(name))
      throw new TypeError(`unknown option ${name} of createPixNotificationHandler; known: ${[...knownOptions].join(', ')}`);
  }
  const callbacks = Object.values(callbackOption).filter((name) => options[name] !== undefined);
  if (callbacks.length === 0) throw new TypeError('createPixNotificationHandler needs at least one of onPix, onRec and onCobR');
  for (const name of callbacks) if (typeof options[name] !== 'function') throw new TypeError(`${name} must be a function`);
  const store = options.store ?? memoryDeliveryStore();
  const leaseMs = positive('claimLeaseMs', options.claimLeaseMs ?? 60_000);
  const maxBodyBytes = positive('maxBodyBytes', options.maxBodyBytes ?? 1024 * 1024);
  const bodyTimeoutMs = positive('bodyTimeoutMs', options.bodyTimeoutMs ?? 10_000);
  const maxNestingDepth = positive('maxNestingDepth', options.maxNestingDepth ?? 64);
  const report = safeReporter(options.onError);

  /** Claims one item, runs its callback and records it; a failed callback releases the claim for the resend. */
  const handleItem = async (entry: NotificationItem, request: IncomingMessage): Promise<ItemOutcome> => {
    const token = randomUUID();
    const outcome = await store.claim(entry.key, { token, leaseMs });
    if (outcome === 'handled') return 'duplicate';
    if (outcome === 'in-progress') return 'in-progress';
    if (outcome !== 'claimed')
      throw new TypeError(`the delivery store answered ${String(outcome)} to claim; expected claimed, handled or in-progress`);
    const callback = options[callbackOption[entry.kind]] as Callback<PixNotificationKind>;
    try {
      await callback(entry.item, { kind: entry.kind, key: entry.key, request });
    } catch (error) {
      report(error, request);
      try {
        await store.release(entry.key, token);
      } catch (releaseError) {
        // Unreleased, the claim expires after its lease and a later resend is handled then.
        report(releaseError, request);
      }
      return 'failed';
    }
    try {
      await store.complete(entry.key, token);
    } catch (error) {
      // The work is done; only a lost answer would bring it back, after the lease.
      report(error, request);
    }
    return 'handled';
  };

  const handle: Handler = async (request, response) => {
    const kind = notificationKindOf(request.url);
    if (!kind)
      return refuse(
        request,
        response,
        404,
        `no notification here: the path must end in ${pixNotificationKinds.map((k) => `/${k}`).join(', ')}`,
        report,
      );
    if (request.method !== 'POST') {
      report(new Error(`${request.method ?? ''} is not POST`), request);
      return answer(response, 405, { error: 'notifications are POSTed' }, { allow: 'POST' });
    }
    if (!options[callbackOption[kind]])
      return refuse(request, response, 404, `this receiver takes no ${kind} notifications (no ${callbackOption[kind]})`, report);
    const bytes = await receiveBody(request, response, { maxBodyBytes, bodyTimeoutMs }, report);
    if (!bytes) return;
    let items: NotificationItem[];
    try {
      items = parsePixNotification(kind, bytes, { maxNestingDepth });
    } catch (error) {
      if (!(error instanceof PixNotificationError)) throw error;
      report(error, request);
      return answer(response, 400, {
        error: error.message,
        issues: error.issues.map((issue) => ({ pointer: issue.pointer, rule: issue.rule, message: issue.message })),
      });
    }
    // In order, and stopping at the first failure: a later status of the same charge never overtakes an earlier one.
    const outcomes: ItemOutcome[] = [];
    for (const entry of items) {
      const outcome = await handleItem(entry, request);
      outcomes.push(outcome);
      if (outcome === 'failed') return answer(response, 500, { error: 'the notification could not be handled; it will be resent' });
    }
    if (outcomes.includes('in-progress')) {
      return answer(
        response,
        503,
        { error: 'an item is being handled by another delivery; resend later' },
        { 'retry-after': String(Math.ceil(leaseMs / 1000)) },
      );
    }
    const duplicates = outcomes.filter((outcome) => outcome === 'duplicate').length;
    answer(response, 200, { received: items.length, duplicates });
  };

  return async (request, response) => {
    try {
      await handle(request, response);
    } catch (error) {
      // A store that failed, or anything unexpected: not acknowledged, so the PSP resends it.
      report(error, request);
      answer(response, 500, { error: 'the notification could not be handled; it will be resent' });
    }
  };
}

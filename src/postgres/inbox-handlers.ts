/**
 * The webhook and Pix notification handlers on the PostgreSQL inbox, their callbacks run inside the
 * transaction that marks the delivery handled and handed its connection as `client`: the business writes
 * made through `client` and the "handled" mark commit together, so a delivery has its effect exactly once
 * across every process sharing the database, crashes and resends included. A callback that throws rolls
 * both back; the delivery is answered 500 and the resend is handled.
 */
import type { IncomingMessage } from 'node:http';
import { createTransactionalWebhookHandler } from '../events/handler.js';
import type { ParsedEvent } from '../events/parse.js';
import { type Handler, type ReceiverOptions, receiverOptionNames } from '../events/receiver.js';
import { createTransactionalPixNotificationHandler, type NotificationContext } from '../pix/notification-handler.js';
import type { NotifiedItems, PixNotificationKind } from '../pix/notifications.js';
import type { ConnectionPool, Queryable, SchemaOptions } from './database.js';
import { postgresDeliveryStore } from './inbox.js';

/** What a callback of the PostgreSQL inbox is told besides the delivery: `client` runs statements in its transaction. */
export interface InTransaction {
  readonly client: Queryable;
}

export interface PostgresInboxOptions extends SchemaOptions, Omit<ReceiverOptions, 'store'> {
  /** The user's pool (`pg.Pool`); each delivery being handled holds one of its connections until it commits. */
  readonly pool: ConnectionPool;
}

export interface PostgresWebhookHandlerOptions extends PostgresInboxOptions {
  /** Handles one event in the transaction of `client`; a rejection rolls it back and answers 500 so the platform resends it. */
  readonly onEvent: (event: ParsedEvent, context: { readonly key: string; readonly request: IncomingMessage } & InTransaction) => unknown;
}

type PixCallback<Kind extends PixNotificationKind> = (
  item: NotifiedItems[Kind],
  context: NotificationContext<Kind> & InTransaction,
) => unknown;

export interface PostgresPixNotificationHandlerOptions extends PostgresInboxOptions {
  /** Handles one Pix received (or one whose refund finished) in the transaction of `client`. */
  readonly onPix?: PixCallback<'pix'>;
  /** Handles one recurrence that changed status in the transaction of `client`. */
  readonly onRec?: PixCallback<'rec'>;
  /** Handles one recurring charge that changed status in the transaction of `client`. */
  readonly onCobR?: PixCallback<'cobr'>;
}

/** The receiver options without the pool and the schema, the store built from them; `store` refused (the pool is the store). */
function inboxOptions<Options extends PostgresInboxOptions>(options: Options, functionName: string) {
  if (options === null || typeof options !== 'object') throw new TypeError(`${functionName} takes an options object with pool`);
  if ('store' in options) throw new TypeError(`${functionName} keeps its deliveries in the pool's database: pass pool, not store`);
  const { pool, schema, ...rest } = options;
  if (typeof pool?.connect !== 'function')
    throw new TypeError(`${functionName} needs pool, a pg.Pool (or anything with query and connect)`);
  return { rest, store: postgresDeliveryStore(pool, schema === undefined ? {} : { schema }) };
}

/**
 * createWebhookHandler of contrato/events on the PostgreSQL inbox, with `onEvent(event, { key, request, client })`
 * run in the transaction that records the event as handled.
 */
export function createPostgresWebhookHandler(options: PostgresWebhookHandlerOptions): Handler {
  const { rest, store } = inboxOptions(options, 'createPostgresWebhookHandler');
  const { onEvent, ...receiver } = rest;
  if (typeof onEvent !== 'function') throw new TypeError('createPostgresWebhookHandler needs onEvent, a function');
  return createTransactionalWebhookHandler<Queryable>({
    ...receiver,
    store,
    onEvent: (event, { key, request, transaction }) => onEvent(event, { key, request, client: transaction }),
  });
}

const knownPixOptions = new Set<string>(['onPix', 'onRec', 'onCobR', ...receiverOptionNames.filter((name) => name !== 'store')]);

/**
 * createPixNotificationHandler of contrato/pix on the PostgreSQL inbox: each item's callback runs with
 * `{ kind, key, request, client }` in the transaction that records that item as handled.
 */
export function createPostgresPixNotificationHandler(options: PostgresPixNotificationHandlerOptions): Handler {
  const { rest, store } = inboxOptions(options, 'createPostgresPixNotificationHandler');
  for (const name of Object.keys(rest)) {
    if (!knownPixOptions.has(name))
      throw new TypeError(
        `unknown option ${name} of createPostgresPixNotificationHandler; known: pool, schema, ${[...knownPixOptions].join(', ')}`,
      );
  }
  const { onPix, onRec, onCobR, ...receiver } = rest;
  const withClient =
    <Kind extends PixNotificationKind>(callback: PixCallback<Kind>) =>
    (item: NotifiedItems[Kind], { transaction, ...context }: NotificationContext<Kind> & { readonly transaction: Queryable }) =>
      callback(item, { ...context, client: transaction });
  return createTransactionalPixNotificationHandler<Queryable>({
    ...receiver,
    store,
    // Absent callbacks stay absent, so the handler answers 404 to their kind as createPixNotificationHandler does.
    ...(onPix === undefined ? {} : { onPix: typeof onPix === 'function' ? withClient(onPix) : onPix }),
    ...(onRec === undefined ? {} : { onRec: typeof onRec === 'function' ? withClient(onRec) : onRec }),
    ...(onCobR === undefined ? {} : { onCobR: typeof onCobR === 'function' ? withClient(onCobR) : onCobR }),
  });
}

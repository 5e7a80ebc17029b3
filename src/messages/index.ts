/**
 * Client of the Pix message exchange (interface C): login for the `svc-token`, the client certificate
 * (PFX) on every connection, typed `send(message, payload)` validated before sending, the key directory
 * operations, and `poll()`: lossless long polling that hands each new cursor over only after the batch it
 * covers was consumed; `parseMessage(name, value)` reads a polled message as the type of its name.
 */
import {
  createMessagesFacade,
  type MessageName,
  type MessagePayloads,
  type MessagesFacade,
  messageTable,
  operationTable,
} from '../../generated/messages/operations.js';
import { type ClientCore, createClientCore } from '../runtime/client.js';
import type { CallOptions } from '../runtime/contract.js';
import { ConfigurationError } from '../runtime/errors.js';
import { messagesDefinition, type MessagesClientOptions } from './definition.js';
import { type PollOptions, type PolledBatch, pollMessages } from './poll.js';

export type { MessagesClientOptions } from './definition.js';

/** Arguments a message needs besides its body: the key of an update, the payer of a QR lookup. */
export interface SendExtras {
  readonly path?: Record<string, unknown>;
  readonly header?: Record<string, unknown>;
}

export type MessagesClient = MessagesFacade & {
  /** Sends one message by name (`pacs.008`, `pain.012-authorization`, `dict.create-key`, ...), checked against its schema first. */
  send<M extends MessageName>(message: M, payload: MessagePayloads[M], extras?: SendExtras, options?: CallOptions): Promise<unknown>;
  /** Received messages, batch by batch, from `start` or a saved cursor; see PollOptions. */
  poll(options?: PollOptions): AsyncGenerator<PolledBatch>;
} & ClientCore['lifecycle'];

export function createMessagesClient(options: MessagesClientOptions): MessagesClient {
  const core = createClientCore(messagesDefinition, operationTable, options);
  const runtime = core.runtime();
  const facade = createMessagesFacade(runtime);

  function send<M extends MessageName>(
    message: M,
    payload: MessagePayloads[M],
    extras: SendExtras = {},
    callOptions?: CallOptions,
  ): Promise<unknown> {
    const entry = (messageTable as Record<string, { operationId: string } | undefined>)[message];
    if (!entry) throw new ConfigurationError(`unknown message ${message}; known: ${Object.keys(messageTable).join(', ')}`);
    return runtime.invoke(entry.operationId, { ...extras, body: payload }, callOptions);
  }

  return Object.assign(facade, {
    send,
    poll: (pollOptions: PollOptions = {}) => pollMessages(facade, pollOptions),
    ...core.lifecycle,
  });
}

export { messageTable, operationTable } from '../../generated/messages/operations.js';
export type { MessageName, MessagePayloads } from '../../generated/messages/operations.js';
export type { components, operations, paths } from '../../generated/messages/types.js';
/** The named types of every operation: `<Group><Name>Params`, `…Path`, `…Query`, `…Body`, `…Result`, `…Item` (generated/README.md). */
export type * from '../../generated/messages/named-types.js';
export { pollMessages, type PollOptions, type PolledBatch } from './poll.js';
export {
  type AcquiredLease,
  type CursorLeases,
  type HeldLease,
  type LeaseEvent,
  type LeasedPollOptions,
  memoryCursorLeases,
  pollMessagesLeased,
} from './cursor-lease.js';
export {
  checkMessage,
  isMessageName,
  MessageValidationError,
  messageNames,
  type ParseMessageOptions,
  parseMessage,
} from './parse.js';
export * from './builders.js';
export * from '../runtime/client-options.js';

/**
 * Client of the Pix message exchange (interface C): login for the `svc-token`, the client certificate
 * (PFX) on every connection, typed `send(message, payload)` validated before sending, the key directory
 * operations, and `poll()`: lossless long polling that hands each new cursor over only after the batch it
 * covers was consumed.
 */
import {
  createMessagesFacade,
  messageTable,
  operationTable,
  type MessageName,
  type MessagePayloads,
  type MessagesFacade,
} from '../../generated/messages/operations.js';
import type { CallOptions } from '../runtime/contract.js';
import { messagesLoginFlow } from '../runtime/auth-flows.js';
import { commonRuntimeOptions, tokenCacheFor, transportFor, withRoutes, type ClientOptions } from '../runtime/client-options.js';
import { ConfigurationError } from '../runtime/errors.js';
import { createRuntime, type OperationValidatorSet } from '../runtime/runtime.js';
import { checkBaseUrl, type TlsOptions } from '../runtime/transport.js';
import { pollMessages, type PollOptions, type PolledBatch } from './poll.js';

export interface MessagesClientOptions extends Omit<ClientOptions, 'clientId' | 'clientSecret' | 'tls'> {
  /** `{cloud_url}`, handed to each customer separately (decision 7): no default. */
  readonly baseUrl: string;
  /** Credential of the login that issues the svc-token (its shape is not shown; see specs/messages). */
  readonly login: { readonly clientId: string; readonly clientSecret: string; readonly tokenLifetimeSeconds?: number };
  /** The participant's client certificate (section 1: a PFX must be installed to reach interface C). */
  readonly tls: TlsOptions;
}

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
  rotateCertificate(tls: TlsOptions): void;
  close(): Promise<void>;
};

export function createMessagesClient(options: MessagesClientOptions): MessagesClient {
  const baseUrl = checkBaseUrl(options.baseUrl);
  const tls = options.tls as Partial<{ pfx: unknown; cert: unknown; key: unknown }> | undefined;
  if (!tls || !(tls.pfx || (tls.cert && tls.key))) {
    throw new ConfigurationError(
      "interface C needs the participant's client certificate: pass tls: { pfx, passphrase } (or { cert, key })",
    );
  }
  const operations = withRoutes(operationTable, options.routes);
  const transport = transportFor(options);
  const credentials = { ...options, clientId: options.login.clientId, clientSecret: options.login.clientSecret };
  const issue = messagesLoginFlow(baseUrl, { ...options.login, loginPath: operations['auth.login'].path });
  const tokens = tokenCacheFor(credentials, () => issue(transport.fetch));
  const runtime = createRuntime({
    ...commonRuntimeOptions(credentials, transport, tokens),
    baseUrl,
    operations,
    loadValidators: async () => {
      const { validators, patternDescriptions } = await import('../../generated/messages/validators.js');
      return { operations: validators.operations as Record<string, OperationValidatorSet>, patternDescriptions };
    },
    tokens,
    tokenHeader: (token) => ['svc-token', token],
  });
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
    rotateCertificate: (next: TlsOptions) => transport.rotate(next),
    close: () => transport.close(),
  });
}

export { messageTable, operationTable } from '../../generated/messages/operations.js';
export type { MessageName, MessagePayloads } from '../../generated/messages/operations.js';
export type { components, operations, paths } from '../../generated/messages/types.js';
export { pollMessages, type PollOptions, type PolledBatch } from './poll.js';
export * from './builders.js';
export * from '../runtime/client-options.js';

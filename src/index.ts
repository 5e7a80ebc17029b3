/**
 * contrato: every client, the webhook events and the formats from one import. Each interface is also its
 * own subpath (`contrato/accounts`, `contrato/pix`, `contrato/messages`, `contrato/core-banking`,
 * `contrato/events`, `contrato/formats`); import the subpath to load only that interface.
 */
export { createAccountsClient, type AccountsClient, type AccountsClientOptions } from './accounts/index.js';
export { createPixClient, type PixClient, type PixClientOptions } from './pix/index.js';
export { createMessagesClient, type MessagesClient, type MessagesClientOptions } from './messages/index.js';
export { createCoreBankingClient, type CoreBankingClient, type CoreBankingClientOptions } from './core-banking/index.js';
export { createWebhookHandler, dedupeKey, parseEvent, type ParsedEvent } from './events/index.js';
export * from './runtime/client-options.js';
export { interfaces, type InterfaceInfo, type InterfaceName } from './interfaces.js';

/**
 * contrato's root entry: what every interface shares — the client options and errors, the webhook events —
 * and the list of the interfaces with their names. Each interface's client is its own subpath, one per
 * definition of src/interfaces.ts (`createPixClient` from `contrato/pix`, `createCoreBankingClient` from
 * `contrato/core-banking`), so importing one loads no other; the root names none, so an interface added to
 * the definitions is exported by its subpath alone (test/package/exports.test.ts holds both to that).
 */
export { createWebhookHandler, dedupeKey, parseEvent, type ParsedEvent } from './events/index.js';
export * from './runtime/client-options.js';
export { interfaces, type InterfaceInfo, type InterfaceName } from './interfaces.js';

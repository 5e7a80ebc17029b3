/**
 * Client of the core banking administrative API (interface D, section 4.10 of the interface
 * specification): token from POST /auth/token over mutual TLS, then the typed facade of every operation,
 * with retries that never repeat a call that is not idempotent, timeouts, a rate limiter set to the
 * documented limits and redacted logging.
 */
import { type CoreBankingFacade, createCoreBankingFacade, operationTable } from '../../generated/core-banking/operations.js';
import { type ClientCore, createClientCore } from '../runtime/client.js';
import type { ClientOptions } from '../runtime/client-options.js';
import { coreBankingDefinition } from './definition.js';

/** Options of the core banking client; `baseUrl` is `{banking_base_url}`, and the rate limiter defaults to section 8's limits. */
export type CoreBankingClientOptions = ClientOptions;

export type CoreBankingClient = CoreBankingFacade & ClientCore['lifecycle'];

export function createCoreBankingClient(options: CoreBankingClientOptions): CoreBankingClient {
  const core = createClientCore(coreBankingDefinition, operationTable, options);
  return Object.assign(createCoreBankingFacade(core.runtime()), core.lifecycle);
}

export { operationTable } from '../../generated/core-banking/operations.js';
export type { components, operations, paths } from '../../generated/core-banking/types.js';
/** The named types of every operation: `<Group><Name>Params`, `…Path`, `…Query`, `…Body`, `…Result`, `…Item` (generated/README.md). */
export type * from '../../generated/core-banking/named-types.js';
export { coreBankingRateLimits } from './definition.js';
export * from '../runtime/client-options.js';

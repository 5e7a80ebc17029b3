/**
 * contrato/events: the webhook deliveries of the accounts API (section 6) — typed parsing, deduplication
 * keys and a node:http handler that acknowledges only what was handled, claiming each key in a store.
 */
export {
  checkEvent,
  dedupeKey,
  defaultMaxNestingDepth,
  EventValidationError,
  eventTypes,
  isEventType,
  parseEvent,
  type EventType,
  type KnownEvent,
  type ParsedEvent,
  type ParseEventOptions,
  type UnknownEvent,
} from './parse.js';
export { createWebhookHandler, type WebhookHandlerOptions } from './handler.js';
export {
  memoryDeliveryStore,
  type ClaimOutcome,
  type DeliveryClaim,
  type DeliveryStore,
  type MemoryDeliveryStoreOptions,
} from './store.js';
export { eventTable, type EventPayloads } from '../../generated/accounts/operations.js';
export type { ValidationIssue } from '../runtime/errors.js';

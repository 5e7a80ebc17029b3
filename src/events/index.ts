/**
 * contrato/events: the webhook deliveries of the accounts API (section 6) — typed parsing, deduplication
 * keys and a node:http handler that acknowledges only what was handled.
 */
export { checkEvent, dedupeKey, EventValidationError, eventTypes, isEventType, parseEvent, type EventType, type KnownEvent, type ParsedEvent, type UnknownEvent } from './parse.js';
export { createWebhookHandler, memorySeenStore, type SeenStore, type WebhookHandlerOptions } from './handler.js';
export { eventTable, type EventPayloads } from '../../generated/accounts/operations.js';
export type { ValidationIssue } from '../runtime/errors.js';

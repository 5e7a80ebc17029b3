/**
 * Cross-field rules of interface D, by operationId. None applies to an operation that is specified:
 * the only one section 8 gives for D (startDate and endDate together, at most 30 days apart) governs
 * the transactions, movements and infractions listings, which are named but not specified. When they
 * are, it is `interval({ name: 'listing-interval', part: 'query', start: 'startDate', end: 'endDate', maxDays: 30 })`.
 */
import type { CrossFieldChecks } from '../runtime/cross-field.js';

export const coreBankingChecks: CrossFieldChecks = {};

/**
 * Rules of the accounts API (sections 4.2 and 4.7) that JSON Schema cannot say: statement periods
 * against today, transaction windows in order, and a crypto-risk list filtered by address only within
 * a network.
 */
import { interval, requires, type CrossFieldChecks } from '../rules/cross-field.js';
import { hourlyStatementDate, statementPeriod } from './rules.js';

export const accountsChecks: CrossFieldChecks = {
  'statements.summaryByPeriod': [statementPeriod],
  'statements.summaryByHour': [hourlyStatementDate],
  'transactions.list': [interval({ name: 'event-date-window', part: 'query', start: 'event_date_start', end: 'event_date_end' })],
  'cryptoRiskAnalyses.list': [requires({ name: 'address-requires-network', part: 'query', field: 'address', needs: 'network' })],
};

/** Rules of the accounts API (interface A) that JSON Schema cannot say: statement periods against today. */
import type { CrossFieldCheck } from '../runtime/cross-field.js';
import type { ValidationIssue } from '../runtime/errors.js';
import { asRecord, dayNumber, isDate, issue, monthNumber, todayInSaoPaulo } from '../rules/cross-field.js';

/**
 * Statement summary by period (section 4.2): MONTH covers at most 12 months, the last not after the
 * current month; DAY covers at most 60 days (both ends counted), the last before today; the final date
 * is never before the initial one.
 */
export const statementPeriod: CrossFieldCheck = {
  name: 'statement-period',
  description: 'MONTH: at most 12 months, not after the current month; DAY: at most 60 days, ending before today',
  check: ({ body }, { now }) => {
    const { groupBy, initialDate, finalDate } = asRecord(body);
    if (!isDate(initialDate) || !isDate(finalDate)) return [];
    const rule = 'statement-period';
    if (finalDate < initialDate) return [issue('/body/finalDate', rule, `must not be before initialDate ${initialDate}`, finalDate)];
    const today = todayInSaoPaulo(now);
    if (groupBy === 'MONTH') {
      const months = monthNumber(finalDate) - monthNumber(initialDate) + 1;
      const issues: ValidationIssue[] = [];
      if (months > 12)
        issues.push(issue('/body/finalDate', rule, `a MONTH statement covers at most 12 months; this one covers ${months}`, finalDate));
      if (monthNumber(finalDate) > monthNumber(today))
        issues.push(issue('/body/finalDate', rule, `the final month cannot be after the current month (${today.slice(0, 7)})`, finalDate));
      return issues;
    }
    if (groupBy === 'DAY') {
      const days = dayNumber(finalDate) - dayNumber(initialDate) + 1;
      const issues: ValidationIssue[] = [];
      if (days > 60)
        issues.push(issue('/body/finalDate', rule, `a DAY statement covers at most 60 days; this one covers ${days}`, finalDate));
      if (finalDate >= today) issues.push(issue('/body/finalDate', rule, `the final date must be before today (${today})`, finalDate));
      return issues;
    }
    return [];
  },
};

/** Statement summary by hour (section 4.2): the date cannot be after today. */
export const hourlyStatementDate: CrossFieldCheck = {
  name: 'hourly-statement-date',
  description: 'the hourly statement date cannot be after today',
  check: ({ body }, { now }) => {
    const { date } = asRecord(body);
    const today = todayInSaoPaulo(now);
    return isDate(date) && date > today ? [issue('/body/date', 'hourly-statement-date', `cannot be after today (${today})`, date)] : [];
  },
};

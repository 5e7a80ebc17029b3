/**
 * Rules of the interface specification that JSON Schema cannot say cleanly: they relate two fields, or
 * a field and today's date. Each is a named check that returns issues carrying its name as the rule;
 * the client runs them before sending (after the schema passed) and so does `contrato validate`.
 */
import type { CheckContext, CheckedRequest, CrossFieldCheck } from '../runtime/cross-field.js';
import type { ValidationIssue } from '../runtime/errors.js';

// The contract lives in the runtime (which imports nothing from here); re-exported for the rule modules.
export { runCrossFieldChecks, type CheckContext, type CheckedRequest, type CrossFieldCheck, type CrossFieldChecks } from '../runtime/cross-field.js';

const saoPauloDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' });

/** Today's date (YYYY-MM-DD) where the platform counts days: America/Sao_Paulo. */
export function todayInSaoPaulo(now: Date): string {
  return saoPauloDate.format(now);
}

function dayNumber(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / 86_400_000;
}

function monthNumber(date: string): number {
  return Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
}

const isDate = (value: unknown): value is string => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
const asRecord = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});

function issue(pointer: string, rule: string, message: string, value?: unknown): ValidationIssue {
  return { pointer, rule, message: `${message} (${rule})`, ...(value === undefined ? {} : { value }) };
}

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
      if (months > 12) issues.push(issue('/body/finalDate', rule, `a MONTH statement covers at most 12 months; this one covers ${months}`, finalDate));
      if (monthNumber(finalDate) > monthNumber(today)) issues.push(issue('/body/finalDate', rule, `the final month cannot be after the current month (${today.slice(0, 7)})`, finalDate));
      return issues;
    }
    if (groupBy === 'DAY') {
      const days = dayNumber(finalDate) - dayNumber(initialDate) + 1;
      const issues: ValidationIssue[] = [];
      if (days > 60) issues.push(issue('/body/finalDate', rule, `a DAY statement covers at most 60 days; this one covers ${days}`, finalDate));
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

/**
 * An interval given by two fields of one part of the request: the end not before the start, and,
 * when `maxDays` is given, both or neither present and at most that many days apart.
 */
export function interval(options: {
  readonly name: string;
  readonly part: 'query' | 'body';
  readonly start: string;
  readonly end: string;
  readonly maxDays?: number;
}): CrossFieldCheck {
  const { name, part, start, end, maxDays } = options;
  return {
    name,
    description: `${end} not before ${start}${maxDays ? `; both together, at most ${maxDays} days apart` : ''}`,
    check: (request) => {
      const values = asRecord(request[part]);
      const from = values[start];
      const to = values[end];
      if (maxDays !== undefined && (from === undefined) !== (to === undefined)) {
        const missing = from === undefined ? start : end;
        return [issue(`/${part}/${missing}`, name, `${start} and ${end} go together`)];
      }
      if (typeof from !== 'string' || typeof to !== 'string') return [];
      const fromTime = Date.parse(from);
      const toTime = Date.parse(to);
      if (Number.isNaN(fromTime) || Number.isNaN(toTime)) return [];
      if (toTime < fromTime) return [issue(`/${part}/${end}`, name, `must not be before ${start} ${from}`, to)];
      if (maxDays !== undefined && toTime - fromTime > maxDays * 86_400_000) {
        return [issue(`/${part}/${end}`, name, `must be at most ${maxDays} days after ${start}`, to)];
      }
      return [];
    },
  };
}

/** Due-date charge (section 2.11): no fixed-date discount after the due date. */
export const discountDatesNotAfterDueDate: CrossFieldCheck = {
  name: 'discount-dates-not-after-due-date',
  description: 'every desconto date is on or before calendario.dataDeVencimento',
  check: ({ body }) => {
    const dueDate = asRecord(asRecord(body).calendario).dataDeVencimento;
    const fixed = asRecord(asRecord(asRecord(body).valor).desconto).descontoDataFixa;
    if (!isDate(dueDate) || !Array.isArray(fixed)) return [];
    return fixed.flatMap((entry, index) => {
      const date = asRecord(entry).data;
      return isDate(date) && date > dueDate
        ? [issue(`/body/valor/desconto/descontoDataFixa/${index}/data`, 'discount-dates-not-after-due-date', `must not be after the due date ${dueDate}`, date)]
        : [];
    });
  },
};

/** Charge revision (section 3): removal by the receiving user is sent alone; combined with other changes it is a 400. */
export const removalAlone: CrossFieldCheck = {
  name: 'removal-alone',
  description: 'status REMOVIDA_PELO_USUARIO_RECEBEDOR is sent with no other change',
  check: ({ body }) => {
    const fields = asRecord(body);
    if (fields.status !== 'REMOVIDA_PELO_USUARIO_RECEBEDOR') return [];
    const others = Object.keys(fields).filter((key) => key !== 'status');
    return others.length > 0
      ? [issue('/body/status', 'removal-alone', `removing a charge cannot be combined with other changes (${others.join(', ')})`, fields.status)]
      : [];
  },
};

/** At most one of `names` in a part of the request (list queries: cpf and cnpj are mutually exclusive). */
export function exclusive(options: { readonly name: string; readonly part: 'query' | 'body'; readonly names: readonly string[] }): CrossFieldCheck {
  const { name, part, names } = options;
  return {
    name,
    description: `at most one of ${names.join(', ')}`,
    check: (request) => {
      const values = asRecord(request[part]);
      const present = names.filter((key) => values[key] !== undefined);
      return present.length > 1 ? [issue(`/${part}/${present[1]}`, name, `cannot be sent together with ${present[0]}`, values[present[1]!])] : [];
    },
  };
}

/** Amount modalities of abatimento and desconto: the others are percentages (API Pix, cobv). */
const abatementByAmount = new Set([1]);
const discountByAmount = new Set([1, 3, 4]);

/**
 * Due-date charge (section 2.11): abatimento and every desconto below the original value (amount
 * modalities) and below 100 percent (percentage modalities).
 */
export const reductionsBelowOriginal: CrossFieldCheck = {
  name: 'reductions-below-original',
  description: 'abatimento and each desconto below the original value and below 100 percent',
  check: ({ body }) => {
    const valor = asRecord(asRecord(body).valor);
    const original = Number(valor.original);
    if (!Number.isFinite(original)) return [];
    const issues: ValidationIssue[] = [];
    const rule = 'reductions-below-original';
    const checkValue = (pointer: string, value: unknown, byAmount: boolean): void => {
      const amount = Number(value);
      if (!Number.isFinite(amount)) return;
      if (byAmount && amount >= original) issues.push(issue(pointer, rule, `must be below the original value ${valor.original}`, value));
      if (!byAmount && amount >= 100) issues.push(issue(pointer, rule, 'must be below 100 percent', value));
    };
    const abatimento = asRecord(valor.abatimento);
    if (abatimento.valorPerc !== undefined) checkValue('/body/valor/abatimento/valorPerc', abatimento.valorPerc, abatementByAmount.has(Number(abatimento.modalidade)));
    const desconto = asRecord(valor.desconto);
    const byAmount = discountByAmount.has(Number(desconto.modalidade));
    if (desconto.valorPerc !== undefined) checkValue('/body/valor/desconto/valorPerc', desconto.valorPerc, byAmount);
    if (Array.isArray(desconto.descontoDataFixa)) {
      desconto.descontoDataFixa.forEach((entry, index) => checkValue(`/body/valor/desconto/descontoDataFixa/${index}/valorPerc`, asRecord(entry).valorPerc, byAmount));
    }
    return issues;
  },
};

/** A field that needs another of the same part (crypto-risk list: `address` requires `network`, section 4.7). */
export function requires(options: { readonly name: string; readonly part: 'query' | 'body'; readonly field: string; readonly needs: string }): CrossFieldCheck {
  const { name, part, field, needs } = options;
  return {
    name,
    description: `${field} requires ${needs}`,
    check: (request) => {
      const values = asRecord(request[part]);
      return values[field] !== undefined && values[needs] === undefined ? [issue(`/${part}/${needs}`, name, `is required when ${field} is given`)] : [];
    },
  };
}

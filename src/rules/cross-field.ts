/**
 * Building blocks of the rules JSON Schema cannot say cleanly (they relate two fields, or a field and
 * today's date), shared by the interfaces: intervals, exclusive and dependent fields, São Paulo's today.
 * Rules of one interface live in its folder (accounts/rules.ts, pix/rules.ts). Each is a named check
 * that returns issues carrying its name as the rule; the client runs them before sending (after the
 * schema passed) and so does `contrato validate`.
 */
import type { CrossFieldCheck } from '../runtime/cross-field.js';
import type { ValidationIssue } from '../runtime/errors.js';

// The contract lives in the runtime (which imports nothing from here); re-exported for the rule modules.
export {
  runCrossFieldChecks,
  type CheckContext,
  type CheckedRequest,
  type CrossFieldCheck,
  type CrossFieldChecks,
} from '../runtime/cross-field.js';

const saoPauloDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' });

/** Today's date (YYYY-MM-DD) where the platform counts days: America/Sao_Paulo. */
export function todayInSaoPaulo(now: Date): string {
  return saoPauloDate.format(now);
}

/** Days since the epoch of a YYYY-MM-DD date, for counting days. */
export function dayNumber(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / 86_400_000;
}

/** Months since year 0 of a YYYY-MM-DD date, for counting months. */
export function monthNumber(date: string): number {
  return Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
}

export const isDate = (value: unknown): value is string => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
export const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

/** An issue of a named rule, the rule's name in its message. */
export function issue(pointer: string, rule: string, message: string, value?: unknown): ValidationIssue {
  return { pointer, rule, message: `${message} (${rule})`, ...(value === undefined ? {} : { value }) };
}

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

/** At most one of `names` in a part of the request (list queries: cpf and cnpj are mutually exclusive). */
export function exclusive(options: {
  readonly name: string;
  readonly part: 'query' | 'body';
  readonly names: readonly string[];
}): CrossFieldCheck {
  const { name, part, names } = options;
  return {
    name,
    description: `at most one of ${names.join(', ')}`,
    check: (request) => {
      const values = asRecord(request[part]);
      const present = names.filter((key) => values[key] !== undefined);
      return present.length > 1
        ? [issue(`/${part}/${present[1]}`, name, `cannot be sent together with ${present[0]}`, values[present[1]!])]
        : [];
    },
  };
}

/** A field that needs another of the same part (crypto-risk list: `address` requires `network`, section 4.7). */
export function requires(options: {
  readonly name: string;
  readonly part: 'query' | 'body';
  readonly field: string;
  readonly needs: string;
}): CrossFieldCheck {
  const { name, part, field, needs } = options;
  return {
    name,
    description: `${field} requires ${needs}`,
    check: (request) => {
      const values = asRecord(request[part]);
      return values[field] !== undefined && values[needs] === undefined
        ? [issue(`/${part}/${needs}`, name, `is required when ${field} is given`)]
        : [];
    },
  };
}

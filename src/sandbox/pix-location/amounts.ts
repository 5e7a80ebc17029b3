/**
 * The amounts of a charge with a due date on the day it is to be paid (the DPP of GET /cobv/{token}), as
 * the Central Bank's manual of Pix initiation describes their calculation, on the charge's `valor`:
 *
 *   final = original − abatimento − desconto + multa + juros
 *
 * - abatimento (rebate) always applies: modality 1 an amount, 2 a percentage of the original;
 * - desconto (discount) applies to a payment on or before the due date: modalities 1 and 2 the amount or
 *   percentage of the first fixed date not before the payment date; 3 to 6 an amount or percentage per
 *   calendar (3, 5) or business (4, 6) day of anticipation;
 * - multa (fine, flat) and juros (interest) apply to a payment after the due date — moved to the next
 *   business day when it falls on a day that is not one, where a payment is still on time. Juros: amount
 *   per day (1, 5), percentage per day (2, 6), per month (3, 7) or per year (4, 8), days counted from the
 *   due date, calendar days for 1 to 4 (a month 30 of them, a year 365) and business days for 5 to 8 (a
 *   month 21, a year 252);
 * - percentages of discount, fine and interest apply to the original less the rebate; every part is
 *   rounded to the cent, half up, before the sum.
 *
 * What the sandbox does not do: it keeps no holiday calendar, so a business day is Monday to Friday and
 * `codMun` (checked against its format only) moves nothing.
 */
import { dayNumber } from '../../rules/cross-field.js';
import { amountOf, cents, type Json } from '../pix/state.js';

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Round half up of a non-negative fraction, in cents. */
function rounded(numerator: bigint, denominator: bigint): number {
  return Number((2n * numerator + denominator) / (2n * denominator));
}

/** `percent` (hundredths, "2.50" → 250) of `base` cents, times `times`, over `per`: rounded to the cent. */
function share(base: number, percent: number, times = 1, per = 1): number {
  return rounded(BigInt(base) * BigInt(percent) * BigInt(times), 10_000n * BigInt(per));
}

const dateOf = (day: number): string => new Date(day * 86_400_000).toISOString().slice(0, 10);
const isBusinessDay = (day: number): boolean => {
  const weekday = new Date(day * 86_400_000).getUTCDay();
  return weekday !== 0 && weekday !== 6;
};

/** Business days after `from` up to and including `to` (0 when `to` is not after `from`). */
function businessDaysBetween(from: number, to: number): number {
  let count = 0;
  for (let day = from + 1; day <= to; day += 1) if (isBusinessDay(day)) count += 1;
  return count;
}

/** The first business day on or after `day`. */
function businessDayFrom(day: number): number {
  let next = day;
  while (!isBusinessDay(next)) next += 1;
  return next;
}

function modality(rule: unknown): { modalidade: number; valorPerc: number } | undefined {
  if (!isRecord(rule) || typeof rule.modalidade !== 'number') return undefined;
  return { modalidade: rule.modalidade, valorPerc: typeof rule.valorPerc === 'string' ? cents(rule.valorPerc) : 0 };
}

function discount(rule: unknown, base: number, payment: number, due: number): number {
  const given = modality(rule);
  if (!given || payment > due) return 0;
  const { modalidade, valorPerc } = given;
  if (modalidade === 1 || modalidade === 2) {
    const dates = (isRecord(rule) && Array.isArray(rule.descontoDataFixa) ? rule.descontoDataFixa : [])
      .filter(isRecord)
      .filter((entry) => typeof entry.data === 'string' && typeof entry.valorPerc === 'string')
      .map((entry) => ({ day: dayNumber(entry.data as string), value: cents(entry.valorPerc) }))
      .sort((a, b) => a.day - b.day);
    const applying = dates.find((entry) => payment <= entry.day);
    if (!applying) return 0;
    return modalidade === 1 ? applying.value : share(base, applying.value);
  }
  const calendarDays = due - payment;
  const businessDays = businessDaysBetween(payment, due);
  switch (modalidade) {
    case 3:
      return valorPerc * calendarDays;
    case 4:
      return valorPerc * businessDays;
    case 5:
      return share(base, valorPerc, calendarDays);
    case 6:
      return share(base, valorPerc, businessDays);
    default:
      return 0;
  }
}

function interest(rule: unknown, base: number, payment: number, due: number): number {
  const given = modality(rule);
  if (!given) return 0;
  const { modalidade, valorPerc } = given;
  const calendarDays = payment - due;
  const businessDays = businessDaysBetween(due, payment);
  switch (modalidade) {
    case 1:
      return valorPerc * calendarDays;
    case 2:
      return share(base, valorPerc, calendarDays);
    case 3:
      return share(base, valorPerc, calendarDays, 30);
    case 4:
      return share(base, valorPerc, calendarDays, 365);
    case 5:
      return valorPerc * businessDays;
    case 6:
      return share(base, valorPerc, businessDays);
    case 7:
      return share(base, valorPerc, businessDays, 21);
    case 8:
      return share(base, valorPerc, businessDays, 252);
    default:
      return 0;
  }
}

export interface DueDateAmounts {
  /** The `valor` of the payload: `original`, the parts that are not zero, and `final`. */
  readonly valor: Json;
  /** `final` in cents (zero or less: the discount ate the whole charge). */
  readonly finalCents: number;
  /** The day payments stop being on time (the due date, or the business day after it). */
  readonly onTimeUntil: string;
}

/** The amounts of the charge `valor` (its stored form) due on `dueDate`, paid on `paymentDate` (YYYY-MM-DD). */
export function amountsOn(valor: Json, dueDate: string, paymentDate: string): DueDateAmounts {
  const original = cents(valor.original);
  const payment = dayNumber(paymentDate);
  const due = dayNumber(dueDate);
  const onTimeUntil = businessDayFrom(due);

  const rebateRule = modality(valor.abatimento);
  const abatimento = !rebateRule ? 0 : rebateRule.modalidade === 1 ? rebateRule.valorPerc : share(original, rebateRule.valorPerc);
  const base = original - abatimento;
  const desconto = discount(valor.desconto, base, payment, due);
  const late = payment > onTimeUntil;
  const fineRule = modality(valor.multa);
  const multa = !late || !fineRule ? 0 : fineRule.modalidade === 1 ? fineRule.valorPerc : share(base, fineRule.valorPerc);
  const juros = late ? interest(valor.juros, base, payment, due) : 0;
  const finalCents = original - abatimento - desconto + multa + juros;

  const parts: Json = { original: amountOf(original) };
  if (multa > 0) parts.multa = amountOf(multa);
  if (juros > 0) parts.juros = amountOf(juros);
  if (abatimento > 0) parts.abatimento = amountOf(abatimento);
  if (desconto > 0) parts.desconto = amountOf(desconto);
  if (finalCents > 0) parts.final = amountOf(finalCents);
  return { valor: parts, finalCents, onTimeUntil: dateOf(onTimeUntil) };
}

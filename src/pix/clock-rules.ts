/**
 * Rules of the Pix receiving API (interface B) that compare a date with today, checked against the local
 * clock the way the statement periods of interface A are: "today" is the calendar day in America/Sao_Paulo,
 * where the Pix arrangement counts days, and `now` comes from the check context so tests pass a fixed
 * instant. The service keeps the last word (its own clock and calendar); these refuse only what it would.
 */
import type { CrossFieldCheck } from '../runtime/cross-field.js';
import { asRecord, isDate, issue, todayInSaoPaulo } from '../rules/cross-field.js';

/**
 * Charge creation with a due date (section 7.2, CobVOperacaoInvalida and CobROperacaoInvalida):
 * `calendario.dataDeVencimento` is not before the creation date, which for a charge created now is today.
 * Today itself is allowed (the charge can be paid until the end of its due date).
 */
export const dueDateNotBeforeToday: CrossFieldCheck = {
  name: 'due-date-not-before-today',
  description: 'calendario.dataDeVencimento is today or later (America/Sao_Paulo), not before the creation date',
  check: ({ body }, { now }) => {
    const dueDate = asRecord(asRecord(body).calendario).dataDeVencimento;
    const today = todayInSaoPaulo(now);
    if (!isDate(dueDate) || dueDate >= today) return [];
    return [
      issue(
        '/body/calendario/dataDeVencimento',
        'due-date-not-before-today',
        `must not be before today (${today} in São Paulo): a charge's due date cannot precede its creation; choose ${today} or a later date`,
        dueDate,
      ),
    ];
  },
};

/**
 * Retry of a recurring charge (section 7.2, CobROperacaoInvalida: "date not in the future"; the standard:
 * the `data` must be a future date): the date of the path is after today, so today itself is refused.
 */
export const retryDateInTheFuture: CrossFieldCheck = {
  name: 'retry-date-in-the-future',
  description: 'the retry date of POST /cobr/{txid}/retentativa/{data} is after today (America/Sao_Paulo)',
  check: ({ path }, { now }) => {
    const date = asRecord(path).data;
    const today = todayInSaoPaulo(now);
    if (!isDate(date) || date > today) return [];
    return [
      issue(
        '/path/data',
        'retry-date-in-the-future',
        `must be a future date, after today (${today} in São Paulo): a retry is asked for a coming day; choose a later date`,
        date,
      ),
    ];
  },
};

/**
 * Payload of a due-date charge read through its location (section 7.2, CobPayloadOperacaoInvalida): the
 * intended payment date `DPP` is not in the past. Today is allowed; the upper bound (due date plus
 * validadeAposVencimento) needs the charge and stays with the service.
 */
export const paymentDateNotInThePast: CrossFieldCheck = {
  name: 'dpp-not-in-the-past',
  description: 'DPP, when given, is today or later (America/Sao_Paulo)',
  check: ({ query }, { now }) => {
    const date = asRecord(query).DPP;
    const today = todayInSaoPaulo(now);
    if (!isDate(date) || date >= today) return [];
    return [
      issue(
        '/query/DPP',
        'dpp-not-in-the-past',
        `must not be in the past (today is ${today} in São Paulo): the amounts are computed for a payment still to come; give today or a later date`,
        date,
      ),
    ];
  },
};

/**
 * Recurrence confirmation request (section 7.2, SolicRecOperacaoInvalida): `dataExpiracaoSolicitacao` is not
 * before the creation of the request, which is now. Compared as instants (RFC 3339, any offset).
 */
export const requestExpiryNotPast: CrossFieldCheck = {
  name: 'solicrec-expiry-not-past',
  description: 'calendario.dataExpiracaoSolicitacao is not before the present instant (the creation of the request)',
  check: ({ body }, { now }) => {
    const expiry = asRecord(asRecord(body).calendario).dataExpiracaoSolicitacao;
    if (typeof expiry !== 'string') return [];
    const instant = Date.parse(expiry);
    if (Number.isNaN(instant) || instant >= now.getTime()) return [];
    return [
      issue(
        '/body/calendario/dataExpiracaoSolicitacao',
        'solicrec-expiry-not-past',
        `must not be before now (${now.toISOString()}): the request would expire before it is created; give a later instant`,
        expiry,
      ),
    ];
  },
};

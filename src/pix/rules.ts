/** Rules of the Pix receiving API (interface B) that JSON Schema cannot say: due-date discounts, revisions, recurrence dates. */
import type { CrossFieldCheck } from '../runtime/cross-field.js';
import type { ValidationIssue } from '../runtime/errors.js';
import { asRecord, isDate, issue } from '../rules/cross-field.js';

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
        ? [
            issue(
              `/body/valor/desconto/descontoDataFixa/${index}/data`,
              'discount-dates-not-after-due-date',
              `must not be after the due date ${dueDate}`,
              date,
            ),
          ]
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
      ? [
          issue(
            '/body/status',
            'removal-alone',
            `removing a charge cannot be combined with other changes (${others.join(', ')})`,
            fields.status,
          ),
        ]
      : [];
  },
};

/**
 * Recurrence creation (API Pix standard, RecOperacaoInvalida): `calendario.dataFinal`, when given, is not
 * before `calendario.dataInicial`. Only POST /rec carries both; PATCH /rec/{idRec} changes dataInicial alone
 * and the client does not know the stored dataFinal.
 */
export const recDatesInOrder: CrossFieldCheck = {
  name: 'rec-dates-in-order',
  description: 'calendario.dataFinal, when given, is not before calendario.dataInicial',
  check: ({ body }) => {
    const { dataInicial, dataFinal } = asRecord(asRecord(body).calendario);
    if (!isDate(dataInicial) || !isDate(dataFinal) || dataFinal >= dataInicial) return [];
    return [
      issue(
        '/body/calendario/dataFinal',
        'rec-dates-in-order',
        `must not be before calendario.dataInicial ${dataInicial}: the recurrence would end before its first payment; move dataFinal to ${dataInicial} or later, or leave it out for a recurrence without end`,
        dataFinal,
      ),
    ];
  },
};

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
    if (abatimento.valorPerc !== undefined)
      checkValue('/body/valor/abatimento/valorPerc', abatimento.valorPerc, abatementByAmount.has(Number(abatimento.modalidade)));
    const desconto = asRecord(valor.desconto);
    const byAmount = discountByAmount.has(Number(desconto.modalidade));
    if (desconto.valorPerc !== undefined) checkValue('/body/valor/desconto/valorPerc', desconto.valorPerc, byAmount);
    if (Array.isArray(desconto.descontoDataFixa)) {
      desconto.descontoDataFixa.forEach((entry, index) => {
        checkValue(`/body/valor/desconto/descontoDataFixa/${index}/valorPerc`, asRecord(entry).valorPerc, byAmount);
      });
    }
    return issues;
  },
};

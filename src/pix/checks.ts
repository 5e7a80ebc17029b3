/**
 * Cross-field rules of the Pix receiving API (sections 2.11, 3 and 7.2, and the API Pix standard) that JSON
 * Schema cannot say: list windows (fim not before inicio) and cpf XOR cnpj; a removal sent alone; due-date
 * charge discounts not after the due date and every reduction below the original value and 100 percent; a
 * recurrence not ending before it starts; and the dates compared with today (due dates, retries, DPP, the
 * expiry of a confirmation request).
 */
import { exclusive, interval, type CrossFieldCheck, type CrossFieldChecks } from '../rules/cross-field.js';
import { dueDateNotBeforeToday, paymentDateNotInThePast, requestExpiryNotPast, retryDateInTheFuture } from './clock-rules.js';
import { discountDatesNotAfterDueDate, recDatesInOrder, reductionsBelowOriginal, removalAlone } from './rules.js';

const listWindow = interval({ name: 'inicio-fim', part: 'query', start: 'inicio', end: 'fim' });
const oneDocument = exclusive({ name: 'cpf-xor-cnpj', part: 'query', names: ['cpf', 'cnpj'] });
const listChecks: readonly CrossFieldCheck[] = [listWindow, oneDocument];
const dueDateCharge: readonly CrossFieldCheck[] = [discountDatesNotAfterDueDate, reductionsBelowOriginal];

export const pixChecks: CrossFieldChecks = {
  'cob.list': listChecks,
  'cobv.list': listChecks,
  'cobr.list': listChecks,
  'rec.list': listChecks,
  'pix.list': listChecks,
  'loc.list': [listWindow],
  'locrec.list': [listWindow],
  'lotecobv.list': [listWindow],
  'webhook.list': [listWindow],
  'cob.revise': [removalAlone],
  'cobv.revise': [removalAlone, ...dueDateCharge],
  // Both create a charge now (PUT when the txid is new): its due date cannot precede today.
  'cobv.create': [...dueDateCharge, dueDateNotBeforeToday],
  'cobv.replace': [...dueDateCharge, dueDateNotBeforeToday],
  'cobr.create': [dueDateNotBeforeToday],
  'cobr.replace': [dueDateNotBeforeToday],
  'cobr.retry': [retryDateInTheFuture],
  'rec.create': [recDatesInOrder],
  'solicrec.create': [requestExpiryNotPast],
  // An operation of the pix-location document; merged with the pix checks where both documents are loaded.
  'cobvPayload.get': [paymentDateNotInThePast],
};

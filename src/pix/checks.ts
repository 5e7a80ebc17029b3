/**
 * Cross-field rules of the Pix receiving API (sections 2.11, 3 and 7.2) that JSON Schema cannot say:
 * list windows (fim not before inicio) and cpf XOR cnpj; a removal sent alone; due-date charge
 * discounts not after the due date and every reduction below the original value and 100 percent.
 */
import { exclusive, interval, type CrossFieldCheck, type CrossFieldChecks } from '../rules/cross-field.js';
import { discountDatesNotAfterDueDate, reductionsBelowOriginal, removalAlone } from './rules.js';

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
  'cob.revise': [removalAlone],
  'cobv.revise': [removalAlone, ...dueDateCharge],
  'cobv.create': dueDateCharge,
  'cobv.replace': dueDateCharge,
};

/**
 * Given/want cases of the payload rules of interface D: each names the inventory rule it checks, an
 * operation request or a schema, and the expected outcome (`valid`, or the pointer and keyword of the issue).
 */
import type { operationTable } from '../../../generated/core-banking/operations.js';
import type { validators } from '../../../generated/core-banking/validators.js';

export type Args = { path?: Record<string, unknown>; query?: Record<string, unknown>; header?: Record<string, unknown>; body?: unknown };

export interface Case {
  readonly rule: string;
  readonly given: string;
  /** An operation's request, or a named response/component schema. */
  readonly operation?: keyof typeof operationTable;
  readonly schema?: keyof typeof validators.schemas;
  readonly args?: Args;
  readonly document?: unknown;
  /** `valid`, or the pointer and JSON Schema keyword of the expected issue. */
  readonly want: 'valid' | { pointer: string; rule: string };
}

const uuid = '0e3ec47e-2fc8-4c4c-bdee-0eb80eb91a50';
const key = { 'Idempotency-Key': 'inv-2026-11-000123' };
const feeRule = { name: 'Tarifa Pix recebido', percent: 0.99, minAmount: 0.5, maxAmount: 15 };
const feeRuleRead = { id: uuid, baasId: uuid, ...feeRule, fixedAmount: 0, weight: 3, effectiveDate: null, requirements: [] };
const feeRuleUpdate = { percent: 1.2, minAmount: 0.5, maxAmount: 20 };
const invoice = { customerId: 88123, pixKey: 'financeiro@padaria.com.br', dueDate: '2026-12-10', amount: 149.9, type: 'IMMEDIATE' };
const invoicePath = { accountId: 1234 };
const application = { externalRequestId: 'ext-2026-000987', creditProductId: 12, debtor: {}, operation: {} };

const invalid = (pointer: string, rule: string) => ({ pointer, rule });
const withBody = (operation: Case['operation'], base: object, changes: object, header?: Record<string, unknown>): Args => ({
  ...(operation?.startsWith('invoices') ? { path: invoicePath } : {}),
  ...(header ? { header } : {}),
  body: { ...base, ...changes },
});
const without = (base: Record<string, unknown>, field: string): Record<string, unknown> => {
  const copy = { ...base };
  delete copy[field];
  return copy;
};

export const cases: Case[] = [
  // Token request (sections 4.10 and 5.4)
  {
    rule: 'R-D-token-request',
    given: 'client credentials',
    operation: 'auth.token',
    args: { body: { client_id: 'c', client_secret: 's', grant_type: 'client_credentials' } },
    want: 'valid',
  },
  {
    rule: 'R-D-token-request',
    given: 'another grant type',
    operation: 'auth.token',
    args: { body: { client_id: 'c', client_secret: 's', grant_type: 'password' } },
    want: invalid('/body/grant_type', 'enum'),
  },
  {
    rule: 'R-D-token-request',
    given: 'no client_secret',
    operation: 'auth.token',
    args: { body: { client_id: 'c', grant_type: 'client_credentials' } },
    want: invalid('/body/client_secret', 'required'),
  },
  {
    rule: 'R-A-limit-token-lifetime',
    given: 'expires_in in seconds',
    schema: 'TokenResponse',
    document: { access_token: 'a', token_type: 'Bearer', expires_in: 3600 },
    want: 'valid',
  },
  {
    rule: 'R-A-limit-token-lifetime',
    given: 'expires_in as text',
    schema: 'TokenResponse',
    document: { access_token: 'a', token_type: 'Bearer', expires_in: '3600' },
    want: invalid('/expires_in', 'type'),
  },

  // Core list paging (4.10, 8)
  {
    rule: 'R-D-accounts-paging',
    given: 'every paging parameter at a limit',
    operation: 'accounts.list',
    args: { query: { baasId: uuid, page: 1, perPage: 100, filter: 'Silva', sortBy: 'createdAt', sortOrder: 'ASC' } },
    want: 'valid',
  },
  {
    rule: 'R-D-accounts-paging',
    given: 'page 0',
    operation: 'accounts.list',
    args: { query: { page: 0 } },
    want: invalid('/query/page', 'minimum'),
  },
  {
    rule: 'R-D-accounts-paging',
    given: 'sortOrder up',
    operation: 'accounts.list',
    args: { query: { sortOrder: 'up' } },
    want: invalid('/query/sortOrder', 'enum'),
  },
  {
    rule: 'R-D-accounts-paging',
    given: 'baasId not a uuid',
    operation: 'accounts.list',
    args: { query: { baasId: 'partner-1' } },
    want: invalid('/query/baasId', 'format'),
  },
  {
    rule: 'R-D-accounts-paging',
    given: 'an unknown query parameter',
    operation: 'accounts.list',
    args: { query: { limit: 5 } },
    want: invalid('/query/limit', 'additionalProperties'),
  },
  {
    rule: 'R-D-limit-core-paging',
    given: 'perPage 100 on /baas',
    operation: 'baas.list',
    args: { query: { perPage: 100, sortOrder: 'desc' } },
    want: 'valid',
  },
  {
    rule: 'R-D-limit-core-paging',
    given: 'perPage 101 on /baas',
    operation: 'baas.list',
    args: { query: { perPage: 101 } },
    want: invalid('/query/perPage', 'maximum'),
  },
  {
    rule: 'R-D-limit-core-paging',
    given: 'perPage 0 on /fee-rules',
    operation: 'feeRules.list',
    args: { query: { perPage: 0 } },
    want: invalid('/query/perPage', 'minimum'),
  },
  { rule: 'R-D-accounts-id', given: 'id 1', operation: 'accounts.get', args: { path: { id: 1 } }, want: 'valid' },
  {
    rule: 'R-D-accounts-id',
    given: 'id 0',
    operation: 'accounts.balance',
    args: { path: { id: 0 } },
    want: invalid('/path/id', 'exclusiveMinimum'),
  },

  // Fee rules (2.13, 4.10)
  { rule: 'R-D-feerule-name', given: 'the four required fields', operation: 'feeRules.create', args: { body: feeRule }, want: 'valid' },
  {
    rule: 'R-D-feerule-name',
    given: 'an empty name',
    operation: 'feeRules.create',
    args: { body: { ...feeRule, name: '' } },
    want: invalid('/body/name', 'minLength'),
  },
  // Section 2.13 says the name is non-empty of the fee rule itself, so the answer holds it too (issue 27).
  { rule: 'R-D-feerule-name', given: 'a fee rule answered with its name', schema: 'FeeRule', document: feeRuleRead, want: 'valid' },
  {
    rule: 'R-D-feerule-name',
    given: 'a fee rule answered with an empty name',
    schema: 'FeeRule',
    document: { ...feeRuleRead, name: '' },
    want: invalid('/name', 'minLength'),
  },
  {
    rule: 'R-D-feerule-name',
    given: 'no maxAmount',
    operation: 'feeRules.create',
    args: { body: without(feeRule, 'maxAmount') },
    want: invalid('/body/maxAmount', 'required'),
  },
  {
    rule: 'R-D-feerule-name',
    given: 'effectiveDate null',
    operation: 'feeRules.create',
    args: { body: { ...feeRule, effectiveDate: null, fixedAmount: 0, requirements: [] } },
    want: 'valid',
  },
  {
    rule: 'R-D-feerule-name',
    given: 'effectiveDate a bare date',
    operation: 'feeRules.create',
    args: { body: { ...feeRule, effectiveDate: '2026-12-01' } },
    want: invalid('/body/effectiveDate', 'format'),
  },
  {
    rule: 'R-D-feerule-weight',
    given: 'weight 1 on update',
    operation: 'feeRules.update',
    args: { path: { id: uuid }, body: { ...feeRuleUpdate, weight: 1 } },
    want: 'valid',
  },
  {
    rule: 'R-D-feerule-weight',
    given: 'weight 0 on update',
    operation: 'feeRules.update',
    args: { path: { id: uuid }, body: { ...feeRuleUpdate, weight: 0 } },
    want: invalid('/body/weight', 'minimum'),
  },
  {
    rule: 'R-D-feerule-weight',
    given: 'a fractional weight',
    operation: 'feeRules.update',
    args: { path: { id: uuid }, body: { ...feeRuleUpdate, weight: 1.5 } },
    want: invalid('/body/weight', 'type'),
  },
  {
    rule: 'R-D-feerule-weight',
    given: 'weight on creation (assigned by the platform)',
    operation: 'feeRules.create',
    args: { body: { ...feeRule, weight: 2 } },
    want: invalid('/body/weight', 'additionalProperties'),
  },
  {
    rule: 'R-D-feerule-immutable',
    given: 'an update without them',
    operation: 'feeRules.update',
    args: { path: { id: uuid }, body: { ...feeRuleUpdate, name: 'Nova tarifa', fixedAmount: 1 } },
    want: 'valid',
  },
  {
    rule: 'R-D-feerule-immutable',
    given: 'requirements on update',
    operation: 'feeRules.update',
    args: { path: { id: uuid }, body: { ...feeRuleUpdate, requirements: [] } },
    want: invalid('/body/requirements', 'additionalProperties'),
  },
  {
    rule: 'R-D-feerule-immutable',
    given: 'effectiveDate on update',
    operation: 'feeRules.update',
    args: { path: { id: uuid }, body: { ...feeRuleUpdate, effectiveDate: null } },
    want: invalid('/body/effectiveDate', 'additionalProperties'),
  },
  {
    rule: 'R-D-feerule-immutable',
    given: 'no percent on update',
    operation: 'feeRules.update',
    args: { path: { id: uuid }, body: without(feeRuleUpdate, 'percent') },
    want: invalid('/body/percent', 'required'),
  },
  {
    rule: 'R-D-feerule-requirements',
    given: 'an ACCOUNT_NUMBER requirement',
    operation: 'feeRules.create',
    args: { body: { ...feeRule, requirements: [{ kind: 'ACCOUNT_NUMBER' }] } },
    want: 'valid',
  },
  {
    rule: 'R-D-feerule-requirements',
    given: 'requirements not a list',
    operation: 'feeRules.create',
    args: { body: { ...feeRule, requirements: { kind: 'ACCOUNT_NUMBER' } } },
    want: invalid('/body/requirements', 'type'),
  },
  {
    rule: 'R-D-feerule-list-filter',
    given: 'a name filter',
    operation: 'feeRules.list',
    args: { query: { filter: 'pix' } },
    want: 'valid',
  },
  {
    rule: 'R-D-feerule-list-filter',
    given: 'a filter that is not text',
    operation: 'feeRules.list',
    args: { query: { filter: 7 } },
    want: invalid('/query/filter', 'type'),
  },
  {
    rule: 'R-A-money-number-brl',
    given: 'amounts as numbers',
    operation: 'feeRules.create',
    args: { body: { ...feeRule, fixedAmount: 2.49 } },
    want: 'valid',
  },
  {
    rule: 'R-A-money-number-brl',
    given: 'an amount as a decimal string',
    operation: 'feeRules.create',
    args: { body: { ...feeRule, minAmount: '0.50' } },
    want: invalid('/body/minAmount', 'type'),
  },

  // Invoices (2.7, 4.4 as used by 4.10)
  {
    rule: 'R-A-invoice-duedate-format',
    given: 'a date',
    operation: 'invoices.create',
    args: withBody('invoices.create', invoice, {}, key),
    want: 'valid',
  },
  {
    rule: 'R-A-invoice-duedate-format',
    given: 'a date-time',
    operation: 'invoices.create',
    args: withBody('invoices.create', invoice, { dueDate: '2026-12-10T00:00:00-03:00' }, key),
    want: invalid('/body/dueDate', 'format'),
  },
  {
    rule: 'R-A-invoice-daystopay',
    given: 'daysToPay 0',
    operation: 'invoices.create',
    args: withBody('invoices.create', invoice, { daysToPay: 0 }, key),
    want: 'valid',
  },
  {
    rule: 'R-A-invoice-daystopay',
    given: 'daysToPay -1',
    operation: 'invoices.create',
    args: withBody('invoices.create', invoice, { daysToPay: -1 }, key),
    want: invalid('/body/daysToPay', 'minimum'),
  },
  {
    rule: 'R-A-invoice-amount-positive',
    given: 'one centavo',
    operation: 'invoices.create',
    args: withBody('invoices.create', invoice, { amount: 0.01 }, key),
    want: 'valid',
  },
  {
    rule: 'R-A-invoice-amount-positive',
    given: 'zero',
    operation: 'invoices.create',
    args: withBody('invoices.create', invoice, { amount: 0 }, key),
    want: invalid('/body/amount', 'exclusiveMinimum'),
  },
  {
    rule: 'R-A-invoice-enums',
    given: 'SCHEDULED PIX_BOLETO',
    operation: 'invoices.create',
    args: withBody('invoices.create', invoice, { type: 'SCHEDULED', paymentMethod: 'PIX_BOLETO' }, key),
    want: 'valid',
  },
  {
    rule: 'R-A-invoice-enums',
    given: 'paymentMethod CARD',
    operation: 'invoices.create',
    args: withBody('invoices.create', invoice, { paymentMethod: 'CARD' }, key),
    want: invalid('/body/paymentMethod', 'enum'),
  },
  {
    rule: 'R-A-invoice-enums',
    given: 'type LATER',
    operation: 'invoices.create',
    args: withBody('invoices.create', invoice, { type: 'LATER' }, key),
    want: invalid('/body/type', 'enum'),
  },
  {
    rule: 'R-A-invoice-pixkey-required',
    given: 'BOLETO without a Pix key',
    operation: 'invoices.create',
    args: withBody('invoices.create', without(invoice, 'pixKey'), { paymentMethod: 'BOLETO' }, key),
    want: 'valid',
  },
  {
    rule: 'R-A-invoice-pixkey-required',
    given: 'the default method (PIX) without a Pix key',
    operation: 'invoices.create',
    args: withBody('invoices.create', without(invoice, 'pixKey'), {}, key),
    want: invalid('/body/pixKey', 'required'),
  },
  {
    rule: 'R-A-invoice-pixkey-required',
    given: 'PIX_BOLETO without a Pix key',
    operation: 'invoices.create',
    args: withBody('invoices.create', without(invoice, 'pixKey'), { paymentMethod: 'PIX_BOLETO' }, key),
    want: invalid('/body/pixKey', 'required'),
  },
  {
    rule: 'R-A-invoice-sendemail-default',
    given: 'an e-mail and sendEmail',
    operation: 'invoices.create',
    args: withBody('invoices.create', invoice, { emailTo: 'contas@padaria.com.br', sendEmail: true }, key),
    want: 'valid',
  },
  {
    rule: 'R-A-invoice-sendemail-default',
    given: 'emailTo not an e-mail',
    operation: 'invoices.create',
    args: withBody('invoices.create', invoice, { emailTo: 'contas at padaria' }, key),
    want: invalid('/body/emailTo', 'format'),
  },
  {
    rule: 'R-A-limit-invoice-255',
    given: 'a 255-character description',
    operation: 'invoices.create',
    args: withBody('invoices.create', invoice, { description: 'x'.repeat(255) }, key),
    want: 'valid',
  },
  {
    rule: 'R-A-limit-invoice-255',
    given: 'a 256-character description',
    operation: 'invoices.create',
    args: withBody('invoices.create', invoice, { description: 'x'.repeat(256) }, key),
    want: invalid('/body/description', 'maxLength'),
  },
  {
    rule: 'R-A-limit-invoice-255',
    given: 'a 256-character emailTo',
    operation: 'invoices.create',
    args: withBody('invoices.create', invoice, { emailTo: `${'a'.repeat(244)}@example.com` }, key),
    want: invalid('/body/emailTo', 'maxLength'),
  },
  {
    rule: 'R-D-idempotency-replay',
    given: 'an Idempotency-Key of 160 characters',
    operation: 'invoices.create',
    args: withBody('invoices.create', invoice, {}, { 'Idempotency-Key': 'k'.repeat(160) }),
    want: 'valid',
  },
  {
    rule: 'R-D-idempotency-replay',
    given: 'no Idempotency-Key',
    operation: 'invoices.create',
    args: withBody('invoices.create', invoice, {}, {}),
    want: invalid('/header/Idempotency-Key', 'required'),
  },
  {
    rule: 'R-D-limit-idempotency-key',
    given: 'an Idempotency-Key of one character',
    operation: 'invoices.create',
    args: withBody('invoices.create', invoice, {}, { 'Idempotency-Key': 'k' }),
    want: 'valid',
  },
  {
    rule: 'R-D-limit-idempotency-key',
    given: 'an Idempotency-Key of 161 characters',
    operation: 'invoices.create',
    args: withBody('invoices.create', invoice, {}, { 'Idempotency-Key': 'k'.repeat(161) }),
    want: invalid('/header/Idempotency-Key', 'maxLength'),
  },
  {
    rule: 'R-D-limit-idempotency-key',
    given: 'an empty Idempotency-Key',
    operation: 'bankarizationApplications.create',
    args: { header: { 'Idempotency-Key': '' }, body: application },
    want: invalid('/header/Idempotency-Key', 'minLength'),
  },
  {
    rule: 'R-D-invoices-paging',
    given: 'perPage 100',
    operation: 'invoices.list',
    args: { path: invoicePath, query: { page: 1, perPage: 100, filter: 'padaria' } },
    want: 'valid',
  },
  {
    rule: 'R-D-invoices-paging',
    given: 'perPage 101',
    operation: 'invoices.list',
    args: { path: invoicePath, query: { perPage: 101 } },
    want: invalid('/query/perPage', 'maximum'),
  },
  {
    rule: 'R-D-invoice-cancel-response',
    given: '{ success: true }',
    schema: 'SuccessResponse',
    document: { success: true },
    want: 'valid',
  },
  {
    rule: 'R-D-invoice-cancel-response',
    given: 'success as text',
    schema: 'SuccessResponse',
    document: { success: 'yes' },
    want: invalid('/success', 'type'),
  },

  // Bankarization (2.13, 4.10)
  {
    rule: 'R-D-bank-idempotency',
    given: 'an application with its key',
    operation: 'bankarizationApplications.create',
    args: { header: key, body: application },
    want: 'valid',
  },
  {
    rule: 'R-D-bank-idempotency',
    given: 'an application without its key',
    operation: 'bankarizationApplications.create',
    args: { header: {}, body: application },
    want: invalid('/header/Idempotency-Key', 'required'),
  },
  {
    rule: 'R-D-bank-external-id',
    given: 'externalRequestId of 160 and product 1',
    operation: 'bankarizationApplications.create',
    args: { header: key, body: { ...application, externalRequestId: 'e'.repeat(160), creditProductId: 1 } },
    want: 'valid',
  },
  {
    rule: 'R-D-bank-external-id',
    given: 'externalRequestId of 161',
    operation: 'bankarizationApplications.create',
    args: { header: key, body: { ...application, externalRequestId: 'e'.repeat(161) } },
    want: invalid('/body/externalRequestId', 'maxLength'),
  },
  {
    rule: 'R-D-bank-external-id',
    given: 'creditProductId 0',
    operation: 'bankarizationApplications.create',
    args: { header: key, body: { ...application, creditProductId: 0 } },
    want: invalid('/body/creditProductId', 'minimum'),
  },
  {
    rule: 'R-D-bank-list-paging',
    given: 'limit 100',
    operation: 'bankarizationApplications.list',
    args: { query: { page: 1, limit: 100 } },
    want: 'valid',
  },
  {
    rule: 'R-D-bank-list-paging',
    given: 'limit 101',
    operation: 'bankarizationApplications.list',
    args: { query: { limit: 101 } },
    want: invalid('/query/limit', 'maximum'),
  },
  {
    rule: 'R-D-bank-list-paging',
    given: 'page 0',
    operation: 'bankarizationApplications.list',
    args: { query: { page: 0 } },
    want: invalid('/query/page', 'minimum'),
  },
  {
    rule: 'R-D-bank-product-id',
    given: 'productId 1',
    operation: 'bankarizationProducts.get',
    args: { path: { productId: 1 } },
    want: 'valid',
  },
  {
    rule: 'R-D-bank-product-id',
    given: 'productId 0',
    operation: 'bankarizationProducts.get',
    args: { path: { productId: 0 } },
    want: invalid('/path/productId', 'minimum'),
  },
  {
    rule: 'R-D-bank-cancel',
    given: 'cancel by requestId',
    operation: 'bankarizationApplications.cancel',
    args: { path: { requestId: uuid } },
    want: 'valid',
  },
  {
    rule: 'R-D-bank-cancel',
    given: 'cancel by a requestId that is not a uuid',
    operation: 'bankarizationApplications.cancel',
    args: { path: { requestId: '42' } },
    want: invalid('/path/requestId', 'format'),
  },

  // Problem details (7.1)
  {
    rule: 'R-A-problem-details',
    given: 'a full problem',
    schema: 'Problem',
    document: {
      type: 'https://banking.example.com/errors/not-found',
      title: 'Not found',
      status: 404,
      detail: 'x',
      instance: '/fee-rules/1',
      correlationId: uuid,
    },
    want: 'valid',
  },
  {
    rule: 'R-A-problem-details',
    given: 'a correlationId that is not a uuid',
    schema: 'Problem',
    document: { title: 'Not found', status: 404, correlationId: 'abc' },
    want: invalid('/correlationId', 'format'),
  },
  {
    rule: 'R-A-problem-details',
    given: 'status as text',
    schema: 'Problem',
    document: { title: 'Not found', status: '404' },
    want: invalid('/status', 'type'),
  },
];

/**
 * Given/want cases of the rules of interface A, each naming the inventory rule it checks. Document cases
 * go through the path of `contrato validate accounts <METHOD> <path> request|response:<STATUS>`;
 * argument cases (query, header, path) through the client's own request check. `want` is `valid`, or a
 * pattern the issue lines (`pointer: message`) must match.
 */
import { readFileSync } from 'node:fs';
import { operationsOf, resolveLocal, type JsonObject } from '../../../scripts/openapi-model.js';
import { bundledSpecPath } from '../../../src/cli/registry.js';
import type { ValidateTarget } from '../../../src/cli/validate.js';

export const document = JSON.parse(readFileSync(bundledSpecPath('accounts'), 'utf8')) as JsonObject;
const operations = operationsOf(document);

export function requestExample(operationId: string): Record<string, any> {
  const operation = operations.find((o) => o.operationId === operationId)!;
  const body = resolveLocal(document, operation.operation.requestBody) as JsonObject;
  const media = (body.content as JsonObject)[operation.requestBody!.mediaType] as JsonObject;
  return structuredClone((Object.values(media.examples as JsonObject)[0] as { value: Record<string, unknown> }).value);
}
export function responseExample(operationId: string, status: string): Record<string, any> {
  const operation = operations.find((o) => o.operationId === operationId)!;
  const response = resolveLocal(document, (operation.operation.responses as JsonObject)[status]) as JsonObject;
  const media = Object.values(response.content as JsonObject)[0] as JsonObject;
  return structuredClone((resolveLocal(document, Object.values(media.examples as JsonObject)[0]) as { value: Record<string, unknown> }).value);
}
const change = <T,>(value: T, edit: (copy: any) => void): T => {
  const copy = structuredClone(value);
  edit(copy);
  return copy;
};

export interface DocumentCase {
  readonly rule: string;
  readonly given: string;
  readonly method: string;
  readonly path: string;
  readonly target: ValidateTarget;
  readonly document: unknown;
  readonly want: 'valid' | RegExp;
}
export interface ArgsCase {
  readonly rule: string;
  readonly given: string;
  readonly operationId: string;
  readonly args: { path?: Record<string, unknown>; query?: Record<string, unknown>; header?: Record<string, unknown>; body?: unknown };
  readonly want: 'valid' | RegExp;
}

const request: ValidateTarget = { kind: 'request' };
const response = (status: string): ValidateTarget => ({ kind: 'response', status });
const hash = '6f0b8f5e-3a55-4d55-9d41-1f3f3f0b9a11';
const otp = { validationHash: hash, validationCode: '482913' };

const onboarding = requestExample('onboarding.create');
const credential = requestExample('credentials.create');
const billet = requestExample('billets.payByDigitableLine');
const queried = requestExample('billets.payQueried');
const ted = requestExample('ted.create');
const internal = requestExample('internalTransfers.create');
const invoice = requestExample('invoices.create');
const webhook = requestExample('webhooks.registerCrypto');
const wallet = requestExample('caasWallets.create');
const quote = requestExample('caasQuotes.create');
const order = requestExample('caasOrders.create');
const walletRead = responseExample('caasWallets.create', '201');
const invoiceRead = responseExample('invoices.get', '200');
const statement = responseExample('statements.summaryByPeriod', '200');
const keyRecord = responseExample('keys.create', '200');
const ingest = responseExample('cryptoRiskIngest.get', '200');
const sell = { operation: 'SELL', network: 'ETH', asset: 'ETH', amountBrl: '250.00', originWalletId: '1043' };

export const documentCases: DocumentCase[] = [
  // Pix keys (2.2, 4.1)
  { rule: 'R-A-key-type-enum', given: 'keyType EVP', method: 'POST', path: '/accounts/keys', target: request, document: { keyType: 'EVP' }, want: 'valid' },
  { rule: 'R-A-key-type-enum', given: 'keyType RANDOM', method: 'POST', path: '/accounts/keys', target: request, document: { keyType: 'RANDOM' }, want: /\/keyType: must be one of "EVP", "CPF", "CNPJ", "EMAIL", "PHONE"/ },
  { rule: 'R-A-key-evp', given: 'EVP without key', method: 'POST', path: '/accounts/keys', target: request, document: { keyType: 'EVP' }, want: 'valid' },
  { rule: 'R-A-key-evp', given: 'EVP with a key', method: 'POST', path: '/accounts/keys', target: request, document: { keyType: 'EVP', key: '123e4567-e89b-42d3-a456-426614174000' }, want: /key/ },
  { rule: 'R-A-key-cpf', given: 'a CPF with valid check digits', method: 'POST', path: '/accounts/keys', target: request, document: { keyType: 'CPF', key: '79803432559' }, want: 'valid' },
  { rule: 'R-A-key-cpf', given: 'a CPF with wrong check digits', method: 'POST', path: '/accounts/keys', target: request, document: { keyType: 'CPF', key: '79803432550' }, want: /\/key: must be a CPF/ },
  { rule: 'R-A-key-cnpj', given: 'a CNPJ', method: 'POST', path: '/accounts/keys', target: request, document: { keyType: 'CNPJ', key: '11222333000181' }, want: 'valid' },
  { rule: 'R-A-key-cnpj', given: 'a CPF as CNPJ key', method: 'POST', path: '/accounts/keys', target: request, document: { keyType: 'CNPJ', key: '79803432559' }, want: /\/key: must be a CNPJ/ },
  { rule: 'R-A-key-email-otp', given: 'EMAIL with hash and code', method: 'POST', path: '/accounts/keys', target: request, document: { keyType: 'EMAIL', key: 'financeiro@padaria.com.br', ...otp }, want: 'valid' },
  { rule: 'R-A-key-email-otp', given: 'EMAIL that is no e-mail', method: 'POST', path: '/accounts/keys', target: request, document: { keyType: 'EMAIL', key: 'financeiro', ...otp }, want: /\/key: must be an e-mail|\/key/ },
  { rule: 'R-A-key-phone-otp-e164', given: 'PHONE +5511987654321', method: 'POST', path: '/accounts/keys', target: request, document: { keyType: 'PHONE', key: '+5511987654321', ...otp }, want: 'valid' },
  { rule: 'R-A-key-phone-otp-e164', given: 'PHONE without +55', method: 'POST', path: '/accounts/keys', target: request, document: { keyType: 'PHONE', key: '11987654321', ...otp }, want: /\/key: must be a phone in E.164/ },
  { rule: 'R-A-key-otp-missing-rejected', given: 'EMAIL without hash and code', method: 'POST', path: '/accounts/keys', target: request, document: { keyType: 'EMAIL', key: 'financeiro@padaria.com.br' }, want: /validationHash|validationCode/ },
  { rule: 'R-A-key-otp-missing-rejected', given: 'PHONE with both', method: 'POST', path: '/accounts/keys', target: request, document: { keyType: 'PHONE', key: '+5511987654321', ...otp }, want: 'valid' },
  { rule: 'R-A-key-create-key-required', given: 'CPF without key', method: 'POST', path: '/accounts/keys', target: request, document: { keyType: 'CPF' }, want: /key/ },
  { rule: 'R-A-key-create-key-required', given: 'CNPJ with key', method: 'POST', path: '/accounts/keys', target: request, document: { keyType: 'CNPJ', key: '45723174000110' }, want: 'valid' },
  { rule: 'R-A-key-create-key-required', given: 'a validationHash that is no UUID', method: 'POST', path: '/accounts/keys', target: request, document: { keyType: 'EMAIL', key: 'a@padaria.com.br', validationHash: 'abc', validationCode: '1' }, want: /\/validationHash: must be a UUID/ },
  { rule: 'R-A-key-challenge-types', given: 'a PHONE challenge', method: 'POST', path: '/accounts/keys/challenge', target: request, document: { keyType: 'PHONE', key: '+5511987654321' }, want: 'valid' },
  { rule: 'R-A-key-challenge-types', given: 'a CPF challenge', method: 'POST', path: '/accounts/keys/challenge', target: request, document: { keyType: 'CPF', key: '79803432559' }, want: /\/keyType: must be one of "EMAIL", "PHONE"/ },
  { rule: 'R-A-key-challenge-types', given: 'an EMAIL challenge without key', method: 'POST', path: '/accounts/keys/challenge', target: request, document: { keyType: 'EMAIL' }, want: /key/ },
  { rule: 'R-A-key-challenge-response', given: 'the example answer', method: 'POST', path: '/accounts/keys/challenge', target: response('200'), document: responseExample('keys.challenge', '200'), want: 'valid' },
  { rule: 'R-A-key-challenge-response', given: 'a hash that is no UUID', method: 'POST', path: '/accounts/keys/challenge', target: response('200'), document: { validationHash: 'abc', expiresIn: 300 }, want: /\/validationHash: must be a UUID/ },
  { rule: 'R-A-key-branch-4-digits', given: 'branch 0001', method: 'POST', path: '/accounts/keys', target: response('200'), document: keyRecord, want: 'valid' },
  { rule: 'R-A-key-branch-4-digits', given: 'branch 1', method: 'POST', path: '/accounts/keys', target: response('200'), document: change(keyRecord, (k) => (k.branch = '1')), want: /\/branch: must be 4 digits/ },
  // Transactions and statements (2.3, 4.2)
  { rule: 'R-A-stmt-groupby', given: 'groupBy MONTH', method: 'POST', path: '/accounts/statements/summary', target: request, document: { groupBy: 'MONTH', initialDate: '2025-01-01', finalDate: '2025-03-31' }, want: 'valid' },
  { rule: 'R-A-stmt-groupby', given: 'groupBy WEEK', method: 'POST', path: '/accounts/statements/summary', target: request, document: { groupBy: 'WEEK', initialDate: '2025-01-01', finalDate: '2025-03-31' }, want: /\/groupBy: must be one of "DAY", "MONTH"/ },
  { rule: 'R-A-stmt-groupby', given: 'initialDate as a date-time', method: 'POST', path: '/accounts/statements/summary', target: request, document: { groupBy: 'DAY', initialDate: '2025-01-01T00:00:00Z', finalDate: '2025-01-31' }, want: /\/initialDate: must be a date/ },
  { rule: 'R-A-stmt-perioddate-format', given: 'periodDate 2025-03', method: 'POST', path: '/accounts/statements/summary', target: response('200'), document: statement, want: 'valid' },
  { rule: 'R-A-stmt-perioddate-format', given: 'periodDate 03/2025', method: 'POST', path: '/accounts/statements/summary', target: response('200'), document: change(statement, (s) => (s.data[0].periodDate = '03/2025')), want: /periodDate: must be YYYY-MM/ },
  { rule: 'R-A-stmt-perioddate-format', given: 'an hourly periodDate', method: 'POST', path: '/accounts/statements/summary/hourly', target: response('200'), document: change(statement, (s) => (s.data[0].periodDate = '2025-04-09 14:00:00')), want: 'valid' },
  { rule: 'R-A-stmt-debit-negative', given: 'debits -980.10', method: 'POST', path: '/accounts/statements/summary', target: response('200'), document: change(statement, (s) => (s.data[0].debitAmount = -980.1)), want: 'valid' },
  { rule: 'R-A-stmt-debit-negative', given: 'debits 980.10', method: 'POST', path: '/accounts/statements/summary', target: response('200'), document: change(statement, (s) => (s.data[0].debitAmount = 980.1)), want: /debitAmount: must be at most 0/ },
  { rule: 'R-A-transaction-status', given: 'a status not seen yet (9.3)', method: 'GET', path: '/accounts/transactions', target: response('200'), document: change(responseExample('transactions.list', '200'), (t) => (t.data[0].status = 'SCHEDULED')), want: 'valid' },
  { rule: 'R-A-transaction-status', given: 'a numeric status', method: 'GET', path: '/accounts/transactions', target: response('200'), document: change(responseExample('transactions.list', '200'), (t) => (t.data[0].status = 3)), want: /\/data\/0\/status: must be text/ },
  // BaaS, onboarding, credentials (2.4, 4.3)
  { rule: 'R-A-onboarding-accounttype', given: 'NATURAL_PERSON', method: 'POST', path: '/onboarding', target: request, document: onboarding, want: 'valid' },
  { rule: 'R-A-onboarding-accounttype', given: 'LEGAL_PERSON on creation', method: 'POST', path: '/onboarding', target: request, document: change(onboarding, (o) => (o.accountType = 'LEGAL_PERSON')), want: /\/accountType: must be one of "NATURAL_PERSON"/ },
  { rule: 'R-A-onboarding-person-required', given: 'no person', method: 'POST', path: '/onboarding', target: request, document: { accountType: 'NATURAL_PERSON' }, want: /person/ },
  { rule: 'R-A-onboarding-person-required', given: 'a person without address', method: 'POST', path: '/onboarding', target: request, document: change(onboarding, (o) => delete o.person.address), want: /\/person.*address/ },
  { rule: 'R-A-onboarding-person-required', given: 'the example person', method: 'POST', path: '/onboarding', target: request, document: onboarding, want: 'valid' },
  { rule: 'R-A-onboarding-create-state', given: 'the 201 answer', method: 'POST', path: '/onboarding', target: response('201'), document: responseExample('onboarding.create', '201'), want: 'valid' },
  { rule: 'R-A-onboarding-create-state', given: 'an id that is no UUID', method: 'POST', path: '/onboarding', target: response('201'), document: change(responseExample('onboarding.create', '201'), (o) => (o.id = 42)), want: /\/id/ },
  { rule: 'R-A-onboarding-image-type', given: 'type SELFIE', method: 'POST', path: '/onboarding/3f1c0a52-8d0e-4b7a-9a44-2b1f5e0c7d31/images', target: request, document: { type: 'SELFIE', file: '(binary)' }, want: 'valid' },
  { rule: 'R-A-onboarding-image-type', given: 'type PASSPORT', method: 'POST', path: '/onboarding/3f1c0a52-8d0e-4b7a-9a44-2b1f5e0c7d31/images', target: request, document: { type: 'PASSPORT', file: '(binary)' }, want: /\/type: must be one of "FRONT", "BACK", "SELFIE"/ },
  { rule: 'R-A-onboarding-image-type', given: 'no file', method: 'POST', path: '/onboarding/3f1c0a52-8d0e-4b7a-9a44-2b1f5e0c7d31/images', target: request, document: { type: 'FRONT' }, want: /file/ },
  { rule: 'R-A-credential-allowed-ips', given: 'an address and a CIDR range', method: 'POST', path: '/credentials', target: request, document: credential, want: 'valid' },
  { rule: 'R-A-credential-allowed-ips', given: 'a /33 range', method: 'POST', path: '/credentials', target: request, document: change(credential, (c) => (c.allowedIps = ['10.0.0.0/33'])), want: /\/allowedIps\/0: must be an IPv4 address or CIDR/ },
  { rule: 'R-A-credential-allowed-ips', given: 'an IPv6 address', method: 'POST', path: '/credentials', target: request, document: change(credential, (c) => (c.allowedIps = ['fe80::1'])), want: /\/allowedIps\/0/ },
  { rule: 'R-A-credential-grantable-scopes', given: 'grantable scopes', method: 'POST', path: '/credentials', target: request, document: change(credential, (c) => (c.scopes = ['pix.read', 'ted.create', 'infractions.write'])), want: 'valid' },
  { rule: 'R-A-credential-grantable-scopes', given: 'crypto-caas.read', method: 'POST', path: '/credentials', target: request, document: change(credential, (c) => (c.scopes = ['crypto-caas.read'])), want: /\/scopes\/0: must be one of/ },
  { rule: 'R-A-credential-secret-once', given: 'the creation answer with the secret', method: 'POST', path: '/credentials', target: response('201'), document: responseExample('credentials.create', '201'), want: 'valid' },
  { rule: 'R-A-credential-secret-once', given: 'a clientId that is no UUID', method: 'POST', path: '/credentials', target: response('201'), document: change(responseExample('credentials.create', '201'), (c) => (c.clientId = 'baas_x')), want: /\/clientId: must be a UUID/ },
  // Billets, TED, internal transfers (2.5, 2.6, 4.4)
  { rule: 'R-A-billet-digitable-digits', given: 'a digitable line of digits', method: 'POST', path: '/billets/payments', target: request, document: billet, want: 'valid' },
  { rule: 'R-A-billet-digitable-digits', given: 'a formatted digitable line', method: 'POST', path: '/billets/payments', target: request, document: change(billet, (b) => (b.digitableCode = '34191.09008 01234.567897 12345.678002 2 98760000128990')), want: /\/digitableCode/ },
  { rule: 'R-A-billet-digitable-digits', given: 'no description', method: 'POST', path: '/billets/payments', target: request, document: change(billet, (b) => delete b.description), want: /description/ },
  { rule: 'R-A-paymentflow', given: 'APPROVAL_REQUIRED', method: 'POST', path: '/billets/payments', target: request, document: change(billet, (b) => (b.paymentFlow = 'APPROVAL_REQUIRED')), want: 'valid' },
  { rule: 'R-A-paymentflow', given: 'LATER', method: 'POST', path: '/ted', target: request, document: change(ted, (t) => (t.paymentFlow = 'LATER')), want: /\/paymentFlow: must be one of "INSTANT", "APPROVAL_REQUIRED"/ },
  { rule: 'R-A-limit-billetcode', given: '50 digits', method: 'POST', path: '/billets/info', target: request, document: { billetCode: '1'.repeat(50) }, want: 'valid' },
  { rule: 'R-A-limit-billetcode', given: '51 digits', method: 'POST', path: '/billets/info', target: request, document: { billetCode: '1'.repeat(51) }, want: /\/billetCode/ },
  { rule: 'R-A-limit-billetcode', given: 'letters in a queried payment', method: 'POST', path: '/billets/payments/queried', target: request, document: change(queried, (q) => (q.billetCode = '3419A')), want: /\/billetCode/ },
  { rule: 'R-A-ted-min-amount', given: 'R$ 0.01', method: 'POST', path: '/ted', target: request, document: change(ted, (t) => (t.payment.amount = 0.01)), want: 'valid' },
  { rule: 'R-A-ted-min-amount', given: 'R$ 0.009', method: 'POST', path: '/ted', target: request, document: change(ted, (t) => (t.payment.amount = 0.009)), want: /\/payment\/amount: must be at least 0.01/ },
  { rule: 'R-A-ted-min-amount', given: 'no creditorAccount', method: 'POST', path: '/ted', target: request, document: change(ted, (t) => delete t.creditorAccount), want: /creditorAccount/ },
  { rule: 'R-A-internal-required', given: 'the example transfer', method: 'POST', path: '/internal-transfers', target: request, document: internal, want: 'valid' },
  { rule: 'R-A-internal-required', given: 'no payment', method: 'POST', path: '/internal-transfers', target: request, document: change(internal, (t) => delete t.payment), want: /payment/ },
  { rule: 'R-A-limit-remittance-140', given: '140 characters', method: 'POST', path: '/internal-transfers', target: request, document: change(internal, (t) => (t.remittanceInformation = 'x'.repeat(140))), want: 'valid' },
  { rule: 'R-A-limit-remittance-140', given: '141 characters', method: 'POST', path: '/internal-transfers', target: request, document: change(internal, (t) => (t.remittanceInformation = 'x'.repeat(141))), want: /\/remittanceInformation: must have at most 140/ },
  { rule: 'R-A-money-number-brl', given: 'amount 1850', method: 'POST', path: '/internal-transfers', target: request, document: internal, want: 'valid' },
  { rule: 'R-A-money-number-brl', given: 'amount "1850.00"', method: 'POST', path: '/internal-transfers', target: request, document: change(internal, (t) => (t.payment.amount = '1850.00')), want: /\/payment\/amount: must be a number/ },
  { rule: 'R-A-money-number-brl', given: 'currency USD', method: 'POST', path: '/internal-transfers', target: request, document: change(internal, (t) => (t.payment.currency = 'USD')), want: /\/payment\/currency: must be one of "BRL"/ },
  // Invoices (2.7, 4.4)
  { rule: 'R-A-invoice-required', given: 'the example invoice', method: 'POST', path: '/invoices', target: request, document: invoice, want: 'valid' },
  { rule: 'R-A-invoice-required', given: 'no customerId', method: 'POST', path: '/invoices', target: request, document: change(invoice, (i) => delete i.customerId), want: /customerId/ },
  { rule: 'R-A-invoice-pixkey-required', given: 'PIX without pixKey', method: 'POST', path: '/invoices', target: request, document: change(invoice, (i) => delete i.pixKey), want: /pixKey/ },
  { rule: 'R-A-invoice-pixkey-required', given: 'PIX_BOLETO without pixKey', method: 'POST', path: '/invoices', target: request, document: change(invoice, (i) => ((i.paymentMethod = 'PIX_BOLETO'), delete i.pixKey)), want: /pixKey/ },
  { rule: 'R-A-invoice-pixkey-required', given: 'BOLETO without pixKey', method: 'POST', path: '/invoices', target: request, document: change(invoice, (i) => ((i.paymentMethod = 'BOLETO'), delete i.pixKey)), want: 'valid' },
  { rule: 'R-A-invoice-duedate-format', given: 'dueDate 2025-04-15', method: 'POST', path: '/invoices', target: request, document: invoice, want: 'valid' },
  { rule: 'R-A-invoice-duedate-format', given: 'dueDate as a date-time', method: 'POST', path: '/invoices', target: request, document: change(invoice, (i) => (i.dueDate = '2025-04-15T00:00:00-03:00')), want: /\/dueDate: must be a date/ },
  { rule: 'R-A-invoice-duedate-format', given: 'a date-time in the answer', method: 'GET', path: '/invoices/90215', target: response('200'), document: invoiceRead, want: 'valid' },
  { rule: 'R-A-invoice-daystopay', given: 'daysToPay 0', method: 'POST', path: '/invoices', target: request, document: change(invoice, (i) => (i.daysToPay = 0)), want: 'valid' },
  { rule: 'R-A-invoice-daystopay', given: 'daysToPay -1', method: 'POST', path: '/invoices', target: request, document: change(invoice, (i) => (i.daysToPay = -1)), want: /\/daysToPay: must be at least 0/ },
  { rule: 'R-A-invoice-amount-positive', given: 'amount 0.01', method: 'POST', path: '/invoices', target: request, document: change(invoice, (i) => (i.amount = 0.01)), want: 'valid' },
  { rule: 'R-A-invoice-amount-positive', given: 'amount 0', method: 'POST', path: '/invoices', target: request, document: change(invoice, (i) => (i.amount = 0)), want: /\/amount: must be above 0/ },
  { rule: 'R-A-invoice-enums', given: 'type SCHEDULED, PIX_BOLETO', method: 'POST', path: '/invoices', target: request, document: change(invoice, (i) => ((i.type = 'SCHEDULED'), (i.paymentMethod = 'PIX_BOLETO'))), want: 'valid' },
  { rule: 'R-A-invoice-enums', given: 'type LATER', method: 'POST', path: '/invoices', target: request, document: change(invoice, (i) => (i.type = 'LATER')), want: /\/type: must be one of "IMMEDIATE", "SCHEDULED"/ },
  { rule: 'R-A-invoice-enums', given: 'paymentMethod CARD', method: 'POST', path: '/invoices', target: request, document: change(invoice, (i) => (i.paymentMethod = 'CARD')), want: /\/paymentMethod: must be one of "PIX", "BOLETO", "PIX_BOLETO"/ },
  { rule: 'R-A-invoice-sendemail-default', given: 'no sendEmail', method: 'POST', path: '/invoices', target: request, document: change(invoice, (i) => delete i.sendEmail), want: 'valid' },
  { rule: 'R-A-invoice-sendemail-default', given: 'emailTo that is no e-mail', method: 'POST', path: '/invoices', target: request, document: change(invoice, (i) => (i.emailTo = 'luiza')), want: /\/emailTo: must be an e-mail/ },
  { rule: 'R-A-limit-invoice-255', given: 'a description of 255', method: 'POST', path: '/invoices', target: request, document: change(invoice, (i) => (i.description = 'd'.repeat(255))), want: 'valid' },
  { rule: 'R-A-limit-invoice-255', given: 'a description of 256', method: 'POST', path: '/invoices', target: request, document: change(invoice, (i) => (i.description = 'd'.repeat(256))), want: /\/description: must have at most 255/ },
  { rule: 'R-A-limit-invoice-255', given: 'an emailTo of 256', method: 'POST', path: '/invoices', target: request, document: change(invoice, (i) => (i.emailTo = `${'a'.repeat(244)}@example.com`)), want: /\/emailTo: must have at most 255/ },
  { rule: 'R-A-invoice-uf', given: 'uf SP', method: 'GET', path: '/invoices/90215', target: response('200'), document: invoiceRead, want: 'valid' },
  { rule: 'R-A-invoice-uf', given: 'uf SPX', method: 'GET', path: '/invoices/90215', target: response('200'), document: change(invoiceRead, (i) => (i.customer.address.uf = 'SPX')), want: /\/customer\/address\/uf: must have at most 2/ },
  // Webhooks (2.8, 4.5)
  { rule: 'R-A-webhook-registration-fields', given: 'the example registration', method: 'POST', path: '/webhooks/CRYPTO', target: request, document: webhook, want: 'valid' },
  { rule: 'R-A-webhook-registration-fields', given: 'no uri', method: 'POST', path: '/webhooks/CRYPTO', target: request, document: change(webhook, (w) => delete w.uri), want: /uri/ },
  { rule: 'R-A-webhook-registration-fields', given: 'no enabled (required, default true: decision 6)', method: 'POST', path: '/webhooks/invoice', target: request, document: change(webhook, (w) => delete w.enabled), want: /enabled/ },
  { rule: 'R-A-webhook-registration-fields', given: 'method PATCH', method: 'POST', path: '/webhooks/TRANSFER', target: request, document: change(webhook, (w) => (w.method = 'PATCH')), want: /\/method: must be one of "POST", "GET", "PUT"/ },
  { rule: 'R-A-webhook-registration-fields', given: 'a header value that is no string', method: 'POST', path: '/webhooks/RECEIVE', target: request, document: change(webhook, (w) => (w.headers = { 'X-Retry': 3 })), want: /\/headers\/X-Retry: must be text/ },
  { rule: 'R-A-webhook-type-case-insensitive', given: 'POST /webhooks/crypto', method: 'POST', path: '/webhooks/crypto', target: request, document: webhook, want: 'valid' },
  { rule: 'R-A-webhook-type-case-insensitive', given: 'POST /webhooks/Invoice with no uri', method: 'POST', path: '/webhooks/Invoice', target: request, document: change(webhook, (w) => delete w.uri), want: /uri/ },
  { rule: 'R-A-webhook-delete-stops', given: 'the problem-shaped answer', method: 'DELETE', path: '/webhooks/9a1c3e2b-5d4f-4a6b-8c7d-0e1f2a3b4c5d', target: response('200'), document: responseExample('webhooks.delete', '200'), want: 'valid' },
  { rule: 'R-A-webhook-delete-stops', given: 'a numeric title', method: 'DELETE', path: '/webhooks/9a1c3e2b-5d4f-4a6b-8c7d-0e1f2a3b4c5d', target: response('200'), document: change(responseExample('webhooks.delete', '200'), (w) => (w.title = 1)), want: /\/title: must be text/ },
  // CaaS (2.9, 4.6)
  { rule: 'R-A-caas-network-enum', given: 'network TRX', method: 'POST', path: '/crypto-caas/wallets', target: request, document: change(wallet, (w) => ((w.network = 'TRX'), (w.address = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7'))), want: 'valid' },
  { rule: 'R-A-caas-network-enum', given: 'network SOL', method: 'POST', path: '/crypto-caas/wallets', target: request, document: change(wallet, (w) => (w.network = 'SOL')), want: /\/network: must be one of "BTC", "ETH", "TRX"/ },
  { rule: 'R-A-caas-asset-as-network-422', given: 'USDT as asset on ETH', method: 'POST', path: '/crypto-caas/quotes', target: request, document: change(quote, (q) => (q.asset = 'USDT')), want: 'valid' },
  { rule: 'R-A-caas-asset-as-network-422', given: 'USDT as network', method: 'POST', path: '/crypto-caas/wallets', target: request, document: change(wallet, (w) => (w.network = 'USDT')), want: /\/network: must be one of/ },
  { rule: 'R-A-caas-asset-as-network-422', given: 'USDC as a quote network', method: 'POST', path: '/crypto-caas/quotes', target: request, document: change(quote, (q) => ((q.network = 'USDC'), (q.asset = 'USDC'))), want: /\/network/ },
  { rule: 'R-A-caas-asset-enum', given: 'asset USDC on ETH', method: 'POST', path: '/crypto-caas/quotes', target: request, document: change(quote, (q) => (q.asset = 'USDC')), want: 'valid' },
  { rule: 'R-A-caas-asset-enum', given: 'asset DOGE', method: 'POST', path: '/crypto-caas/quotes', target: request, document: change(quote, (q) => (q.asset = 'DOGE')), want: /\/asset: must be one of "BTC", "ETH", "USDT", "USDC"/ },
  { rule: 'R-A-caas-asset-enum', given: 'operation HOLD', method: 'POST', path: '/crypto-caas/quotes', target: request, document: change(quote, (q) => (q.operation = 'HOLD')), want: /\/operation: must be one of "BUY", "SELL"/ },
  { rule: 'R-A-caas-pairs', given: 'USDT on TRX', method: 'POST', path: '/crypto-caas/quotes', target: request, document: change(quote, (q) => ((q.asset = 'USDT'), (q.network = 'TRX'))), want: 'valid' },
  { rule: 'R-A-caas-pairs', given: 'BTC on ETH', method: 'POST', path: '/crypto-caas/quotes', target: request, document: change(quote, (q) => (q.asset = 'BTC')), want: /\/asset: must be "ETH"|\/network: must be "BTC"/ },
  { rule: 'R-A-caas-pairs', given: 'USDC on TRX', method: 'POST', path: '/crypto-caas/quotes', target: request, document: change(quote, (q) => ((q.asset = 'USDC'), (q.network = 'TRX'))), want: /\/asset: must be|\/network: must be/ },
  { rule: 'R-A-caas-wallet-id-format', given: 'wallet id 1042', method: 'POST', path: '/crypto-caas/orders', target: request, document: order, want: 'valid' },
  { rule: 'R-A-caas-wallet-id-format', given: 'wallet id 01042', method: 'POST', path: '/crypto-caas/orders', target: request, document: change(order, (o) => (o.destinationWalletId = '01042')), want: /\/destinationWalletId/ },
  { rule: 'R-A-caas-wallet-id-format', given: 'a wallet id of 0 in an answer', method: 'POST', path: '/crypto-caas/wallets', target: response('201'), document: change(walletRead, (w) => (w.data.id = '0')), want: /\/data\/id/ },
  { rule: 'R-A-caas-wallet-address-length', given: 'an address of 10 and an alias of 100', method: 'POST', path: '/crypto-caas/wallets', target: request, document: change(wallet, (w) => ((w.address = 'a'.repeat(10)), (w.alias = 'b'.repeat(100)))), want: 'valid' },
  { rule: 'R-A-caas-wallet-address-length', given: 'an address of 9', method: 'POST', path: '/crypto-caas/wallets', target: request, document: change(wallet, (w) => (w.address = 'a'.repeat(9))), want: /\/address: must have at least 10/ },
  { rule: 'R-A-caas-wallet-address-length', given: 'an address of 256', method: 'POST', path: '/crypto-caas/wallets', target: request, document: change(wallet, (w) => (w.address = 'a'.repeat(256))), want: /\/address: must have at most 255/ },
  { rule: 'R-A-caas-wallet-address-length', given: 'an empty alias', method: 'POST', path: '/crypto-caas/wallets', target: request, document: change(wallet, (w) => (w.alias = '')), want: /\/alias: must have at least 1/ },
  { rule: 'R-A-caas-wallet-address-length', given: 'an alias of 101', method: 'POST', path: '/crypto-caas/wallets', target: request, document: change(wallet, (w) => (w.alias = 'b'.repeat(101))), want: /\/alias: must have at most 100/ },
  { rule: 'R-A-caas-decimal-format', given: 'amountBrl 250.00', method: 'POST', path: '/crypto-caas/quotes', target: request, document: quote, want: 'valid' },
  { rule: 'R-A-caas-decimal-format', given: 'amountBrl 0.00', method: 'POST', path: '/crypto-caas/quotes', target: request, document: change(quote, (q) => (q.amountBrl = '0.00')), want: /\/amountBrl: must be a positive decimal/ },
  { rule: 'R-A-caas-decimal-format', given: 'amountBrl 0250', method: 'POST', path: '/crypto-caas/quotes', target: request, document: change(quote, (q) => (q.amountBrl = '0250')), want: /\/amountBrl/ },
  { rule: 'R-A-caas-decimal-format', given: '19 decimals', method: 'POST', path: '/crypto-caas/orders', target: request, document: change(order, (o) => ((o.amountAsset = `0.${'1'.repeat(19)}`), delete o.amountBrl)), want: /\/amountAsset/ },
  { rule: 'R-A-caas-decimal-format', given: '18 decimals', method: 'POST', path: '/crypto-caas/orders', target: request, document: change(order, (o) => ((o.amountAsset = `0.${'1'.repeat(18)}`), delete o.amountBrl)), want: 'valid' },
  { rule: 'R-A-caas-decimal-format', given: 'an amount as a number', method: 'POST', path: '/crypto-caas/orders', target: request, document: change(order, (o) => (o.amountBrl = 250)), want: /\/amountBrl: must be text/ },
  { rule: 'R-A-caas-sell-quote-origin', given: 'a SELL quote with its origin', method: 'POST', path: '/crypto-caas/quotes', target: request, document: sell, want: 'valid' },
  { rule: 'R-A-caas-sell-quote-origin', given: 'a SELL quote without origin', method: 'POST', path: '/crypto-caas/quotes', target: request, document: change(sell, (s) => delete s.originWalletId), want: /originWalletId|^\/: / },
  { rule: 'R-A-caas-sell-order-origin', given: 'a SELL order with its origin', method: 'POST', path: '/crypto-caas/orders', target: request, document: { operation: 'SELL', quoteId: order.quoteId, amountAsset: '0.05', originWalletId: '1043' }, want: 'valid' },
  { rule: 'R-A-caas-sell-order-origin', given: 'a SELL order without origin', method: 'POST', path: '/crypto-caas/orders', target: request, document: { operation: 'SELL', quoteId: order.quoteId, amountAsset: '0.05' }, want: /originWalletId|^\/: / },
  { rule: 'R-A-caas-buy-destination', given: 'a BUY order with its destination', method: 'POST', path: '/crypto-caas/orders', target: request, document: order, want: 'valid' },
  { rule: 'R-A-caas-buy-destination', given: 'a BUY order without destination', method: 'POST', path: '/crypto-caas/orders', target: request, document: change(order, (o) => delete o.destinationWalletId), want: /destinationWalletId|^\/: / },
  { rule: 'R-A-caas-one-amount', given: 'both amounts', method: 'POST', path: '/crypto-caas/orders', target: request, document: change(order, (o) => (o.amountAsset = '0.01')), want: /^\/: / },
  { rule: 'R-A-caas-one-amount', given: 'neither amount', method: 'POST', path: '/crypto-caas/orders', target: request, document: change(order, (o) => delete o.amountBrl), want: /amountBrl|amountAsset/ },
  { rule: 'R-A-caas-one-amount', given: 'amountBrl alone', method: 'POST', path: '/crypto-caas/orders', target: request, document: order, want: 'valid' },
  { rule: 'R-A-caas-body-no-account', given: 'accountId in a wallet', method: 'POST', path: '/crypto-caas/wallets', target: request, document: change(wallet, (w) => (w.accountId = 48213)), want: /accountId/ },
  { rule: 'R-A-caas-body-no-account', given: 'assetNetworkId in an order', method: 'POST', path: '/crypto-caas/orders', target: request, document: change(order, (o) => (o.assetNetworkId = 3)), want: /assetNetworkId/ },
  { rule: 'R-A-caas-body-no-account', given: 'a wallet without them', method: 'POST', path: '/crypto-caas/wallets', target: request, document: wallet, want: 'valid' },
  { rule: 'R-A-caas-partner-no-ceiling', given: 'a ceiling sent with a wallet', method: 'POST', path: '/crypto-caas/wallets', target: request, document: change(wallet, (w) => (w.buyMaxBrl = '5000.00')), want: /buyMaxBrl/ },
  { rule: 'R-A-caas-partner-no-ceiling', given: 'limits read from the wallet', method: 'POST', path: '/crypto-caas/wallets', target: response('201'), document: walletRead, want: 'valid' },
  { rule: 'R-A-caas-limit-null-reason', given: 'a null maximum with its reason', method: 'POST', path: '/crypto-caas/wallets', target: response('201'), document: change(walletRead, (w) => ((w.data.limits.sellMaxBrl = null), (w.data.limits.sellReason = 'CEILING_UNREADABLE'))), want: 'valid' },
  { rule: 'R-A-caas-limit-null-reason', given: 'a null maximum without reason', method: 'POST', path: '/crypto-caas/wallets', target: response('201'), document: change(walletRead, (w) => ((w.data.limits.sellMaxBrl = null), (w.data.limits.sellReason = null))), want: /\/data\/limits/ },
  { rule: 'R-A-caas-limits-omitted-null', given: 'limits null (broker failed closed)', method: 'POST', path: '/crypto-caas/wallets', target: response('201'), document: change(walletRead, (w) => (w.data.limits = null)), want: 'valid' },
  { rule: 'R-A-caas-limits-omitted-null', given: 'limits omitted (broker lacks the field)', method: 'POST', path: '/crypto-caas/wallets', target: response('201'), document: change(walletRead, (w) => delete w.data.limits), want: 'valid' },
  { rule: 'R-A-caas-limits-omitted-null', given: 'limits as a string', method: 'POST', path: '/crypto-caas/wallets', target: response('201'), document: change(walletRead, (w) => (w.data.limits = 'none')), want: /\/data\/limits: must be an object/ },
  { rule: 'R-A-caas-order-status-enum', given: 'a settled order', method: 'GET', path: '/crypto-caas/orders/0101b811-9bca-4cb7-aee0-289dc6c91b92', target: response('200'), document: responseExample('caasOrders.get', '200'), want: 'valid' },
  // Crypto risk (2.10, 4.7)
  { rule: 'R-A-risk-network', given: 'ETHEREUM', method: 'POST', path: '/crypto-risk/analyses', target: request, document: { network: 'ETHEREUM', address: '0xdaeeb975729fae923d5a4fd12aabfe228f219e9c' }, want: 'valid' },
  { rule: 'R-A-risk-network', given: 'BITCOIN', method: 'POST', path: '/crypto-risk/analyses', target: request, document: { network: 'BITCOIN', address: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh' }, want: /\/network: must be one of "ETHEREUM", "TRON"/ },
  { rule: 'R-A-risk-network', given: 'TRX', method: 'POST', path: '/crypto-risk/analyses', target: request, document: { network: 'TRX', address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7' }, want: /\/network/ },
  { rule: 'R-A-risk-address-length', given: 'an address of 128', method: 'POST', path: '/crypto-risk/analyses', target: request, document: { network: 'TRON', address: 'T'.repeat(128) }, want: 'valid' },
  { rule: 'R-A-risk-address-length', given: 'an address of 129', method: 'POST', path: '/crypto-risk/analyses', target: request, document: { network: 'TRON', address: 'T'.repeat(129) }, want: /\/address: must have at most 128/ },
  { rule: 'R-A-risk-address-length', given: 'an empty address', method: 'POST', path: '/crypto-risk/analyses', target: request, document: { network: 'TRON', address: '' }, want: /\/address: must have at least 1/ },
  { rule: 'R-A-risk-id-digits', given: 'GET /crypto-risk/analyses/9001', method: 'GET', path: '/crypto-risk/analyses/9001', target: response('200'), document: responseExample('cryptoRiskAnalyses.get', '200'), want: 'valid' },
  { rule: 'R-A-risk-id-digits', given: 'GET /crypto-risk/analyses/abc', method: 'GET', path: '/crypto-risk/analyses/abc', target: response('200'), document: responseExample('cryptoRiskAnalyses.get', '200'), want: /\/path\/id/ },
  { rule: 'R-A-risk-ingest-status', given: 'persisted null while RUNNING', method: 'GET', path: '/crypto-risk/ingest', target: response('200'), document: change(ingest, (i) => ((i.data.status = 'RUNNING'), (i.data.persisted = null))), want: 'valid' },
  { rule: 'R-A-risk-ingest-status', given: 'persisted 0 (an empty index)', method: 'GET', path: '/crypto-risk/ingest', target: response('200'), document: change(ingest, (i) => ((i.data.status = 'IDLE'), (i.data.persisted = 0))), want: 'valid' },
  { rule: 'R-A-risk-ingest-status', given: 'persisted "yes"', method: 'GET', path: '/crypto-risk/ingest', target: response('200'), document: change(ingest, (i) => (i.data.persisted = 'yes')), want: /\/data\/persisted/ },
  // Authentication (5.5)
  { rule: 'R-A-token-request-fields', given: 'the camelCase request', method: 'POST', path: '/auth/token', target: request, document: { clientId: 'baas_7d3f2a91c4e8', clientSecret: 's', grantType: 'client_credentials', scope: 'pix.read' }, want: 'valid' },
  { rule: 'R-A-token-request-fields', given: 'snake_case members', method: 'POST', path: '/auth/token', target: request, document: { client_id: 'x', client_secret: 's', grant_type: 'client_credentials' }, want: /clientId/ },
  { rule: 'R-A-token-request-fields', given: 'grantType password', method: 'POST', path: '/auth/token', target: request, document: { clientId: 'x', clientSecret: 's', grantType: 'password' }, want: /\/grantType: must be one of "client_credentials"/ },
];

const tedPath = (id: unknown) => ({ path: { id } });
const idempotent = (value: string) => ({ header: { 'x-idempotency-key': value } });
const risk = (query: Record<string, unknown>) => ({ query });
const dates = { event_date_start: '2025-04-01T00:00:00-03:00', event_date_end: '2025-04-30T23:59:59-03:00' };

export const argsCases: ArgsCase[] = [
  { rule: 'R-A-tx-dates-required', given: 'both dates', operationId: 'transactions.list', args: { query: dates }, want: 'valid' },
  { rule: 'R-A-tx-dates-required', given: 'no event_date_end', operationId: 'transactions.list', args: { query: { event_date_start: dates.event_date_start } }, want: /event_date_end/ },
  { rule: 'R-A-tx-dates-required', given: 'a date without time', operationId: 'transactions.list', args: { query: { ...dates, event_date_start: '2025-04-01' } }, want: /\/query\/event_date_start: must be a date/ },
  { rule: 'R-A-tx-page-offset', given: 'page_offset 0', operationId: 'transactions.list', args: { query: { ...dates, page_offset: 0 } }, want: 'valid' },
  { rule: 'R-A-tx-page-offset', given: 'page_offset -1', operationId: 'transactions.list', args: { query: { ...dates, page_offset: -1 } }, want: /\/query\/page_offset: must be at least 0/ },
  { rule: 'R-A-tx-sort', given: 'AMOUNT DESC by document', operationId: 'transactions.list', args: { query: { ...dates, sort_by: 'AMOUNT', sort_order: 'DESC', filter: '79803432559' } }, want: 'valid' },
  { rule: 'R-A-tx-sort', given: 'sort_by DATE', operationId: 'transactions.list', args: { query: { ...dates, sort_by: 'DATE' } }, want: /\/query\/sort_by: must be one of "EVENT_DATE", "AMOUNT"/ },
  { rule: 'R-A-tx-sort', given: 'sort_order UP', operationId: 'transactions.list', args: { query: { ...dates, sort_order: 'UP' } }, want: /\/query\/sort_order: must be one of "ASC", "DESC"/ },
  { rule: 'R-A-limit-tx-page-limit', given: 'page_limit 100', operationId: 'transactions.list', args: { query: { ...dates, page_limit: 100 } }, want: 'valid' },
  { rule: 'R-A-limit-tx-page-limit', given: 'page_limit 101', operationId: 'transactions.list', args: { query: { ...dates, page_limit: 101 } }, want: /\/query\/page_limit: must be at most 100/ },
  { rule: 'R-A-limit-tx-page-limit', given: 'page_limit 0', operationId: 'transactions.list', args: { query: { ...dates, page_limit: 0 } }, want: /\/query\/page_limit: must be at least 1/ },
  { rule: 'R-A-stmt-month-final', given: 'MONTH up to the current month', operationId: 'statements.summaryByPeriod', args: { body: { groupBy: 'MONTH', initialDate: '2025-01-01', finalDate: '2025-04-30' } }, want: 'valid' },
  { rule: 'R-A-stmt-month-final', given: 'MONTH ending next month', operationId: 'statements.summaryByPeriod', args: { body: { groupBy: 'MONTH', initialDate: '2025-01-01', finalDate: '2025-05-31' } }, want: /\/body\/finalDate: the final month cannot be after the current month/ },
  { rule: 'R-A-limit-statement-month', given: '12 months', operationId: 'statements.summaryByPeriod', args: { body: { groupBy: 'MONTH', initialDate: '2024-05-01', finalDate: '2025-04-30' } }, want: 'valid' },
  { rule: 'R-A-limit-statement-month', given: '13 months', operationId: 'statements.summaryByPeriod', args: { body: { groupBy: 'MONTH', initialDate: '2024-04-01', finalDate: '2025-04-30' } }, want: /at most 12 months; this one covers 13/ },
  { rule: 'R-A-stmt-day-final', given: 'DAY ending yesterday', operationId: 'statements.summaryByPeriod', args: { body: { groupBy: 'DAY', initialDate: '2025-04-01', finalDate: '2025-04-09' } }, want: 'valid' },
  { rule: 'R-A-stmt-day-final', given: 'DAY ending today', operationId: 'statements.summaryByPeriod', args: { body: { groupBy: 'DAY', initialDate: '2025-04-01', finalDate: '2025-04-10' } }, want: /\/body\/finalDate: the final date must be before today \(2025-04-10\)/ },
  { rule: 'R-A-limit-statement-day', given: '60 days', operationId: 'statements.summaryByPeriod', args: { body: { groupBy: 'DAY', initialDate: '2025-02-08', finalDate: '2025-04-08' } }, want: 'valid' },
  { rule: 'R-A-limit-statement-day', given: '61 days', operationId: 'statements.summaryByPeriod', args: { body: { groupBy: 'DAY', initialDate: '2025-02-07', finalDate: '2025-04-08' } }, want: /at most 60 days; this one covers 61/ },
  { rule: 'R-A-stmt-hour-date', given: 'today', operationId: 'statements.summaryByHour', args: { body: { date: '2025-04-10' } }, want: 'valid' },
  { rule: 'R-A-stmt-hour-date', given: 'tomorrow', operationId: 'statements.summaryByHour', args: { body: { date: '2025-04-11' } }, want: /\/body\/date: cannot be after today/ },
  { rule: 'R-A-stmt-hour-date', given: 'no date', operationId: 'statements.summaryByHour', args: { body: {} }, want: /date/ },
  { rule: 'R-A-baas-list-paging', given: 'page 1, perPage 100', operationId: 'childAccounts.list', args: { query: { page: 1, perPage: 100 } }, want: 'valid' },
  { rule: 'R-A-baas-list-paging', given: 'page 0', operationId: 'childAccounts.list', args: { query: { page: 0 } }, want: /\/query\/page: must be at least 1/ },
  { rule: 'R-A-limit-child-onboarding-lists', given: 'perPage 101 on child accounts', operationId: 'childAccounts.list', args: { query: { perPage: 101 } }, want: /\/query\/perPage: must be at most 100/ },
  { rule: 'R-A-limit-child-onboarding-lists', given: 'perPage 1 on onboardings', operationId: 'onboardings.list', args: { query: { perPage: 1 } }, want: 'valid' },
  { rule: 'R-A-limit-child-onboarding-lists', given: 'perPage 0 on onboardings', operationId: 'onboardings.list', args: { query: { perPage: 0 } }, want: /\/query\/perPage: must be at least 1/ },
  { rule: 'R-A-onboarding-status-filter', given: 'status 4', operationId: 'onboardings.list', args: { query: { status: 4 } }, want: 'valid' },
  { rule: 'R-A-onboarding-status-filter', given: 'status 5', operationId: 'onboardings.list', args: { query: { status: 5 } }, want: /\/query\/status: must be at most 4/ },
  { rule: 'R-A-onboarding-status-filter', given: 'status -1', operationId: 'onboardings.list', args: { query: { status: -1 } }, want: /\/query\/status: must be at least 0/ },
  { rule: 'R-A-idempotency-required', given: 'a billet payment with its key', operationId: 'billets.payByDigitableLine', args: { ...idempotent('boleto20250410'), body: billet }, want: 'valid' },
  { rule: 'R-A-idempotency-required', given: 'a billet payment without key', operationId: 'billets.payByDigitableLine', args: { body: billet }, want: /x-idempotency-key/ },
  { rule: 'R-A-idempotency-required', given: 'a TED without key', operationId: 'ted.create', args: { body: ted }, want: /x-idempotency-key/ },
  { rule: 'R-A-idempotency-required', given: 'an internal transfer without key', operationId: 'internalTransfers.create', args: { body: internal }, want: /x-idempotency-key/ },
  { rule: 'R-A-limit-x-idempotency-key', given: '50 letters and digits', operationId: 'ted.create', args: { ...idempotent('a1'.repeat(25)), body: ted }, want: 'valid' },
  { rule: 'R-A-limit-x-idempotency-key', given: '51 characters', operationId: 'ted.create', args: { ...idempotent('a'.repeat(51)), body: ted }, want: /\/header\/x-idempotency-key: must be 1 to 50 letters or digits/ },
  { rule: 'R-A-limit-x-idempotency-key', given: 'a dash', operationId: 'internalTransfers.create', args: { ...idempotent('pedido-10482'), body: internal }, want: /\/header\/x-idempotency-key/ },
  { rule: 'R-A-ted-idempotency-lookup', given: 'TED by key ted20250410', operationId: 'ted.getByIdempotencyKey', args: { path: { idempotencyKey: 'ted20250410' } }, want: 'valid' },
  { rule: 'R-A-ted-idempotency-lookup', given: 'TED by key ted-2025', operationId: 'ted.getByIdempotencyKey', args: { path: { idempotencyKey: 'ted-2025' } }, want: /\/path\/idempotencyKey/ },
  { rule: 'R-A-ted-idempotency-lookup', given: 'TED by id 88123', operationId: 'ted.getById', args: tedPath(88123), want: 'valid' },
  { rule: 'R-A-ted-idempotency-lookup', given: 'TED by id "abc"', operationId: 'ted.getById', args: tedPath('abc'), want: /\/path\/id: must be a whole number/ },
  { rule: 'R-A-invoice-required', given: 'an invoice without key', operationId: 'invoices.create', args: { body: invoice }, want: /x-idempotency-key/ },
  { rule: 'R-A-limit-invoice-key', given: 'a key of 50 characters with spaces and symbols', operationId: 'invoices.create', args: { header: { 'x-idempotency-key': `pedido 10482/abril ${'x'.repeat(31)}` }, body: invoice }, want: 'valid' },
  { rule: 'R-A-limit-invoice-key', given: 'a key of 51', operationId: 'invoices.create', args: { header: { 'x-idempotency-key': 'k'.repeat(51) }, body: invoice }, want: /\/header\/x-idempotency-key: must have at most 50/ },
  { rule: 'R-A-limit-invoice-key', given: 'an empty key', operationId: 'invoices.create', args: { header: { 'x-idempotency-key': '' }, body: invoice }, want: /\/header\/x-idempotency-key: must have at least 1/ },
  { rule: 'R-A-invoice-list-paging', given: 'perPage 100 and a filter of 255', operationId: 'invoices.list', args: { query: { page: 1, perPage: 100, filter: 'f'.repeat(255) } }, want: 'valid' },
  { rule: 'R-A-invoice-list-paging', given: 'perPage 101', operationId: 'invoices.list', args: { query: { perPage: 101 } }, want: /\/query\/perPage: must be at most 100/ },
  { rule: 'R-A-invoice-list-paging', given: 'a filter of 256', operationId: 'invoices.list', args: { query: { filter: 'f'.repeat(256) } }, want: /\/query\/filter: must have at most 255/ },
  { rule: 'R-A-limit-caas-idempotency-key', given: 'an Idempotency-Key of 128', operationId: 'caasWallets.create', args: { header: { 'Idempotency-Key': 'k'.repeat(128) }, body: wallet }, want: 'valid' },
  { rule: 'R-A-limit-caas-idempotency-key', given: 'an Idempotency-Key of 129', operationId: 'caasOrders.create', args: { header: { 'Idempotency-Key': 'k'.repeat(129) }, body: order }, want: /\/header\/Idempotency-Key: must have at most 128/ },
  { rule: 'R-A-caas-request-id-precedence', given: 'x-request-id and x-correlation-id of 128', operationId: 'caasQuotes.create', args: { header: { 'x-request-id': 'r'.repeat(128), 'x-correlation-id': 'c'.repeat(128) }, body: quote }, want: 'valid' },
  { rule: 'R-A-caas-request-id-precedence', given: 'an x-request-id of 129', operationId: 'caasQuotes.create', args: { header: { 'x-request-id': 'r'.repeat(129) }, body: quote }, want: /\/header\/x-request-id: must have at most 128/ },
  { rule: 'R-A-caas-order-status-enum', given: 'orders with status PENDING_POLICY_REVIEW', operationId: 'caasOrders.list', args: { query: { status: 'PENDING_POLICY_REVIEW', operation: 'SELL' } }, want: 'valid' },
  { rule: 'R-A-caas-order-status-enum', given: 'orders with status PENDING', operationId: 'caasOrders.list', args: { query: { status: 'PENDING' } }, want: /\/query\/status: must be one of "DRAFT"/ },
  { rule: 'R-A-limit-orders-analyses-paging', given: 'orders page 10000, limit 100', operationId: 'caasOrders.list', args: { query: { page: 10000, limit: 100 } }, want: 'valid' },
  { rule: 'R-A-limit-orders-analyses-paging', given: 'orders page 10001', operationId: 'caasOrders.list', args: { query: { page: 10001 } }, want: /\/query\/page: must be at most 10000/ },
  { rule: 'R-A-limit-orders-analyses-paging', given: 'analyses limit 101', operationId: 'cryptoRiskAnalyses.list', args: { query: { limit: 101 } }, want: /\/query\/limit: must be at most 100/ },
  { rule: 'R-A-limit-orders-analyses-paging', given: 'analyses page 0', operationId: 'cryptoRiskAnalyses.list', args: { query: { page: 0 } }, want: /\/query\/page: must be at least 1/ },
  { rule: 'R-A-risk-list-address-network', given: 'address with network', operationId: 'cryptoRiskAnalyses.list', args: risk({ network: 'TRON', address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7' }), want: 'valid' },
  { rule: 'R-A-risk-list-address-network', given: 'address without network', operationId: 'cryptoRiskAnalyses.list', args: risk({ address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7' }), want: /\/query\/network: is required when address is given/ },
  { rule: 'R-A-risk-list-address-network', given: 'an address of 129', operationId: 'cryptoRiskAnalyses.list', args: risk({ network: 'TRON', address: 'T'.repeat(129) }), want: /\/query\/address: must have at most 128/ },
  { rule: 'R-A-risk-network', given: 'ingest on BITCOIN', operationId: 'cryptoRiskIngest.get', args: risk({ network: 'BITCOIN', address: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh' }), want: /\/query\/network/ },
  { rule: 'R-A-x-account-id-baas', given: 'x-account-id 48213', operationId: 'keys.list', args: { header: { 'x-account-id': 48213 } }, want: 'valid' },
  { rule: 'R-A-x-account-id-baas', given: 'x-account-id "conta-1"', operationId: 'keys.list', args: { header: { 'x-account-id': 'conta-1' } }, want: /\/header\/x-account-id: must be a whole number/ },
];

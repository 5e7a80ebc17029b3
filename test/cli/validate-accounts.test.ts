/**
 * `contrato validate accounts …` and `contrato validate events <type> …` as a user runs them, on files:
 * CaaS, invoices, keys, onboarding and every kind of event, valid (exit 0) and invalid (exit 1, one
 * `pointer: message` line per issue), and usage errors (exit 2).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';

const scratch = mkdtempSync(join(tmpdir(), 'contrato-cli-accounts-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function contrato(args: string[], content?: unknown) {
  const path = join(scratch, `${args.join('_').replace(/[^a-zA-Z0-9.]/g, '_')}.json`);
  if (content !== undefined) writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(projectRoot, 'src/cli/main.ts'), 'validate', ...args, ...(content === undefined ? [] : [path])],
    { cwd: projectRoot, encoding: 'utf8', input: '' },
  );
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const quoteId = '0101b811-9bca-4cb7-aee0-289dc6c91b92';
const cases: [string, string[], unknown, number, RegExp][] = [
  [
    'a CaaS BUY order',
    ['accounts', 'POST', '/crypto-caas/orders', 'request'],
    { operation: 'BUY', quoteId, amountBrl: '250.00', destinationWalletId: '1042' },
    0,
    /^valid/,
  ],
  [
    'a CaaS order with both amounts',
    ['accounts', 'POST', '/crypto-caas/orders', 'request'],
    { operation: 'BUY', quoteId, amountBrl: '250.00', amountAsset: '0.01', destinationWalletId: '1042' },
    1,
    /\//,
  ],
  [
    'a CaaS wallet on USDT',
    ['accounts', 'POST', '/crypto-caas/wallets', 'request'],
    { network: 'USDT', address: '0xa4c123b1612dd272d1371c17149d439536b3216f' },
    1,
    /^\/body\/network: must be one of "BTC", "ETH", "TRX"/m,
  ],
  [
    'an invoice with its idempotency key',
    ['accounts', 'POST', '/invoices', 'request', '--header', 'x-idempotency-key:inv-2025-04-15-001'],
    { customerId: 5120, paymentMethod: 'BOLETO', dueDate: '2025-04-15', amount: 189.9, type: 'IMMEDIATE' },
    0,
    /^valid/,
  ],
  [
    // The header is required on the wire: the sandbox and the platform refuse the request without it.
    'an invoice without its idempotency key',
    ['accounts', 'POST', '/invoices', 'request'],
    { customerId: 5120, paymentMethod: 'BOLETO', dueDate: '2025-04-15', amount: 189.9, type: 'IMMEDIATE' },
    1,
    /^\/header\/x-idempotency-key: is required$/m,
  ],
  [
    'an invoice without pixKey',
    ['accounts', 'POST', '/invoices', 'request'],
    { customerId: 5120, dueDate: '2025-04-15', amount: 189.9, type: 'IMMEDIATE' },
    1,
    /pixKey/,
  ],
  [
    'an EMAIL key with its code',
    ['accounts', 'POST', '/accounts/keys', 'request'],
    {
      keyType: 'EMAIL',
      key: 'financeiro@padaria.com.br',
      validationHash: '6f0b8f5e-3a55-4d55-9d41-1f3f3f0b9a11',
      validationCode: '482913',
    },
    0,
    /^valid/,
  ],
  ['an EVP key with a key', ['accounts', 'POST', '/accounts/keys', 'request'], { keyType: 'EVP', key: 'x' }, 1, /key/],
  [
    'an onboarding',
    ['accounts', 'POST', '/onboarding', 'request'],
    {
      accountType: 'NATURAL_PERSON',
      person: {
        name: 'João Carlos Pereira',
        socialName: 'Joana Pereira',
        document: '11144477735',
        phone: '+5511987654321',
        address: { zipCode: '01310100', address: 'Avenida Paulista', number: '1578', complement: 'Apto 42', district: 'Bela Vista' },
      },
    },
    0,
    /^valid/,
  ],
  [
    'an onboarding of a company',
    ['accounts', 'POST', '/onboarding', 'request'],
    { accountType: 'LEGAL_PERSON', person: { name: 'x' } },
    1,
    /^\/body\/accountType: must be one of "NATURAL_PERSON"/m,
  ],
  [
    'a webhook registration in lower case',
    ['accounts', 'POST', '/webhooks/crypto', 'request'],
    { uri: 'https://hooks.example.com/crypto', enabled: true },
    0,
    /^valid/,
  ],
  [
    'an invoice.paid event',
    ['events', 'invoice.paid'],
    { type: 'invoice.paid', data: { invoiceId: 90215, status: 'COMPLETED', amount: 189.9 } },
    0,
    /^valid/,
  ],
  [
    'an invoice.paid event without invoiceId',
    ['events', 'invoice.paid'],
    { type: 'invoice.paid', data: { status: 'COMPLETED' } },
    1,
    /^\/data\/invoiceId: is required/m,
  ],
  [
    'a TRANSFER event',
    ['events', 'TRANSFER'],
    { type: 'TRANSFER', data: { id: 'a1b2', status: 'LIQUIDATED', payment: { amount: '150.00', currency: 'BRL' } } },
    0,
    /^valid/,
  ],
  [
    'a TRANSFER event with a numeric amount',
    ['events', 'TRANSFER'],
    { type: 'TRANSFER', data: { id: 'a1b2', payment: { amount: 150, currency: 'BRL' } } },
    1,
    /^\/data\/payment\/amount: must be text/m,
  ],
  [
    'a crypto.order.updated event',
    ['events', 'crypto.order.updated'],
    { type: 'crypto.order.updated', data: { orderId: quoteId, status: 'APPROVED', previousStatus: 'PENDING_OPERATOR' } },
    0,
    /^valid/,
  ],
  [
    'a crypto.order.updated event under another type',
    ['events', 'crypto.order.settled'],
    { type: 'crypto.order.updated', data: { orderId: quoteId, status: 'SETTLED', previousStatus: 'EXECUTED' } },
    1,
    /^\/type: must be "crypto.order.settled"/m,
  ],
];

describe('contrato validate accounts / events', () => {
  it.each(cases)('%s', (_label, args, content, code, output) => {
    const run = contrato(args, content);
    expect(run.code).toBe(code);
    expect(code === 0 ? run.stdout : run.stderr).toMatch(output);
  });

  it.each([
    ['an unknown event type', ['events', 'invoice.created'], /unknown event type "invoice.created"; known: TRANSFER/],
    ['no event type', ['events'], /unknown event type ""/],
    [
      'an operation accounts does not have',
      ['accounts', 'POST', '/pix/payments', 'request'],
      /no operation POST \/pix\/payments in accounts/,
    ],
  ])('exits 2 for %s', (_label, args, message) => {
    const run = contrato(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  it('exits 2 on an event file that is not JSON', () => {
    const run = contrato(['events', 'TRANSFER'], '{"type":');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/is not JSON/);
  });
});

/**
 * The checks of a call against a value read before it (src/accounts/read-checks.ts), table-driven: for
 * each rule a valid and an invalid case at least, boundaries included. `want` lists the issues as
 * `pointer rule`; messages are checked once for their form (one line, field named, rule once).
 */
import { describe, expect, it } from 'vitest';
import {
  buyHardCapBrl,
  checkBilletPayable,
  checkBilletPaymentAmount,
  checkBuyAmount,
  checkImageUpload,
  checkSellOrigin,
  type components,
  type OrderHandling,
  orderHandling,
  type ValidationIssue,
} from '../../src/accounts/index.js';

type Schemas = components['schemas'];
const brief = (issues: readonly ValidationIssue[]): string[] => issues.map((found) => `${found.pointer} ${found.rule}`);

describe('checkImageUpload', () => {
  const rule = 'R-A-onboarding-image-states';
  it.each<{ given: string; onboarding: Schemas['Onboarding']; want: string[] }>([
    { given: 'status 0 (pending)', onboarding: { status: 0 }, want: [] },
    { given: 'status 1 (awaiting approval)', onboarding: { status: 1 }, want: [] },
    { given: 'status 2', onboarding: { status: 2 }, want: [`/status ${rule}`] },
    { given: 'status 4', onboarding: { status: 4 }, want: [`/status ${rule}`] },
    { given: 'status -1', onboarding: { status: -1 }, want: [`/status ${rule}`] },
    { given: 'no status', onboarding: { id: '0d1c7c4e-5b7a-4f2e-9a51-3c2b1e0f9d88' }, want: [`/status ${rule}`] },
  ])(`${rule}: $given → $want`, ({ onboarding, want }) => {
    expect(brief(checkImageUpload(onboarding))).toEqual(want);
  });
});

describe('checkBilletPayable', () => {
  const rule = 'R-A-billet-changeable-value';
  it.each<{ given: string; info: Schemas['BilletInfo']; want: string[] }>([
    { given: 'allowChangeValue false', info: { allowChangeValue: false, totalUpdated: 152.37 }, want: [] },
    { given: 'allowChangeValue absent', info: { totalUpdated: 152.37 }, want: [] },
    { given: 'allowChangeValue true', info: { allowChangeValue: true, totalUpdated: 152.37 }, want: [`/allowChangeValue ${rule}`] },
  ])(`${rule}: $given → $want`, ({ info, want }) => {
    expect(brief(checkBilletPayable(info))).toEqual(want);
  });
});

describe('checkBilletPaymentAmount', () => {
  const rule = 'R-A-billet-updated-value';
  const queried = (amount?: number): Schemas['BilletPayQueriedRequest'] => ({
    billetCode: '34191790010104351004791020150008291070026000',
    description: 'Aluguel de março',
    ...(amount === undefined ? {} : { payment: { currency: 'BRL', amount } }),
  });
  const byLine = (amount: number): Schemas['BilletPayByDigitableLineRequest'] => ({
    digitableCode: '34191790010104351004791020150008291070026000',
    description: 'Aluguel de março',
    payment: { amount },
  });
  const info: Schemas['BilletInfo'] = { originalValue: 150, interestValueCalculated: 2.37, totalUpdated: 152.37 };
  it.each<{
    given: string;
    info: Schemas['BilletInfo'];
    request: Schemas['BilletPayQueriedRequest'] | Schemas['BilletPayByDigitableLineRequest'];
    want: string[];
  }>([
    { given: 'the updated value', info, request: queried(152.37), want: [] },
    { given: 'no payment member', info, request: queried(), want: [] },
    { given: 'the updated value as a sum (150 + 2.37)', info, request: byLine(150 + 2.37), want: [] },
    { given: 'one cent above', info, request: queried(152.38), want: [`/body/payment/amount ${rule}`] },
    { given: 'one cent below', info, request: byLine(152.36), want: [`/body/payment/amount ${rule}`] },
    { given: 'the original value without interest', info, request: byLine(150), want: [`/body/payment/amount ${rule}`] },
    {
      given: 'an amount but no totalUpdated read',
      info: { originalValue: 150 },
      request: queried(150),
      want: [`/body/payment/amount ${rule}`],
    },
    { given: 'no amount and no totalUpdated read', info: { originalValue: 150 }, request: queried(), want: [] },
  ])(`${rule}: $given → $want`, ({ info: read, request, want }) => {
    expect(brief(checkBilletPaymentAmount(read, request))).toEqual(want);
  });
});

describe('checkSellOrigin', () => {
  const rule = 'R-A-caas-sell-verified';
  it.each<{ given: string; wallet: Schemas['CaasWallet']; want: string[] }>([
    { given: 'VERIFIED and eligible', wallet: { verificationStatus: 'VERIFIED', eligibleForSellOrigin: true }, want: [] },
    {
      given: 'PENDING_VERIFICATION, not eligible',
      wallet: { verificationStatus: 'PENDING_VERIFICATION', eligibleForSellOrigin: false },
      want: [`/verificationStatus ${rule}`, `/eligibleForSellOrigin ${rule}`],
    },
    {
      given: 'VERIFIED but not eligible',
      wallet: { verificationStatus: 'VERIFIED', eligibleForSellOrigin: false },
      want: [`/eligibleForSellOrigin ${rule}`],
    },
    {
      given: 'eligible but not VERIFIED',
      wallet: { verificationStatus: 'PENDING_VERIFICATION', eligibleForSellOrigin: true },
      want: [`/verificationStatus ${rule}`],
    },
    {
      given: 'an unknown status value',
      wallet: { verificationStatus: 'REVOKED', eligibleForSellOrigin: true },
      want: [`/verificationStatus ${rule}`],
    },
    { given: 'neither member read', wallet: { id: '17' }, want: [`/verificationStatus ${rule}`, `/eligibleForSellOrigin ${rule}`] },
  ])(`${rule}: $given → $want`, ({ wallet, want }) => {
    expect(brief(checkSellOrigin(wallet))).toEqual(want);
  });
});

const limits = (given: Partial<Schemas['CaasWalletLimits']>): Schemas['CaasWallet'] => ({
  id: '17',
  limits: { sellMaxBrl: '10000.00', sellSource: 'SELL_AUTO_APPROVE_CEILING', ...given } as Schemas['CaasWalletLimits'],
});
const window = limits({
  buyMaxBrl: '300.00',
  buySource: 'FIRST_PURCHASE',
  firstPurchase: { active: true, limitBrl: '300.00', enabled: true },
});
const capped = limits({ buyMaxBrl: '20000.00', buySource: 'AUTO_EXECUTION' });
const atHardCap = limits({ buyMaxBrl: '50000.00' });
const amount = '/body/amountBrl';

// Section 4.6 rule 7: only the first-purchase ceiling refuses a BUY; the caps above it send it to the operator.
describe('checkBuyAmount', () => {
  it.each<{ given: string; wallet: Schemas['CaasWallet']; amountBrl: string; want: string[] }>([
    { given: 'first-purchase window, 300.00', wallet: window, amountBrl: '300.00', want: [] },
    { given: 'first-purchase window, 300', wallet: window, amountBrl: '300', want: [] },
    { given: 'first-purchase window, 300.01', wallet: window, amountBrl: '300.01', want: [`${amount} R-A-caas-first-purchase-window`] },
    { given: 'first-purchase window, 60000', wallet: window, amountBrl: '60000', want: [`${amount} R-A-caas-first-purchase-window`] },
    {
      given: 'first-purchase window without a resolved ceiling, 350',
      wallet: limits({ buyMaxBrl: null, buyReason: 'POLICY_UNRESOLVED', buySource: 'FIRST_PURCHASE' }),
      amountBrl: '350',
      want: [],
    },
    { given: 'auto-execution cap 20000.00, 20000.01 (goes to the operator)', wallet: capped, amountBrl: '20000.01', want: [] },
    { given: 'auto-execution cap 20000.00, 60000 (goes to the operator)', wallet: capped, amountBrl: '60000', want: [] },
    { given: 'limits omitted, 50000.01', wallet: { id: '17' }, amountBrl: '50000.01', want: [] },
    { given: 'limits null (failed closed), 10', wallet: { id: '17', limits: null }, amountBrl: '10', want: [] },
    { given: 'an amount that is not a decimal', wallet: capped, amountBrl: '1e4', want: [`${amount} decimal`] },
    { given: 'a zero amount', wallet: window, amountBrl: '0.00', want: [`${amount} decimal`] },
  ])('R-A-caas-first-purchase-window, R-A-limit-first-purchase: $given → $want', ({ wallet, amountBrl, want }) => {
    expect(brief(checkBuyAmount(wallet, amountBrl))).toEqual(want);
  });

  it('R-A-limit-buy-hard-cap: the hard cap is 50000 BRL (section 8)', () => {
    expect(buyHardCapBrl).toBe('50000');
  });
});

describe('orderHandling', () => {
  const sell = (given: Partial<Schemas['CaasWalletLimits']> | null | undefined): Schemas['CaasWallet'] =>
    given === undefined
      ? { id: '9' }
      : { id: '9', limits: given === null ? null : ({ buyMaxBrl: '300.00', ...given } as Schemas['CaasWalletLimits']) };
  const handled = (found: OrderHandling): string =>
    found.handling === 'operator' ? `operator ${found.reason.pointer} ${found.reason.rule}` : found.handling;
  it.each<{ given: string; wallet: Schemas['CaasWallet']; operation: 'BUY' | 'SELL'; amountBrl: string; want: string }>([
    { given: 'BUY within the auto-execution cap', wallet: capped, operation: 'BUY', amountBrl: '20000', want: 'automatic' },
    {
      given: 'BUY a hair above the auto-execution cap',
      wallet: capped,
      operation: 'BUY',
      amountBrl: '20000.000000000000000001',
      want: `operator ${amount} R-A-caas-buy-cap`,
    },
    { given: 'BUY of 50000 at a cap of 50000.00', wallet: atHardCap, operation: 'BUY', amountBrl: '50000', want: 'automatic' },
    {
      given: 'BUY of 50000.01 at a cap of 50000.00',
      wallet: atHardCap,
      operation: 'BUY',
      amountBrl: '50000.01',
      want: `operator ${amount} R-A-caas-buy-cap`,
    },
    { given: 'BUY, limits omitted, 50000', wallet: { id: '17' }, operation: 'BUY', amountBrl: '50000', want: 'unknown' },
    {
      given: 'BUY, limits omitted, 50000.01',
      wallet: { id: '17' },
      operation: 'BUY',
      amountBrl: '50000.01',
      want: `operator ${amount} R-A-limit-buy-hard-cap`,
    },
    {
      given: 'BUY, a cap read above the hard cap, 50000.01',
      wallet: limits({ buyMaxBrl: '90000.00' }),
      operation: 'BUY',
      amountBrl: '50000.01',
      want: `operator ${amount} R-A-limit-buy-hard-cap`,
    },
    {
      given: 'BUY, limits null',
      wallet: { id: '17', limits: null },
      operation: 'BUY',
      amountBrl: '10',
      want: 'operator /limits R-A-caas-buy-cap',
    },
    {
      given: 'BUY, buyMaxBrl null with its reason',
      wallet: limits({ buyMaxBrl: null, buyReason: 'CEILING_UNREADABLE' }),
      operation: 'BUY',
      amountBrl: '10',
      want: 'operator /limits/buyMaxBrl R-A-caas-buy-cap',
    },
    { given: 'BUY within the first-purchase ceiling', wallet: window, operation: 'BUY', amountBrl: '250.00', want: 'automatic' },
    {
      given: 'SELL at the auto-approval ceiling',
      wallet: sell({ sellMaxBrl: '10000.00' }),
      operation: 'SELL',
      amountBrl: '10000',
      want: 'automatic',
    },
    {
      given: 'SELL above the auto-approval ceiling',
      wallet: sell({ sellMaxBrl: '10000.00' }),
      operation: 'SELL',
      amountBrl: '10000.01',
      want: `operator ${amount} R-A-caas-sell-ceiling`,
    },
    { given: 'SELL below a ceiling of 0.5', wallet: sell({ sellMaxBrl: '0.5' }), operation: 'SELL', amountBrl: '0.49', want: 'automatic' },
    { given: 'SELL, limits omitted', wallet: sell(undefined), operation: 'SELL', amountBrl: '750000', want: 'unknown' },
    { given: 'SELL, limits null', wallet: sell(null), operation: 'SELL', amountBrl: '1', want: 'operator /limits R-A-caas-sell-ceiling' },
    {
      given: 'SELL, sellMaxBrl null, CEILING_DISABLED',
      wallet: sell({ sellMaxBrl: null, sellReason: 'CEILING_DISABLED' }),
      operation: 'SELL',
      amountBrl: '1',
      want: 'operator /limits/sellMaxBrl R-A-caas-sell-ceiling',
    },
    {
      given: 'SELL, sellMaxBrl unreadable',
      wallet: sell({ sellMaxBrl: 'ten' }),
      operation: 'SELL',
      amountBrl: '1',
      want: 'operator /limits/sellMaxBrl R-A-caas-sell-ceiling',
    },
  ])('R-A-caas-buy-cap, R-A-limit-buy-hard-cap, R-A-caas-sell-ceiling: $given → $want', ({ wallet, operation, amountBrl, want }) => {
    expect(handled(orderHandling(wallet, operation, amountBrl))).toBe(want);
  });
});

describe('messages of the read checks', () => {
  const refused: ReadonlyArray<readonly ValidationIssue[]> = [
    checkImageUpload({ status: 2 }),
    checkImageUpload({}),
    checkBilletPayable({ allowChangeValue: true }),
    checkBilletPaymentAmount({ totalUpdated: 152.37 }, { payment: { amount: 150 } }),
    checkBilletPaymentAmount({}, { payment: { amount: 150 } }),
    checkSellOrigin({ verificationStatus: 'PENDING_VERIFICATION', eligibleForSellOrigin: false }),
    checkBuyAmount({ limits: { buyMaxBrl: '300.00', buySource: 'FIRST_PURCHASE' } }, '300.01'),
    ...[
      orderHandling({ limits: { buyMaxBrl: '20000.00' } }, 'BUY', '20000.01'),
      orderHandling({}, 'BUY', '50000.01'),
      orderHandling({ limits: null }, 'BUY', '1'),
      orderHandling({ limits: { buyMaxBrl: null, buyReason: 'POLICY_UNRESOLVED' } }, 'BUY', '1'),
      orderHandling({ limits: { sellMaxBrl: '10.00' } }, 'SELL', '10.01'),
      orderHandling({ limits: null }, 'SELL', '1'),
    ].map((found) => (found.handling === 'operator' ? [found.reason] : [])),
  ];
  const issues = refused.flat();

  it('R-A-onboarding-image-states, R-A-billet-changeable-value, R-A-billet-updated-value, R-A-caas-sell-verified, R-A-caas-first-purchase-window, R-A-caas-buy-cap, R-A-limit-buy-hard-cap, R-A-caas-sell-ceiling: one line naming the field, the rule once and what to do', () => {
    expect(issues).toHaveLength(14);
    for (const found of issues) {
      const field = found.pointer.split('/').pop()!;
      expect(found.message).not.toContain('\n');
      expect(found.message).toContain(field);
      expect(found.message.endsWith(`(${found.rule})`)).toBe(true);
      expect(found.message.split(found.rule)).toHaveLength(2);
      expect(found.message).toMatch(/: [a-z]/);
    }
  });

  it('no message, nor two issues of one check, repeats a phrase of four words', () => {
    for (const result of refused) {
      const seen = new Map<string, number>();
      result.forEach((found, position) => {
        const words = found.message.replace(/\([^)]*\)$/, '').split(/\s+/);
        for (let index = 0; index + 4 <= words.length; index++) {
          const phrase = words.slice(index, index + 4).join(' ');
          expect(seen.has(phrase), `"${phrase}" twice in: ${result.map((each) => each.message).join(' | ')}`).toBe(false);
          seen.set(phrase, position);
        }
      });
    }
  });

  it('names the values it read', () => {
    expect(checkImageUpload({ status: 3 })[0]).toMatchObject({ pointer: '/status', value: 3 });
    expect(checkBilletPaymentAmount({ totalUpdated: 152.37 }, { payment: { amount: 150 } })[0]!.message).toContain(
      'payment.amount 150 differs from totalUpdated 152.37',
    );
    const unreadable = orderHandling({ limits: { buyMaxBrl: null, buyReason: 'CEILING_UNREADABLE' } }, 'BUY', '1');
    expect(unreadable.handling === 'operator' && unreadable.reason.message).toContain('"CEILING_UNREADABLE"');
  });
});

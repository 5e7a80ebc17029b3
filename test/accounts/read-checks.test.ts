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
  checkSellAmount,
  checkSellOrigin,
  type components,
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

describe('checkBuyAmount', () => {
  const limits = (buy: Partial<Schemas['CaasWalletLimits']>): Schemas['CaasWallet'] => ({
    id: '17',
    limits: { sellMaxBrl: '10000.00', sellSource: 'SELL_AUTO_APPROVE_CEILING', ...buy } as Schemas['CaasWalletLimits'],
  });
  const window = limits({
    buyMaxBrl: '300.00',
    buySource: 'FIRST_PURCHASE',
    firstPurchase: { active: true, limitBrl: '300.00', enabled: true },
  });
  const capped = limits({ buyMaxBrl: '20000.00', buySource: 'AUTO_EXECUTION' });
  const atHardCap = limits({ buyMaxBrl: '50000.00' });
  const amount = '/body/amountBrl';
  it.each<{ given: string; wallet: Schemas['CaasWallet']; amountBrl: string; want: string[] }>([
    { given: 'first-purchase window, 300.00', wallet: window, amountBrl: '300.00', want: [] },
    { given: 'first-purchase window, 300', wallet: window, amountBrl: '300', want: [] },
    { given: 'first-purchase window, 300.01', wallet: window, amountBrl: '300.01', want: [`${amount} R-A-caas-first-purchase-window`] },
    { given: 'auto-execution cap 20000.00, 20000', wallet: capped, amountBrl: '20000', want: [] },
    {
      given: 'auto-execution cap 20000.00, 20000.000000000000000001',
      wallet: capped,
      amountBrl: '20000.000000000000000001',
      want: [`${amount} R-A-caas-buy-cap`],
    },
    { given: 'auto-execution cap 20000.00, 60000', wallet: capped, amountBrl: '60000', want: [`${amount} R-A-caas-buy-cap`] },
    { given: 'cap 50000.00, 50000', wallet: atHardCap, amountBrl: '50000', want: [] },
    { given: 'cap 50000.00, 50000.01', wallet: atHardCap, amountBrl: '50000.01', want: [`${amount} R-A-caas-buy-cap`] },
    { given: 'limits omitted, 50000', wallet: { id: '17' }, amountBrl: '50000', want: [] },
    { given: 'limits omitted, 50000.01', wallet: { id: '17' }, amountBrl: '50000.01', want: [`${amount} R-A-limit-buy-hard-cap`] },
    { given: 'buyMaxBrl omitted, 50000.00', wallet: limits({}), amountBrl: '50000.00', want: [] },
    { given: 'buyMaxBrl omitted, 50000.01', wallet: limits({}), amountBrl: '50000.01', want: [`${amount} R-A-limit-buy-hard-cap`] },
    {
      given: 'buyMaxBrl above the hard cap, 50000.01',
      wallet: limits({ buyMaxBrl: '90000.00' }),
      amountBrl: '50000.01',
      want: [`${amount} R-A-limit-buy-hard-cap`],
    },
    { given: 'limits null (failed closed), 10', wallet: { id: '17', limits: null }, amountBrl: '10', want: ['/limits R-A-caas-buy-cap'] },
    {
      given: 'buyMaxBrl null with its reason, 10',
      wallet: limits({ buyMaxBrl: null, buyReason: 'CEILING_UNREADABLE' }),
      amountBrl: '10',
      want: ['/limits/buyMaxBrl R-A-caas-buy-cap'],
    },
    { given: 'an amount that is not a decimal', wallet: capped, amountBrl: '1e4', want: [`${amount} decimal`] },
    { given: 'a zero amount', wallet: capped, amountBrl: '0.00', want: [`${amount} decimal`] },
  ])(
    'R-A-caas-buy-cap, R-A-limit-buy-hard-cap, R-A-caas-first-purchase-window, R-A-limit-first-purchase: $given → $want',
    ({ wallet, amountBrl, want }) => {
      expect(brief(checkBuyAmount(wallet, amountBrl))).toEqual(want);
    },
  );

  it('R-A-limit-buy-hard-cap: the hard cap is 50000 BRL (section 8)', () => {
    expect(buyHardCapBrl).toBe('50000');
  });
});

describe('checkSellAmount', () => {
  const rule = 'R-A-caas-sell-ceiling';
  const wallet = (sell: Partial<Schemas['CaasWalletLimits']> | null | undefined): Schemas['CaasWallet'] =>
    sell === undefined
      ? { id: '9' }
      : { id: '9', limits: sell === null ? null : ({ buyMaxBrl: '300.00', ...sell } as Schemas['CaasWalletLimits']) };
  it.each<{ given: string; wallet: Schemas['CaasWallet']; amountBrl: string; want: string[] }>([
    { given: 'ceiling 10000.00, 10000', wallet: wallet({ sellMaxBrl: '10000.00' }), amountBrl: '10000', want: [] },
    {
      given: 'ceiling 10000.00, 10000.01',
      wallet: wallet({ sellMaxBrl: '10000.00' }),
      amountBrl: '10000.01',
      want: [`/body/amountBrl ${rule}`],
    },
    { given: 'ceiling 0.5, 0.49', wallet: wallet({ sellMaxBrl: '0.5' }), amountBrl: '0.49', want: [] },
    { given: 'ceiling 999.99, 1000', wallet: wallet({ sellMaxBrl: '999.99' }), amountBrl: '1000', want: [`/body/amountBrl ${rule}`] },
    { given: 'limits omitted', wallet: wallet(undefined), amountBrl: '750000', want: [] },
    { given: 'limits null', wallet: wallet(null), amountBrl: '1', want: [`/limits ${rule}`] },
    {
      given: 'sellMaxBrl null, CEILING_DISABLED',
      wallet: wallet({ sellMaxBrl: null, sellReason: 'CEILING_DISABLED' }),
      amountBrl: '1',
      want: [`/limits/sellMaxBrl ${rule}`],
    },
    { given: 'sellMaxBrl unreadable', wallet: wallet({ sellMaxBrl: 'ten' }), amountBrl: '1', want: [`/limits/sellMaxBrl ${rule}`] },
  ])(`${rule}: $given → $want`, ({ wallet: read, amountBrl, want }) => {
    expect(brief(checkSellAmount(read, amountBrl))).toEqual(want);
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
    checkBuyAmount({ limits: { buyMaxBrl: '20000.00' } }, '20000.01'),
    checkBuyAmount({}, '50000.01'),
    checkBuyAmount({ limits: null }, '1'),
    checkBuyAmount({ limits: { buyMaxBrl: null, buyReason: 'POLICY_UNRESOLVED' } }, '1'),
    checkSellAmount({ limits: { sellMaxBrl: '10.00' } }, '10.01'),
    checkSellAmount({ limits: null }, '1'),
  ];
  const issues = refused.flat();

  it('R-A-onboarding-image-states, R-A-billet-changeable-value, R-A-billet-updated-value, R-A-caas-sell-verified, R-A-caas-buy-cap, R-A-limit-buy-hard-cap, R-A-caas-sell-ceiling: one line naming the field, the rule once and what to do', () => {
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
    expect(checkBuyAmount({ limits: { buyMaxBrl: null, buyReason: 'CEILING_UNREADABLE' } }, '1')[0]!.message).toContain(
      '"CEILING_UNREADABLE"',
    );
  });
});

/**
 * Rules of the accounts API that depend on a state the platform holds, checked against a value the
 * client read before the call: the onboarding before sending its images (section 3), the billet info
 * before paying it (section 4.4), the wallet before a CaaS quote or order (section 4.6 rules 3 and 7,
 * section 8). Each check is a pure function returning the issues that stop the call, none when it can
 * go; the `rule` of an issue is the rule's id in specs/traceability.yaml.
 *
 * Pointers are rooted at the value read (`/status` of the onboarding, `/limits/buyMaxBrl` of the
 * wallet), or at the request when the request is at fault (`/body/payment/amount`, `/body/amountBrl`),
 * as in a RequestValidationError. What was read may be stale: the platform still decides, these checks
 * spare the round trip of a call that cannot succeed.
 */
import type { components } from '../../generated/accounts/types.js';
import type { ValidationIssue } from '../runtime/errors.js';
import { checkDecimal } from '../formats/values.js';
import { issue } from '../rules/cross-field.js';

type Schemas = components['schemas'];
type Onboarding = Schemas['Onboarding'];
type BilletInfo = Schemas['BilletInfo'];
type BilletPayRequest = Schemas['BilletPayQueriedRequest'] | Schemas['BilletPayByDigitableLineRequest'];
type CaasWallet = Schemas['CaasWallet'];

const none: readonly ValidationIssue[] = Object.freeze([]);
const shown = (value: unknown): string => (value === undefined ? 'missing' : JSON.stringify(value));

/** Onboarding statuses in which images are accepted (section 3): 0 pending, 1 awaiting approval. */
export const imageUploadStatuses: readonly number[] = [0, 1];

/**
 * R-A-onboarding-image-states: images go to an onboarding only while its status is 0 (pending) or 1
 * (awaiting approval). An onboarding read without a status is refused too: nothing shows the upload
 * would be accepted.
 */
export function checkImageUpload(onboarding: Onboarding): readonly ValidationIssue[] {
  const { status } = onboarding;
  if (typeof status === 'number' && imageUploadStatuses.includes(status)) return none;
  const rule = 'R-A-onboarding-image-states';
  if (status === undefined)
    return [issue('/status', rule, 'status is missing, so the upload cannot be known to be allowed: read the onboarding again')];
  return [
    issue(
      '/status',
      rule,
      `status is ${shown(status)}, and images are accepted only while the onboarding is pending (0) or awaiting approval (1): send none to this one`,
      status,
    ),
  ];
}

/**
 * R-A-billet-changeable-value: a billet whose value the payer may change (`allowChangeValue` true) is
 * paid through an authorized administrative channel, not this API. A billet info without the member
 * passes (the platform still refuses such a billet, 422).
 */
export function checkBilletPayable(info: BilletInfo): readonly ValidationIssue[] {
  if (info.allowChangeValue !== true) return none;
  return [
    issue(
      '/allowChangeValue',
      'R-A-billet-changeable-value',
      'allowChangeValue is true: the payer may change this value, so pay it through an authorized administrative channel, not this API',
      true,
    ),
  ];
}

/** Two amounts in BRL read from JSON are the same value (sums like 0.1 + 0.2 included). */
const sameAmount = (a: number, b: number): boolean => Math.abs(a - b) <= 4 * Number.EPSILON * Math.max(Math.abs(a), Math.abs(b));

/**
 * R-A-billet-updated-value: a billet is always paid at its updated value, interest and fine included
 * (`totalUpdated` of the billet info). A payment request without `payment` passes (the platform charges
 * the updated value); one with an amount must carry exactly `totalUpdated`, and is refused when the info
 * read has none to compare with. Query the billet on the day of the payment: the value is today's.
 */
export function checkBilletPaymentAmount(info: BilletInfo, request: Pick<BilletPayRequest, 'payment'>): readonly ValidationIssue[] {
  const amount = request.payment?.amount;
  if (amount === undefined) return none;
  const rule = 'R-A-billet-updated-value';
  const total = info.totalUpdated;
  if (typeof total !== 'number')
    return [
      issue(
        '/body/payment/amount',
        rule,
        `payment.amount ${amount} cannot be confirmed, the billet info read has no totalUpdated: leave payment out and the platform charges the updated value`,
        amount,
      ),
    ];
  if (sameAmount(amount, total)) return none;
  return [
    issue(
      '/body/payment/amount',
      rule,
      `payment.amount ${amount} differs from totalUpdated ${total}, the billet's value today with interest and fine: send ${total} or leave payment out`,
      amount,
    ),
  ];
}

/**
 * R-A-caas-sell-verified: the origin wallet of a SELL (quote or order) is VERIFIED with
 * `eligibleForSellOrigin` true (section 4.6 rule 3). Each condition that fails is an issue of its own.
 */
export function checkSellOrigin(wallet: CaasWallet): readonly ValidationIssue[] {
  const rule = 'R-A-caas-sell-verified';
  const issues: ValidationIssue[] = [];
  if (wallet.verificationStatus !== 'VERIFIED')
    issues.push(
      issue(
        '/verificationStatus',
        rule,
        `verificationStatus is ${shown(wallet.verificationStatus)}, not VERIFIED: sell from a verified wallet`,
        wallet.verificationStatus,
      ),
    );
  if (wallet.eligibleForSellOrigin !== true)
    issues.push(
      issue(
        '/eligibleForSellOrigin',
        rule,
        `eligibleForSellOrigin is ${shown(wallet.eligibleForSellOrigin)}: choose as originWalletId a wallet where it is true`,
        wallet.eligibleForSellOrigin,
      ),
    );
  return issues;
}

/** Section 8 and section 4.6 rule 7: no BUY is auto-executed above 50000 BRL, whatever the wallet's figure. */
export const buyHardCapBrl = '50000';

/** The order of two decimal strings of the CaaS format (digits, optional point and decimals), exactly. */
function compareDecimals(a: string, b: string): number {
  const [aWhole = '', aFraction = ''] = a.split('.');
  const [bWhole = '', bFraction = ''] = b.split('.');
  const wholeA = aWhole.replace(/^0+(?=\d)/, '');
  const wholeB = bWhole.replace(/^0+(?=\d)/, '');
  if (wholeA.length !== wholeB.length) return wholeA.length < wholeB.length ? -1 : 1;
  const width = Math.max(aFraction.length, bFraction.length);
  const left = wholeA + aFraction.padEnd(width, '0');
  const right = wholeB + bFraction.padEnd(width, '0');
  return left === right ? 0 : left < right ? -1 : 1;
}

const isDecimalText = (value: unknown): value is string => typeof value === 'string' && /^\d+(?:\.\d+)?$/.test(value);

/** The issue of an amount that is not a CaaS decimal, or undefined. */
function amountIssue(amountBrl: string): ValidationIssue | undefined {
  const format = checkDecimal(amountBrl);
  return format.valid ? undefined : issue('/body/amountBrl', 'decimal', `amountBrl ${shown(amountBrl)}: ${format.reason}`, amountBrl);
}

/**
 * The ceiling of one side read from `wallet.limits`: a figure, nothing known (limits omitted, or the
 * maximum omitted: the broker lacks the field), or an issue when no figure was resolved (limits null, or
 * a null maximum with its reason: failed closed, never unlimited).
 */
function ceilingOf(
  wallet: CaasWallet,
  side: 'buy' | 'sell',
  rule: string,
): { readonly max: string } | { readonly issue: ValidationIssue } | undefined {
  const { limits } = wallet;
  if (limits === undefined) return undefined;
  const operation = side === 'buy' ? 'BUY' : 'SELL';
  if (limits === null)
    return {
      issue: issue(
        '/limits',
        rule,
        `limits is null: the broker failed closed and resolved no ${operation} limit, which is not unlimited; send no ${operation} until the wallet shows its limits`,
        null,
      ),
    };
  const field = side === 'buy' ? 'buyMaxBrl' : 'sellMaxBrl';
  const max = limits[field];
  if (max === undefined) return undefined;
  if (max === null) {
    const reason = side === 'buy' ? limits.buyReason : limits.sellReason;
    return {
      issue: issue(
        `/limits/${field}`,
        rule,
        `${field} is null (reason ${shown(reason)}): the broker resolved no ${operation} ceiling, and that does not mean unlimited; hold ${operation} orders until ${field} has a figure`,
        null,
      ),
    };
  }
  if (!isDecimalText(max))
    return {
      issue: issue(
        `/limits/${field}`,
        rule,
        `${field} ${shown(max)} is not a decimal amount, so no ceiling can be read: read the wallet again`,
        max,
      ),
    };
  return { max };
}

/**
 * BUY of `amountBrl` (the decimal string of the quote or order) to this wallet, against its limits:
 * - R-A-caas-first-purchase-window: while `buySource` is FIRST_PURCHASE, `buyMaxBrl` is the cautious
 *   first-purchase ceiling (300.00 by default);
 * - R-A-caas-buy-cap: otherwise `buyMaxBrl` is the auto-execution cap; CaasWalletLimits calls it the
 *   largest BUY, and the amount must not be above it;
 * - R-A-limit-buy-hard-cap: never above 50000 BRL, whatever the wallet says.
 * `limits: null` and a null `buyMaxBrl` mean the broker failed closed: every BUY is refused. `limits`
 * (or `buyMaxBrl`) omitted means the broker lacks the field: only the hard cap is checked. One issue at
 * most for the amount: the tighter limit it breaks.
 */
export function checkBuyAmount(wallet: CaasWallet, amountBrl: string): readonly ValidationIssue[] {
  const malformed = amountIssue(amountBrl);
  if (malformed) return [malformed];
  const ceiling = ceilingOf(wallet, 'buy', 'R-A-caas-buy-cap');
  if (ceiling && 'issue' in ceiling) return [ceiling.issue];
  if (ceiling && compareDecimals(amountBrl, ceiling.max) > 0 && compareDecimals(ceiling.max, buyHardCapBrl) <= 0) {
    const firstPurchase = wallet.limits?.buySource === 'FIRST_PURCHASE';
    return [
      firstPurchase
        ? issue(
            '/body/amountBrl',
            'R-A-caas-first-purchase-window',
            `amountBrl ${amountBrl} is above buyMaxBrl ${ceiling.max}, the first-purchase ceiling: buy at most ${ceiling.max} until the wallet's first BUY settles`,
            amountBrl,
          )
        : issue(
            '/body/amountBrl',
            'R-A-caas-buy-cap',
            `amountBrl ${amountBrl} exceeds buyMaxBrl ${ceiling.max}, the wallet's auto-execution cap: buy at most ${ceiling.max} in one order`,
            amountBrl,
          ),
    ];
  }
  if (compareDecimals(amountBrl, buyHardCapBrl) > 0)
    return [
      issue(
        '/body/amountBrl',
        'R-A-limit-buy-hard-cap',
        `amountBrl ${amountBrl} goes over the ${buyHardCapBrl} BRL hard cap of a BUY: send at most ${buyHardCapBrl} BRL in one BUY order`,
        amountBrl,
      ),
    ];
  return none;
}

/**
 * R-A-caas-sell-ceiling: SELL of `amountBrl` from this wallet against `sellMaxBrl`, the auto-approval
 * ceiling (section 4.6 rule 7). What the platform does with a larger SELL is not shown; this check
 * reads the figure as CaasWalletLimits describes it, the largest SELL, and refuses above it. null limits
 * or a null `sellMaxBrl` refuse every SELL (failed closed); omitted ones leave the amount unchecked. For
 * an order by `amountAsset`, pass its value in BRL at the quote's price.
 */
export function checkSellAmount(wallet: CaasWallet, amountBrl: string): readonly ValidationIssue[] {
  const malformed = amountIssue(amountBrl);
  if (malformed) return [malformed];
  const rule = 'R-A-caas-sell-ceiling';
  const ceiling = ceilingOf(wallet, 'sell', rule);
  if (ceiling && 'issue' in ceiling) return [ceiling.issue];
  if (ceiling && compareDecimals(amountBrl, ceiling.max) > 0)
    return [
      issue(
        '/body/amountBrl',
        rule,
        `amountBrl ${amountBrl} is above sellMaxBrl ${ceiling.max}, the auto-approval ceiling of SELL: sell at most ${ceiling.max} in one order`,
        amountBrl,
      ),
    ];
  return none;
}

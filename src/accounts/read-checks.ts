/**
 * Rules of the accounts API that depend on a state the platform holds, checked against a value the
 * client read before the call: the onboarding before sending its images (section 3), the billet info
 * before paying it (section 4.4), the wallet before a CaaS quote or order (section 4.6 rules 3 and 7,
 * section 8). Each check is a pure function returning the issues that stop the call, none when it can
 * go; the `rule` of an issue is the rule's id in specs/traceability.yaml. `orderHandling` stops nothing: it
 * foretells whether a CaaS order runs automatically or waits for the operator, and why.
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

/** Section 8 and section 4.6 rule 7: no BUY is executed automatically above 50000 BRL, whatever the wallet's figure. */
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
        `limits is null: the broker failed closed and resolved no ${operation} limit, which is not unlimited, so no ${operation} is handled automatically: it waits in PENDING_OPERATOR for the operator's decision`,
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
        `${field} is null (reason ${shown(reason)}): the broker resolved no ${operation} ceiling, which does not mean unlimited, so no ${operation} is handled automatically: it waits in PENDING_OPERATOR for the operator's decision`,
        null,
      ),
    };
  }
  if (!isDecimalText(max))
    return {
      issue: issue(
        `/limits/${field}`,
        rule,
        `${field} ${shown(max)} is not a decimal amount, so no ceiling can be read and the order is expected to wait for the operator; read the wallet again`,
        max,
      ),
    };
  return { max };
}

/**
 * R-A-caas-first-purchase-window: a BUY of `amountBrl` (the decimal string of the quote or order) to this
 * wallet while its first-purchase window is open (`buySource` FIRST_PURCHASE) must not go above `buyMaxBrl`,
 * the cautious first-purchase ceiling (300.00 by default; section 4.6 rule 7, section 8). That ceiling is the
 * only BUY limit that refuses: outside the window `buyMaxBrl` is the auto-execution cap, and a BUY above it
 * is placed and waits for the operator (see `orderHandling`). A window whose ceiling is null, or limits null
 * or omitted, refuse nothing here: no figure was resolved, so the platform decides.
 */
export function checkBuyAmount(wallet: CaasWallet, amountBrl: string): readonly ValidationIssue[] {
  const malformed = amountIssue(amountBrl);
  if (malformed) return [malformed];
  if (wallet.limits?.buySource !== 'FIRST_PURCHASE') return none;
  const ceiling = ceilingOf(wallet, 'buy', 'R-A-caas-first-purchase-window');
  if (!ceiling || 'issue' in ceiling || compareDecimals(amountBrl, ceiling.max) <= 0) return none;
  return [
    issue(
      '/body/amountBrl',
      'R-A-caas-first-purchase-window',
      `amountBrl ${amountBrl} is above buyMaxBrl ${ceiling.max}, the first-purchase ceiling: buy at most ${ceiling.max} until the wallet's first BUY settles`,
      amountBrl,
    ),
  ];
}

/**
 * How the platform is expected to handle an order, read from the wallet before placing it (section 4.6
 * rule 7, section 3): `automatic` within the auto-execution cap of a BUY (`buyMaxBrl` after the first-purchase
 * window, never above 50000 BRL) or the auto-approval ceiling of a SELL (`sellMaxBrl`); `operator` above it,
 * or when no figure was resolved (limits null or a null maximum: failed closed, not unlimited), the order then
 * accepted and left in PENDING_OPERATOR for the operator's decision, with the reason; `unknown` when the broker
 * lacks the figure (limits or the maximum omitted) and the amount is within the hard cap. Nothing here refuses
 * an order: `checkBuyAmount` does, for the first-purchase ceiling.
 */
export type OrderHandling =
  | { readonly handling: 'automatic' }
  | { readonly handling: 'operator'; readonly reason: ValidationIssue }
  | { readonly handling: 'unknown' };

export function orderHandling(wallet: CaasWallet, operation: 'BUY' | 'SELL', amountBrl: string): OrderHandling {
  const buy = operation === 'BUY';
  const rule = buy ? 'R-A-caas-buy-cap' : 'R-A-caas-sell-ceiling';
  const ceiling = ceilingOf(wallet, buy ? 'buy' : 'sell', rule);
  if (ceiling && 'issue' in ceiling) return { handling: 'operator', reason: ceiling.issue };
  const name = buy ? 'buyMaxBrl, the auto-execution cap' : 'sellMaxBrl, the auto-approval ceiling';
  if (ceiling && compareDecimals(amountBrl, ceiling.max) > 0)
    return {
      handling: 'operator',
      reason: issue(
        '/body/amountBrl',
        rule,
        `amountBrl ${amountBrl} is above ${name} ${ceiling.max}: the order is accepted and waits in PENDING_OPERATOR for the operator's decision`,
        amountBrl,
      ),
    };
  if (buy && compareDecimals(amountBrl, buyHardCapBrl) > 0)
    return {
      handling: 'operator',
      reason: issue(
        '/body/amountBrl',
        'R-A-limit-buy-hard-cap',
        `amountBrl ${amountBrl} is above the ${buyHardCapBrl} BRL hard cap of automatic execution: the order is accepted and waits in PENDING_OPERATOR for the operator's decision`,
        amountBrl,
      ),
    };
  return ceiling ? { handling: 'automatic' } : { handling: 'unknown' };
}

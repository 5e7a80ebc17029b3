/**
 * CaaS wallets (sections 2.9, 3 and 4.6): registered PENDING_VERIFICATION (201 even when the limits are
 * unresolved), listed with their limits. While no BUY to the wallet has settled, `buyMaxBrl` is the
 * cautious first-purchase ceiling (300.00, buySource FIRST_PURCHASE); after the first settled BUY it is
 * the auto-execution cap (50000.00). The control verb `verifyWallet` makes a wallet VERIFIED and eligible
 * as SELL origin. Registration sends crypto.wallet.registered to the CRYPTO webhook.
 *
 * CaaS POSTs take an optional `Idempotency-Key` (at most 128): the same key and payload answer the
 * original, another payload is 409.
 */
import type { ControlVerb, Handler, SandboxEnvironment, SandboxRequest } from '../contract.js';
import { accountOf, refuse } from './access.js';
import { remember, replayed } from './outgoing.js';
import { type Account, type AccountsState, instant, type Json, next, type Owned } from './state.js';
import { deliver } from './webhooks.js';

export const firstPurchaseLimitBrl = '300.00';
export const autoExecutionCapBrl = '50000.00';
export const sellCeilingBrl = '20000.00';

const addressPatterns: Readonly<Record<string, RegExp>> = {
  BTC: /^(bc1[02-9ac-hj-np-z]{25,62}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$/,
  ETH: /^0x[0-9a-fA-F]{40}$/,
  TRX: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
};

/** The limits of a wallet as they follow from what happened to it (section 4.6 rule 7). */
export function limitsOf(wallet: Json): Json {
  const window = wallet.isFirstPurchase === true && wallet.firstPurchaseLimitEnabled === true;
  return {
    buyMaxBrl: window ? firstPurchaseLimitBrl : autoExecutionCapBrl,
    sellMaxBrl: sellCeilingBrl,
    // FIRST_PURCHASE is the only buySource shown; the source of the cap after the window is not, so it is left out.
    ...(window ? { buySource: 'FIRST_PURCHASE' } : {}),
    sellSource: 'SELL_AUTO_APPROVE_CEILING',
    buyReason: null,
    sellReason: null,
    firstPurchase: { active: window, limitBrl: firstPurchaseLimitBrl, enabled: wallet.firstPurchaseLimitEnabled === true },
  };
}

export const walletView = (wallet: Json): Json => ({ ...wallet, limits: limitsOf(wallet) });

/** The request id of a CaaS call (Idempotency-Key, else x-request-id, else x-correlation-id) when the caller named one. */
export const caasKeyOf = (request: SandboxRequest): string | undefined => request.headers['idempotency-key'];

/**
 * The handler of a CaaS POST with its optional Idempotency-Key, answering `{ data }` with `status`: on a replay the
 * original record of `collection` as it is now (409 on another payload), else the record `create` made and stored.
 */
export function caasCreate(
  status: number,
  collection: 'wallets' | 'quotes' | 'orders',
  create: (state: AccountsState, env: SandboxEnvironment, account: Account, body: Json) => Json,
  view: (record: Json) => Json = (record) => record,
): Handler<AccountsState> {
  return (request, state, env) => {
    const account = accountOf(request, state, env);
    const key = caasKeyOf(request);
    const scoped = key === undefined ? undefined : `${request.operationId}:${key}`;
    const original = scoped === undefined ? undefined : replayed(state, 'caas', account.id, scoped, request.body);
    if (original !== undefined)
      return { status, body: { data: view(state[collection].find((entry) => entry.record.id === original)!.record) } };
    const record = create(state, env, account, request.body as Json);
    if (scoped !== undefined) remember(state, 'caas', account.id, scoped, request.body, String(record.id));
    return { status, body: { data: view(record) } };
  };
}

export function walletOf(state: AccountsState, accountId: number, id: unknown, member: string): Owned {
  const wallet = state.wallets.find((entry) => entry.accountId === accountId && entry.record.id === id);
  return wallet ?? refuse(422, 'unprocessable-entity', `${member}: no wallet ${String(id)} in this account`);
}

export const walletHandlers: Record<string, Handler<AccountsState>> = {
  'caasWallets.create': caasCreate(
    201,
    'wallets',
    (state, env, account, body) => {
      const network = String(body.network);
      const address = String(body.address);
      if (!addressPatterns[network]!.test(address)) refuse(422, 'invalid-address', `address: not a ${network} address`);
      if (
        state.wallets.some(
          (entry) => entry.accountId === account.id && entry.record.network === network && entry.record.address === address,
        )
      )
        refuse(409, 'conflict', `the ${network} wallet ${address} is already registered in this account`);
      const record: Json = {
        id: String(next(state, 'wallet', 1)),
        network,
        address,
        alias: typeof body.alias === 'string' ? body.alias : null,
        verificationStatus: 'PENDING_VERIFICATION',
        verificationMethod: null,
        verifiedAt: null,
        isActive: true,
        eligibleForSellOrigin: false,
        isFirstPurchase: true,
        firstPurchaseLimitBrl,
        firstPurchaseLimitEnabled: true,
        createdAt: instant(env),
      };
      state.wallets.push({ accountId: account.id, record });
      deliver(state, env, account.id, {
        type: 'crypto.wallet.registered',
        data: { walletId: record.id, accountId: account.id, networkCode: network, address, verificationStatus: 'PENDING_VERIFICATION' },
      });
      return record;
    },
    walletView,
  ),
  'caasWallets.list': (request, state, env) => {
    const account = accountOf(request, state, env);
    const network = request.query.network;
    const data = state.wallets
      .filter((entry) => entry.accountId === account.id && (network === undefined || entry.record.network === network))
      .map((entry) => walletView(entry.record));
    return { status: 200, body: { meta: { total: data.length }, data } };
  },
};

/** Control verb `verifyWallet { walletId }`: the wallet is VERIFIED and may be a SELL origin (section 3). */
export const verifyWallet: ControlVerb<AccountsState> = (body, state, env) => {
  const wallet = state.wallets.find((entry) => entry.record.id === String(body.walletId));
  if (!wallet) throw new Error(`walletId ${String(body.walletId)} names no wallet of the sandbox`);
  Object.assign(wallet.record, {
    verificationStatus: 'VERIFIED',
    verificationMethod: 'SANDBOX_CONTROL',
    verifiedAt: instant(env),
    eligibleForSellOrigin: true,
  });
  return walletView(wallet.record);
};

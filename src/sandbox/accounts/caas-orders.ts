/**
 * CaaS quotes and orders (sections 2.9, 3, 4.6 and 6.4). A quote prices an allowed asset/network pair
 * (seeded mid price, 50 bps spread, a network fee) for 30 seconds; an order locks it, with exactly one of
 * amountBrl and amountAsset, the wallet read as the client's read-checks read it: a BUY above the
 * first-purchase ceiling and a SELL from a wallet not VERIFIED and eligible are refused (422); an order
 * within the auto-execution cap (BUY, 50000 BRL at most) or the auto-approval ceiling (SELL) is approved at
 * once (DRAFT → APPROVED), one above it, or with no figure resolved, waits for the operator (DRAFT →
 * PENDING_OPERATOR) — section 4.6 rule 7, decisions.md (issue 27). The control plane
 * is the operator and the broker: `approveOrder`, `settleOrder` (APPROVED → EXECUTED → SETTLED, the BRL
 * side booked in the ledger; the first settled BUY of a wallet closes its first-purchase window) and
 * `rejectOrder`. Every transition sends crypto.order.updated; settlement also crypto.order.settled.
 */
import { checkBuyAmount, checkSellOrigin, orderHandling } from '../../accounts/read-checks.js';
import type { ValidationIssue } from '../../runtime/errors.js';
import type { ControlVerb, Handler, SandboxEnvironment } from '../contract.js';
import { accountOf, notFound, refuse } from './access.js';
import { caasCreate, firstPurchaseLimitBrl, walletOf, walletView } from './caas-wallets.js';
import { balanceOf, notifyEntry, record } from './ledger.js';
import { type AccountsState, instant, type Json, limitPage, otherIspb, type Owned, partyOf } from './state.js';
import { deliver } from './webhooks.js';

/** Seconds a quote can be ordered. */
export const quoteSeconds = 30;
const spreadBps = 50;
const networkFeeCents: Readonly<Record<string, bigint>> = { BTC: 1500n, ETH: 800n, TRX: 100n };
const unit = 100_000_000n;

const centsText = (cents: bigint): string => `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
const unitsText = (units: bigint): string => `${units / unit}.${String(units % unit).padStart(8, '0')}`;
function scaled(text: string, digits: number): bigint {
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole) * 10n ** BigInt(digits) + BigInt((fraction + '0'.repeat(digits)).slice(0, digits) || '0');
}

const unprocessable = (issues: readonly ValidationIssue[]): void => {
  if (issues.length > 0) refuse(422, 'unprocessable-entity', issues.map((issue) => `${issue.pointer}: ${issue.message}`).join('; '));
};

function eventData(order: Owned, previousStatus: string, settled: boolean): Json {
  const { record: r } = order;
  const present = (name: string): Json => (r[name] === null || r[name] === undefined ? {} : { [name]: r[name] });
  return {
    orderId: r.id,
    accountId: order.accountId,
    operation: r.operation,
    status: r.status,
    previousStatus,
    assetSymbol: r.asset,
    networkCode: r.network,
    amountBrl: r.amountBrl,
    amountAsset: r.amountAsset,
    ...(settled ? {} : present('destinationWalletId')),
    ...present('destinationAddress'),
    ...present('originWalletId'),
    ...present('originAddress'),
    ...present('txHash'),
    updatedAt: r.updatedAt,
  };
}

function move(state: AccountsState, env: SandboxEnvironment, order: Owned, status: string, changes: Json = {}): void {
  const previous = String(order.record.status);
  Object.assign(order.record, changes, { status, updatedAt: instant(env) });
  deliver(state, env, order.accountId, { type: 'crypto.order.updated', data: eventData(order, previous, false) });
}

export const orderHandlers: Record<string, Handler<AccountsState>> = {
  'caasQuotes.create': caasCreate(200, 'quotes', (state, env, account, body) => {
    const network = String(body.network);
    const walletMember = body.operation === 'BUY' ? 'destinationWalletId' : 'originWalletId';
    const walletId = body[walletMember];
    const wallet = walletId === undefined ? undefined : walletOf(state, account.id, walletId, walletMember).record;
    if (wallet && wallet.network !== network)
      refuse(422, 'unprocessable-entity', `${walletMember}: the wallet is on ${String(wallet.network)}, not ${network}`);
    if (wallet && body.operation === 'SELL') unprocessable(checkSellOrigin(walletView(wallet) as never));
    const mid = BigInt(state.prices[String(body.asset)]!);
    const spread = (mid * BigInt(spreadBps)) / 10_000n;
    const window = body.operation === 'BUY' && wallet?.isFirstPurchase === true;
    const quote: Json = {
      id: env.random.uuid(),
      network,
      asset: body.asset,
      operation: body.operation,
      bidPriceBrl: centsText(mid - spread),
      askPriceBrl: centsText(mid + spread),
      midPriceBrl: centsText(mid),
      networkFeeBrl: centsText(networkFeeCents[network]!),
      feeTier: 'STANDARD',
      spreadBps,
      validUntil: instant(env, quoteSeconds * 1000),
      isFirstPurchase: window,
      firstPurchaseLimitBrl,
      firstPurchaseLimitEnabled: true,
    };
    state.quotes.push({ accountId: account.id, record: quote, extra: { walletId: walletId ?? null } });
    return quote;
  }),
  'caasOrders.create': caasCreate(201, 'orders', (state, env, account, body) => {
    const quote = state.quotes.find((entry) => entry.accountId === account.id && entry.record.id === body.quoteId);
    if (!quote) return refuse(422, 'unprocessable-entity', `quoteId: no quote ${String(body.quoteId)} of this account`);
    const q = quote.record;
    if (Date.parse(String(q.validUntil)) < env.clock.nowMs())
      refuse(422, 'quote-expired', `quoteId: the quote expired at ${String(q.validUntil)}`);
    if (q.operation !== body.operation) refuse(422, 'unprocessable-entity', `operation: the quote is a ${String(q.operation)}`);
    const buy = body.operation === 'BUY';
    const member = buy ? 'destinationWalletId' : 'originWalletId';
    const wallet = walletOf(state, account.id, body[member], member).record;
    if (wallet.network !== q.network)
      refuse(422, 'unprocessable-entity', `${member}: the wallet is on ${String(wallet.network)}, the quote on ${String(q.network)}`);
    const price = scaled(String(buy ? q.askPriceBrl : q.bidPriceBrl), 2);
    const cents = typeof body.amountBrl === 'string' ? scaled(body.amountBrl, 2) : (scaled(String(body.amountAsset), 8) * price) / unit;
    const units = typeof body.amountAsset === 'string' ? scaled(body.amountAsset, 8) : (cents * unit) / price;
    if (cents <= 0n || units <= 0n) refuse(422, 'unprocessable-entity', 'the order amounts to nothing at the quote price');
    const amountBrl = centsText(cents);
    const view = walletView(wallet) as never;
    if (buy) {
      unprocessable(checkBuyAmount(view, amountBrl));
      if (BigInt(balanceOf(state, account.id).available) < cents + networkFeeCents[String(q.network)]!)
        refuse(422, 'insufficient-balance', `the account's available balance does not cover ${amountBrl} BRL plus the network fee`);
    } else unprocessable(checkSellOrigin(view));
    // Within the automatic limit the order goes on by itself; above it (or with none resolved) a person decides.
    const automatic = orderHandling(view, buy ? 'BUY' : 'SELL', amountBrl).handling === 'automatic';
    const at = instant(env);
    const order: Owned = {
      accountId: account.id,
      record: {
        id: env.random.uuid(),
        operation: body.operation,
        network: q.network,
        asset: q.asset,
        amountBrl,
        amountAsset: unitsText(units),
        lockedPriceBrl: centsText(price),
        networkFeeBrl: q.networkFeeBrl,
        feeTier: q.feeTier,
        status: 'DRAFT',
        quoteId: q.id,
        destinationWalletId: buy ? wallet.id : null,
        destinationAddress: buy ? wallet.address : null,
        originWalletId: buy ? null : wallet.id,
        originAddress: buy ? null : wallet.address,
        depositAddress: buy ? null : depositAddress(String(q.network), env),
        txHash: null,
        txExplorerUrl: null,
        rejectionReason: null,
        confirmedAt: null,
        settledAt: null,
        failedAt: null,
        createdAt: at,
        updatedAt: at,
        isFirstPurchase: buy && wallet.isFirstPurchase === true,
        firstPurchaseLimitBrl,
        firstPurchaseLimitEnabled: true,
      },
    };
    state.orders.push(order);
    move(state, env, order, automatic ? 'APPROVED' : 'PENDING_OPERATOR');
    return order.record;
  }),
  'caasOrders.list': (request, state, env) => {
    const account = accountOf(request, state, env);
    const { status, operation } = request.query;
    const matching = state.orders.filter(
      (entry) =>
        entry.accountId === account.id &&
        (status === undefined || entry.record.status === status) &&
        (operation === undefined || entry.record.operation === operation),
    );
    const { meta, items } = limitPage(request.query, matching);
    return { status: 200, body: { meta, data: items.map((entry) => entry.record) } };
  },
  'caasOrders.get': (request, state, env) => {
    const account = accountOf(request, state, env);
    const order = state.orders.find((entry) => entry.accountId === account.id && entry.record.id === request.path.id);
    return { status: 200, body: { data: (order ?? notFound(`no order ${request.path.id} in this account`)).record } };
  },
};

function depositAddress(network: string, env: SandboxEnvironment): string {
  if (network === 'ETH') return `0x${env.random.text(40, '0123456789abcdef')}`;
  if (network === 'TRX') return `T${env.random.text(33, '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz')}`;
  return `bc1q${env.random.text(38, '023456789acdefghjklmnpqrstuvwxyz')}`;
}

function orderFor(state: AccountsState, body: Json, from: readonly string[]): Owned {
  const order = state.orders.find((entry) => entry.record.id === body.orderId);
  if (!order) throw new Error(`orderId ${String(body.orderId)} names no order of the sandbox`);
  if (!from.includes(String(order.record.status)))
    throw new Error(`the order is ${String(order.record.status)}; this verb moves an order from ${from.join(' or ')}`);
  return order;
}

/** Control verb `approveOrder { orderId }`: the operator's decision, PENDING_OPERATOR → APPROVED (section 3). */
export const approveOrder: ControlVerb<AccountsState> = (body, state, env) => {
  const order = orderFor(state, body, ['PENDING_OPERATOR']);
  move(state, env, order, 'APPROVED');
  return order.record;
};

/** Control verb `rejectOrder { orderId, reason? }`: the operator refuses it (REJECTED with the reason). */
export const rejectOrder: ControlVerb<AccountsState> = (body, state, env) => {
  const order = orderFor(state, body, ['PENDING_OPERATOR', 'APPROVED']);
  move(state, env, order, 'REJECTED', { rejectionReason: typeof body.reason === 'string' ? body.reason : 'Refused by the operator' });
  return order.record;
};

/** Control verb `settleOrder { orderId }`: executed on chain and settled; the BRL side booked; first purchase closed. */
export const settleOrder: ControlVerb<AccountsState> = (body, state, env) => {
  const order = orderFor(state, body, ['PENDING_OPERATOR', 'APPROVED']);
  const r = order.record;
  if (r.status === 'PENDING_OPERATOR') move(state, env, order, 'APPROVED');
  const hash = env.random.text(64, '0123456789abcdef');
  move(state, env, order, 'EXECUTED', { txHash: r.network === 'BTC' ? hash : `0x${hash}`, confirmedAt: instant(env) });
  move(state, env, order, 'SETTLED', { settledAt: instant(env) });
  const account = state.accounts[String(order.accountId)]!;
  const buy = r.operation === 'BUY';
  const fee = scaled(String(r.networkFeeBrl), 2);
  const cents = scaled(String(r.amountBrl), 2);
  const broker = {
    ispb: otherIspb,
    issuer: '0001',
    number: '990001',
    accountType: 'CACC',
    document: '86288366000100',
    name: 'Corretora Cripto Sandbox Ltda',
  };
  const entry = record(state, env, {
    accountId: account.id,
    status: 'LIQUIDATED',
    transactionType: null,
    direction: buy ? 'DEBIT' : 'CREDIT',
    cents: Number(buy ? cents + fee : cents - fee),
    endToEndId: null,
    txId: null,
    idempotencyKey: null,
    localInstrument: null,
    debtor: buy ? partyOf(account) : broker,
    creditor: buy ? broker : partyOf(account),
    remittanceInformation: `${String(r.operation)} ${String(r.amountAsset)} ${String(r.asset)}`,
    source: `caas:${String(r.id)}`,
  });
  const total = buy ? centsText(cents + fee) : centsText(cents - fee);
  deliver(state, env, order.accountId, {
    type: 'crypto.order.settled',
    data: {
      ...eventData(order, 'EXECUTED', true),
      title: buy ? 'Compra concluída' : 'Venda concluída',
      body: `${buy ? 'Compra' : 'Venda'} de ${String(r.amountAsset)} ${String(r.asset)} liquidada: ${buy ? 'debitados' : 'creditados'} R$ ${total}.`,
    },
  });
  if (!buy) notifyEntry(state, env, entry);
  const wallet = state.wallets.find((candidate) => candidate.record.id === r.destinationWalletId);
  if (buy && wallet?.record.isFirstPurchase === true) {
    wallet.record.isFirstPurchase = false;
    deliver(state, env, order.accountId, {
      type: 'crypto.wallet.first_purchase',
      data: {
        walletId: wallet.record.id,
        accountId: order.accountId,
        orderId: r.id,
        networkCode: wallet.record.network,
        address: wallet.record.address,
        assetSymbol: r.asset,
        amountBrl: r.amountBrl,
        amountAsset: r.amountAsset,
      },
    });
  }
  return { order: r, balance: balanceOf(state, account.id).available / 100 };
};

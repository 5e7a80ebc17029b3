/**
 * CaaS and crypto risk of the accounts sandbox with the package's client, strict on both sides: wallets
 * (first-purchase window closing on the first settled BUY, verification for SELL), quotes and orders
 * through their statuses with the control plane as operator and broker, crypto.* events delivered to the
 * CRYPTO webhook, and the crypto-risk flow 202 → ingest → 201 with 409 for another wallet's running ingest.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AccountsClient, components } from '../../src/accounts/index.js';
import { createWebhookHandler } from '../../src/events/index.js';
import { historySize } from '../../src/sandbox/accounts/crypto-risk.js';
import { accountsSandbox } from '../../src/sandbox/accounts/index.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import {
  accountsConnector,
  closeAll,
  control,
  expectNoNewDrifts,
  problemOf,
  rawAccountsCall,
  type Receiver,
  startReceiver,
  startSeeded,
  strictEventIssues,
  waitFor,
} from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let client: AccountsClient;
let receiver: Receiver | undefined;
const clients: AccountsClient[] = [];
const events: { type: string; data: Record<string, any>; payload: Record<string, unknown> }[] = [];
const connect = accountsConnector(() => sandbox, clients);
/** A call the client refuses to send (a value outside an enum), straight to the sandbox with a token. */
const raw = (method: string, path: string, body?: unknown) => rawAccountsCall(sandbox, 'sandbox-account', method, path, {}, body);

beforeAll(async () => {
  sandbox = await startSeeded('accounts-caas', [accountsSandbox]);
  client = connect('sandbox-account');
  const handler = createWebhookHandler({
    onEvent: (event) => void events.push({ type: event.type, data: event.data as Record<string, any>, payload: event.payload }),
  });
  receiver = await startReceiver((request, response) => void handler(request, response));
  await client.webhooks.registerCrypto({ body: { uri: `${receiver.url}/crypto`, enabled: true } });
});
afterAll(async () => {
  await closeAll(sandbox, clients);
  await receiver?.close();
});
expectNoNewDrifts(() => sandbox);
afterEach(() => {
  for (const { payload } of events) expect(strictEventIssues(payload), String(payload.type)).toEqual([]);
});

const ethAddress = (digit: string) => `0x${digit.repeat(40)}`;

describe('CaaS wallets (sections 2.9 and 4.6)', () => {
  it('registers a wallet PENDING_VERIFICATION in its first-purchase window, notified; duplicates 409, bad addresses 422', async () => {
    const created = await client.caasWallets.create({ body: { network: 'ETH', address: ethAddress('a'), alias: 'Principal' } });
    expect(created.data).toMatchObject({
      network: 'ETH',
      verificationStatus: 'PENDING_VERIFICATION',
      eligibleForSellOrigin: false,
      isFirstPurchase: true,
      limits: { buyMaxBrl: '300.00', buySource: 'FIRST_PURCHASE', firstPurchase: { active: true } },
    });
    await waitFor(() => events.some((event) => event.type === 'crypto.wallet.registered' && event.data.walletId === created.data.id));
    expect((await problemOf(client.caasWallets.create({ body: { network: 'ETH', address: ethAddress('a') } }))).status).toBe(409);
    expect((await problemOf(client.caasWallets.create({ body: { network: 'TRX', address: ethAddress('b') } }))).errorType).toBe(
      'invalid-address',
    );
    const asset = await raw('POST', '/crypto-caas/wallets', { network: 'USDT', address: ethAddress('c') });
    expect(asset.status).toBe(422);
    expect(asset.body.type).toMatch(/\/errors\/unsupported-network$/);
    expect((await client.caasWallets.list({ query: { network: 'ETH' } })).meta?.total).toBe(1);
    expect((await client.caasWallets.list({ query: { network: 'BTC' } })).data).toEqual([]);
  });

  it('an Idempotency-Key replays the wallet; another payload with it is 409', async () => {
    const body = { network: 'BTC' as const, address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' };
    const first = await client.caasWallets.create({ body }, { idempotencyKey: 'wallet-1' });
    expect((await client.caasWallets.create({ body }, { idempotencyKey: 'wallet-1' })).data.id).toBe(first.data.id);
    expect((await problemOf(client.caasWallets.create({ body: { ...body, alias: 'x' } }, { idempotencyKey: 'wallet-1' }))).status).toBe(
      409,
    );
  });
});

describe('CaaS quotes and orders (sections 3, 4.6 and 6.4)', () => {
  let walletId: string;
  beforeAll(async () => {
    walletId = (await client.caasWallets.create({ body: { network: 'ETH', address: ethAddress('d') } })).data.id!;
  });

  it('a BUY above the first-purchase ceiling is 422; within it APPROVED at once, settled, the window closes', async () => {
    const quote = (
      await client.caasQuotes.create({ body: { operation: 'BUY', network: 'ETH', asset: 'ETH', destinationWalletId: walletId } })
    ).data;
    expect(quote).toMatchObject({ isFirstPurchase: true, spreadBps: 50, operation: 'BUY' });
    const above = await problemOf(
      client.caasOrders.create({ body: { operation: 'BUY', quoteId: quote.id!, amountBrl: '350.00', destinationWalletId: walletId } }),
    );
    expect(above.status).toBe(422);
    expect(above.detail).toMatch(/first-purchase ceiling/);
    const before = (await client.balance.get()).data![0]!.balanceAmount!.available!;
    const order = (
      await client.caasOrders.create({ body: { operation: 'BUY', quoteId: quote.id!, amountBrl: '250.00', destinationWalletId: walletId } })
    ).data;
    expect(order).toMatchObject({
      status: 'APPROVED',
      isFirstPurchase: true,
      amountBrl: '250.00',
      lockedPriceBrl: quote.askPriceBrl,
    });
    const settled = await control(sandbox, '/accounts/settleOrder', { orderId: order.id });
    expect(settled.order).toMatchObject({ status: 'SETTLED', txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect((await client.caasOrders.get({ path: { id: order.id! } })).data.status).toBe('SETTLED');
    const after = (await client.balance.get()).data![0]!.balanceAmount!.available!;
    expect(after).toBeCloseTo(before - 250 - Number(quote.networkFeeBrl), 2);
    const wallet = (await client.caasWallets.list({ query: { network: 'ETH' } })).data.find((entry) => entry.id === walletId)!;
    expect(wallet).toMatchObject({ isFirstPurchase: false, limits: { buyMaxBrl: '50000.00', firstPurchase: { active: false } } });
    await waitFor(() => events.some((event) => event.type === 'crypto.wallet.first_purchase' && event.data.orderId === order.id));
    const moves = events
      .filter((event) => event.type === 'crypto.order.updated' && event.data.orderId === order.id)
      .map((event) => `${event.data.previousStatus}>${event.data.status}`);
    expect(moves).toEqual(['DRAFT>APPROVED', 'APPROVED>EXECUTED', 'EXECUTED>SETTLED']);
    expect(events.some((event) => event.type === 'crypto.order.settled' && event.data.orderId === order.id)).toBe(true);
    // The window is closed: buyMaxBrl is now the auto-execution cap, and nothing above it is refused.
    const next = (
      await client.caasQuotes.create({ body: { operation: 'BUY', network: 'ETH', asset: 'USDC', destinationWalletId: walletId } })
    ).data;
    expect(next.isFirstPurchase).toBe(false);
    const placed = async (amountBrl: string) =>
      (await client.caasOrders.create({ body: { operation: 'BUY', quoteId: next.id!, amountBrl, destinationWalletId: walletId } })).data;
    expect(await placed('1000.00')).toMatchObject({ status: 'APPROVED' });
    const aboveCap = await placed('50000.01');
    expect(aboveCap.status).toBe('PENDING_OPERATOR');
    expect(await control(sandbox, '/accounts/approveOrder', { orderId: aboveCap.id })).toMatchObject({ status: 'APPROVED' });
  });

  it.each([
    { given: 'within the auto-approval ceiling', amountBrl: '20000.00', want: 'APPROVED' },
    { given: 'above the auto-approval ceiling (the operator decides, nothing refused)', amountBrl: '20000.01', want: 'PENDING_OPERATOR' },
  ])('a SELL $given is $want', async ({ amountBrl, want }) => {
    const origin = (await client.caasWallets.create({ body: { network: 'ETH', address: ethAddress(want === 'APPROVED' ? '7' : '8') } }))
      .data.id!;
    await control(sandbox, '/accounts/verifyWallet', { walletId: origin });
    const quote = (await client.caasQuotes.create({ body: { operation: 'SELL', network: 'ETH', asset: 'ETH', originWalletId: origin } }))
      .data;
    const order = await client.caasOrders.create({ body: { operation: 'SELL', quoteId: quote.id!, amountBrl, originWalletId: origin } });
    expect(order.data.status).toBe(want);
  });

  it('a BUY quote without destinationWalletId is refused (section 4.6 rule 1), naming the member', async () => {
    const refused = await raw('POST', '/crypto-caas/quotes', { operation: 'BUY', network: 'ETH', asset: 'ETH', amountBrl: '10.00' });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toMatch(/destinationWalletId/);
  });

  it('SELL needs a VERIFIED wallet; once verified it is ordered and the operator can reject it', async () => {
    const quoteBody = { operation: 'SELL' as const, network: 'ETH' as const, asset: 'USDT' as const, originWalletId: walletId };
    expect((await problemOf(client.caasQuotes.create({ body: quoteBody }))).detail).toMatch(/VERIFIED/);
    await control(sandbox, '/accounts/verifyWallet', { walletId });
    const quote = (await client.caasQuotes.create({ body: quoteBody })).data;
    const order = (
      await client.caasOrders.create({ body: { operation: 'SELL', quoteId: quote.id!, amountAsset: '100', originWalletId: walletId } })
    ).data;
    expect(order).toMatchObject({ status: 'APPROVED', amountAsset: '100.00000000', depositAddress: expect.stringMatching(/^0x/) });
    const rejected = await control(sandbox, '/accounts/rejectOrder', { orderId: order.id, reason: 'Origem em análise' });
    expect(rejected).toMatchObject({ status: 'REJECTED', rejectionReason: 'Origem em análise' });
    await expect(control(sandbox, '/accounts/approveOrder', { orderId: order.id })).rejects.toThrow(/REJECTED/);
    const listed = await client.caasOrders.list({ query: { status: 'REJECTED' } });
    expect(listed.data.map((entry) => entry.id)).toEqual([order.id]);
    expect((await problemOf(client.caasOrders.get({ path: { id: '00000000-0000-4000-8000-000000000000' } }))).status).toBe(404);
  });

  it('an expired quote cannot be ordered', async () => {
    const quote = (
      await client.caasQuotes.create({ body: { operation: 'BUY', network: 'ETH', asset: 'ETH', destinationWalletId: walletId } })
    ).data;
    await control(sandbox, '/clock', { advanceSeconds: 31 });
    const problem = await problemOf(
      client.caasOrders.create({ body: { operation: 'BUY', quoteId: quote.id!, amountBrl: '10.00', destinationWalletId: walletId } }),
    );
    expect(problem.errorType).toBe('quote-expired');
  });
});

describe('crypto risk (sections 2.10 and 4.7)', () => {
  const tron = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';
  const wallet = ethAddress('e');

  it('202 while the ingest runs, 409 for another wallet meanwhile, 201 with the snapshot once IDLE', async () => {
    const first = await raw('POST', '/crypto-risk/analyses', { network: 'ETHEREUM', address: wallet });
    expect(first.status).toBe(202);
    expect((await raw('POST', '/crypto-risk/analyses', { network: 'ETHEREUM', address: wallet })).status).toBe(202);
    const other = await problemOf(client.cryptoRiskAnalyses.create({ body: { network: 'TRON', address: tron } }));
    expect(other.status).toBe(409);
    expect((await client.cryptoRiskIngest.get({ query: { network: 'ETHEREUM', address: wallet } })).data).toEqual({
      status: 'RUNNING',
      persisted: null,
    });
    await control(sandbox, '/clock', { advanceSeconds: 21 });
    const progress = (await client.cryptoRiskIngest.get({ query: { network: 'ETHEREUM', address: wallet } })).data;
    expect(progress).toEqual({ status: 'IDLE', persisted: historySize(wallet) });
    const closed = await client.cryptoRiskAnalyses.create({ body: { network: 'ETHEREUM', address: wallet } }).withResponse();
    expect(closed.response.status).toBe(201);
    // A 201 carries the snapshot (the 202's body is any object).
    const snapshot = (closed.data as components['schemas']['CryptoRiskSnapshotResponse']).data;
    expect(snapshot).toMatchObject({ network: 'ETHEREUM', address: wallet, historyCovered: progress.persisted! > 0 });
    expect((await client.cryptoRiskAnalyses.get({ path: { id: snapshot.id! } })).data.events).toEqual(snapshot.events);
    expect((await client.cryptoRiskAnalyses.list({ query: { network: 'ETHEREUM', address: wallet } })).data).toEqual([
      expect.not.objectContaining({ events: expect.anything() }),
    ]);
    expect(
      (await problemOf(connect('baas_sandbox', { accountId: 2001 }).cryptoRiskAnalyses.get({ path: { id: snapshot.id! } }))).status,
    ).toBe(404);
  });

  it("the client's analyze flow follows the ingest on the sandbox clock; an empty ingest is risk 0, LOW, not covered", async () => {
    const empty = Array.from({ length: 200 }, (_, index) => `0x${String(index).padStart(40, '0')}`).find(
      (address) => historySize(address) === 0,
    )!;
    const analysis = await client.cryptoRisk.analyze({
      network: 'ETHEREUM',
      address: empty,
      pollIntervalMs: 5000,
      now: () => sandbox.env.clock.nowMs(),
      sleep: async (ms) => void (await control(sandbox, '/clock', { advanceSeconds: ms / 1000 })),
    });
    expect(analysis.data).toMatchObject({ riskScore: 0, confidence: 'LOW', historyCovered: false, events: [] });
  });

  it.each(['BITCOIN', 'TRX'])('%s is 422 unsupported-network, in the body and in the query', async (network) => {
    const create = await raw('POST', '/crypto-risk/analyses', { network, address: wallet });
    expect(create.status).toBe(422);
    expect(create.body.type).toMatch(/\/errors\/unsupported-network$/);
    expect((await raw('GET', `/crypto-risk/ingest?network=${network}&address=${wallet}`)).status).toBe(422);
  });
});

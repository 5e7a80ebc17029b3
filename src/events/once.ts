/**
 * Handling a delivery once, shared by every receiver (the accounts webhook handler, the Pix notification
 * handler): claim its key in the DeliveryStore, run the caller's work, then record the key as handled, or
 * release it when the work failed so that the sender's resend is handled. A store with `runClaimed` runs
 * the work and the "handled" mark in one transaction of its own instead.
 */
import { randomUUID } from 'node:crypto';
import {
  type ClaimedRunOutcome,
  type ClaimOutcome,
  type DeliveryStore,
  storeUnavailable,
  type TransactionalDeliveryStore,
} from './store.js';

/**
 * - `handled`: the work ran and resolved (whether or not `complete` could record it);
 * - `duplicate`: the key was handled before, nothing ran;
 * - `in-progress`: another delivery holds a live claim of the key, nothing ran;
 * - `failed`: the work threw or rejected, and the claim was released (or left to expire).
 */
export type OnceOutcome = 'handled' | 'duplicate' | 'in-progress' | 'failed';

export interface OnceSettings<Store extends DeliveryStore = DeliveryStore> {
  readonly store: Store;
  readonly leaseMs: number;
  /** Told of the work's failure, a store's failure to release or complete, and a work that outlived its lease. */
  readonly report: (error: unknown) => void;
  /** Names the work in the lease warning (`onEvent`, `onPix`), so the message points at the caller's own code. */
  readonly workName: string;
}

/**
 * Runs `work` if `key` is claimed now; a store answering anything but a ClaimOutcome throws a TypeError.
 * A store with `runClaimed` runs it in its transaction (whose handle this work does not take).
 */
export function handleOnce(key: string, work: () => unknown, settings: OnceSettings): Promise<OnceOutcome> {
  const { store } = settings;
  if (isTransactional(store)) return claimThen(key, settings, (token) => runInTransaction(store, key, token, () => work(), settings));
  return claimThen(key, settings, (token) => runThenComplete(key, token, work, settings));
}

/** Runs `work` if `key` is claimed now, inside the store's transaction, handing it the transaction's handle. */
export function handleOnceInTransaction<Transaction>(
  key: string,
  work: (transaction: Transaction) => unknown,
  settings: OnceSettings<TransactionalDeliveryStore<Transaction>>,
): Promise<OnceOutcome> {
  return claimThen(key, settings, (token) => runInTransaction(settings.store, key, token, work, settings));
}

function isTransactional<Transaction>(store: DeliveryStore<Transaction>): store is TransactionalDeliveryStore<Transaction> {
  return typeof store.runClaimed === 'function';
}

async function claimThen(
  key: string,
  settings: OnceSettings<DeliveryStore>,
  run: (token: string) => Promise<OnceOutcome>,
): Promise<OnceOutcome> {
  const token = randomUUID();
  const outcome: ClaimOutcome = await settings.store.claim(key, { token, leaseMs: settings.leaseMs });
  if (outcome === 'handled') return 'duplicate';
  if (outcome === 'in-progress') return 'in-progress';
  if (outcome !== 'claimed')
    throw new TypeError(`the delivery store answered ${String(outcome)} to claim; expected claimed, handled or in-progress`);
  return run(token);
}

/** The work failed: told, and the claim released so that the resend is handled. */
async function released(key: string, token: string, error: unknown, settings: OnceSettings<DeliveryStore>): Promise<'failed'> {
  settings.report(error);
  try {
    await settings.store.release(key, token);
  } catch (releaseError) {
    // Unreleased, the claim expires after its lease and a later resend is handled then.
    settings.report(releaseError);
  }
  return 'failed';
}

async function runThenComplete(key: string, token: string, work: () => unknown, settings: OnceSettings): Promise<OnceOutcome> {
  const { store, leaseMs, report } = settings;
  const startedAt = performance.now();
  try {
    await work();
  } catch (error) {
    return released(key, token, error, settings);
  }
  const tookMs = Math.round(performance.now() - startedAt);
  if (tookMs > leaseMs) {
    // The claim expired while the work ran: a resend in that time may have been handled a second time.
    report(new Error(`${settings.workName} took ${tookMs} ms for ${key}, longer than claimLeaseMs (${leaseMs} ms): raise claimLeaseMs`));
  }
  try {
    await store.complete(key, token);
  } catch (error) {
    // The work is done, so it counts as handled; only a lost answer would now bring it back after the lease.
    report(error);
  }
  return 'handled';
}

const afterRun: Record<ClaimedRunOutcome, OnceOutcome> = { completed: 'handled', handled: 'duplicate', 'in-progress': 'in-progress' };

/**
 * The store's transaction holds the key's record locked while the work runs, so a work outliving its lease
 * makes concurrent deliveries wait rather than run it twice: no lease warning here.
 */
async function runInTransaction<Transaction>(
  store: TransactionalDeliveryStore<Transaction>,
  key: string,
  token: string,
  work: (transaction: Transaction) => unknown,
  settings: OnceSettings<DeliveryStore>,
): Promise<OnceOutcome> {
  let outcome: ClaimedRunOutcome;
  try {
    outcome = await store.runClaimed(key, token, work);
  } catch (error) {
    if (storeUnavailable(error)) {
      // The store is out of reach: its release most likely too (then the lease ends the claim). Rethrown, to be
      // answered 503 and told once by the handler.
      await Promise.resolve()
        .then(() => store.release(key, token))
        .catch(() => undefined);
      throw error;
    }
    // Rolled back: neither the work's writes nor the mark are kept, and the resend is handled later.
    return released(key, token, error, settings);
  }
  const answer = afterRun[outcome];
  if (answer === undefined)
    throw new TypeError(`the delivery store answered ${String(outcome)} to runClaimed; expected completed, handled or in-progress`);
  return answer;
}

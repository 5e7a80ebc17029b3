/**
 * Handling a delivery once, shared by every receiver (the accounts webhook handler, the Pix notification
 * handler): claim its key in the DeliveryStore, run the caller's work, then record the key as handled, or
 * release it when the work failed so that the sender's resend is handled.
 */
import { randomUUID } from 'node:crypto';
import type { ClaimOutcome, DeliveryStore } from './store.js';

/**
 * - `handled`: the work ran and resolved (whether or not `complete` could record it);
 * - `duplicate`: the key was handled before, nothing ran;
 * - `in-progress`: another delivery holds a live claim of the key, nothing ran;
 * - `failed`: the work threw or rejected, and the claim was released (or left to expire).
 */
export type OnceOutcome = 'handled' | 'duplicate' | 'in-progress' | 'failed';

export interface OnceSettings {
  readonly store: DeliveryStore;
  readonly leaseMs: number;
  /** Told of the work's failure, a store's failure to release or complete, and a work that outlived its lease. */
  readonly report: (error: unknown) => void;
  /** Names the work in the lease warning (`onEvent`, `onPix`), so the message points at the caller's own code. */
  readonly workName: string;
}

/** Runs `work` if `key` is claimed now; a store answering anything but a ClaimOutcome throws a TypeError. */
export async function handleOnce(key: string, work: () => unknown, settings: OnceSettings): Promise<OnceOutcome> {
  const { store, leaseMs, report } = settings;
  const token = randomUUID();
  const outcome: ClaimOutcome = await store.claim(key, { token, leaseMs });
  if (outcome === 'handled') return 'duplicate';
  if (outcome === 'in-progress') return 'in-progress';
  if (outcome !== 'claimed')
    throw new TypeError(`the delivery store answered ${String(outcome)} to claim; expected claimed, handled or in-progress`);

  const startedAt = performance.now();
  try {
    await work();
  } catch (error) {
    report(error);
    try {
      await store.release(key, token);
    } catch (releaseError) {
      // Unreleased, the claim expires after its lease and a later resend is handled then.
      report(releaseError);
    }
    return 'failed';
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

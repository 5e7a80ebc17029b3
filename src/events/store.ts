/**
 * Delivery stores: where the webhook handler claims a dedupe key before handling a delivery and records
 * it as handled afterwards. The claim is what lets exactly one of several simultaneous identical
 * deliveries through — in one process or in many — so it must be atomic in the store itself.
 */

/**
 * What `claim` found:
 * - `claimed`: nobody handled the key and nobody holds a live claim; the caller now holds one and handles it;
 * - `handled`: the key was handled before (a duplicate, acknowledged without handling it again);
 * - `in-progress`: another handler holds a live claim; the caller handles nothing and asks for a resend.
 */
export type ClaimOutcome = 'claimed' | 'handled' | 'in-progress';

export interface DeliveryClaim {
  /** Identifies this claim, so that `release` drops only the claim it made (random, unique per delivery). */
  readonly token: string;
  /** How long the claim holds if neither `complete` nor `release` follows (its holder crashed). */
  readonly leaseMs: number;
}

/**
 * The store behind the handler's deduplication. Each method may answer synchronously or with a promise.
 *
 * Contract:
 * - `claim(key, claim)` is atomic: of any number of concurrent claims of one key, from this process or
 *   others, exactly one answers `claimed` as long as that claim is live. A claim is live until `complete`,
 *   `release`, or until `leaseMs` passed since it was made; an expired claim may be taken by the next caller.
 * - `complete(key, token)` records the key as handled, for good (at least the platform's resend window,
 *   about six and a half hours, section 6.1). It is called after `onEvent` resolved.
 * - `release(key, token)` drops the claim if `token` still holds it, so a resend can claim the key again.
 *   It is called after `onEvent` failed. A claim taken over by another caller is left alone.
 * - `runClaimed(key, token, work)` is optional. A store that has it runs the work of a claim in a transaction of
 *   its own, passing the work that transaction's handle: it locks the key's record, checks that `token` still
 *   holds the claim, runs `work(transaction)` and records the key as handled in the same transaction, so the
 *   work's own writes and the "handled" mark commit together or not at all (an exactly-once effect, not only
 *   at-most-once handling). A claim of the same key meanwhile waits for the commit and then finds it handled.
 *   When `work` throws, everything is rolled back and the error rethrown; the caller then releases the claim.
 *   `handleOnce` uses it instead of `complete` when it is there.
 *
 * contrato/postgres implements it over one table with a lease measured by the database's clock
 * (`postgresDeliveryStore`, and `createPostgresWebhookHandler` to hand the transaction to `onEvent`).
 */
export interface DeliveryStore<Transaction = unknown> {
  claim(key: string, claim: DeliveryClaim): ClaimOutcome | Promise<ClaimOutcome>;
  complete(key: string, token: string): void | Promise<void>;
  release(key: string, token: string): void | Promise<void>;
  runClaimed?(key: string, token: string, work: (transaction: Transaction) => unknown): Promise<ClaimedRunOutcome>;
}

/**
 * Whether a store's failure says its storage cannot be reached now (a database down or restarting): such a
 * store rejects with an error whose `unavailable` is true (contrato/postgres's PostgresStoreError), and the
 * handlers answer 503 instead of 500, so the sender resends once it is back. Neither acknowledges the delivery.
 */
export function storeUnavailable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { readonly unavailable?: unknown }).unavailable === true;
}

/**
 * What `runClaimed` did:
 * - `completed`: the work ran and the key was recorded as handled, committed together;
 * - `handled`: the claim had been lost (its lease expired) and another delivery handled the key; nothing ran;
 * - `in-progress`: the claim had been lost to another live claim; nothing ran.
 */
export type ClaimedRunOutcome = 'completed' | 'handled' | 'in-progress';

/** A store that runs the work of a claim in its transaction, handing `work` the transaction's handle. */
export interface TransactionalDeliveryStore<Transaction> extends DeliveryStore<Transaction> {
  runClaimed(key: string, token: string, work: (transaction: Transaction) => unknown): Promise<ClaimedRunOutcome>;
}

export interface MemoryDeliveryStoreOptions {
  /** How many handled keys it remembers; the oldest are forgotten first (default 100 000). */
  readonly capacity?: number;
  /** The clock of the leases, in milliseconds (default `Date.now`); tests inject their own. */
  readonly now?: () => number;
}

/**
 * A store in this process's memory: right for one process, forgotten on restart. With several processes
 * or a restart inside the resend window (about six and a half hours, section 6.1), use a shared,
 * persistent store instead (`postgresDeliveryStore` of contrato/postgres). Synchronous, hence atomic:
 * nothing runs between its check and its write.
 */
export function memoryDeliveryStore(options: MemoryDeliveryStoreOptions = {}): DeliveryStore {
  const capacity = options.capacity ?? 100_000;
  if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer, not ${capacity}`);
  const now = options.now ?? Date.now;
  const handled = new Set<string>();
  const claims = new Map<string, { readonly token: string; readonly expiresAt: number }>();

  // Claims normally end by complete or release; expired ones (an onEvent that never settled) are swept
  // when there are more of them than keys remembered, so the map stays bounded too.
  const sweepExpiredClaims = (at: number): void => {
    for (const [key, claim] of claims) if (claim.expiresAt <= at) claims.delete(key);
  };

  return {
    claim(key, { token, leaseMs }) {
      if (handled.has(key)) return 'handled';
      const at = now();
      const current = claims.get(key);
      if (current && current.expiresAt > at) return 'in-progress';
      claims.set(key, { token, expiresAt: at + leaseMs });
      if (claims.size > capacity) sweepExpiredClaims(at);
      return 'claimed';
    },
    complete(key) {
      // Whoever holds the claim now, the event was handled: the key is done.
      claims.delete(key);
      handled.add(key);
      if (handled.size > capacity) handled.delete(handled.values().next().value as string);
    },
    release(key, token) {
      if (claims.get(key)?.token === token) claims.delete(key);
    },
  };
}

/**
 * One active poller per cursor name, across any number of processes (issue 20). A poller holds the lease of
 * a name for `leaseMs`, renews it while it polls, and stores the cursor through it; a poller that dies stops
 * renewing, so another takes over once the lease runs out and resumes from the last stored cursor. Every
 * acquisition gets a higher fencing number, and a cursor is stored only under the current one: a poller that
 * lost its lease (paused, cut off) can no longer move the cursor of the one that took over.
 */
import type { MessagesFacade } from '../../generated/messages/operations.js';
import { defaultSleep } from '../runtime/rate-limiter.js';
import { type PolledBatch, type PollOptions, pollMessages } from './poll.js';

/** The lease of one cursor name as held by one poller: what renew, save and release present. */
export interface HeldLease {
  readonly name: string;
  readonly holder: string;
  /** Grows with every acquisition of the name; only the latest may store a cursor. */
  readonly fence: number;
}

/** What `acquire` gives: the lease and the cursor stored last under the name (none before the first save). */
export interface AcquiredLease extends HeldLease {
  readonly cursor: string | undefined;
}

/**
 * Where the leases and cursors live: `memoryCursorLeases()` for one process, `postgresCursorLeases(pool)`
 * (contrato/postgres) for several. Each operation is atomic on its own.
 */
export interface CursorLeases {
  /**
   * Takes the lease of `name` for `holder` for `leaseMs` when it is free, released, expired or already
   * this holder's, with a fence higher than any before; `null` while another holder's lease is live.
   */
  acquire(name: string, holder: string, leaseMs: number): Promise<AcquiredLease | null>;
  /** Extends a live lease by `leaseMs` from now; false when it expired or another acquisition replaced it. */
  renew(lease: HeldLease, leaseMs: number): Promise<boolean>;
  /** Stores the cursor under the lease; false (nothing stored) when the fence is no longer this holder's. */
  save(lease: HeldLease, cursor: string): Promise<boolean>;
  /** Gives the lease up at once (the cursor stays); false when it was no longer this holder's. */
  release(lease: HeldLease): Promise<boolean>;
}

/** Checked before a lease is written anywhere: a lease must last some positive, finite time. */
export function checkLeaseMs(leaseMs: number): number {
  if (!Number.isFinite(leaseMs) || leaseMs <= 0) throw new RangeError(`leaseMs must be a positive number of milliseconds, not ${leaseMs}`);
  return leaseMs;
}

interface LeaseRecord {
  cursor: string | undefined;
  holder: string | undefined;
  leaseUntil: number;
  fence: number;
}

/** The leases of one process, in memory: the default when a single process polls. `now` is the clock. */
export function memoryCursorLeases(options: { readonly now?: () => number } = {}): CursorLeases {
  const now = options.now ?? Date.now;
  const records = new Map<string, LeaseRecord>();
  const current = (lease: HeldLease): LeaseRecord | undefined => {
    const record = records.get(lease.name);
    return record && record.holder === lease.holder && record.fence === lease.fence ? record : undefined;
  };
  return {
    async acquire(name, holder, leaseMs) {
      checkLeaseMs(leaseMs);
      const record = records.get(name) ?? { cursor: undefined, holder: undefined, leaseUntil: 0, fence: 0 };
      if (record.holder !== undefined && record.holder !== holder && record.leaseUntil > now()) return null;
      record.holder = holder;
      record.leaseUntil = now() + leaseMs;
      record.fence += 1;
      records.set(name, record);
      return { name, holder, fence: record.fence, cursor: record.cursor };
    },
    async renew(lease, leaseMs) {
      checkLeaseMs(leaseMs);
      const record = current(lease);
      if (!record || record.leaseUntil <= now()) return false;
      record.leaseUntil = now() + leaseMs;
      return true;
    },
    async save(lease, cursor) {
      const record = current(lease);
      if (!record) return false;
      record.cursor = cursor;
      return true;
    },
    async release(lease) {
      const record = current(lease);
      if (!record) return false;
      record.holder = undefined;
      record.leaseUntil = 0;
      return true;
    },
  };
}

/** What happened to the lease of a leased poll, for logs and metrics. */
export type LeaseEvent =
  | { readonly type: 'acquired'; readonly lease: AcquiredLease }
  | { readonly type: 'lost'; readonly lease: HeldLease; readonly reason: 'renew-refused' | 'save-refused' | 'expired' | 'store-failed' }
  | { readonly type: 'released'; readonly lease: HeldLease };

export interface LeasedPollOptions extends Omit<PollOptions, 'cursor' | 'onCursor'> {
  /** Where the lease and the cursor of `name` live. */
  readonly leases: CursorLeases;
  /** The cursor's name, shared by every replica that polls the same messages. */
  readonly name: string;
  /** This poller's identity, unique per process (default: a random UUID). Two pollers must never share one. */
  readonly holder?: string;
  /** How long a lease lasts without renewal (default 30 s): the longest a dead poller's messages wait. */
  readonly leaseMs?: number;
  /** Told when the lease is acquired, lost or released. */
  readonly onLease?: (event: LeaseEvent) => void;
}

/** What a call of the lease store gives when it failed (the failure went to `onError`). */
const failed = Symbol('failed');

/** Calls the lease store; a failure is told to `onError`, numbered among consecutive failures, and never thrown. */
function storeCalls(options: LeasedPollOptions): <T>(work: () => Promise<T>) => Promise<T | typeof failed> {
  let failures = 0;
  return async (work) => {
    try {
      const answer = await work();
      failures = 0;
      return answer;
    } catch (error) {
      failures += 1;
      options.onError?.(error, failures);
      return failed;
    }
  };
}

/** `defaultSleep` that says whether it slept (false once `signal` aborted). */
async function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  try {
    await defaultSleep(ms, signal);
    return true;
  } catch {
    return false;
  }
}

/** What `within` gives when the signal aborted first. */
const gaveUp = Symbol('gave up');

/** The answer of `pending`, or `gaveUp` as soon as `signal` aborts: a store that does not answer holds nothing up. */
function within<T>(pending: Promise<T>, signal: AbortSignal | undefined): Promise<T | typeof gaveUp> {
  if (!signal) return pending;
  if (signal.aborted) return Promise.resolve(gaveUp);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve(gaveUp);
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Waits until it holds the lease of `name`, asking every quarter of `leaseMs`; `undefined` once `signal`
 * aborts. Gives the lease with the instant its request was sent: the store's lease lasts at least until then
 * plus `leaseMs`.
 */
async function waitForLease(
  holder: string,
  leaseMs: number,
  options: LeasedPollOptions,
  call: ReturnType<typeof storeCalls>,
): Promise<{ lease: AcquiredLease; sentAt: number } | undefined> {
  while (!options.signal?.aborted) {
    const sentAt = Date.now();
    const acquiring = call(() => options.leases.acquire(options.name, holder, leaseMs));
    const lease = await within(acquiring, options.signal);
    if (lease === gaveUp) {
      // Stopped while the store had not answered: a lease it gives afterwards is given back.
      void acquiring.then((late) => late && late !== failed && call(() => options.leases.release(late)));
      return undefined;
    }
    if (lease && lease !== failed) return { lease, sentAt };
    if (!(await pause(leaseMs / 4, options.signal))) return undefined;
  }
  return undefined;
}

type LossReason = Extract<LeaseEvent, { type: 'lost' }>['reason'];

/**
 * `pollMessages` for one of several replicas: waits for the lease of `name`, resumes from the cursor stored
 * under it, stores each consumed batch's cursor through the lease, renews it every third of `leaseMs`, and
 * when a renewal or a save finds it lost — or no renewal succeeded for 90 % of `leaseMs` since it was sent,
 * so the store's lease may be about to run out — aborts the poll in flight and goes back to waiting. It
 * never yields a batch polled under a lease it no longer holds; delivery stays at least once (deduplicate by
 * the message's own id). The lease is released when the loop ends (abort, break, a thrown error), so
 * another replica takes over at once. Failed calls of the store are told to `onError`; a store that does not
 * answer never holds the loop past `signal` or the lease's end.
 */
export async function* pollMessagesLeased(facade: MessagesFacade, options: LeasedPollOptions): AsyncGenerator<PolledBatch> {
  const { leases, signal } = options;
  const leaseMs = checkLeaseMs(options.leaseMs ?? 30_000);
  const holder = options.holder ?? globalThis.crypto.randomUUID();
  const call = storeCalls(options);
  while (!signal?.aborted) {
    const acquired = await waitForLease(holder, leaseMs, options, call);
    if (!acquired) return;
    const { lease } = acquired;
    options.onLease?.({ type: 'acquired', lease });
    const lost = new AbortController();
    const finished = new AbortController();
    let deadline: ReturnType<typeof setTimeout> | undefined;
    const lose = (reason: LossReason): void => {
      if (lost.signal.aborted) return;
      lost.abort();
      clearTimeout(deadline);
      options.onLease?.({ type: 'lost', lease, reason });
    };
    const holdUntil = (sentAt: number): void => {
      clearTimeout(deadline);
      deadline = setTimeout(() => lose('expired'), Math.max(0, sentAt + leaseMs * 0.9 - Date.now()));
    };
    holdUntil(acquired.sentAt);
    const renewalsStop = AbortSignal.any([lost.signal, finished.signal]);
    void (async () => {
      while (await pause(leaseMs / 3, renewalsStop)) {
        const sentAt = Date.now();
        const renewed = await call(() => leases.renew(lease, leaseMs));
        if (renewalsStop.aborted) return;
        if (renewed === true) holdUntil(sentAt);
        else if (renewed === false) lose('renew-refused');
        // A failed renewal leaves the deadline where it was: the lease is given up when it may have run out.
      }
    })();
    try {
      for await (const batch of pollMessages(facade, {
        ...options,
        cursor: lease.cursor ?? 'start',
        signal: signal ? AbortSignal.any([signal, lost.signal]) : lost.signal,
        onCursor: async (cursor) => {
          const saved = await within(
            call(() => leases.save(lease, cursor)),
            lost.signal,
          );
          if (saved === false) lose('save-refused');
          else if (saved === failed) lose('store-failed');
        },
      })) {
        if (lost.signal.aborted) break; // polled, but the lease is gone: the next holder polls this batch again
        yield batch;
      }
    } finally {
      finished.abort();
      clearTimeout(deadline);
      // Given up even after a loss: refused when another holds it, and it spares the next holder the wait when
      // not. Waiting longer than leaseMs for the store is pointless: by then the lease ran out anyway.
      const released = await within(
        call(() => leases.release(lease)),
        AbortSignal.timeout(leaseMs),
      );
      if (released === true) options.onLease?.({ type: 'released', lease });
    }
    if (!lost.signal.aborted) return; // the caller's signal, or the poll ended on its own
  }
}

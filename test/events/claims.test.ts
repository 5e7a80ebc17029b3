/**
 * Claims under concurrency, through real node:http servers on 127.0.0.1: with a deliberately slow
 * asynchronous store, each pair of simultaneous identical deliveries runs onEvent exactly once (with
 * the 0.1 has/add store it ran twice in 49 of 50 pairs); a crashed holder's claim is taken over once its
 * lease expired; a failed onEvent releases its claim; a live claim is answered 503 with Retry-After.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { memoryDeliveryStore, type DeliveryStore, type WebhookHandlerOptions } from '../../src/events/index.js';
import { invoicePaid, seededRandom, sleep, slowStore, startReceiver, testSeed, type Answer, type Receiver } from './receiver.js';

let receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  receivers = [];
});

async function start(options: WebhookHandlerOptions): Promise<Receiver> {
  const started = await startReceiver(options);
  receivers.push(started);
  return started;
}

function counter(): { readonly calls: Map<string, number>; readonly count: (key: string) => void } {
  const calls = new Map<string, number>();
  return { calls, count: (key) => void calls.set(key, (calls.get(key) ?? 0) + 1) };
}

/** Of a pair of identical deliveries: exactly one handled it; the other saw a duplicate or a live claim. */
function expectOneHandled(pair: readonly Answer[]): void {
  const handled = pair.filter((answer) => answer.status === 200 && answer.body.duplicate === undefined);
  const others = pair.filter((answer) => !handled.includes(answer)).map((answer) => (answer.status === 200 ? 'duplicate' : answer.status));
  expect(handled).toHaveLength(1);
  expect(others.every((other) => other === 'duplicate' || other === 503)).toBe(true);
}

describe('simultaneous identical deliveries with a slow asynchronous store', () => {
  const pairs = 50;

  it('run onEvent exactly once per key, 50 pairs through one server', async () => {
    const random = seededRandom(testSeed('one server'));
    const { calls, count } = counter();
    const receiver = await start({
      store: slowStore(memoryDeliveryStore(), random),
      onEvent: async (_event, { key }) => {
        count(key);
        await sleep(Math.floor(random() * 21));
      },
    });
    const answers = await Promise.all(
      Array.from({ length: pairs }, (_, index) =>
        Promise.all([receiver.deliver(invoicePaid(1000 + index)), receiver.deliver(invoicePaid(1000 + index))]),
      ),
    );
    expect(calls.size).toBe(pairs);
    expect([...calls].filter(([, times]) => times !== 1)).toEqual([]);
    answers.forEach(expectOneHandled);
    const seconds = answers.flat().filter((answer) => answer.status !== 200 || answer.body.duplicate === true);
    console.log(
      `one server: the other delivery of each pair was a duplicate ${seconds.filter((a) => a.status === 200).length} times, asked to come back (503) ${seconds.filter((a) => a.status === 503).length} times`,
    );
  });

  it('run onEvent exactly once per key when the two deliveries reach two handlers sharing the store', async () => {
    const random = seededRandom(testSeed('two servers'));
    const { calls, count } = counter();
    const shared = slowStore(memoryDeliveryStore(), random);
    const options: WebhookHandlerOptions = { store: shared, onEvent: (_event, { key }) => count(key) };
    const [first, second] = [await start(options), await start(options)];
    const answers = await Promise.all(
      Array.from({ length: pairs }, (_, index) =>
        Promise.all([first.deliver(invoicePaid(2000 + index)), second.deliver(invoicePaid(2000 + index))]),
      ),
    );
    expect([...calls].filter(([, times]) => times !== 1)).toEqual([]);
    expect(calls.size).toBe(pairs);
    answers.forEach(expectOneHandled);
  });
});

describe('claims and leases', () => {
  it('answers 503 with Retry-After while another delivery holds the claim, and a duplicate once it completed', async () => {
    let openGate: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    let entered: () => void = () => undefined;
    const inOnEvent = new Promise<void>((resolve) => (entered = resolve));
    let calls = 0;
    const receiver = await start({
      claimLeaseMs: 30_000,
      onEvent: async () => {
        calls += 1;
        entered();
        await gate;
      },
    });
    const first = receiver.deliver(invoicePaid(31));
    await inOnEvent;
    // Bounded: a handler that made the second delivery wait for the first would never answer it here.
    const second = await receiver.deliver(invoicePaid(31), { signal: AbortSignal.timeout(5000) });
    expect(second.status).toBe(503);
    expect(second.headers.get('retry-after')).toBe('30');
    openGate();
    expect((await first).body).toEqual({ received: true });
    expect((await receiver.deliver(invoicePaid(31))).body).toEqual({ received: true, duplicate: true });
    expect(calls).toBe(1);
  });

  it('takes over the claim of a crashed handler once its lease expired (injected clock)', async () => {
    let now = 1_700_000_000_000;
    const store = memoryDeliveryStore({ now: () => now });
    // Another process claimed the key, then died before completing or releasing it.
    expect(store.claim('invoice-21-invoice.paid', { token: 'crashed-process', leaseMs: 60_000 })).toBe('claimed');
    let calls = 0;
    const receiver = await start({ store, onEvent: () => void (calls += 1) });

    expect((await receiver.deliver(invoicePaid(21))).status).toBe(503);
    now += 59_999;
    expect((await receiver.deliver(invoicePaid(21))).status).toBe(503);
    expect(calls).toBe(0);
    now += 2;
    expect((await receiver.deliver(invoicePaid(21))).body).toEqual({ received: true });
    expect(calls).toBe(1);
    expect((await receiver.deliver(invoicePaid(21))).body).toEqual({ received: true, duplicate: true });
    // The crashed holder cannot release what was taken over and completed.
    store.release('invoice-21-invoice.paid', 'crashed-process');
    expect(store.claim('invoice-21-invoice.paid', { token: 'late', leaseMs: 60_000 })).toBe('handled');
  });

  it('releases the claim of a failed onEvent, so the resend is handled at once (slow store)', async () => {
    const random = seededRandom(testSeed('release'));
    const log: string[] = [];
    const inner = memoryDeliveryStore();
    const recording: DeliveryStore = {
      claim: (key, claim) => (log.push(`claim ${claim.token}`), inner.claim(key, claim)),
      complete: (key, token) => (log.push(`complete ${token}`), inner.complete(key, token)),
      release: (key, token) => (log.push(`release ${token}`), inner.release(key, token)),
    };
    let attempts = 0;
    const receiver = await start({
      store: slowStore(recording, random),
      onEvent: () => {
        attempts += 1;
        if (attempts === 1) throw new Error('database down');
      },
    });
    expect((await receiver.deliver(invoicePaid(41))).status).toBe(500);
    expect((await receiver.deliver(invoicePaid(41))).body).toEqual({ received: true });
    expect(attempts).toBe(2);
    const [firstClaim, release, secondClaim, complete] = log.map((entry) => entry.split(' '));
    expect([firstClaim?.[0], release?.[0], secondClaim?.[0], complete?.[0]]).toEqual(['claim', 'release', 'claim', 'complete']);
    expect(release?.[1]).toBe(firstClaim?.[1]);
    expect(complete?.[1]).toBe(secondClaim?.[1]);
  });

  it('answers 500 when the store cannot claim, and 200 when only completing failed (the work is done)', async () => {
    const errors: string[] = [];
    const inner = memoryDeliveryStore();
    let failClaim = true;
    let calls = 0;
    const receiver = await start({
      store: {
        claim: async (key, claim) => {
          if (failClaim) throw new Error('store unreachable');
          return inner.claim(key, claim);
        },
        complete: async () => {
          throw new Error('store lost the write');
        },
        release: (key, token) => inner.release(key, token),
      },
      onEvent: () => void (calls += 1),
      onError: (error) => errors.push(String(error)),
    });
    expect((await receiver.deliver(invoicePaid(51))).status).toBe(500);
    expect(calls).toBe(0);
    failClaim = false;
    expect((await receiver.deliver(invoicePaid(51))).status).toBe(200);
    expect(calls).toBe(1);
    expect(errors).toEqual(['Error: store unreachable', 'Error: store lost the write']);
  });

  it.each([
    { given: 'a store failure marked unavailable (its database down)', unavailable: true, want: 503 },
    { given: 'a store failure not so marked', unavailable: false, want: 500 },
  ])('answers $want to $given, and handles the resend once the store is back', async ({ unavailable, want }) => {
    const inner = memoryDeliveryStore();
    let down = true;
    let calls = 0;
    const receiver = await start({
      store: {
        claim: async (key, claim) => {
          if (down) throw Object.assign(new Error('the store is down'), { unavailable });
          return inner.claim(key, claim);
        },
        complete: (key, token) => inner.complete(key, token),
        release: (key, token) => inner.release(key, token),
      },
      onEvent: () => void (calls += 1),
      onError: () => {},
    });
    const refused = await receiver.deliver(invoicePaid(52));
    expect(refused.status).toBe(want);
    expect(refused.headers.get('retry-after')).toBeNull();
    down = false;
    expect((await receiver.deliver(invoicePaid(52))).body).toEqual({ received: true });
    expect(calls).toBe(1);
  });

  it('tells onError when onEvent outlasted its lease (a resend could have been handled twice), and still acknowledges', async () => {
    const errors: string[] = [];
    const receiver = await start({ claimLeaseMs: 20, onEvent: () => sleep(60), onError: (error) => errors.push(String(error)) });
    expect((await receiver.deliver(invoicePaid(71))).body).toEqual({ received: true });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/onEvent took \d+ ms for invoice-71-invoice\.paid, longer than claimLeaseMs \(20 ms\)/);
  });
});

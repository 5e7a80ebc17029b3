/**
 * Leased polling in one process: the memory store's given/want cases (shared with the PostgreSQL store),
 * and pollMessagesLeased against a real HTTPS exchange with client certificates that records each poll's
 * start and end: it waits for the lease, resumes from the stored cursor, stores cursors through the lease,
 * aborts the poll in flight when a renewal or a save finds the lease lost or no renewal answers in time, and
 * two pollers of one name never poll at once. The multi-process property is in test/postgres/cursors-pollers.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createMessagesClient,
  type CursorLeases,
  type LeaseEvent,
  type LeasedPollOptions,
  type MessagesClient,
  memoryCursorLeases,
  pollMessagesLeased,
} from '../../src/messages/index.js';
import { createTestPki, type TestPki } from '../helpers/certificates.js';
import { leaseCases, runLeaseCase } from '../postgres/fixtures/cursors-cases.js';
import { type CursorsExchange, startCursorsExchange } from '../postgres/fixtures/cursors-exchange.js';

let pki: TestPki;
let exchange: CursorsExchange;
const clients: MessagesClient[] = [];
beforeAll(() => {
  pki = createTestPki();
});
afterAll(() => pki.dispose());
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await exchange?.close();
});

function clientOf(poller: string): MessagesClient {
  const client = createMessagesClient({
    baseUrl: exchange.url,
    login: { clientId: poller, clientSecret: 'poller-secret' },
    tls: { pfx: pki.clientPfx, passphrase: pki.pfxPassphrase, ca: pki.ca },
  });
  clients.push(client);
  return client;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `condition` holds, checking every 10 ms, for at most `timeoutMs`. */
async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

/** Runs a leased poller in the background, recording the sequence numbers it handled and its lease events. */
function runPoller(poller: string, leases: CursorLeases, leaseMs: number, extra: Partial<LeasedPollOptions> = {}) {
  const stop = new AbortController();
  const handled: number[] = [];
  const events: LeaseEvent[] = [];
  const done = (async () => {
    for await (const batch of pollMessagesLeased(clientOf(poller), {
      name: 'spi-inbox',
      holder: poller,
      signal: stop.signal,
      waitMs: 10_000,
      ...extra,
      leases,
      leaseMs,
      onLease: (event) => {
        events.push(event);
        extra.onLease?.(event);
      },
    })) {
      for (const message of batch.messages) handled.push(Number(message.seq));
    }
  })();
  return { stop, handled, events, done, kinds: () => events.map((event) => (event.type === 'lost' ? `lost ${event.reason}` : event.type)) };
}

const pollsOf = (poller: string) => exchange.polls.filter((poll) => poll.poller === poller);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

describe('memoryCursorLeases', () => {
  it.each(leaseCases.map((leaseCase, index) => ({ ...leaseCase, index })))('$rule', async ({ steps, index }) => {
    await runLeaseCase(memoryCursorLeases(), `case-${index}`, steps);
  });
});

describe('pollMessagesLeased', () => {
  it('resumes from the stored cursor, stores each consumed batch through the lease and releases it at the end', async () => {
    exchange = await startCursorsExchange({ pki, published: 10, batchSize: 4 });
    const leases = memoryCursorLeases();
    const earlier = await leases.acquire('spi-inbox', 'earlier', 1_000);
    await leases.save(earlier!, 'c4');
    await leases.release(earlier!);
    const poller = runPoller('p1', leases, 1_000);
    await until(() => poller.handled.length === 6, 5_000, 'messages 5..10');
    await until(() => pollsOf('p1').length === 3, 5_000, 'the poll after c10');
    poller.stop.abort();
    await poller.done;
    expect(poller.handled).toEqual(range(5, 10));
    expect(pollsOf('p1').map((poll) => poll.cursor)).toEqual(['c4', 'c8', 'c10']);
    expect(poller.kinds()).toEqual(['acquired', 'released']);
    expect(await leases.acquire('spi-inbox', 'later', 1_000)).toMatchObject({ fence: 3, cursor: 'c10' });
  });

  it('polls nothing while another holds the lease, and takes over as soon as it is released', async () => {
    exchange = await startCursorsExchange({ pki, published: 3 });
    const leases = memoryCursorLeases();
    const other = await leases.acquire('spi-inbox', 'other', 60_000);
    await leases.save(other!, 'c1');
    const poller = runPoller('p1', leases, 400);
    await sleep(600);
    expect(exchange.polls).toEqual([]);
    const released = performance.now();
    await leases.release(other!);
    await until(() => poller.handled.length === 2, 5_000, 'messages 2..3');
    // It asks every quarter of leaseMs (100 ms); the rest is a login and a poll on loopback.
    expect(pollsOf('p1')[0]!.start - released).toBeLessThan(100 + 400);
    expect(pollsOf('p1')[0]!.cursor).toBe('c1');
    poller.stop.abort();
    await poller.done;
  });

  it('takes over the lease of a holder that stopped renewing once it ran out, from its last cursor', async () => {
    exchange = await startCursorsExchange({ pki, published: 5 });
    const leases = memoryCursorLeases();
    const dead = await leases.acquire('spi-inbox', 'dead', 300);
    const acquiredAt = performance.now();
    await leases.save(dead!, 'c2');
    const poller = runPoller('p1', leases, 300);
    await until(() => poller.handled.length === 3, 5_000, 'messages 3..5');
    const first = pollsOf('p1')[0]!;
    expect(first.cursor).toBe('c2');
    expect(first.start - acquiredAt).toBeGreaterThanOrEqual(295); // the store's clock counts whole milliseconds
    expect(first.start - acquiredAt).toBeLessThan(300 + 75 + 400);
    expect(poller.events[0]).toMatchObject({ type: 'acquired', lease: { fence: 2, cursor: 'c2' } });
    poller.stop.abort();
    await poller.done;
  });

  it('aborts the poll in flight when a renewal finds the lease taken, yields nothing more and waits for it again', async () => {
    exchange = await startCursorsExchange({ pki, published: 0, holdMs: 10_000 });
    let skew = 0;
    const leases = memoryCursorLeases({ now: () => Date.now() + skew });
    const poller = runPoller('p1', leases, 600);
    await until(() => pollsOf('p1').length === 1, 5_000, 'a poll held open');
    // The store's clock jumps past the lease, as if the poller had been paused that long, and another takes it.
    skew = 3_600_000;
    const taken = performance.now();
    const thief = await leases.acquire('spi-inbox', 'thief', 60_000);
    await until(() => pollsOf('p1')[0]!.end !== undefined, 2_000, 'the held poll to be aborted');
    expect(pollsOf('p1')[0]!.end! - taken).toBeLessThan(200 + 100); // the next renewal, a third of leaseMs away
    exchange.publish(3);
    await sleep(300);
    expect(poller.handled).toEqual([]);
    expect(pollsOf('p1')).toHaveLength(1);
    await leases.save(thief!, 'c1');
    await leases.release(thief!);
    await until(() => poller.handled.length === 2, 5_000, 'messages 2..3 after the lease came back');
    expect(pollsOf('p1')[1]!.cursor).toBe('c1');
    expect(poller.kinds()).toEqual(['acquired', 'lost renew-refused', 'acquired']);
    expect(poller.events[2]).toMatchObject({ lease: { fence: 3 } });
    poller.stop.abort();
    await poller.done;
  });

  it('stops when the save after a consumed batch is refused: the cursor stays where the new holder has it', async () => {
    exchange = await startCursorsExchange({ pki, published: 8, batchSize: 4 });
    let skew = 0;
    const leases = memoryCursorLeases({ now: () => Date.now() + skew });
    const events: LeaseEvent[] = [];
    const handled: number[] = [];
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 3_000).unref(); // a bound; the loss below ends it long before
    for await (const batch of pollMessagesLeased(clientOf('p1'), {
      leases,
      name: 'spi-inbox',
      holder: 'p1',
      leaseMs: 1_000,
      onLease: (event) => {
        events.push(event);
        if (event.type === 'lost') stop.abort(); // otherwise it would wait for the lease again
      },
      signal: stop.signal,
    })) {
      handled.push(...batch.messages.map((message) => Number(message.seq)));
      skew = 3_600_000; // while the batch is handled, the lease runs out and another holder takes it
      await leases.acquire('spi-inbox', 'thief', 60_000);
    }
    expect(handled).toEqual(range(1, 4));
    expect(events.map((event) => event.type === 'lost' && event.reason)).toEqual([false, 'save-refused']);
    expect(pollsOf('p1')).toHaveLength(1);
    const thief = await leases.acquire('spi-inbox', 'thief', 60_000);
    expect(thief?.cursor).toBeUndefined();
  });

  it('gives the lease up before it runs out when the store stops answering, and still stops on abort', async () => {
    exchange = await startCursorsExchange({ pki, published: 0, holdMs: 10_000 });
    const store = memoryCursorLeases();
    let silent = false;
    const never = new Promise<never>(() => {});
    // The same store, until every call goes unanswered: a database that went silent.
    const leases: CursorLeases = {
      acquire: (name, holder, ms) => (silent ? never : store.acquire(name, holder, ms)),
      renew: (lease, ms) => (silent ? never : store.renew(lease, ms)),
      save: (lease, cursor) => (silent ? never : store.save(lease, cursor)),
      release: (lease) => (silent ? never : store.release(lease)),
    };
    let probe: Promise<unknown> | undefined;
    const poller = runPoller('p1', leases, 600, {
      // Asked of the store the moment p1 gives up: is p1's lease still live there?
      onLease: (event) => void (event.type === 'lost' && (probe = store.acquire('spi-inbox', 'probe', 600))),
    });
    await until(() => pollsOf('p1').length === 1, 5_000, 'a poll held open');
    silent = true;
    const silentAt = performance.now();
    await until(() => probe !== undefined, 2_000, 'the lease to be given up');
    expect(poller.kinds()).toEqual(['acquired', 'lost expired']);
    expect(await probe).toBeNull(); // p1 stopped while the store still held its lease: nobody else could poll yet
    await until(() => pollsOf('p1')[0]!.end !== undefined, 1_000, 'the held poll to be aborted');
    expect(pollsOf('p1')[0]!.end! - silentAt).toBeLessThan(600);
    const stopping = performance.now();
    poller.stop.abort();
    await poller.done;
    expect(performance.now() - stopping).toBeLessThan(600 + 200); // the release waits a leaseMs at most
    expect(pollsOf('p1')).toHaveLength(1);
  });

  it('tells onError of a failing store and asks again', async () => {
    exchange = await startCursorsExchange({ pki, published: 2 });
    const store = memoryCursorLeases();
    let failures = 2;
    const leases: CursorLeases = {
      ...store,
      acquire: async (name, holder, ms) => {
        if (failures-- > 0) throw new Error('connection refused');
        return store.acquire(name, holder, ms);
      },
    };
    const attempts: number[] = [];
    const poller = runPoller('p1', leases, 200, { onError: (_error, attempt) => void attempts.push(attempt) });
    await until(() => poller.handled.length === 2, 5_000, 'messages 1..2');
    expect(attempts).toEqual([1, 2]);
    poller.stop.abort();
    await poller.done;
  });

  it('lets one of two pollers of a name poll at a time; the other goes on from the cursor when the first stops', async () => {
    exchange = await startCursorsExchange({ pki, published: 6, batchSize: 3 });
    const leases = memoryCursorLeases();
    const first = runPoller('p1', leases, 400);
    const second = runPoller('p2', leases, 400);
    await until(() => first.handled.length + second.handled.length >= 6, 5_000, 'two batches');
    const active = first.handled.length > 0 ? first : second;
    const standby = active === first ? second : first;
    expect(standby.handled).toEqual([]);
    active.stop.abort();
    await active.done;
    exchange.publish(6);
    await until(() => new Set([...first.handled, ...second.handled]).size === 12, 5_000, 'every message');
    standby.stop.abort();
    await standby.done;
    expect(standby.events[0]).toMatchObject({ type: 'acquired', lease: { fence: 2 } });
    await until(() => exchange.polls.every((poll) => poll.end !== undefined), 2_000, 'every poll to end');
    const [a, b] = [pollsOf('p1'), pollsOf('p2')];
    expect(a.length > 0 && b.length > 0).toBe(true);
    for (const x of a) for (const y of b) expect(Math.min(x.end!, y.end!) <= Math.max(x.start, y.start)).toBe(true);
  });

  it('refuses a lease that is not a positive number of milliseconds', async () => {
    exchange = await startCursorsExchange({ pki });
    const polling = pollMessagesLeased(clientOf('p1'), { leases: memoryCursorLeases(), name: 'n', leaseMs: 0 });
    await expect(polling.next()).rejects.toThrow(RangeError);
  });
});

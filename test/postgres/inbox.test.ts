/**
 * The PostgreSQL inbox against a real PostgreSQL (test/helpers/postgres.ts): the DeliveryStore contract as
 * given/want steps, run on postgresDeliveryStore and, for comparison, on memoryDeliveryStore (the same
 * answers); runClaimed, which runs the work in the transaction that marks the key handled; and pruning.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type ClaimOutcome, type DeliveryStore, memoryDeliveryStore } from '../../src/events/store.js';
import { migrate } from '../../src/postgres/index.js';
import { postgresDeliveryStore, pruneHandledDeliveries } from '../../src/postgres/inbox.js';
import { useTestDatabase } from '../helpers/postgres.js';

const database = useTestDatabase();

async function freshInbox(): Promise<string> {
  const schema = database().freshSchema();
  await migrate(database().pool, { schema });
  return schema;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One step on one key: `a`, `b`, `c` name the tokens of three deliveries of it. */
type Step =
  | { readonly claim: string; readonly leaseMs?: number; readonly want: ClaimOutcome }
  | { readonly complete: string }
  | { readonly release: string }
  | { readonly waitMs: number };

const short = 30;
const pastShort = 120;

const cases: { readonly name: string; readonly steps: readonly Step[] }[] = [
  { name: 'a key never seen is claimed', steps: [{ claim: 'a', want: 'claimed' }] },
  {
    name: 'a live claim answers in-progress to another delivery',
    steps: [
      { claim: 'a', want: 'claimed' },
      { claim: 'b', want: 'in-progress' },
    ],
  },
  {
    name: 'a completed key answers handled',
    steps: [{ claim: 'a', want: 'claimed' }, { complete: 'a' }, { claim: 'b', want: 'handled' }],
  },
  {
    name: 'a completed key stays handled after its lease would have ended',
    steps: [{ claim: 'a', leaseMs: short, want: 'claimed' }, { complete: 'a' }, { waitMs: pastShort }, { claim: 'b', want: 'handled' }],
  },
  {
    name: 'a claim whose lease expired is taken over, and the new claim is live',
    steps: [
      { claim: 'a', leaseMs: short, want: 'claimed' },
      { waitMs: pastShort },
      { claim: 'b', want: 'claimed' },
      { claim: 'c', want: 'in-progress' },
    ],
  },
  {
    name: 'a claim within its lease is not taken over after a wait',
    steps: [{ claim: 'a', leaseMs: 60_000, want: 'claimed' }, { waitMs: pastShort }, { claim: 'b', want: 'in-progress' }],
  },
  {
    name: 'release by the holder lets the resend claim the key',
    steps: [{ claim: 'a', want: 'claimed' }, { release: 'a' }, { claim: 'b', want: 'claimed' }],
  },
  {
    name: 'release by a stale token leaves the claim that took over',
    steps: [
      { claim: 'a', leaseMs: short, want: 'claimed' },
      { waitMs: pastShort },
      { claim: 'b', want: 'claimed' },
      { release: 'a' },
      { claim: 'c', want: 'in-progress' },
    ],
  },
  {
    name: 'release after complete leaves the key handled',
    steps: [{ claim: 'a', want: 'claimed' }, { complete: 'a' }, { release: 'a' }, { claim: 'b', want: 'handled' }],
  },
  {
    name: 'complete by a stale token still records the key handled (the work was done)',
    steps: [
      { claim: 'a', leaseMs: short, want: 'claimed' },
      { waitMs: pastShort },
      { claim: 'b', want: 'claimed' },
      { complete: 'a' },
      { claim: 'c', want: 'handled' },
    ],
  },
];

async function play(store: DeliveryStore, steps: readonly Step[]): Promise<ClaimOutcome[]> {
  const key = `invoice-${randomUUID()}-invoice.paid`;
  const tokens = new Map<string, string>();
  const tokenOf = (name: string): string => tokens.get(name) ?? tokens.set(name, randomUUID()).get(name)!;
  const outcomes: ClaimOutcome[] = [];
  for (const step of steps) {
    if ('claim' in step) outcomes.push(await store.claim(key, { token: tokenOf(step.claim), leaseMs: step.leaseMs ?? 60_000 }));
    else if ('complete' in step) await store.complete(key, tokenOf(step.complete));
    else if ('release' in step) await store.release(key, tokenOf(step.release));
    else await sleep(step.waitMs);
  }
  return outcomes;
}

describe.each([
  { storeName: 'postgresDeliveryStore', make: async () => postgresDeliveryStore(database().pool, { schema: await freshInbox() }) },
  { storeName: 'memoryDeliveryStore', make: async () => memoryDeliveryStore() },
])('$storeName keeps the DeliveryStore contract', ({ make }) => {
  it.each(cases)('$name', async ({ steps }) => {
    const store = await make();
    const wanted = steps.flatMap((step) => ('want' in step ? [step.want] : []));
    expect(await play(store, steps)).toEqual(wanted);
  });
});

describe('postgresDeliveryStore', () => {
  it('lets exactly one of 20 simultaneous claims of a key through', async () => {
    const store = postgresDeliveryStore(database().pool, { schema: await freshInbox() });
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => store.claim('invoice-7-invoice.paid', { token: randomUUID(), leaseMs: 60_000 })),
    );
    expect(outcomes.filter((outcome) => outcome === 'claimed')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'in-progress')).toHaveLength(19);
  });

  it.each([
    { given: 'contrato_inbox', throws: false },
    { given: 'Inbox; drop table x', throws: true },
    { given: '9inbox', throws: true },
  ])('takes schema $given only when it is a plain identifier (throws: $throws)', ({ given, throws }) => {
    const make = () => postgresDeliveryStore(database().pool, { schema: given });
    if (throws) expect(make).toThrow(RangeError);
    else expect(make()).toHaveProperty('runClaimed');
  });
});

describe('pruneHandledDeliveries', () => {
  it('removes handled keys and abandoned claims older than olderThanMs, keeps the rest, and says how many', async () => {
    const schema = await freshInbox();
    const store = postgresDeliveryStore(database().pool, { schema });
    const ages: Record<string, string> = { 'old-handled': '2 days', 'old-abandoned': '2 days', 'recent-handled': '1 hour' };
    for (const key of ['old-handled', 'recent-handled', 'old-abandoned', 'live-claim']) {
      const token = randomUUID();
      await store.claim(key, { token, leaseMs: 60_000 });
      if (key.endsWith('handled')) await store.complete(key, token);
    }
    await database().pool.query(
      `update "${schema}".deliveries set handled_at = handled_at - $2::interval, lease_until = lease_until - $2::interval where key = $1`,
      ['old-handled', ages['old-handled']],
    );
    await database().pool.query(`update "${schema}".deliveries set handled_at = handled_at - $2::interval where key = $1`, [
      'recent-handled',
      ages['recent-handled'],
    ]);
    await database().pool.query(`update "${schema}".deliveries set lease_until = clock_timestamp() - $2::interval where key = $1`, [
      'old-abandoned',
      ages['old-abandoned'],
    ]);

    expect(await pruneHandledDeliveries(database().pool, { schema })).toBe(2);
    const { rows } = await database().pool.query<{ key: string }>(`select key from "${schema}".deliveries order by key`);
    expect(rows.map((row) => row.key)).toEqual(['live-claim', 'recent-handled']);
    expect(await pruneHandledDeliveries(database().pool, { schema, olderThanMs: 60_000 })).toBe(1);
    expect(await pruneHandledDeliveries(database().pool, { schema, olderThanMs: 60_000 })).toBe(0);
  });

  it.each([
    { olderThanMs: 0, valid: true },
    { olderThanMs: -1, valid: false },
    { olderThanMs: Number.NaN, valid: false },
  ])('takes olderThanMs $olderThanMs only when it is zero or more (valid: $valid)', async ({ olderThanMs, valid }) => {
    const schema = await freshInbox();
    const prune = pruneHandledDeliveries(database().pool, { schema, olderThanMs });
    if (valid) await expect(prune).resolves.toBe(0);
    else await expect(prune).rejects.toThrow(RangeError);
  });
});

describe('postgresDeliveryStore.runClaimed', () => {
  async function inboxWithEffects() {
    const schema = await freshInbox();
    await database().pool.query(`create table "${schema}".effects (key text not null)`);
    const store = postgresDeliveryStore(database().pool, { schema });
    const effects = async () =>
      (await database().pool.query<{ key: string }>(`select key from "${schema}".effects order by key`)).rows.map((row) => row.key);
    const insertEffect = (key: string) => (client: { query: (text: string, values: unknown[]) => Promise<unknown> }) =>
      client.query(`insert into "${schema}".effects (key) values ($1)`, [key]);
    return { schema, store, effects, insertEffect };
  }

  it('commits the work’s writes and the handled mark together', async () => {
    const { store, effects, insertEffect } = await inboxWithEffects();
    const token = randomUUID();
    expect(await store.claim('k1', { token, leaseMs: 60_000 })).toBe('claimed');
    expect(await store.runClaimed('k1', token, insertEffect('k1'))).toBe('completed');
    expect(await effects()).toEqual(['k1']);
    expect(await store.claim('k1', { token: randomUUID(), leaseMs: 60_000 })).toBe('handled');
  });

  it('rolls back the work’s writes and leaves the key unhandled when the work throws, and rethrows', async () => {
    const { store, effects, insertEffect } = await inboxWithEffects();
    const token = randomUUID();
    await store.claim('k2', { token, leaseMs: 60_000 });
    const failing = async (client: Parameters<ReturnType<typeof insertEffect>>[0]) => {
      await insertEffect('k2')(client);
      throw new Error('the business rule refused it');
    };
    await expect(store.runClaimed('k2', token, failing)).rejects.toThrow('the business rule refused it');
    expect(await effects()).toEqual([]);
    await store.release('k2', token);
    expect(await store.claim('k2', { token: randomUUID(), leaseMs: 60_000 })).toBe('claimed');
  });

  it.each([
    {
      name: 'a claim taken over after its lease expired',
      prepare: async (store: DeliveryStore, token: string) => {
        await store.claim('k3', { token, leaseMs: short });
        await sleep(pastShort);
        await store.claim('k3', { token: randomUUID(), leaseMs: 60_000 });
      },
      want: 'in-progress',
    },
    {
      name: 'a key handled by another delivery meanwhile',
      prepare: async (store: DeliveryStore, token: string) => {
        await store.claim('k3', { token, leaseMs: short });
        await sleep(pastShort);
        const other = randomUUID();
        await store.claim('k3', { token: other, leaseMs: 60_000 });
        await store.complete('k3', other);
      },
      want: 'handled',
    },
    { name: 'a token that never claimed the key', prepare: async () => {}, want: 'in-progress' },
  ])('runs nothing for $name and says $want', async ({ prepare, want }) => {
    const { store, effects, insertEffect } = await inboxWithEffects();
    const token = randomUUID();
    await prepare(store, token);
    expect(await store.runClaimed('k3', token, insertEffect('k3'))).toBe(want);
    expect(await effects()).toEqual([]);
  });

  it('makes a claim of the key wait for the commit, which then finds it handled', async () => {
    const { schema, store, effects, insertEffect } = await inboxWithEffects();
    const token = randomUUID();
    await store.claim('k4', { token, leaseMs: 60_000 });
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let entered = () => {};
    const workStarted = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const running = store.runClaimed('k4', token, async (client) => {
      await insertEffect('k4')(client);
      entered();
      await gate;
    });
    // The work runs once the row is locked; only then does the second delivery claim the key.
    await workStarted;
    const waiting = store.claim('k4', { token: randomUUID(), leaseMs: 60_000 });
    try {
      // The second claim is blocked on the row's lock (seen by the server), not answered in-progress.
      const deadline = Date.now() + 10_000;
      let blocked = 0;
      while (blocked === 0 && Date.now() < deadline) {
        const { rows } = await database().pool.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and starts_with(query, $1)`,
          [`insert into "${schema}"."deliveries"`],
        );
        blocked = rows[0]!.n;
        if (blocked === 0) await sleep(10);
      }
      expect(blocked).toBe(1);
    } finally {
      open();
    }
    expect(await running).toBe('completed');
    expect(await waiting).toBe('handled');
    expect(await effects()).toEqual(['k4']);
  });
});

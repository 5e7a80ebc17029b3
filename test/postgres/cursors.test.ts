/**
 * The leases of poll cursors in a real PostgreSQL (test/helpers/postgres.ts): the store contract's
 * given/want cases (shared with the memory store), replicas racing for one name (one wins, fences never
 * repeat), the database's clock as the only clock, and the schema name checked before it reaches SQL.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, postgresCursorLeases } from '../../src/postgres/index.js';
import { startTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { leaseCases, runLeaseCase } from './fixtures/cursors-cases.js';

let database: TestDatabase;
let schema: string;

beforeAll(async () => {
  database = await startTestDatabase();
  schema = database.freshSchema();
  await migrate(database.pool, { schema });
}, 60_000);

afterAll(async () => {
  await database?.stop();
});

describe('postgresCursorLeases', () => {
  it.each(leaseCases.map((leaseCase, index) => ({ ...leaseCase, index })))('$rule', async ({ steps, index }) => {
    await runLeaseCase(postgresCursorLeases(database.pool, { schema }), `case-${index}`, steps);
  });

  it('gives a free name to exactly one of twenty replicas asking at once, and an expired one to exactly one again', async () => {
    // A pool of its own, one connection per replica, so the twenty really ask at once.
    const racers = new pg.Pool({ connectionString: database.url, max: 20 });
    racers.on('error', () => {});
    try {
      const leases = postgresCursorLeases(racers, { schema });
      const holders = Array.from({ length: 20 }, (_, index) => `replica-${index}`);
      // Leases long enough that none runs out while the twenty ask, however slow the machine.
      const first = await Promise.all(holders.map((holder) => leases.acquire('race', holder, 60_000)));
      expect(first.filter(Boolean).map((lease) => lease?.fence)).toEqual([1]);
      // The winner's lease ends (moved into the past on the database's clock, rather than waited for).
      await database.pool.query(
        `update "${schema}".poll_cursors set lease_until = clock_timestamp() - interval '1 second' where name = 'race'`,
      );
      const second = await Promise.all(holders.map((holder) => leases.acquire('race', holder, 60_000)));
      const winners = second.filter(Boolean);
      expect(winners.map((lease) => lease?.fence)).toEqual([2]);
      const { rows } = await database.pool.query(`select holder, fence::int as fence from "${schema}".poll_cursors where name = 'race'`);
      expect(rows).toEqual([{ holder: winners[0]?.holder, fence: 2 }]);
    } finally {
      // Ended here while the server runs, so no connection of it is still closing when the server stops.
      await racers.end();
    }
  });

  it('times leases by the database clock: a lease ends at clock_timestamp() plus leaseMs', async () => {
    const leases = postgresCursorLeases(database.pool, { schema });
    await leases.acquire('clock', 'a', 90_000);
    const { rows } = await database.pool.query(
      `select extract(epoch from lease_until - clock_timestamp()) * 1000 as left_ms from "${schema}".poll_cursors where name = 'clock'`,
    );
    expect(Number(rows[0].left_ms)).toBeGreaterThan(85_000);
    expect(Number(rows[0].left_ms)).toBeLessThanOrEqual(90_000);
  });

  it('keeps the names of different schemas apart', async () => {
    const other = database.freshSchema();
    await migrate(database.pool, { schema: other });
    expect(await postgresCursorLeases(database.pool, { schema }).acquire('apart', 'a', 60_000)).toMatchObject({ fence: 1 });
    expect(await postgresCursorLeases(database.pool, { schema: other }).acquire('apart', 'b', 60_000)).toMatchObject({ fence: 1 });
  });

  it.each([
    { given: 'contrato_replicas', valid: true },
    { given: 'Replicas; drop table x', valid: false },
  ])('checks the schema name $given before writing it into a statement', ({ given, valid }) => {
    const build = () => postgresCursorLeases(database.pool, { schema: given });
    if (valid) expect(build).not.toThrow();
    else expect(build).toThrow(/schema must be a lower-case PostgreSQL identifier/);
  });
});

/**
 * Core banking clients with the PostgreSQL limiter as their `rateLimiter`, against a loopback server: two
 * clients of one credential (two replicas in one process, each with its own limiter) share one budget, so
 * the calls beyond the limit wait for the oldest admission to leave the window; the sends recorded on the
 * database's clock are a window plus the margin apart; a client of another credential is not held back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createCoreBankingClient } from '../../src/core-banking/index.js';
import { migrate, postgresRateLimiter, rateLimitBucket } from '../../src/postgres/index.js';
import { type LoopbackServer, sendJson, startLoopbackServer } from '../helpers/loopback.js';
import { useTestDatabase } from '../helpers/postgres.js';

let server: LoopbackServer | undefined;
const database = useTestDatabase();

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const balance = { accountId: '7', balance: 1, currency: 'BRL', lastUpdated: '2026-11-24T10:00:00Z' };

async function bank(): Promise<LoopbackServer> {
  return startLoopbackServer((request, response) => {
    if (request.path === '/auth/token') return sendJson(response, 200, { access_token: 'tok', token_type: 'Bearer', expires_in: 3600 });
    sendJson(response, 200, balance);
  });
}

/** The sends of a bucket as milliseconds after the first, on the database's clock. */
async function sendOffsets(schema: string, bucket: string): Promise<number[]> {
  const { rows } = await database().pool.query<{ offset_ms: number }>(
    `select (extract(epoch from sent_at - min(sent_at) over ()) * 1000)::float8 as offset_ms
       from "${schema}".rate_limit_sends where bucket = $1 order by sent_at`,
    [bucket],
  );
  return rows.map((row) => row.offset_ms);
}

describe('core banking clients with the PostgreSQL rate limiter', () => {
  it('two clients of one credential share its budget: the calls beyond the limit wait a window plus the margin', async () => {
    server = await bank();
    const schema = database().freshSchema();
    await migrate(database().pool, { schema });
    const bucket = rateLimitBucket('core-banking', 'replica-client');
    const limits = [{ limit: 3, intervalMs: 300 }];
    const replica = () =>
      createCoreBankingClient({
        baseUrl: server!.url,
        clientId: 'replica-client',
        clientSecret: 'replica-secret',
        rateLimiter: postgresRateLimiter(database().pool, { schema, bucket, limits, safetyMarginMs: 100 }),
      });
    const [first, second] = [replica(), replica()];
    const calls = [first, second, first, second, first, second].map((client) => client.accounts.balance({ path: { id: 7 } }));
    await expect(Promise.all(calls)).resolves.toEqual(calls.map(() => balance));
    expect(server.requests.filter((request) => request.path !== '/auth/token')).toHaveLength(6);

    const offsets = await sendOffsets(schema, bucket);
    expect(offsets).toHaveLength(6);
    // Any 4 consecutive sends span at least the window widened by the margin: never 4 within 400 ms.
    for (let index = 3; index < offsets.length; index += 1) expect(offsets[index]! - offsets[index - 3]!).toBeGreaterThanOrEqual(400);
    await Promise.all([first.close(), second.close()]);
  });

  it('a client of another credential is not held back by a full bucket', async () => {
    server = await bank();
    const schema = database().freshSchema();
    await migrate(database().pool, { schema });
    const limits = [{ limit: 1, intervalMs: 60_000 }];
    const client = (clientId: string) =>
      createCoreBankingClient({
        baseUrl: server!.url,
        clientId,
        clientSecret: 'a-secret',
        rateLimiter: postgresRateLimiter(database().pool, { schema, bucket: rateLimitBucket('core-banking', clientId), limits }),
      });
    const [busy, other] = [client('busy-client'), client('other-client')];
    await busy.accounts.balance({ path: { id: 7 } });
    const held = busy.accounts.balance({ path: { id: 7 } }, { signal: AbortSignal.timeout(300) });
    await expect(other.accounts.balance({ path: { id: 7 } })).resolves.toEqual(balance);
    await expect(held).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(server.requests.filter((request) => request.path !== '/auth/token')).toHaveLength(2);
    await Promise.all([busy.close(), other.close()]);
  });
});

/**
 * createPostgresWebhookHandler and createPostgresPixNotificationHandler behind real loopback servers, on a
 * real PostgreSQL: the callback's business write (through `client`) and the "handled" mark commit together;
 * a failing callback leaves neither, is answered 500, and the resend is handled; their options are checked.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookHandler } from '../../src/events/handler.js';
import type { Handler } from '../../src/events/receiver.js';
import { postgresDeliveryStore } from '../../src/postgres/inbox.js';
import {
  createPostgresPixNotificationHandler,
  createPostgresWebhookHandler,
  migrate,
  type PostgresPixNotificationHandlerOptions,
  type PostgresWebhookHandlerOptions,
  type Queryable,
} from '../../src/postgres/index.js';
import { startTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { createBusinessTables, endToEndId, invoicePaid, pixReceived, post, type Served, serve } from './fixtures/inbox-http.js';

let database: TestDatabase;
let served: Served[] = [];

beforeAll(async () => {
  database = await startTestDatabase();
}, 60_000);

afterEach(async () => {
  await Promise.all(served.map((server) => server.close()));
  served = [];
});

afterAll(async () => {
  await database?.stop();
});

async function start(handler: Handler): Promise<string> {
  const server = await serve(handler);
  served.push(server);
  return server.url;
}

/** A migrated schema with the business tables, and what they hold. */
async function freshInbox() {
  const schema = database.freshSchema();
  await migrate(database.pool, { schema });
  await createBusinessTables(database.pool, schema);
  const rows = async (sql: string) => (await database.pool.query(sql.replaceAll('$schema', `"${schema}"`))).rows;
  return {
    schema,
    effects: async () => (await rows('select id from $schema.effects order by id')).map((row) => String(row.id)),
    handled: async () =>
      (await rows('select key from $schema.deliveries where handled_at is not null order by key')).map((row) => String(row.key)),
    claims: async () => (await rows('select key from $schema.deliveries where handled_at is null')).map((row) => String(row.key)),
  };
}

const insertEffect = (client: Queryable, schema: string, id: string) =>
  client.query(`insert into "${schema}".effects (id, pid, doomed) values ($1, $2, false)`, [id, process.pid]);

describe('createPostgresWebhookHandler', () => {
  it('commits the business write and the handled mark together; a duplicate is acknowledged without a second write', async () => {
    const inbox = await freshInbox();
    const keys: string[] = [];
    const url = await start(
      createPostgresWebhookHandler({
        pool: database.pool,
        schema: inbox.schema,
        onEvent: async (event, { key, client }) => {
          keys.push(key);
          await insertEffect(client, inbox.schema, String((event.data as { invoiceId: number }).invoiceId));
        },
      }),
    );
    expect(await post(url, invoicePaid(4101))).toEqual({ status: 200, body: { received: true } });
    expect(await post(url, invoicePaid(4101))).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect(keys).toEqual(['invoice-4101-invoice.paid']);
    expect(await inbox.effects()).toEqual(['4101']);
    expect(await inbox.handled()).toEqual(['invoice-4101-invoice.paid']);
  });

  it('leaves neither the write nor the mark when onEvent throws, answers 500, and handles the resend', async () => {
    const inbox = await freshInbox();
    let attempts = 0;
    const url = await start(
      createPostgresWebhookHandler({
        pool: database.pool,
        schema: inbox.schema,
        onEvent: async (_event, { client }) => {
          attempts += 1;
          await insertEffect(client, inbox.schema, `4102 attempt ${attempts}`);
          if (attempts === 1) throw new Error('the ledger refused it');
        },
        onError: () => {},
      }),
    );
    expect((await post(url, invoicePaid(4102))).status).toBe(500);
    expect(await inbox.effects()).toEqual([]);
    expect(await inbox.handled()).toEqual([]);
    expect(await inbox.claims()).toEqual([]);
    expect(await post(url, invoicePaid(4102))).toEqual({ status: 200, body: { received: true } });
    expect(await inbox.effects()).toEqual(['4102 attempt 2']);
  });

  it.each([
    { name: 'pool, schema and onEvent', options: (pool: unknown) => ({ pool, schema: 'inbox_ok', onEvent: () => {} }), error: null },
    { name: 'a store', options: (pool: unknown) => ({ pool, store: {}, onEvent: () => {} }), error: /pass pool, not store/ },
    { name: 'no pool', options: () => ({ onEvent: () => {} }), error: /needs pool/ },
    { name: 'no onEvent', options: (pool: unknown) => ({ pool }), error: /needs onEvent/ },
    {
      name: 'a schema that is no identifier',
      options: (pool: unknown) => ({ pool, schema: 'a-b', onEvent: () => {} }),
      error: /schema must be/,
    },
  ])('given $name, it builds (or refuses with a reason)', ({ options, error }) => {
    const build = () => createPostgresWebhookHandler(options(database.pool) as PostgresWebhookHandlerOptions);
    if (error) expect(build).toThrow(error);
    else expect(build()).toBeTypeOf('function');
  });
});

describe('postgresDeliveryStore as the store of createWebhookHandler (contrato/events)', () => {
  it('handles an event once across two handlers: onEvent runs inside the store’s transaction without being handed it', async () => {
    const inbox = await freshInbox();
    const calls: string[] = [];
    const options = {
      store: postgresDeliveryStore(database.pool, { schema: inbox.schema }),
      onEvent: (_event: unknown, { key }: { readonly key: string }) => void calls.push(key),
    };
    const [first, second] = [await start(createWebhookHandler(options)), await start(createWebhookHandler(options))];
    expect(await post(first, invoicePaid(4103))).toEqual({ status: 200, body: { received: true } });
    expect(await post(second, invoicePaid(4103))).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect(calls).toEqual(['invoice-4103-invoice.paid']);
    expect(await inbox.handled()).toEqual(['invoice-4103-invoice.paid']);
  });
});

describe('createPostgresPixNotificationHandler', () => {
  it('commits each Pix with its mark: a failure on the second leaves the first handled, and the resend handles the second', async () => {
    const inbox = await freshInbox();
    const [first, second] = [endToEndId(1), endToEndId(2)];
    const seen: string[] = [];
    const url = await start(
      createPostgresPixNotificationHandler({
        pool: database.pool,
        schema: inbox.schema,
        onPix: async (item, { kind, client }) => {
          seen.push(`${kind} ${item.endToEndId}`);
          await insertEffect(client, inbox.schema, item.endToEndId);
          if (item.endToEndId === second && seen.length === 2) throw new Error('the ledger refused it');
        },
        onError: () => {},
      }),
    );
    const body = { pix: [pixReceived(first), pixReceived(second)] };
    expect((await post(`${url}/hooks/loja42/pix`, body)).status).toBe(500);
    expect(await inbox.effects()).toEqual([first]);
    expect(await post(`${url}/hooks/loja42/pix`, body)).toEqual({ status: 200, body: { received: 2, duplicates: 1 } });
    expect(await post(`${url}/hooks/loja42/pix`, body)).toEqual({ status: 200, body: { received: 2, duplicates: 2 } });
    expect(await inbox.effects()).toEqual([first, second].sort());
    expect(seen).toEqual([`pix ${first}`, `pix ${second}`, `pix ${second}`]);
  });

  it('answers 404 to a kind it has no callback for', async () => {
    const inbox = await freshInbox();
    const url = await start(
      createPostgresPixNotificationHandler({ pool: database.pool, schema: inbox.schema, onPix: () => {}, onError: () => {} }),
    );
    expect((await post(`${url}/hooks/loja42/rec`, { recs: [] })).status).toBe(404);
  });

  it.each([
    { name: 'pool and onPix', options: (pool: unknown) => ({ pool, onPix: () => {} }), error: null },
    { name: 'a store', options: (pool: unknown) => ({ pool, store: {}, onPix: () => {} }), error: /pass pool, not store/ },
    { name: 'no callback', options: (pool: unknown) => ({ pool }), error: /at least one of onPix, onRec and onCobR/ },
    { name: 'an onRec that is no function', options: (pool: unknown) => ({ pool, onRec: 'yes' }), error: /onRec must be a function/ },
    {
      name: 'an unknown option',
      options: (pool: unknown) => ({ pool, onPix: () => {}, onPixx: () => {} }),
      error: /unknown option onPixx/,
    },
  ])('given $name, it builds (or refuses with a reason)', ({ options, error }) => {
    const build = () => createPostgresPixNotificationHandler(options(database.pool) as PostgresPixNotificationHandlerOptions);
    if (error) expect(build).toThrow(error);
    else expect(build()).toBeTypeOf('function');
  });
});

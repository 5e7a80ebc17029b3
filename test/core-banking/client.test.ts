/**
 * Behaviour of the core banking client against a loopback server: bad requests never leave the
 * process, idempotency keys, typed errors, tolerant reading of responses, page iteration.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createCoreBankingClient, HttpError, ProblemError, RequestValidationError } from '../../src/core-banking/index.js';
import { sendJson, startLoopbackServer, type Handler, type LoopbackServer } from '../helpers/loopback.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const token = { access_token: 'tok', token_type: 'Bearer', expires_in: 3600 };
const invoice = {
  customerId: 88123,
  pixKey: 'financeiro@padaria.com.br',
  dueDate: '2026-12-10',
  amount: 149.9,
  type: 'IMMEDIATE',
} as const;
const feeRule = (n: number) => ({
  id: `0e3ec47e-2fc8-4c4c-bdee-0eb80eb91a${String(n).padStart(2, '0')}`,
  baasId: '8313d412-4f4b-4f33-8f97-e1a279e8f514',
  name: `Tarifa ${n}`,
  percent: 1,
  fixedAmount: 0,
  minAmount: 0,
  maxAmount: 10,
  weight: n,
  effectiveDate: null,
  requirements: [],
  createdAt: '2026-01-10T12:00:00Z',
  updatedAt: '2026-01-10T12:00:00Z',
});

async function bank(handler: Handler, options: { responseValidation?: 'off' | 'warn' | 'strict' } = {}) {
  server = await startLoopbackServer((request, response) => {
    if (request.path === '/auth/token') return sendJson(response, 200, token);
    handler(request, response);
  });
  const client = createCoreBankingClient({ baseUrl: server.url, clientId: 'baas_x', clientSecret: 'secret', ...options });
  return { client, requests: server.requests };
}

describe('core-banking client', () => {
  it('rejects an invalid body before any request, naming pointer, rule and value', async () => {
    const { client, requests } = await bank((_request, response) => sendJson(response, 500, {}));
    const error = await client.feeRules
      .create({ body: { name: '', percent: 1, minAmount: 1, maxAmount: 2 } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues).toEqual([
      { pointer: '/body/name', rule: 'minLength', message: 'must have at least 1 character (minLength; got "")', value: '' },
    ]);
    expect((error as Error).message).toContain('/body/name');
    expect(requests).toEqual([]);
  });

  it('rejects invalid path and query parameters before any request', async () => {
    const { client, requests } = await bank((_request, response) => sendJson(response, 500, {}));
    await expect(client.feeRules.get({ path: { id: 'nope' } })).rejects.toThrow(/\/path\/id: must be a UUID/);
    await expect(client.accounts.list({ query: { perPage: 500 } })).rejects.toThrow(/\/query\/perPage: must be at most 100/);
    expect(requests).toEqual([]);
  });

  it("sends a generated Idempotency-Key when none is given, and the caller's when given", async () => {
    const { client, requests } = await bank((_request, response) =>
      sendJson(response, 201, { id: 1, amount: 149.9, status: 'REGISTERING' }),
    );
    await client.invoices.create({ path: { accountId: 1234 }, body: invoice });
    await client.invoices.create({ path: { accountId: 1234 }, body: invoice }, { idempotencyKey: 'order-5531' });
    await client.invoices.create({ path: { accountId: 1234 }, header: { 'Idempotency-Key': 'explicit-1' }, body: invoice });
    const keys = requests.filter((r) => r.path === '/accounts/1234/invoices').map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(keys.slice(1)).toEqual(['order-5531', 'explicit-1']);
  });

  it('turns an RFC 7807 answer into a ProblemError with every field', async () => {
    const problem = {
      type: 'https://banking.example.com/errors/duplicate-weight',
      title: 'Duplicate weight',
      status: 409,
      detail: 'Another rule of this BaaS already has weight 2.',
      instance: '/fee-rules/0e3ec47e-2fc8-4c4c-bdee-0eb80eb91a50',
      correlationId: '6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f',
    };
    const { client } = await bank((_request, response) => sendJson(response, 409, problem, 'application/problem+json'));
    const error = await client.feeRules
      .update({ path: { id: '0e3ec47e-2fc8-4c4c-bdee-0eb80eb91a50' }, body: { percent: 1, minAmount: 0, maxAmount: 5, weight: 2 } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProblemError);
    expect(error).toMatchObject({
      status: 409,
      type: problem.type,
      title: problem.title,
      detail: problem.detail,
      instance: problem.instance,
      correlationId: problem.correlationId,
      operationId: 'feeRules.update',
    });
    expect((error as Error).message).toContain('correlationId 6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f');
  });

  it('an error body that is not a problem is an HttpError', async () => {
    const { client } = await bank((_request, response) => response.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway'));
    const error = await client.accounts.get({ path: { id: 7 } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).not.toBeInstanceOf(ProblemError);
    expect((error as HttpError).status).toBe(502);
  });

  it('reads responses with new fields and new enum values, even when checking responses (section 9.3)', async () => {
    const account = { id: '7', number: '10048213', type: 'CHECKING', status: 'FROZEN_BY_REGULATOR', brandNewField: { nested: true } };
    let answer: unknown = account;
    const { client } = await bank((_request, response) => sendJson(response, 200, answer), { responseValidation: 'strict' });
    await expect(client.accounts.get({ path: { id: 7 } })).resolves.toEqual(account);
    // Strict checking is really on: an answer that breaks the contract is refused.
    answer = { ...account, number: 10048213 };
    await expect(client.accounts.get({ path: { id: 7 } })).rejects.toThrow(/breaks the contract/);
  });

  it('iterates every page and every item, stopping at the total', async () => {
    const all = [1, 2, 3, 4, 5].map(feeRule);
    const { client, requests } = await bank((request, response) => {
      const url = new URL(request.path, 'http://x');
      const page = Number(url.searchParams.get('page'));
      const perPage = Number(url.searchParams.get('perPage'));
      sendJson(response, 200, { meta: { total: all.length, page, perPage }, data: all.slice((page - 1) * perPage, page * perPage) });
    });
    const pages = [];
    for await (const page of client.feeRules.listPages({ query: { perPage: 2 } })) pages.push(page.data.length);
    expect(pages).toEqual([2, 2, 1]);
    const names = [];
    for await (const rule of client.feeRules.listItems({ query: { perPage: 2, filter: 'tarifa' } })) names.push(rule.name);
    expect(names).toEqual(['Tarifa 1', 'Tarifa 2', 'Tarifa 3', 'Tarifa 4', 'Tarifa 5']);
    expect(requests.filter((r) => r.path.startsWith('/fee-rules')).at(-1)!.path).toBe('/fee-rules?perPage=2&filter=tarifa&page=3');
  });
});

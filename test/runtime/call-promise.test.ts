/**
 * `withResponse()` on every facade call: the result with its status, headers, idempotency key, attempts
 * and correlation id, also for a result that is not an object (204), while awaiting the call gives the
 * result as before; failures reject both ways.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createCoreBankingClient, ProblemError } from '../../src/core-banking/index.js';
import { sendJson, startLoopbackServer, type Handler, type LoopbackServer } from '../helpers/loopback.js';
import { feeRule } from '../helpers/fee-rule.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const rule = feeRule;

async function platform(handler: Handler) {
  server = await startLoopbackServer((request, response) =>
    request.path === '/auth/token'
      ? sendJson(response, 200, { access_token: 't', token_type: 'Bearer', expires_in: 3600 })
      : handler(request, response),
  );
  return createCoreBankingClient({
    baseUrl: server.url,
    clientId: 'c',
    clientSecret: 's',
    rateLimit: false,
    retry: { maxRetries: 1, baseDelayMs: 1 },
  });
}

describe('withResponse()', () => {
  it('gives an object result with its answer, and awaiting gives the same result', async () => {
    let calls = 0;
    const client = await platform((_request, response) => {
      calls += 1;
      if (calls === 1) return sendJson(response, 503, { title: 'Unavailable', status: 503 }, 'application/problem+json');
      response.setHeader('x-request-id', 'req-42');
      sendJson(response, 200, rule);
    });
    const { data, response } = await client.feeRules.get({ path: { id: rule.id } }).withResponse();
    expect(data).toEqual(rule);
    expect(response).toMatchObject({ status: 200, attempts: 2, correlationId: 'req-42', idempotencyKey: undefined });
    expect(response.headers.get('content-type')).toBe('application/json');
    await expect(client.feeRules.get({ path: { id: rule.id } })).resolves.toEqual(rule);
  });

  it('describes a result that is not an object (204)', async () => {
    const client = await platform((_request, response) => response.writeHead(204).end());
    const { data, response } = await client.feeRules.delete({ path: { id: rule.id } }).withResponse();
    expect(data).toBeUndefined();
    expect(response.status).toBe(204);
  });

  it('rejects with the typed error both ways, and derived promises are plain', async () => {
    const client = await platform((_request, response) =>
      sendJson(response, 404, { title: 'Not found', status: 404 }, 'application/problem+json'),
    );
    await expect(client.feeRules.get({ path: { id: rule.id } }).withResponse()).rejects.toBeInstanceOf(ProblemError);
    const call = client.feeRules.get({ path: { id: rule.id } });
    const derived = call.catch((error: unknown) => error);
    expect('withResponse' in derived).toBe(false);
    expect(await derived).toBeInstanceOf(ProblemError);
  });
});

/**
 * Section 9.3: new response fields, new enum values and reordered fields must not break a client. Every
 * success example of the spec is mutated that way, served from a loopback server, and read by the client
 * with response validation `strict`.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isObject, resolveLocal, type Json, type JsonObject } from '../../scripts/openapi-model.js';
import { bundledSpecPath } from '../../src/checks/registry.js';
import { createCoreBankingClient, type CoreBankingClient } from '../../src/core-banking/index.js';
import { sendJson, startLoopbackServer, type LoopbackServer } from '../helpers/loopback.js';
import { argsOf, callByOperationId, exampleCases } from '../helpers/spec-examples.js';

const document = JSON.parse(readFileSync(bundledSpecPath('core-banking'), 'utf8')) as JsonObject;
const cases = exampleCases(document).filter((c) => /^2/.test(c.status) && c.value !== undefined);

/** Adds a field to every object, swaps every known enum value for an unknown one, reverses member order. */
function evolve(value: unknown, schema: Json | undefined): unknown {
  const resolved = schema === undefined ? undefined : resolveLocal(document, schema);
  const target =
    isObject(resolved) && Array.isArray(resolved.allOf) && resolved.allOf.length === 1
      ? resolveLocal(document, resolved.allOf[0])
      : resolved;
  if (Array.isArray(value)) return value.map((item) => evolve(item, isObject(target) ? target.items : undefined));
  if (typeof value === 'string' && isObject(target) && Array.isArray(target['x-known-values'])) return 'A_VALUE_ADDED_IN_A_LATER_VERSION';
  if (value === null || typeof value !== 'object') return value;
  const properties = isObject(target) && isObject(target.properties) ? target.properties : {};
  const entries = Object.entries(value as Record<string, unknown>).map(([key, child]) => [key, evolve(child, properties[key])] as const);
  return Object.fromEntries([['addedInALaterVersion', { nested: [1, 'two'] }], ...entries.reverse()]);
}

let server: LoopbackServer;
let client: CoreBankingClient;
let serving: { status: number; body: unknown } = { status: 200, body: {} };

beforeAll(async () => {
  server = await startLoopbackServer((request, response) => {
    // The client's own token request (client id "c"); a test of auth.token itself sends the example's client id.
    if (request.path === '/auth/token' && (JSON.parse(request.body) as { client_id?: string }).client_id === 'c') {
      return sendJson(response, 200, { access_token: 't', token_type: 'Bearer', expires_in: 3600 });
    }
    sendJson(response, serving.status, serving.body);
  });
  client = createCoreBankingClient({
    baseUrl: server.url,
    clientId: 'c',
    clientSecret: 's',
    responseValidation: 'strict',
    rateLimit: false,
  });
});
afterAll(async () => server.close());

describe('responses from a later version of the contract', () => {
  it('changes something in most examples', () => {
    const changed = cases.filter(
      (c) => JSON.stringify(evolve(c.value, c.operation.responses.find((r) => r.status === c.status)!.schema!)) !== JSON.stringify(c.value),
    );
    expect(changed.length).toBe(cases.length);
  });

  it.each(cases.map((c) => [`${c.operation.operationId} ${c.status} ${c.example}`, c] as const))('%s parses', async (_label, c) => {
    const schema = c.operation.responses.find((r) => r.status === c.status)!.schema!;
    const evolved = evolve(c.value, schema);
    serving = { status: Number(c.status), body: evolved };
    await expect(callByOperationId(client, c.operation.operationId, argsOf(document, c.operation), {})).resolves.toEqual(evolved);
  });
});

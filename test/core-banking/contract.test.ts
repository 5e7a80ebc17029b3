/**
 * The core banking client against a real Prism process serving generated/core-banking/openapi.json:
 * every operation, every named response example (chosen with Prism's `Prefer` header), each answer
 * checked by the client's own generated validators (validateResponses) and compared with the example.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationsOf, type JsonObject, type OperationModel } from '../../scripts/openapi-model.js';
import { startMock, type RunningServer } from '../../src/cli/servers.js';
import { bundledSpecPath } from '../../src/cli/registry.js';
import { createCoreBankingClient, ProblemError, type CoreBankingClient } from '../../src/core-banking/index.js';
import { freePort } from '../helpers/ports.js';
import { argsOf, callByOperationId, exampleCases } from '../helpers/spec-examples.js';

const document = JSON.parse(readFileSync(bundledSpecPath('core-banking'), 'utf8')) as JsonObject;
const operations = operationsOf(document);

const cases = exampleCases(document);

let prism: RunningServer;
let client: CoreBankingClient;

beforeAll(async () => {
  prism = await startMock('core-banking', await freePort());
  client = createCoreBankingClient({ baseUrl: prism.url, clientId: 'baas_7f3c2e', clientSecret: 'mock-secret', responseValidation: 'strict', retry: { maxRetries: 0 } });
});
afterAll(async () => {
  await prism?.stop();
});

function call(operation: OperationModel, headers: Record<string, string>): Promise<unknown> {
  return callByOperationId(client, operation.operationId, argsOf(document, operation), { headers });
}

describe('core-banking against Prism', () => {
  it('has response examples for every operation', () => {
    for (const operation of operations) {
      const withBodies = operation.responses.filter((response) => response.schema);
      for (const response of withBodies) expect(response.exampleNames.length, `${operation.operationId} ${response.status}`).toBeGreaterThan(0);
    }
    expect(operations.length).toBeGreaterThanOrEqual(25);
  });

  it.each(cases.map((c) => [`${c.operation.operationId} ${c.status}${c.example ? ` ${c.example}` : ''}`, c] as const))('%s', async (_label, c) => {
    const prefer = [`code=${c.status}`, ...(c.example ? [`example=${c.example}`] : [])].join(', ');
    const outcome = call(c.operation, { Prefer: prefer });
    if (/^2/.test(c.status)) {
      await expect(outcome).resolves.toEqual(c.value);
      return;
    }
    const error = await outcome.then(
      () => expect.unreachable('an error status must throw'),
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ProblemError);
    expect((error as ProblemError).status).toBe(Number(c.status));
    expect((error as ProblemError).problem).toEqual(c.value);
  });
});

/**
 * The core banking client against a real Prism process serving generated/core-banking/openapi.json:
 * every operation, every named response example (chosen with Prism's `Prefer` header), each answer
 * checked by the client's own generated validators (validateResponses) and compared with the example.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationsOf, isObject, resolveLocal, type JsonObject, type OperationModel } from '../../scripts/openapi-model.js';
import { startMock, type RunningServer } from '../../src/cli/servers.js';
import { bundledSpecPath } from '../../src/cli/registry.js';
import { createCoreBankingClient, ProblemError, type CoreBankingClient } from '../../src/core-banking/index.js';
import { freePort } from '../helpers/ports.js';

const document = JSON.parse(readFileSync(bundledSpecPath('core-banking'), 'utf8')) as JsonObject;
const operations = operationsOf(document);

function exampleValue(media: JsonObject, name: string): unknown {
  const example = resolveLocal(document, (media.examples as JsonObject)[name]);
  return isObject(example) ? example.value : undefined;
}

/** Arguments of a valid call: path parameters and required headers from their schema examples, the first body example. */
function argsOf(operation: OperationModel): Record<string, unknown> {
  const args: Record<string, Record<string, unknown> | unknown> = {};
  for (const parameter of operation.parameters) {
    if (!parameter.required || parameter.name === operation.operation['x-idempotency-key']) continue;
    const value = parameter.schema.example ?? (Array.isArray(parameter.schema.examples) ? parameter.schema.examples[0] : undefined);
    if (value === undefined) throw new Error(`${operation.operationId}: parameter ${parameter.name} has no example`);
    const slot = (args[parameter.in] ??= {}) as Record<string, unknown>;
    slot[parameter.name] = value;
  }
  if (operation.requestBody) {
    const body = resolveLocal(document, operation.operation.requestBody) as JsonObject;
    const media = (body.content as JsonObject)[operation.requestBody.mediaType] as JsonObject;
    args.body = exampleValue(media, operation.requestBody.exampleNames[0]!);
  }
  return args;
}

interface ExampleCase {
  readonly operation: OperationModel;
  readonly status: string;
  readonly example: string;
  readonly value: unknown;
}

const cases: ExampleCase[] = operations.flatMap((operation) =>
  operation.responses.flatMap((response) => {
    const raw = resolveLocal(document, (operation.operation.responses as JsonObject)[response.status]) as JsonObject;
    const media = isObject(raw.content) && response.mediaType ? (raw.content[response.mediaType] as JsonObject) : null;
    if (!media) return [{ operation, status: response.status, example: '', value: undefined }];
    return response.exampleNames.map((example) => ({ operation, status: response.status, example, value: exampleValue(media, example) }));
  }),
);

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
  const [group, name] = operation.operationId.split('.') as [string, string];
  const method = (client as unknown as Record<string, Record<string, (args: object, options: object) => Promise<unknown>>>)[group]![name]!;
  return method(argsOf(operation), { headers });
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

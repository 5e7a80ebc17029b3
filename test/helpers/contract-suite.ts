/**
 * The contract suite run for every interface: its client against a real Prism process serving the
 * bundled spec; every operation, every named response example (chosen with Prism's `Prefer` header),
 * each answer checked by the client's generated validators (`strict`) and compared with the example;
 * every error example raised as a ProblemError carrying the same problem (documents in it masked).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationsOf, type JsonObject } from '../../scripts/openapi-model.js';
import { bundledSpecPath } from '../../src/checks/registry.js';
import { startMock, type RunningServer } from '../../src/cli/servers.js';
import type { InterfaceName } from '../../src/interfaces.js';
import { HttpError, ProblemError } from '../../src/runtime/errors.js';
import { redact } from '../../src/runtime/logging.js';
import { freePort } from './ports.js';
import { argsOf, callByOperationId, exampleCases } from './spec-examples.js';

export function contractSuite(
  name: InterfaceName,
  createClient: (baseUrl: string) => object,
  options: { skip?: (operationId: string) => boolean } = {},
): void {
  const document = JSON.parse(readFileSync(bundledSpecPath(name), 'utf8')) as JsonObject;
  const operations = operationsOf(document).filter((operation) => !options.skip?.(operation.operationId));
  const cases = exampleCases(document).filter((c) => !options.skip?.(c.operation.operationId));
  let prism: RunningServer;
  let client: object;

  beforeAll(async () => {
    prism = await startMock(name, await freePort());
    client = createClient(prism.url);
  });
  afterAll(async () => {
    await prism?.stop();
  });

  describe(`${name} against Prism`, () => {
    it('has response examples for every response with a body', () => {
      for (const operation of operations) {
        for (const response of operation.responses.filter((r) => r.schema)) {
          expect(response.exampleNames.length, `${operation.operationId} ${response.status}`).toBeGreaterThan(0);
        }
      }
    });

    it.each(cases.map((c) => [`${c.operation.operationId} ${c.status}${c.example ? ` ${c.example}` : ''}`, c] as const))(
      '%s',
      async (_label, c) => {
        const prefer = [`code=${c.status}`, ...(c.example ? [`example=${c.example}`] : [])].join(', ');
        const outcome = callByOperationId(client, c.operation.operationId, argsOf(document, c.operation), { headers: { Prefer: prefer } });
        if (/^2/.test(c.status)) {
          await expect(outcome).resolves.toEqual(c.value);
          return;
        }
        const error = await outcome.then(
          () => expect.unreachable('an error status must throw'),
          (caught: unknown) => caught,
        );
        if (c.value === undefined) {
          // An error whose body the contract does not describe (interface C, section 7.3): its status is what counts.
          expect(error).toBeInstanceOf(HttpError);
          expect((error as HttpError).status).toBe(Number(c.status));
          return;
        }
        expect(error).toBeInstanceOf(ProblemError);
        expect((error as ProblemError).status).toBe(Number(c.status));
        // The same problem, with the CPF/CNPJ it echoes masked: errors never carry document digits.
        expect((error as ProblemError).problem).toEqual(redact(c.value));
      },
    );
  });
}

/**
 * The contract suite's calls against the sandbox: every operation of every interface of the definitions
 * called through its real client (the sandbox credential its definition names) with the spec's example
 * arguments, answered by the sandbox from its state — once with the modules `contrato sandbox` mounts, once
 * with every document served by the generic module, which must hold any spec. Whatever the state makes of
 * the call — a success, a 404 for a resource the example names and the sandbox never created, a 409 — the
 * answer is one the operation declares and passes strict validation on both sides (the client's `strict`
 * response validation and the sandbox's own drift check). Never a 501, never an answer the client cannot read.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JsonObject, operationsOf } from '../../scripts/openapi-model.js';
import { bundledSpecPath } from '../../src/checks/registry.js';
import { writeDevCertificates } from '../../src/cli/dev-certs.js';
import { interfaces } from '../../src/interfaces.js';
import { HttpError } from '../../src/runtime/errors.js';
import type { MountableModule } from '../../src/sandbox/contract.js';
import { genericSandbox } from '../../src/sandbox/generic.js';
import { sandboxModules } from '../../src/sandbox/modules.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { type DefinitionClient, sandboxClientFor } from '../helpers/definition-clients.js';
import { definitions } from '../helpers/interfaces.js';
import { closeAll, startSeeded } from '../helpers/sandbox.js';
import { argsOf, callByOperationId } from '../helpers/spec-examples.js';

const certificates = mkdtempSync(join(tmpdir(), 'contrato-sandbox-contract-'));
const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
writeDevCertificates(certificates);
afterAll(() => rmSync(certificates, { recursive: true, force: true }));

const suites: readonly { readonly label: string; readonly modules: () => readonly MountableModule[] }[] = [
  { label: 'the modules it mounts', modules: () => sandboxModules },
  { label: 'the generic module', modules: () => interfaces.map((info) => genericSandbox(info.name, info.sandboxPrefix)) },
];

describe.each(suites)('the sandbox with $label', ({ label, modules }) => {
  let sandbox: RunningSandbox;
  const clients: Record<string, DefinitionClient> = {};

  beforeAll(async () => {
    sandbox = await startSeeded(`contract-${label.split(' ').at(-2)}`, modules());
    for (const definition of definitions)
      clients[definition.name] = await sandboxClientFor(definition, sandbox.urlOf(definition.documents[0].name), certificates, {
        responseValidation: 'strict',
        retry: { maxRetries: 0 },
      });
  });
  afterAll(() => closeAll(sandbox, Object.values(clients)));

  describe.each(definitions.map((definition) => definition.name))('%s: every operation through its client', (name) => {
    const document = JSON.parse(readFileSync(bundledSpecPath(name), 'utf8')) as JsonObject;
    const operations = operationsOf(document);

    it.each(operations.map((operation) => [operation.operationId, operation] as const))('%s', async (operationId, operation) => {
      const driftsBefore = sandbox.drifts().length;
      const args = argsOf(document, operation) as { body?: Record<string, unknown> };
      // A multipart example stands for a file; send a real image in its place.
      if (operation.requestBody?.mediaType === 'multipart/form-data') args.body = { ...args.body, file: png };
      const outcome = await callByOperationId(clients[name]!, operationId, args, {}).then(
        () => ({ status: 'success' }),
        (caught: unknown) => caught,
      );
      if (outcome instanceof Error) {
        // A refusal of the sandbox's state is fine when the contract declares it; anything else is not.
        expect(outcome, `${operationId}: ${outcome.message}`).toBeInstanceOf(HttpError);
        const status = String((outcome as HttpError).status);
        expect(
          operation.responses.map((response) => response.status),
          `${operationId} answered ${status}`,
        ).toContain(status);
        expect(status).not.toBe('501');
      }
      // Only this call's drifts: an earlier test's are reported by that test.
      expect(sandbox.drifts().slice(driftsBefore)).toEqual([]);
    });
  });
});

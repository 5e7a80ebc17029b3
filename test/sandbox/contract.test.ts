/**
 * The contract suite's calls against the sandbox: every operation of every interface called through its
 * real client with the spec's example arguments, answered by the sandbox from its state. Whatever the
 * state makes of the call — a success, a 404 for a resource the example names and the sandbox never
 * created, a 409 — the answer is one the operation declares and passes strict validation on both sides
 * (the client's `strict` response validation and the sandbox's own drift check). Never a 501, never an
 * answer the client cannot read.
 */
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationsOf, type JsonObject } from '../../scripts/openapi-model.js';
import { bundledSpecPath } from '../../src/checks/registry.js';
import { writeDevCertificates } from '../../src/cli/dev-certs.js';
import { createMessagesClient } from '../../src/messages/index.js';
import { HttpError } from '../../src/runtime/errors.js';
import { sandboxModules } from '../../src/sandbox/modules.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { accountsClientOf, closeAll, coreBankingClientOf, pixClientOf, startSeeded } from '../helpers/sandbox.js';
import { argsOf, callByOperationId } from '../helpers/spec-examples.js';

const certificates = mkdtempSync(join(tmpdir(), 'contrato-sandbox-contract-'));
const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
let sandbox: RunningSandbox;
const clients: Record<string, { close(): Promise<void> }> = {};

beforeAll(async () => {
  writeDevCertificates(certificates);
  sandbox = await startSeeded('contract', sandboxModules);
  clients.accounts = accountsClientOf(sandbox, 'baas_sandbox', { accountId: 2001 });
  clients.pix = pixClientOf(sandbox);
  clients['core-banking'] = coreBankingClientOf(sandbox, 'sandbox-core');
  clients.messages = createMessagesClient({
    baseUrl: sandbox.urlOf('messages'),
    login: { clientId: 'sandbox-messages', clientSecret: 'sandbox-secret' },
    tls: { pfx: readFileSync(join(certificates, 'participant.pfx')) },
    responseValidation: 'strict',
    retry: { maxRetries: 0 },
  });
});
afterAll(async () => {
  await closeAll(sandbox, Object.values(clients));
  rmSync(certificates, { recursive: true, force: true });
});

const interfacesWithClients = ['accounts', 'pix', 'messages', 'core-banking'];

describe.each(interfacesWithClients)('%s: every operation through its client against the sandbox', (name) => {
  const document = JSON.parse(readFileSync(bundledSpecPath(name), 'utf8')) as JsonObject;
  const operations = operationsOf(document);

  it.each(operations.map((operation) => [operation.operationId, operation] as const))('%s', async (operationId, operation) => {
    const driftsBefore = sandbox.drifts().length;
    const args = argsOf(document, operation) as { body?: Record<string, unknown> };
    // The spec's multipart example stands for a file; send a real image in its place.
    if (operationId === 'onboarding.uploadImage') args.body = { ...args.body, file: png };
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

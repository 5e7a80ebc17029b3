/**
 * Every interface's errors say the server's reason in their message, whatever shape its refusals take: an
 * RFC 7807 problem (A, B, D) or interface C's own `{ error, message }` (its format is not shown, section
 * 7.3). Each interface of the definitions is called through its real client against the sandbox with a
 * planned fault, and neither its secret nor its token appears; reasonOf is checked shape by shape.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JsonObject, operationsOf } from '../../scripts/openapi-model.js';
import { bundledSpecPath } from '../../src/checks/registry.js';
import { writeDevCertificates } from '../../src/cli/dev-certs.js';
import { sandboxSecret } from '../../src/runtime/definition.js';
import { HttpError, reasonOf } from '../../src/runtime/errors.js';
import { faultKinds, statusOfFault } from '../../src/sandbox/faults.js';
import { sandboxModules } from '../../src/sandbox/modules.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { type DefinitionClient, sandboxClientFor } from '../helpers/definition-clients.js';
import { definitions } from '../helpers/interfaces.js';
import { closeAll, planFault, startSeeded } from '../helpers/sandbox.js';
import { argsOf, callByOperationId } from '../helpers/spec-examples.js';

describe('reasonOf', () => {
  const many = Array.from({ length: 7 }, (_, index) => ({ razao: `rule ${index}`, propriedade: `field${index}`, valor: 'sent' }));
  it.each([
    {
      given: 'a problem',
      body: { type: 'x/errors/not-found', title: 'Not found', status: 404, detail: 'no charge 7' },
      want: 'Not found: no charge 7',
    },
    {
      given: "B's violacoes, without their values",
      body: {
        title: 'Cobrança inválida',
        detail: 'A requisição viola 1 regra.',
        violacoes: [{ razao: 'must be two decimals', propriedade: 'valor.original', valor: '1' }],
      },
      want: 'Cobrança inválida: A requisição viola 1 regra. — valor.original: must be two decimals',
    },
    {
      given: 'five violations at most, and a count',
      body: { title: 'Bad', violacoes: many },
      want: `Bad — ${many
        .slice(0, 5)
        .map((each) => `${each.propriedade}: ${each.razao}`)
        .join('; ')}; and 2 more`,
    },
    {
      given: "C's own body: its code and message",
      body: {
        error: 'invalid-request',
        message: '/body/idFimAFimOriginal: is required',
        violations: [{ pointer: '/body/idFimAFimOriginal', message: 'is required' }],
      },
      want: 'invalid-request: /body/idFimAFimOriginal: is required',
    },
    {
      given: "an OAuth refusal's description",
      body: { error: 'invalid_client', error_description: 'unknown client' },
      want: 'invalid_client: unknown client',
    },
    { given: 'a text', body: '\nupstream timed out\nmore', want: 'upstream timed out' },
    { given: "a proxy's HTML page", body: '<html><body>502</body></html>', want: undefined },
    { given: 'nothing to say', body: { id: 3 }, want: undefined },
    { given: 'no body', body: undefined, want: undefined },
    { given: 'a long reason, cut', body: { message: 'x'.repeat(500) }, want: `${'x'.repeat(400)}…` },
  ])('$given', ({ body, want }) => {
    expect(reasonOf(body)).toBe(want);
  });
});

describe('the reason in the message of every interface, through its client', () => {
  const certificates = mkdtempSync(join(tmpdir(), 'contrato-error-reasons-'));
  writeDevCertificates(certificates);
  let sandbox: RunningSandbox;
  const clients: Record<string, DefinitionClient> = {};
  beforeAll(async () => {
    sandbox = await startSeeded('error-reasons', sandboxModules);
    for (const definition of definitions)
      clients[definition.name] = await sandboxClientFor(definition, sandbox.urlOf(definition.documents[0].name), certificates, {
        retry: { maxRetries: 0 },
      });
  });
  afterAll(async () => {
    await closeAll(sandbox, Object.values(clients));
    rmSync(certificates, { recursive: true, force: true });
  });

  /** Per interface and fault, the operations of its spec that declare the fault's status and whose example arguments are complete. */
  const cases = definitions.flatMap((definition) => {
    const document = JSON.parse(readFileSync(bundledSpecPath(definition.name), 'utf8')) as JsonObject;
    return faultKinds.flatMap((kind) => {
      const status = statusOfFault[kind];
      const callable = operationsOf(document).flatMap((operation) => {
        if (operation.requestBody?.mediaType === 'multipart/form-data') return [];
        if (!operation.responses.some((response) => response.status === status)) return [];
        try {
          return [{ operationId: operation.operationId, args: argsOf(document, operation) }];
        } catch {
          return [];
        }
      });
      // The first two: the token or login request comes first in every spec, an operation of the interface next.
      return status ? callable.slice(0, 2).map((operation) => ({ name: definition.name, kind, status, operation })) : [];
    });
  });

  it('has a case for every interface', () => {
    expect(new Set(cases.map((each) => each.name))).toEqual(new Set(definitions.map((definition) => definition.name)));
  });

  it.each(cases)(
    '$name: $operation.operationId answering $status (a planned $kind fault)',
    async ({ name, kind, operation }) => {
      expect((await planFault(sandbox, { operationId: operation.operationId, kind, count: 1 })).status).toBeLessThan(300);
      const caught = await callByOperationId(clients[name]!, operation.operationId, operation.args, {}).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(caught).toBeInstanceOf(HttpError);
      const error = caught as HttpError;
      const said = (error.body as Record<string, unknown>).detail ?? (error.body as Record<string, unknown>).message;
      expect(typeof said).toBe('string');
      expect(error.message).toContain(said);
      for (const text of [error.message, JSON.stringify(error), String(error.stack)]) {
        expect(text).not.toContain(sandboxSecret);
        expect(text).not.toMatch(/Bearer\s+\S/i);
      }
    },
    60_000,
  );
});

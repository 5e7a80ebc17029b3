/**
 * Hostile requests against a strict sandbox of every interface on 127.0.0.1 (issue 27, items 3 to 5): JSON
 * nested 100 000 deep and malformed JSON are the operation's own declared 400, in the interface's own problem
 * content type; malformed multipart forms are 400; a body over its limit (a form's or a JSON body's) is a 413
 * problem answered from its declared length or as soon as the limit is passed, the connection dropped; a malformed id on an operation
 * that declares no 400 is a status it declares. No answer is a 500, and the helper fails any test whose
 * answers drift from the contract (an expected drift is taken and asserted by its test).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findInterface } from '../../src/interfaces.js';
import type { OperationInfo } from '../../src/runtime/contract.js';
import { handWrittenModules, sandboxModules } from '../../src/sandbox/modules.js';
import { bodyLimits, type RunningSandbox } from '../../src/sandbox/server.js';
import { closeAll, startSeeded, takeDrifts } from '../helpers/sandbox.js';
import {
  authorization,
  bodyProbes,
  createOnboarding,
  errorTypeOf,
  goodUpload,
  malformedMultipart,
  nestedJson,
  pngBytes,
  rawRequest,
} from './hostile.js';

// Every module the sandbox mounts, with its operation table, from the definitions.
const tables: Record<string, Readonly<Record<string, OperationInfo>>> = {};
const declares = (document: string, operationId: string, status: number) =>
  tables[document]![operationId]!.responseStatuses.includes(String(status));

let sandbox: RunningSandbox;
const auth: Record<string, Record<string, string>> = {};
let onboardingId = '';

beforeAll(async () => {
  for (const { document } of sandboxModules) tables[document] = (await findInterface(document)!.load()).operationTable;
  sandbox = await startSeeded('hostile-requests', sandboxModules);
  for (const { document } of bodyProbes) auth[document] = await authorization(sandbox.url, document);
  onboardingId = await createOnboarding(sandbox.urlOf('accounts'), auth.accounts ?? {});
});
afterAll(() => closeAll(sandbox, []));

// Each hand-written module reads its own answers to bad bodies; a generic one (a fifth interface's) answers them
// through the same engine and parser as these, so a new hand-written module without a probe fails here.
it('probes every hand-written module', () => {
  expect(new Set(bodyProbes.map((probe) => probe.document))).toEqual(new Set(handWrittenModules.map((module) => module.document)));
});

describe('a route no operation has', () => {
  // HTTP's 404 stands outside what any operation declares (messages declares none): a problem of the interface, no drift.
  it.each(bodyProbes)('under $document: 404 in its problem content type, and no drift', async (probe) => {
    const prefix = sandbox.urlOf(probe.document).slice(sandbox.url.length);
    const answer = await rawRequest(`${sandbox.url}${prefix}/no-operation-here`, { method: 'GET', headers: auth[probe.document] ?? {} });
    expect(answer.status, answer.text.slice(0, 300)).toBe(404);
    expect(answer.headers['content-type']).toBe(probe.problemJson ? 'application/problem+json' : 'application/json');
    expect(takeDrifts(sandbox)).toEqual([]);
  });
});

describe('inputs an operation without any does not take', () => {
  // DELETE /webhookrec takes no parameter and no body, and declares no 400, as in the API Pix standard: such a
  // request is none of the contract's, refused with HTTP's 400 as a problem of the interface, and no drift.
  it.each([
    { given: 'a JSON body', query: '', body: '{"webhookUrl":"https://example.com"}' },
    { given: 'a body that is not JSON', query: '', body: '{"webhookUrl":' },
    { given: 'a query parameter it does not take', query: '?x=1', body: undefined },
  ])('DELETE /webhookrec with $given: 400, and no drift', async ({ query, body }) => {
    expect(declares('pix', 'webhookRec.delete', 400)).toBe(false);
    const answer = await rawRequest(`${sandbox.urlOf('pix')}/webhookrec${query}`, {
      method: 'DELETE',
      headers: { ...auth.pix, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body }),
    });
    expect(answer.status, answer.text.slice(0, 300)).toBe(400);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(takeDrifts(sandbox)).toEqual([]);
  });
});

describe('bodies that cannot be read as JSON', () => {
  const given = [
    { given: 'JSON nested 100 000 deep', body: nestedJson(100_000) },
    { given: 'JSON nested 65 deep, one past the bound', body: nestedJson(65) },
    { given: 'malformed JSON', body: '{"valor": {"original": "1.00"' },
  ];
  const cases = bodyProbes.flatMap((probe) => given.map((body) => ({ ...probe, ...body })));
  it.each(cases)('$given to $document $operationId: its declared 400 $type, in its problem content type', async (c) => {
    const answer = await rawRequest(`${sandbox.url}${c.path}`, {
      method: c.method,
      headers: { ...auth[c.document], 'content-type': 'application/json' },
      body: c.body,
    });
    expect(declares(c.document, c.operationId, answer.status), `${answer.status} ${answer.text.slice(0, 300)}`).toBe(true);
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe(c.problemJson ? 'application/problem+json' : 'application/json');
    expect(errorTypeOf(answer.text)).toBe(c.type);
    expect(answer.text).toMatch(c.given.includes('nested') ? /deeper than 64 levels/ : /is not JSON/);
  });

  it('JSON nested 64 deep, at the bound, is read and judged by the schema', async () => {
    const answer = await rawRequest(`${sandbox.url}/pix/cob/hostileRequestsTxid0000000000002`, {
      method: 'PUT',
      headers: { ...auth.pix, 'content-type': 'application/json' },
      body: nestedJson(64),
    });
    expect(answer.status).toBe(400);
    expect(answer.text).not.toMatch(/deeper than/);
    expect(answer.text).toMatch(/must be an object/);
  });
});

describe('multipart forms (accounts onboarding.uploadImage)', () => {
  it('a well-formed upload is taken: the route, the token and the onboarding are right', async () => {
    const answer = await rawRequest(`${sandbox.urlOf('accounts')}/onboarding/${onboardingId}/images`, {
      method: 'POST',
      headers: { ...auth.accounts, 'content-type': goodUpload.contentType },
      body: Buffer.from(goodUpload.body, 'latin1'),
    });
    expect(answer.status, answer.text).toBe(200);
  });

  it.each(malformedMultipart())('$given: 400 invalid-parameters, a problem', async ({ contentType, body }) => {
    const answer = await rawRequest(`${sandbox.urlOf('accounts')}/onboarding/${onboardingId}/images`, {
      method: 'POST',
      headers: { ...auth.accounts, 'content-type': contentType },
      body: Buffer.from(body, 'latin1'),
    });
    expect(answer.status, answer.text.slice(0, 300)).toBe(400);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(errorTypeOf(answer.text)).toBe('invalid-parameters');
    // However many members were wrong, the problem stays small.
    expect(answer.text.length).toBeLessThan(20_000);
  });
});

describe('bodies over the limit', () => {
  const upload = {
    document: 'accounts',
    operationId: 'onboarding.uploadImage',
    method: 'POST',
    path: '',
    problemJson: true,
    contentType: goodUpload.contentType,
    limit: bodyLimits.form,
  };
  const probes = [...bodyProbes.map((probe) => ({ ...probe, contentType: 'application/json', limit: bodyLimits.json })), upload];
  const cases = probes.flatMap((probe) => [
    { ...probe, given: 'a declared length of 50 MB, nothing sent', request: { declare: 50 * 1024 * 1024 } },
    { ...probe, given: 'a declared length one byte over the limit', request: { declare: probe.limit + 1 } },
    { ...probe, given: '50 MB streamed without a length', request: { stream: 50 * 1024 * 1024 } },
  ]);
  it.each(cases)('$given to $document $operationId: a 413 problem, and the connection dropped', async (c) => {
    const path = c.path || `/accounts/api/v2/onboarding/${onboardingId}/images`;
    const answer = await rawRequest(`${sandbox.url}${path}`, {
      method: c.method,
      headers: { ...auth[c.document], 'content-type': c.contentType },
      closeWithinMs: 3000,
      ...c.request,
    });
    expect(answer.status, answer.text.slice(0, 300)).toBe(413);
    expect(answer.headers['content-type']).toBe(c.problemJson ? 'application/problem+json' : 'application/json');
    expect(answer.text).toMatch(new RegExp(`exceeds ${c.limit} bytes`));
    expect(answer.headers.connection).toBe('close');
    expect(answer.closed).toBe(true);
    // Answered from the limit, not after reading the rest: a streamed body stops a few chunks past it.
    expect(answer.bytesSent).toBeLessThan(c.limit + 8 * 1024 * 1024);
    // HTTP's answer to a body not read: no drift, declared or not (docs/decisions.md), yet a problem of the interface.
    expect(takeDrifts(sandbox)).toEqual([]);
    if (c.problemJson) expect(JSON.parse(answer.text)).toMatchObject({ status: 413 });
  });

  it('an image of 2 MiB, over the limit of a JSON body and under that of a form, is taken', async () => {
    const image = `${pngBytes}${'\0'.repeat(2 * 1024 * 1024)}`;
    const body = goodUpload.body.replace(pngBytes, image);
    const answer = await rawRequest(`${sandbox.urlOf('accounts')}/onboarding/${onboardingId}/images`, {
      method: 'POST',
      headers: { ...auth.accounts, 'content-type': goodUpload.contentType },
      body: Buffer.from(body, 'latin1'),
    });
    expect(answer.status, answer.text).toBe(200);
  });
});

describe('a malformed id where the operation declares no 400', () => {
  const cases = [
    {
      given: 'GET /solicrec/{idSolicRec} with symbols',
      path: '/solicrec/!!bad',
      operationId: 'solicrec.get',
      want: 404,
      type: 'NaoEncontrado',
    },
    {
      given: 'GET /solicrec/{idSolicRec} too long',
      path: `/solicrec/SC${'1'.repeat(60)}`,
      operationId: 'solicrec.get',
      want: 404,
      type: 'NaoEncontrado',
    },
    { given: 'GET /cob/{txid} (declares 400) too short', path: '/cob/x', operationId: 'cob.get', want: 400, type: 'CobConsultaInvalida' },
  ];
  it.each(cases)('$given: $want $type, a status the operation declares', async ({ path, operationId, want, type }) => {
    const answer = await rawRequest(`${sandbox.urlOf('pix')}${path}`, { method: 'GET', headers: { ...auth.pix } });
    expect(answer.status, answer.text).toBe(want);
    expect(declares('pix', operationId, answer.status)).toBe(true);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(errorTypeOf(answer.text)).toBe(type);
  });
});

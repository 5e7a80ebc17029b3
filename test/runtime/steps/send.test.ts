/**
 * The send step alone, against a real loopback server (127.0.0.1, ephemeral port, closed after each test)
 * through a real Transport: how the request is built (path, query, headers, bodies) and how the answer
 * or its absence becomes an outcome.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallOptions, OperationInfo } from '../../../src/runtime/contract.js';
import { AuthError, ConnectionError, ResponseValidationError } from '../../../src/runtime/errors.js';
import type { Call, CallArgs, Outcome } from '../../../src/runtime/pipeline.js';
import { type SendServices, sendStep } from '../../../src/runtime/steps/send.js';
import { Transport } from '../../../src/runtime/transport.js';
import { type Handler, type LoopbackServer, sendJson, startLoopbackServer } from '../../helpers/loopback.js';
import { callOf, freshState, operation } from './fixtures.js';

let server: LoopbackServer | undefined;
let transport: Transport | undefined;

afterEach(async () => {
  await transport?.close();
  transport = undefined;
  await server?.close();
  server = undefined;
});

/** A server answering with `handler`, and services sending to it under /v1 through a real Transport. */
async function serve(handler: Handler, extra: Partial<SendServices> = {}): Promise<{ server: LoopbackServer; services: SendServices }> {
  server = await startLoopbackServer(handler);
  // proxy: false so an HTTP(S)_PROXY of the machine running the tests cannot route loopback calls elsewhere.
  transport = new Transport(undefined, { proxy: false });
  return { server, services: { baseUrl: `${server.url}/v1`, send: transport.send, ...extra } };
}

const never = (): Promise<Outcome> => {
  throw new Error('the send step must not call next');
};

async function sendOnce(
  services: SendServices,
  info: OperationInfo,
  args: CallArgs = {},
  options?: CallOptions,
  extra: Partial<Call> = {},
) {
  return sendStep(services).run(callOf(info, args, options, extra), never);
}

function answered(outcome: Outcome) {
  if (outcome.kind !== 'answer') throw new Error(`expected an answer, got a failure: ${outcome.error.message}`);
  return outcome.answer;
}

function failed(outcome: Outcome) {
  if (outcome.kind !== 'failure') throw new Error(`expected a failure, got an answer ${outcome.answer.status}`);
  return outcome;
}

const ok: Handler = (_request, response) => sendJson(response, 200, { ok: true });
const itemOp = operation({
  operationId: 'getItem',
  path: '/items/{id}',
  parameters: [
    { name: 'id', in: 'path', required: true, type: 'string' },
    { name: 'tags', in: 'query', required: false, type: 'array' },
    { name: 'q', in: 'query', required: false, type: 'string' },
  ],
});
const postOf = (mediaType: string): OperationInfo =>
  operation({ operationId: 'createThing', method: 'post', requestBody: { mediaType, required: true } });

describe('send step: the URL', () => {
  it.each([
    { given: 'a plain path parameter', args: { path: { id: '42' } }, want: '/v1/items/42' },
    { given: 'encoded characters in the path', args: { path: { id: 'a b/ç?#' } }, want: '/v1/items/a%20b%2F%C3%A7%3F%23' },
    {
      given: 'an array query parameter (form, exploded)',
      args: { path: { id: '1' }, query: { tags: ['x', 'y z'] } },
      want: '/v1/items/1?tags=x&tags=y%20z',
    },
    {
      given: 'reserved characters in the query',
      args: { path: { id: '1' }, query: { q: 'a&b=c/d?' } },
      want: '/v1/items/1?q=a%26b%3Dc%2Fd%3F',
    },
    {
      given: 'numbers and booleans in the query',
      args: { path: { id: '1' }, query: { n: 3, flag: true } },
      want: '/v1/items/1?n=3&flag=true',
    },
    { given: 'an undefined query member (left out)', args: { path: { id: '1' }, query: { q: undefined, n: 0 } }, want: '/v1/items/1?n=0' },
    { given: 'no query', args: { path: { id: '1' } }, want: '/v1/items/1' },
  ])('$given → $want', async ({ args, want }) => {
    const { server, services } = await serve(ok);
    answered(await sendOnce(services, itemOp, args));
    expect(server.requests.map((request) => request.path)).toEqual([want]);
    expect(server.requests[0]!.method).toBe('GET');
  });

  it.each(['put', 'patch', 'delete'] as const)('sends the operation’s method (%s) in upper case', async (method) => {
    const { server, services } = await serve(ok);
    answered(await sendOnce(services, operation({ method })));
    expect(server.requests[0]!.method).toBe(method.toUpperCase());
  });
});

describe('send step: headers', () => {
  it('sends header parameters, the caller’s headers and the steps’ headers', async () => {
    const { server, services } = await serve(ok);
    answered(
      await sendOnce(
        services,
        operation(),
        { header: { 'X-Request-Id': 'r-1', 'x-count': 3, 'x-list': ['a', 'b'], 'x-none': undefined, 'x-null': null } },
        { headers: { Prefer: 'code=200' } },
        { headers: { Authorization: 'Bearer tok' } },
      ),
    );
    const { headers } = server.requests[0]!;
    expect(headers).toMatchObject({
      'x-request-id': 'r-1',
      'x-count': '3',
      'x-list': 'a, b',
      prefer: 'code=200',
      authorization: 'Bearer tok',
    });
    expect(headers).not.toHaveProperty('x-none');
    expect(headers).not.toHaveProperty('x-null');
    expect(headers).not.toHaveProperty('content-type');
  });

  it.each([
    {
      given: 'a step header over the caller’s, same spelling',
      options: { headers: { 'x-trace': 'caller' } },
      stepHeaders: { 'x-trace': 'step' },
      args: {},
      want: 'step',
    },
    {
      given: 'a header parameter over the caller’s, same spelling',
      options: { headers: { 'x-trace': 'caller' } },
      stepHeaders: {},
      args: { header: { 'x-trace': 'parameter' } },
      want: 'parameter',
    },
    {
      given: 'a step header over the caller’s, another case',
      options: { headers: { 'X-Trace': 'caller' } },
      stepHeaders: { 'x-trace': 'step' },
      args: {},
      want: 'step',
    },
    {
      given: 'a header parameter over the caller’s, another case',
      options: { headers: { 'x-trace': 'caller' } },
      stepHeaders: {},
      args: { header: { 'X-Trace': 'parameter' } },
      want: 'parameter',
    },
  ])('sends one value: $given', async ({ options, stepHeaders, args, want }) => {
    const { server, services } = await serve(ok);
    answered(await sendOnce(services, operation(), args, options, { headers: stepHeaders }));
    // Header names are case-insensitive (RFC 9110 5.1): the later source replaces the value, whatever its spelling.
    expect(server.requests[0]!.headers['x-trace']).toBe(want);
  });
  it('a renewed token is the one the server reads, whatever the spelling of an Authorization the caller gave', async () => {
    const { server, services } = await serve(ok);
    answered(
      await sendOnce(
        services,
        operation(),
        {},
        { headers: { authorization: 'Bearer stale' } },
        { headers: { Authorization: 'Bearer fresh' } },
      ),
    );
    expect(server.requests[0]!.headers.authorization).toBe('Bearer fresh');
  });
});

describe('send step: bodies', () => {
  it('sends a JSON body with its content type', async () => {
    const { server, services } = await serve(ok);
    const body = { amount: 10.5, name: 'Zoë', nested: { list: [1, 2] } };
    answered(await sendOnce(services, postOf('application/json'), { body }));
    const request = server.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual(body);
  });

  it('keeps a content type the caller gave', async () => {
    const { server, services } = await serve(ok);
    answered(
      await sendOnce(
        services,
        postOf('application/json'),
        { body: { a: 1 } },
        { headers: { 'Content-Type': 'application/merge-patch+json' } },
      ),
    );
    expect(server.requests[0]!.headers['content-type']).toBe('application/merge-patch+json');
  });

  it('sends a form-urlencoded body', async () => {
    const { server, services } = await serve(ok);
    answered(
      await sendOnce(services, postOf('application/x-www-form-urlencoded'), { body: { grant_type: 'client_credentials', scope: 'a b&c' } }),
    );
    const request = server.requests[0]!;
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request.body).toBe('grant_type=client_credentials&scope=a+b%26c');
  });

  it('sends a multipart body with a binary part, the boundary in its content type', async () => {
    const { server, services } = await serve(ok);
    const bytes = new Uint8Array([0, 1, 2, 3, 0x7f]);
    const body = { file: bytes, document: new File(['%PDF-1.7'], 'contract.pdf', { type: 'application/pdf' }), name: 'doc', count: 2 };
    answered(await sendOnce(services, postOf('multipart/form-data'), { body }));
    const request = server.requests[0]!;
    const contentType = request.headers['content-type'] ?? '';
    const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(contentType)?.[1];
    expect(boundary).toBeTruthy();
    expect(request.body).toContain(`--${boundary}`);
    expect(request.body).toContain(`--${boundary}--`);
    expect(request.body).toContain('Content-Disposition: form-data; name="file"; filename="file"');
    expect(request.body).toContain('\u0000\u0001\u0002\u0003\u007f');
    expect(request.body).toContain('Content-Disposition: form-data; name="document"; filename="contract.pdf"');
    expect(request.body).toContain('Content-Type: application/pdf');
    expect(request.body).toContain('%PDF-1.7');
    expect(request.body).toMatch(/name="name"\r\n\r\ndoc\r\n/);
    expect(request.body).toMatch(/name="count"\r\n\r\n2\r\n/);
  });

  it('sends no body and no content type when there is no body', async () => {
    const { server, services } = await serve(ok);
    answered(await sendOnce(services, operation({ method: 'post' })));
    expect(server.requests[0]!.body).toBe('');
    expect(server.requests[0]!.headers).not.toHaveProperty('content-type');
  });
});

describe('send step: the answer', () => {
  it.each([
    {
      given: 'a 200 JSON body',
      handler: ((_q, r) => sendJson(r, 200, { a: 1 })) as Handler,
      info: operation(),
      want: { status: 200, body: { a: 1 } },
    },
    {
      given: 'a 201 JSON array',
      handler: ((_q, r) => sendJson(r, 201, [1, 2])) as Handler,
      info: operation(),
      want: { status: 201, body: [1, 2] },
    },
    { given: 'a 204', handler: ((_q, r) => r.writeHead(204).end()) as Handler, info: operation(), want: { status: 204, body: undefined } },
    {
      given: 'a 200 with content-length 0',
      handler: ((_q, r) => r.writeHead(200, { 'content-length': '0' }).end()) as Handler,
      info: operation(),
      want: { status: 200, body: undefined },
    },
    {
      given: 'a HEAD',
      handler: ((_q, r) => r.writeHead(200, { 'content-type': 'application/json', 'content-length': '7' }).end()) as Handler,
      info: operation({ method: 'head' }),
      want: { status: 200, body: undefined },
    },
    {
      given: 'a 404 problem (parsed as JSON)',
      handler: ((_q, r) => sendJson(r, 404, { title: 'Not found', status: 404 }, 'application/problem+json')) as Handler,
      info: operation(),
      want: { status: 404, body: { title: 'Not found', status: 404 } },
    },
    {
      given: 'a 500 in text (kept as text)',
      handler: ((_q, r) => r.writeHead(500, { 'content-type': 'text/plain' }).end('Internal oops')) as Handler,
      info: operation(),
      want: { status: 500, body: 'Internal oops' },
    },
    {
      given: 'a 400 claiming JSON that is not (kept as text)',
      handler: ((_q, r) => r.writeHead(400, { 'content-type': 'application/json' }).end('{broken')) as Handler,
      info: operation(),
      want: { status: 400, body: '{broken' },
    },
    {
      given: 'a 200 of a JWS operation (read as text)',
      handler: ((_q, r) => r.writeHead(200, { 'content-type': 'application/jose' }).end('eyJhbGciOiJQUzI1NiJ9.eyJhIjoxfQ.c2ln')) as Handler,
      info: operation({ jwsPayload: 'PayloadLocation' }),
      want: { status: 200, body: 'eyJhbGciOiJQUzI1NiJ9.eyJhIjoxfQ.c2ln' },
    },
    {
      given: 'a 200 of a JWS operation that looks like JSON (still text)',
      handler: ((_q, r) => r.writeHead(200, { 'content-type': 'application/jose' }).end('{"a":1}')) as Handler,
      info: operation({ jwsPayload: 'PayloadLocation' }),
      want: { status: 200, body: '{"a":1}' },
    },
    {
      given: 'an error of a JWS operation (parsed as JSON)',
      handler: ((_q, r) => sendJson(r, 404, { title: 'gone' })) as Handler,
      info: operation({ jwsPayload: 'PayloadLocation' }),
      want: { status: 404, body: { title: 'gone' } },
    },
  ])('$given', async ({ handler, info, want }) => {
    const { services } = await serve(handler);
    const result = answered(await sendOnce(services, info));
    expect({ status: result.status, body: result.body }).toEqual(want);
  });

  it('gives the answer’s headers', async () => {
    const { services } = await serve((_q, r) =>
      r.writeHead(200, { 'content-type': 'application/json', 'x-correlation-id': 'c-1' }).end('{}'),
    );
    const result = answered(await sendOnce(services, operation()));
    expect(result.headers.get('x-correlation-id')).toBe('c-1');
  });

  it.each([
    { encoding: 'gzip', encode: gzipSync },
    { encoding: 'deflate', encode: deflateSync },
    { encoding: 'br', encode: brotliCompressSync },
  ])('decodes a $encoding-encoded answer', async ({ encoding, encode }) => {
    const payload = { saldo: 1234.5, moeda: 'BRL', texto: 'ação' };
    const { services } = await serve((_q, r) =>
      r
        .writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding })
        .end(encode(Buffer.from(JSON.stringify(payload)))),
    );
    expect(answered(await sendOnce(services, operation())).body).toEqual(payload);
  });

  it('an invalid JSON 200 → a ResponseValidationError failure, rule json, not quoting the body', async () => {
    const secret = 'sk_live_6a1b2c3d';
    const { services } = await serve((_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end(`{"token":"${secret}", oops`));
    const outcome = failed(
      await sendOnce(services, operation({ operationId: 'getBalance' }), {}, undefined, {
        state: freshState({ attempts: 2, idempotencyKey: 'k-1' }),
      }),
    );
    expect(outcome).toMatchObject({ retryable: false, beforeSending: false, maybeExecuted: true });
    const error = outcome.error as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.status).toBe(200);
    expect(error.issues).toEqual([{ pointer: '', rule: 'json', message: 'the response body is not valid JSON' }]);
    expect(error).toMatchObject({ operationId: 'getBalance', attempts: 2, idempotencyKey: 'k-1' });
    expect(error.message).not.toContain(secret);
    expect(error.message).not.toContain('oops');
    expect(JSON.stringify(error)).not.toContain(secret);
    expect(error.cause).toBeUndefined();
  });
});

describe('send step: no answer', () => {
  it('a refused connection → a ConnectionError failure, retryable, not maybe executed', async () => {
    // A port just freed: nothing listens on it.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    transport = new Transport(undefined, { proxy: false });
    const services: SendServices = { baseUrl: `http://127.0.0.1:${port}`, send: transport.send };
    const outcome = failed(await sendOnce(services, operation({ operationId: 'getBalance' })));
    expect(outcome).toMatchObject({ retryable: true, beforeSending: false, maybeExecuted: false });
    expect(outcome.error).toBeInstanceOf(ConnectionError);
    // The root cause in the message, in one line: the code, the host and port, what it means.
    expect(outcome.error.message).toBe(
      `getBalance: the connection failed before a complete answer: ECONNREFUSED 127.0.0.1:${port} (connection refused: nothing listens there)`,
    );
    expect(outcome.error).toMatchObject({ operationId: 'getBalance', code: 'ECONNREFUSED', target: `127.0.0.1:${port}` });
    expect(outcome.error.cause).toBeDefined();
  });

  it('a reset after the request was read → a ConnectionError failure, maybe executed', async () => {
    const { server, services } = await serve((_q, response) => response.socket?.destroy());
    const outcome = failed(await sendOnce(services, postOf('application/json'), { body: { a: 1 } }));
    expect(server.requests).toHaveLength(1);
    expect(outcome).toMatchObject({ retryable: true, beforeSending: false, maybeExecuted: true });
    expect(outcome.error).toBeInstanceOf(ConnectionError);
  });

  it('a connection dropped halfway through the answer body → a ConnectionError failure, maybe executed', async () => {
    const { services } = await serve((_q, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      response.write('{"partial":', () => response.socket?.destroy());
    });
    const outcome = failed(await sendOnce(services, operation()));
    expect(outcome).toMatchObject({ retryable: true, maybeExecuted: true });
    expect(outcome.error).toBeInstanceOf(ConnectionError);
  });

  it('a cancelled attempt is thrown, not turned into a failure (the timeout step decides)', async () => {
    const { services } = await serve(ok);
    const reason = new Error('cancelled');
    await expect(sendOnce(services, operation(), {}, undefined, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });
});

describe('send step: with a scripted transport', () => {
  const info = operation({ operationId: 'getBalance' });

  it('a TLS refusal (AuthError) → a failure, not retryable, not maybe executed, with the call’s context', async () => {
    const refusal = new AuthError('TLS handshake failed', 'certificate-refused', null);
    const services: SendServices = { baseUrl: 'https://127.0.0.1:1', send: () => Promise.reject(refusal) };
    const outcome = failed(await sendStep(services).run(callOf(info, {}, undefined, { state: freshState({ attempts: 1 }) }), never));
    expect(outcome).toMatchObject({ retryable: false, beforeSending: false, maybeExecuted: false });
    expect(outcome.error).toBeInstanceOf(AuthError);
    expect(outcome.error).toMatchObject({ operationId: 'getBalance', attempts: 1, reason: 'certificate-refused' });
  });

  it('an error that is not a connection failure is thrown as it is', async () => {
    const bug = new TypeError('bug in the transport');
    const services: SendServices = { baseUrl: 'https://127.0.0.1:1', send: () => Promise.reject(bug) };
    await expect(sendStep(services).run(callOf(info), never)).rejects.toBe(bug);
  });

  it('tells onRequest and onAnswer of the attempt, and hands the transport the request it built', async () => {
    const seen: unknown[] = [];
    const events: { kind: string; operationId: string; data: Record<string, unknown> }[] = [];
    const services: SendServices = {
      baseUrl: 'https://api.example/v2',
      send: async (request) => {
        seen.push(request);
        return { status: 200, headers: new Headers(), body: '{"ok":true}' };
      },
      onRequest: (operationId, data) => events.push({ kind: 'request', operationId, data }),
      onAnswer: (operationId, data) => events.push({ kind: 'answer', operationId, data }),
    };
    const controller = new AbortController();
    const call = callOf(
      itemOp,
      { path: { id: '7' } },
      { headers: { Prefer: 'x' } },
      { headers: { Authorization: 'Bearer t' }, signal: controller.signal, state: freshState({ attempts: 3 }) },
    );
    const outcome = await sendStep(services).run(call, never);
    expect(answered(outcome).body).toEqual({ ok: true });
    expect(seen).toEqual([
      {
        method: 'GET',
        url: 'https://api.example/v2/items/7',
        headers: { Prefer: 'x', Authorization: 'Bearer t' },
        body: null,
        signal: controller.signal,
        onHeaders: expect.any(Function),
      },
    ]);
    // Where the attempt went, for the timeout step's words.
    expect(call.state.target).toBe('api.example:443');
    expect(events.map(({ kind, operationId }) => [kind, operationId])).toEqual([
      ['request', 'getItem'],
      ['answer', 'getItem'],
    ]);
    expect(events[0]!.data).toMatchObject({ method: 'GET', path: '/items/{id}', attempt: 3, args: { path: { id: '7' } } });
    expect(events[1]!.data).toMatchObject({ status: 200, attempt: 3 });
    expect(typeof events[1]!.data.ms).toBe('number');
  });
});

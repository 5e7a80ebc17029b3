/**
 * The generic sandbox module answers an interface from its spec alone (the widgets fixture here; the drill
 * serves it through a real sandbox): tokens of the seeded credentials, creations with a new id and their
 * reads, the spec's examples, `Idempotency-Key` replays and 409, 404 for an unknown id, and refusals in the
 * shape the operation declares.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleSpec } from '../../scripts/steps/bundle.js';
import type { OperationInfo } from '../../src/runtime/contract.js';
import { createSandboxClock } from '../../src/sandbox/clock.js';
import {
  type MountableModule,
  type SandboxAnswer,
  type SandboxEnvironment,
  SandboxProblem,
  type SandboxRequest,
} from '../../src/sandbox/contract.js';
import { type GenericState, genericSandbox, genericTokenSeconds } from '../../src/sandbox/generic.js';
import { createSeededRandom } from '../../src/sandbox/random.js';
import { createTokenIssuer } from '../../src/sandbox/tokens.js';

const baseUrl = 'http://127.0.0.1:4010/widgets';
let module: MountableModule;

beforeAll(async () => {
  const bundle = await bundleSpec('test/fixtures/widgets/specs/widgets/openapi.yaml');
  module = genericSandbox('widgets', '/widgets', () => bundle);
});

function environment(): SandboxEnvironment {
  const clock = createSandboxClock({ speed: 0 });
  clock.stop();
  const random = createSeededRandom('generic');
  const credentials = [{ clientId: 'sandbox-widgets', clientSecret: 'sandbox-secret', scopes: ['widgets.read', 'widgets.write'] }];
  return {
    clock,
    random,
    tokens: createTokenIssuer({ clock, random, credentials }),
    webhooks: undefined as never,
    stateOf: () => undefined,
    schedule: () => expect.fail('the generic module schedules nothing'),
    announce: () => expect.fail('the generic module announces nothing'),
  };
}

/** What the engine hands a handler: only the members the generic module reads of the operation's row. */
function request(operationId: string, parts: Partial<SandboxRequest> = {}): SandboxRequest {
  const keyed = operationId === 'widgets.create';
  const info = {
    operationId,
    secured: operationId !== 'auth.token',
    idempotencyKeyRule: keyed ? { header: 'Idempotency-Key', minLength: null, maxLength: null, pattern: null } : null,
  } as OperationInfo;
  return { operationId, info, path: {}, query: {}, headers: {}, body: undefined, principal: undefined, baseUrl, ...parts };
}

/** A handler's answer, or the problem it threw as `{ status, errorType }`. */
async function call(
  state: GenericState,
  env: SandboxEnvironment,
  given: SandboxRequest,
): Promise<SandboxAnswer | { problem: number; errorType: string }> {
  try {
    return await module.handlers[given.operationId]!(given, state, env);
  } catch (error) {
    if (!(error instanceof SandboxProblem)) throw error;
    return { problem: error.status, errorType: error.errorType };
  }
}

const gear = { name: 'gear', color: 'blue', minStock: 2, maxStock: 10 };
const created = (id: number, body: object = gear) => ({ status: 201, body: { id, ...body } });

describe('the generic module: tokens', () => {
  it.each([
    {
      given: 'the seeded credential in the body',
      parts: { body: { client_id: 'sandbox-widgets', client_secret: 'sandbox-secret' } },
      want: 200,
    },
    {
      given: 'the seeded credential by HTTP Basic',
      parts: { headers: { authorization: `Basic ${Buffer.from('sandbox-widgets:sandbox-secret').toString('base64')}` } },
      want: 200,
    },
    { given: 'a wrong secret', parts: { body: { client_id: 'sandbox-widgets', client_secret: 'guess' } }, want: 401 },
    { given: 'no credential', parts: { body: {} }, want: 401 },
    {
      given: 'a scope the credential does not hold',
      parts: { body: { client_id: 'sandbox-widgets', client_secret: 'sandbox-secret', scope: 'gadgets.write' } },
      want: 403,
    },
  ])('$given → $want', async ({ parts, want }) => {
    const env = environment();
    const answer = await call(module.createState(env) as GenericState, env, request('auth.token', parts));
    if (want !== 200) return expect(answer).toMatchObject({ problem: want });
    const body = (answer as SandboxAnswer).body as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: genericTokenSeconds });
    expect(env.tokens.verify(String(body.access_token))).toEqual({
      clientId: 'sandbox-widgets',
      scopes: ['widgets.read', 'widgets.write'],
    });
  });
});

describe('the generic module: resources and keys', () => {
  /** Steps run in order on one fresh state, each with the answer it wants. */
  const steps: { given: string; operationId: string; parts: Partial<SandboxRequest>; want: unknown }[] = [
    { given: 'a creation', operationId: 'widgets.create', parts: { headers: { 'idempotency-key': 'a1' }, body: gear }, want: created(2) },
    {
      given: 'the same key and body again',
      operationId: 'widgets.create',
      parts: { headers: { 'idempotency-key': 'a1' }, body: gear },
      want: created(2),
    },
    {
      given: 'the same key with another body',
      operationId: 'widgets.create',
      parts: { headers: { 'idempotency-key': 'a1' }, body: { ...gear, color: 'red' } },
      want: { problem: 409, errorType: 'conflict' },
    },
    {
      given: 'another key',
      operationId: 'widgets.create',
      parts: { headers: { 'idempotency-key': 'b2' }, body: { name: 'cog', color: 'red' } },
      want: created(3, { name: 'cog', color: 'red', minStock: 2, maxStock: 10 }),
    },
    {
      given: 'a read of the created id',
      operationId: 'widgets.get',
      parts: { path: { id: '2' } },
      want: { status: 200, body: { id: 2, ...gear } },
    },
    {
      given: "a read of the example's id",
      operationId: 'widgets.get',
      parts: { path: { id: '1' } },
      want: { status: 200, body: { id: 1, ...gear } },
    },
    {
      given: 'a read of an unknown id',
      operationId: 'widgets.get',
      parts: { path: { id: '7' } },
      want: { problem: 404, errorType: 'not-found' },
    },
    {
      given: 'the list',
      operationId: 'widgets.list',
      parts: {},
      want: { status: 200, body: { meta: { total: 1 }, data: [{ id: 1, ...gear }] } },
    },
  ];

  it('answers each step of a run as the spec and the state say', async () => {
    const env = environment();
    const state = module.createState(env) as GenericState;
    const answers = [];
    for (const step of steps) answers.push({ given: step.given, answer: await call(state, env, request(step.operationId, step.parts)) });
    expect(answers).toEqual(steps.map((step) => ({ given: step.given, answer: step.want })));
    expect(Object.keys(state.resources['/widgets'] ?? {})).toEqual(['2', '3']);
  });

  it('keeps plain JSON only, so a snapshot restores it', async () => {
    const env = environment();
    const state = module.createState(env) as GenericState;
    await call(state, env, request('widgets.create', { headers: { 'idempotency-key': 'a1' }, body: gear }));
    const restored = JSON.parse(JSON.stringify(state)) as GenericState;
    expect(await call(restored, env, request('widgets.create', { headers: { 'idempotency-key': 'a1' }, body: gear }))).toEqual(created(2));
  });

  it('has a handler for every operation of the spec', () => {
    expect(Object.keys(module.handlers).sort()).toEqual(['auth.token', 'widgets.create', 'widgets.get', 'widgets.list']);
  });
});

describe('the generic module: refusals in the shape the operation declares', () => {
  const context = { baseUrl, correlationId: '0f6a3b1e-7c2d-4e5f-8a9b-1c2d3e4f5a6b' };

  it.each([
    {
      given: 'a 404 of an operation whose problem lists type, title, status and detail',
      answer: () =>
        module.problems.problem(new SandboxProblem(404, 'not-found', 'no widget 7'), { ...context, operationId: 'widgets.get' }),
      want: {
        status: 404,
        contentType: 'application/problem+json',
        body: { type: `${baseUrl}/errors/not-found`, title: 'Not found', status: 404, detail: 'no widget 7' },
      },
    },
    {
      given: 'a 400 of the validators',
      answer: () =>
        module.problems.invalid([{ pointer: '/body/name', rule: 'minLength', message: 'must NOT have fewer than 1 characters' }], {
          ...context,
          operationId: 'widgets.create',
        }),
      want: {
        status: 400,
        body: {
          type: `${baseUrl}/errors/invalid-parameters`,
          title: 'Invalid parameters',
          status: 400,
          detail: '/body/name: must NOT have fewer than 1 characters',
        },
      },
    },
    {
      given: 'a request no operation matches: RFC 7807 in full',
      answer: () => module.problems.problem(new SandboxProblem(404, 'not-found', 'no operation'), context),
      want: {
        status: 404,
        body: {
          type: `${baseUrl}/errors/not-found`,
          title: 'Not found',
          status: 404,
          detail: 'no operation',
          correlationId: context.correlationId,
        },
      },
    },
  ])('$given', ({ answer, want }) => {
    expect(answer()).toMatchObject(want);
    expect(Object.keys(answer().body as object).sort()).toEqual(Object.keys(want.body).sort());
  });
});

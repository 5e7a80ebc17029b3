/**
 * Strict mode judges every answer, not only the handlers': a module whose problem format answers 418 (a status
 * no Pix operation declares) is served by a strict sandbox on 127.0.0.1, and each error path of the engine and
 * the server — parameter validation, a missing token, a planned fault, a body that is not JSON, one too large,
 * one too slow, a route no operation has, a handler that fails — must be reported as a drift naming the status.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineSandboxModule, type ProblemFormat, type SandboxAnswer } from '../../src/sandbox/contract.js';
import { pixSandbox } from '../../src/sandbox/pix/index.js';
import { pixProblems } from '../../src/sandbox/pix/problems.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { closeAll, planFault, startSeeded, takeDrifts } from '../helpers/sandbox.js';
import { authorization, rawRequest } from './hostile.js';

const teapot = (answer: SandboxAnswer): SandboxAnswer => ({ ...answer, status: 418, body: { ...(answer.body as object), status: 418 } });
const drifting: ProblemFormat = {
  ...pixProblems,
  problem: (problem, context) => teapot(pixProblems.problem(problem, context)),
  invalid: (issues, context) => teapot(pixProblems.invalid(issues, context)),
};
const module = defineSandboxModule({
  ...(pixSandbox as Parameters<typeof defineSandboxModule>[0]),
  problems: drifting,
  handlers: {
    ...pixSandbox.handlers,
    'webhook.list': () => {
      throw new Error('a failure of the handler');
    },
  },
});

let sandbox: RunningSandbox;
let token: Record<string, string>;
const txid = 'strictErrorPathsTxid00000000001';

beforeAll(async () => {
  sandbox = await startSeeded('strict-error-paths', [module], { bodyTimeoutMs: 300 });
  token = await authorization(sandbox.url, 'pix');
});
afterAll(() => closeAll(sandbox, []));

const drift = (operationId: string) => new RegExp(`^${operationId.replace('.', '\\.')} 418 /: status 418 is not in the contract`);
// HTTP's 413 and 408 stand outside what an operation declares; any other status there is a drift all the same.
const unreadDrift = (operationId: string) =>
  new RegExp(
    `^${operationId.replace('.', '\\.')} 418 /: status 418 is not in the contract, nor HTTP's 413, 408 or 400 to a request not its own`,
  );

describe('a strict sandbox reports an undeclared status on every error path', () => {
  const cases = [
    {
      given: 'a path value the contract refuses',
      path: '/cob/x',
      request: () => ({ method: 'GET', headers: token }),
      want: [drift('cob.get')],
    },
    { given: 'no token', path: `/cob/${txid}`, request: () => ({ method: 'GET' }), want: [drift('cob.get')] },
    {
      given: 'a planned fault',
      path: `/cob/${txid}`,
      plan: { operationId: 'cob.get', kind: 'unavailable', count: 1 },
      request: () => ({ method: 'GET', headers: token }),
      want: [drift('cob.get')],
    },
    {
      given: 'a body that is not JSON',
      path: `/cob/${txid}`,
      request: () => ({ method: 'PUT', headers: { ...token, 'content-type': 'application/json' }, body: '{"valor":' }),
      want: [drift('cob.replace')],
    },
    {
      given: 'a body too large',
      path: `/cob/${txid}`,
      request: () => ({ method: 'PUT', headers: { ...token, 'content-type': 'application/json' }, declare: 50 * 1024 * 1024 }),
      want: [unreadDrift('cob.replace')],
    },
    {
      given: 'a body that does not arrive in time',
      path: `/cob/${txid}`,
      request: () => ({ method: 'PUT', headers: { ...token, 'content-type': 'application/json' }, declare: 100 }),
      want: [unreadDrift('cob.replace')],
    },
    {
      given: 'a route no operation has',
      path: '/nada/de/nada',
      request: () => ({ method: 'GET', headers: token }),
      want: [/^pix 418 \/: no operation declares 418/],
    },
    {
      given: 'a handler that fails',
      path: '/webhook?inicio=2026-01-01T00:00:00Z&fim=2026-01-02T00:00:00Z',
      request: () => ({ method: 'GET', headers: token }),
      want: [/^internal error: webhook\.list: a failure of the handler$/, drift('webhook.list')],
    },
  ];

  it.each(cases)('$given: 418, and a drift naming it', async ({ path, plan, request, want }) => {
    if (plan) expect((await planFault(sandbox, plan)).status).toBe(201);
    const answer = await rawRequest(`${sandbox.urlOf('pix')}${path}`, request());
    expect(answer.status, answer.text.slice(0, 300)).toBe(418);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(takeDrifts(sandbox)).toEqual(want.map((pattern) => expect.stringMatching(pattern)));
  });

  it('a declared answer on the same sandbox is no drift', async () => {
    const answer = await rawRequest(`${sandbox.urlOf('pix')}/cob/${txid}`, {
      method: 'PUT',
      headers: { ...token, 'content-type': 'application/json' },
      body: JSON.stringify({ calendario: { expiracao: 3600 }, valor: { original: '1.00' }, chave: 'cobrancas@sandbox.example.com' }),
    });
    expect(answer.status, answer.text).toBe(201);
    expect(takeDrifts(sandbox)).toEqual([]);
  });
});

/**
 * The mocks as `npm run mock` serves them: real Prism behind a front that answers an invalid request
 * with a 422 problem naming each violation; valid requests get the spec's examples; dynamic answers are
 * seeded, so two runs give the same answer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { withoutMutualTlsNoise } from '../../src/cli/mock-front.js';
import { startMock, type RunningServer } from '../../src/cli/servers.js';
import { freePort } from '../helpers/ports.js';

let mocks: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(mocks.map((mock) => mock.stop()));
  mocks = [];
});
async function mock(name: Parameters<typeof startMock>[0], options: { dynamic?: boolean } = {}): Promise<string> {
  const server = await startMock(name, await freePort(), options);
  mocks.push(server);
  return server.url;
}
const bearer = { authorization: 'Bearer mock', 'content-type': 'application/json' };

describe('mocks', () => {
  it.each([
    ['core-banking', 'POST', '/fee-rules', { name: 'Tarifa', percent: 1, minAmount: 1 }, /\/body\/maxAmount/],
    [
      'accounts',
      'POST',
      '/crypto-caas/wallets',
      { network: 'USDT', address: '0xa4c123b1612dd272d1371c17149d439536b3216f' },
      /\/body\/network/,
    ],
    [
      'pix',
      'PUT',
      '/cob/fc9a4366ff3d4964b5dbc6c91a8722d3',
      { calendario: { expiracao: 3600 }, valor: { original: '10,00' }, chave: '+5511987654321' },
      /\/body\/valor\/original/,
    ],
    [
      'messages',
      'POST',
      '/messages/pacs.002',
      { idInstrucaoOriginal: 'x', situacaoDaTransacao: 'OK' },
      /\/body\/situacaoDaTransacao|\/body\/idFimAFimOriginal/,
    ],
  ] as const)('%s answers %s %s with a bad body by a 422 problem naming the field', async (name, method, path, body, field) => {
    const url = await mock(name);
    const response = await fetch(`${url}${path}`, { method, headers: { ...bearer, 'svc-token': 'mock' }, body: JSON.stringify(body) });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const problem = (await response.json()) as { status: number; violations: { pointer: string }[]; detail: string };
    expect(problem.status).toBe(422);
    expect(problem.violations.map((v) => v.pointer).join(' ')).toMatch(field);
  });

  it('answers a bad query parameter with a 422 problem too', async () => {
    const url = await mock('core-banking');
    const response = await fetch(`${url}/accounts?perPage=500`, { headers: bearer });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/\/query\/perPage must be at most 100/);
  });

  it('answers a valid request with the example the Prefer header names', async () => {
    const url = await mock('accounts');
    const response = await fetch(`${url}/crypto-caas/wallets?network=ETH`, {
      headers: { ...bearer, 'x-account-id': '48213', Prefer: 'code=200' },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { meta: { total: number } }).meta.total).toBeGreaterThanOrEqual(0);
  });

  it('gives the same dynamic answer in two runs (seeded)', async () => {
    const answer = async () => {
      const url = await mock('core-banking', { dynamic: true });
      const response = await fetch(`${url}/fee-rules`, { headers: bearer });
      const text = await response.text();
      await mocks.pop()!.stop();
      return text;
    };
    const first = await answer();
    expect(first.length).toBeGreaterThan(2);
    expect(await answer()).toBe(first);
  });

  const mutualTls = {
    location: ['request'],
    severity: 'Warning',
    message: 'We currently do not support this type of security scheme: mutualTLS',
  };
  const unauthorised = { location: ['request'], severity: 'Error', code: 401, message: 'Invalid security scheme used' };
  it.each([
    { given: 'only the mutualTLS warning', header: JSON.stringify([mutualTls]), want: undefined },
    { given: 'the warning and a real violation', header: JSON.stringify([mutualTls, unauthorised]), want: JSON.stringify([unauthorised]) },
    { given: 'a real violation only', header: JSON.stringify([unauthorised]), want: JSON.stringify([unauthorised]) },
    { given: 'no header', header: undefined, want: undefined },
    { given: 'a header that is not JSON', header: 'oops', want: 'oops' },
  ])('sl-violations with $given keeps only what concerns the request', ({ header, want }) => {
    expect(withoutMutualTlsNoise(header)).toBe(want);
  });

  it('answers without the mutualTLS warning, and keeps a real violation visible', async () => {
    const url = await mock('core-banking');
    const authorised = await fetch(`${url}/fee-rules`, { headers: bearer });
    expect(authorised.status).toBe(200);
    expect(authorised.headers.get('sl-violations')).toBeNull();
    const anonymous = await fetch(`${url}/fee-rules`);
    expect(JSON.parse(anonymous.headers.get('sl-violations') ?? '[]')).toEqual([unauthorised]);
  });
});

/**
 * `contrato sandbox <verb>` against a real sandbox on a free loopback port: each verb drives the control
 * plane and prints its answer; a refusal is one line and exit 1; a usage error exit 2; no sandbox at the
 * address is one line naming it. Run in-process through runCli (the command table and the exit codes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { generateTxid } from '../../src/formats/pix.js';
import { sandboxModules } from '../../src/sandbox/modules.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';
import { freeLoopbackPort } from '../../src/cli/ports.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ modules: sandboxModules, seed: 'cli' });
});
afterAll(() => sandbox.stop());

async function contrato(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { output: { out: (line) => out.push(line), err: (line) => err.push(line) } });
  return { code, out, err };
}

async function createCharge(): Promise<string> {
  const basic = Buffer.from('sandbox-pix:sandbox-secret').toString('base64');
  const token = (await (
    await fetch(`${sandbox.urlOf('pix')}/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    })
  ).json()) as { access_token: string };
  const txid = generateTxid();
  const created = await fetch(`${sandbox.urlOf('pix')}/cob/${txid}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ calendario: {}, valor: { original: '12.00' }, chave: 'cobrancas@sandbox.example.com' }),
  });
  expect(created.status).toBe(201);
  return txid;
}

describe('contrato sandbox <verb>', () => {
  it('status lists the interfaces and their URLs', async () => {
    const run = await contrato('sandbox', 'status', '--url', sandbox.url);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out.join('\n')).interfaces.pix.url).toBe(sandbox.urlOf('pix'));
  });

  it('pay <txid> makes the charge CONCLUIDA; paying it again is refused in one line', async () => {
    const txid = await createCharge();
    const paid = await contrato('sandbox', 'pay', txid, '--url', sandbox.url);
    expect(paid.code).toBe(0);
    expect(JSON.parse(paid.out.join('\n')).cob.status).toBe('CONCLUIDA');
    const again = await contrato('sandbox', 'pay', txid, '--url', sandbox.url);
    expect(again.code).toBe(1);
    expect(again.err).toEqual([
      expect.stringMatching(/^contrato: sandbox pay: 409 the charge \S+ is CONCLUIDA: only an ATIVA charge takes a payment$/),
    ]);
  });

  it('clock <seconds> moves the sandbox clock', async () => {
    const before = sandbox.env.clock.nowMs();
    const run = await contrato('sandbox', 'clock', '3600', '--url', sandbox.url);
    expect(run.code).toBe(0);
    expect(sandbox.env.clock.nowMs() - before).toBeGreaterThanOrEqual(3_600_000);
  });

  it('fault plans a 503 on the next call of an operation', async () => {
    const run = await contrato('sandbox', 'fault', 'cob.get', 'unavailable', '--count', '1', '--url', sandbox.url);
    expect(run.code).toBe(0);
    const answer = await fetch(`${sandbox.urlOf('pix')}/cob/${generateTxid()}`);
    expect(answer.status).toBe(503);
  });

  it.each([
    { given: 'an unknown verb', argv: ['sandbox', 'explode'], code: 2, err: /^contrato: unknown sandbox verb explode; the verbs are/ },
    { given: 'pay without a txid', argv: ['sandbox', 'pay'], code: 2, err: /^contrato: sandbox pay takes the txid of the charge to pay/ },
    ...['soon', '-5', '0'].map((seconds) => ({
      given: `clock ${seconds}`,
      argv: ['sandbox', 'clock', seconds],
      code: 2,
      err: new RegExp(
        `^contrato: sandbox clock only moves forward: it takes a positive number of seconds \\(120, 0\\.5\\), got "${seconds}"`,
      ),
    })),
    {
      given: 'a fault of an unknown kind',
      argv: ['sandbox', 'fault', 'cob.get', 'meteor'],
      code: 1,
      err: /^contrato: sandbox fault: 400 kind must be one of/,
    },
  ])('$given: exit $code, one line', async ({ argv, code, err }) => {
    const run = await contrato(...argv, '--url', sandbox.url);
    expect(run.code).toBe(code);
    expect(run.err).toHaveLength(1);
    expect(run.err[0]).toMatch(err);
  });

  it('no sandbox at the address: one line naming it, exit 1', async () => {
    const port = await freeLoopbackPort();
    const run = await contrato('sandbox', 'status', '--url', `http://127.0.0.1:${port}`);
    expect(run.code).toBe(1);
    expect(run.err).toEqual([
      `contrato: no sandbox answers at http://127.0.0.1:${port} (ECONNREFUSED; address given with --url); start one with contrato sandbox or npm start, or name it with --url or CONTRATO_SANDBOX_URL`,
    ]);
  });
});

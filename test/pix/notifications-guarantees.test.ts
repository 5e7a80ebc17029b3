/**
 * More guarantees of createPixNotificationHandler on a real loopback server: the spec's own examples pass,
 * each kind is acknowledged only after its callback, concurrent copies of a notification are handled by one
 * delivery, a refund that changes is new news, and a body that never finishes arriving is answered 408.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { createPixNotificationHandler, type DeliveryStore, type PixNotificationHandlerOptions } from '../../src/pix/index.js';
import { closeReceivers, cobr, first, pix, rec, refund, second, startPixReceiver } from './notification-receiver.js';

afterEach(closeReceivers);

type Examples = Record<string, { value: Record<string, unknown[]> }>;
const bundle = JSON.parse(readFileSync(join(projectRoot, 'generated/pix/openapi.json'), 'utf8')) as {
  webhooks: Record<string, { post: { requestBody: { content: { 'application/json': { examples: Examples } } } } }>;
};
const examples = Object.entries(bundle.webhooks).flatMap(([kind, item]) =>
  Object.entries(item.post.requestBody.content['application/json'].examples).map(([name, { value }]) => ({ kind, name, value })),
);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('createPixNotificationHandler guarantees', () => {
  it.each(examples)('accepts the spec’s $kind example $name and hands over each item', async ({ kind, value }) => {
    const seen: string[] = [];
    const record = (item: unknown) => void seen.push(JSON.stringify(item));
    const { post } = await startPixReceiver({ onPix: record, onRec: record, onCobR: record });
    const items = Object.values(value)[0]!;
    expect(await post(`/${kind}`, value)).toMatchObject({ status: 200, body: { received: items.length, duplicates: 0 } });
    expect(seen).toEqual(items.map((item) => JSON.stringify(item)));
  });

  it.each([
    { kind: 'pix', body: { pix: [pix(first)] }, option: 'onPix' },
    { kind: 'rec', body: rec('APROVADA', '2026-11-06T09:47:15.230Z'), option: 'onRec' },
    { kind: 'cobr', body: cobr('CONCLUIDA'), option: 'onCobR' },
  ])('$kind: a failing $option answers 500 and the resend is handled once', async ({ kind, body, option }) => {
    let calls = 0;
    const callback = () => {
      calls += 1;
      if (calls === 1) throw new Error('database down');
    };
    const { post } = await startPixReceiver({ [option]: callback } as PixNotificationHandlerOptions);
    expect((await post(`/${kind}`, body)).status).toBe(500);
    expect(await post(`/${kind}`, body)).toMatchObject({ status: 200, body: { duplicates: 0 } });
    expect(await post(`/${kind}`, body)).toMatchObject({ status: 200, body: { duplicates: 1 } });
    expect(calls).toBe(2);
  });

  it('concurrent copies of a two-Pix notification: one delivery handles both, the other is asked to come back', async () => {
    const seen: string[] = [];
    const { post } = await startPixReceiver({
      onPix: async (item) => {
        seen.push(item.endToEndId);
        await sleep(40);
      },
    });
    const body = { pix: [pix(first), pix(second)] };
    const answers = await Promise.all([post('/pix', body), post('/pix', body)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 503]);
    expect(seen).toEqual([first, second]);
    expect((await post('/pix', body)).body).toEqual({ received: 2, duplicates: 2 });
  });

  it.each([
    { given: 'a first refund', before: [], after: [refund('DEVOLVIDO')], want: 2 },
    { given: 'a second refund', before: [refund('DEVOLVIDO')], after: [refund('DEVOLVIDO'), refund('NAO_REALIZADO', 'DEV7731C')], want: 2 },
    { given: 'a refund that failed after all', before: [refund('DEVOLVIDO')], after: [refund('NAO_REALIZADO')], want: 2 },
    {
      given: 'the same refunds in another order',
      before: [refund('DEVOLVIDO'), refund('DEVOLVIDO', 'X')],
      after: [refund('DEVOLVIDO', 'X'), refund('DEVOLVIDO')],
      want: 1,
    },
  ])('the same endToEndId with $given -> $want calls', async ({ before, after, want }) => {
    let calls = 0;
    const { post } = await startPixReceiver({ onPix: () => void (calls += 1) });
    await post('/pix', { pix: [pix(first, before.length ? { devolucoes: before } : {})] });
    expect((await post('/pix', { pix: [pix(first, { devolucoes: after })] })).status).toBe(200);
    expect(calls).toBe(want);
  });

  it('warns through onError when a callback outlives its lease', async () => {
    const errors: string[] = [];
    const { post } = await startPixReceiver({
      onPix: () => sleep(60),
      claimLeaseMs: 20,
      onError: (error) => errors.push(String(error)),
    });
    expect((await post('/pix', { pix: [pix(first)] })).status).toBe(200);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(new RegExp(`onPix took \\d+ ms for pix:${first}, longer than claimLeaseMs \\(20 ms\\)`));
  });

  it('a body nested too deeply is 400 with the rule, before the schema is consulted', async () => {
    const { post } = await startPixReceiver({ onPix: () => {}, maxNestingDepth: 8 });
    const deep = { pix: [pix(first, { infoPagador: 'x' })], extra: JSON.parse(`${'['.repeat(10)}${']'.repeat(10)}`) };
    const answer = await post('/pix', deep);
    expect(answer.status).toBe(400);
    expect(answer.body.issues).toEqual([expect.objectContaining({ pointer: '', rule: 'maxNestingDepth' })]);
  });

  it('a store that answers nonsense is a 500, so the PSP resends', async () => {
    const store = { claim: () => 'yes', complete: () => {}, release: () => {} } as unknown as DeliveryStore;
    const { post } = await startPixReceiver({ onPix: () => {}, store });
    expect((await post('/pix', { pix: [pix(first)] })).status).toBe(500);
  });

  it('a body that stops arriving gets 408 and the connection is closed', async () => {
    let calls = 0;
    const { port } = await startPixReceiver({ onPix: () => void (calls += 1), bodyTimeoutMs: 150 });
    const body = JSON.stringify({ pix: [pix(first)] });
    const received = await new Promise<string>((resolve) => {
      let text = '';
      const socket = connect(port, '127.0.0.1', () => {
        // The head and half the body, then silence: only the server's deadline ends it.
        socket.write(
          `POST /hooks/loja42/pix HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
        );
        socket.write(body.slice(0, 20));
      });
      const giveUp = setTimeout(() => socket.destroy(), 3000);
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearTimeout(giveUp);
        resolve(text);
      });
    });
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(received).toMatch(/did not arrive within 150 ms/);
    expect(calls).toBe(0);
  });

  it.each([
    { given: 'no options object', options: undefined, want: /takes an options object/ },
    { given: 'a negative body limit', options: { onPix: () => {}, maxBodyBytes: -1 }, want: /maxBodyBytes must be a positive number/ },
    {
      given: 'a body deadline that is not a number',
      options: { onPix: () => {}, bodyTimeoutMs: Number.NaN },
      want: /bodyTimeoutMs must be a positive number/,
    },
    { given: 'onCobR that is not a function', options: { onPix: () => {}, onCobR: true }, want: /onCobR must be a function/ },
  ])('refuses $given', ({ options, want }) => {
    expect(() => createPixNotificationHandler(options as unknown as PixNotificationHandlerOptions)).toThrow(want);
  });
});

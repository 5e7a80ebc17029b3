/**
 * createPixNotificationHandler on a real node:http server on 127.0.0.1: each notified item handled once
 * (a notification posted twice calls the callback once and is acknowledged twice), 2xx only after the
 * callbacks resolved, a failure 5xx and handled on the resend, an invalid body 400 naming the field, the
 * path suffix routing the kind, and the limits of the body.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createPixNotificationHandler,
  memoryDeliveryStore,
  notificationKey,
  notificationKindOf,
  type PixNotificationHandlerOptions,
} from '../../src/pix/index.js';
import { closeReceivers, cobr, first, pix, rec, refund, second, startPixReceiver } from './notification-receiver.js';

afterEach(closeReceivers);
const receiver = async (options: PixNotificationHandlerOptions) => (await startPixReceiver(options)).post;

describe('createPixNotificationHandler', () => {
  it('a notification posted twice calls onPix once per Pix and is acknowledged twice', async () => {
    const seen: string[] = [];
    const post = await receiver({ onPix: (item) => void seen.push(item.endToEndId) });
    const body = { pix: [pix(first), pix(second)] };
    expect((await post('/pix', body)).body).toEqual({ received: 2, duplicates: 0 });
    expect(await post('/pix', body)).toMatchObject({ status: 200, body: { received: 2, duplicates: 2 } });
    expect(seen).toEqual([first, second]);
  });

  it('answers only after the callback resolved', async () => {
    const order: string[] = [];
    const post = await receiver({
      onPix: async () => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        order.push('handled');
      },
    });
    await post('/pix', { pix: [pix(first)] });
    order.push('answered');
    expect(order).toEqual(['handled', 'answered']);
  });

  it('a refund that finished is new news for the same endToEndId; its resend is not', async () => {
    const keys: string[] = [];
    const post = await receiver({ onPix: (_item, { key }) => void keys.push(key) });
    await post('/pix', { pix: [pix(first)] });
    await post('/pix', { pix: [pix(first, { devolucoes: [refund('DEVOLVIDO')] })] });
    await post('/pix', { pix: [pix(first, { devolucoes: [refund('DEVOLVIDO')] })] });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(`pix:${first}`);
    expect(keys[1]).toMatch(new RegExp(`^pix:${first}:[0-9a-f]{16}$`));
  });

  it('a callback failure answers 500, keeps what was handled, and the resend handles the rest once', async () => {
    const seen: string[] = [];
    let failures = 1;
    const post = await receiver({
      onPix: (item) => {
        if (item.endToEndId === second && failures-- > 0) throw new Error('database down');
        seen.push(item.endToEndId);
      },
    });
    const body = { pix: [pix(first), pix(second)] };
    expect((await post('/pix', body)).status).toBe(500);
    expect(await post('/pix', body)).toMatchObject({ status: 200, body: { received: 2, duplicates: 1 } });
    expect(seen).toEqual([first, second]);
  });

  it('concurrent posts of one notification call the callback once; the others are asked to come back', async () => {
    let calls = 0;
    const post = await receiver({
      onPix: async () => {
        calls += 1;
        await new Promise((resolve) => setTimeout(resolve, 50));
      },
    });
    const answers = await Promise.all([1, 2, 3].map(() => post('/pix', { pix: [pix(first)] })));
    expect(calls).toBe(1);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 503, 503]);
    expect(answers.find((answer) => answer.status === 503)?.headers.get('retry-after')).toBe('60');
  });

  it('routes /rec and /cobr by their suffix, each deduplicated by status and history', async () => {
    const seen: string[] = [];
    const post = await receiver({
      onRec: (item) => void seen.push(`rec ${item.status}`),
      onCobR: (item) => void seen.push(`cobr ${item.status}`),
    });
    await post('/rec', rec('APROVADA', '2026-11-06T09:47:15.230Z'));
    await post('/rec', rec('APROVADA', '2026-11-06T09:47:15.230Z'));
    await post('/rec', rec('CANCELADA', '2026-11-07T09:00:00.000Z'));
    await post('?hmac=abc&ignorar=/cobr', cobr('CONCLUIDA'));
    await post('/cobr', cobr('CONCLUIDA'));
    expect(seen).toEqual(['rec APROVADA', 'rec CANCELADA', 'cobr CONCLUIDA']);
  });

  it.each([
    {
      given: 'a Pix without its amount',
      suffix: '/pix',
      body: { pix: [{ endToEndId: first, horario: '2026-11-24T14:32:08.214Z' }] },
      want: { status: 400, pointer: '/pix/0/valor' },
    },
    { given: 'an empty list', suffix: '/pix', body: { pix: [] }, want: { status: 400, pointer: '/pix' } },
    { given: 'a body that is not JSON', suffix: '/pix', body: '{"pix": [', want: { status: 400, pointer: '' } },
    {
      given: 'a recurrence with a bad idRec',
      suffix: '/rec',
      body: { recs: [{ idRec: 'R1', status: 'APROVADA', atualizacao: [] }] },
      want: { status: 400, pointer: '/recs/0/idRec' },
    },
  ])('$given -> 400 naming $want.pointer', async ({ suffix, body, want }) => {
    const errors: unknown[] = [];
    const post = await receiver({ onPix: () => {}, onRec: () => {}, onError: (error) => errors.push(error) });
    const answer = await post(suffix, body);
    expect(answer.status).toBe(want.status);
    expect((answer.body.issues as { pointer: string }[]).map((issue) => issue.pointer)).toContain(want.pointer);
    expect(errors).toHaveLength(1);
  });

  it.each([
    { given: 'an unknown suffix', suffix: '/cob', method: 'POST', body: {}, want: 404 },
    { given: 'a kind this receiver has no callback for', suffix: '/cobr', method: 'POST', body: cobr('ATIVA'), want: 404 },
    { given: 'a GET', suffix: '/pix', method: 'GET', body: undefined, want: 405 },
    { given: 'an empty body', suffix: '/pix', method: 'POST', body: '', want: 400 },
    {
      given: 'a body over the limit',
      suffix: '/pix',
      method: 'POST',
      body: { pix: [pix(first, { infoPagador: 'x'.repeat(3000) })] },
      want: 413,
    },
  ])('$given -> $want', async ({ suffix, method, body, want }) => {
    const post = await receiver({ onPix: () => {}, maxBodyBytes: 2048 });
    expect((await post(suffix, body, method)).status).toBe(want);
  });

  it.each([
    { given: 'no callback', options: {}, want: /needs at least one of onPix, onRec and onCobR/ },
    { given: 'a callback that is not a function', options: { onPix: 'log' }, want: /onPix must be a function/ },
    { given: 'a misspelt option', options: { onPix: () => {}, onRecs: () => {} }, want: /unknown option onRecs/ },
    {
      given: 'a lease that is not positive',
      options: { onPix: () => {}, claimLeaseMs: 0 },
      want: /claimLeaseMs must be a positive number/,
    },
  ])('refuses $given', ({ options, want }) => {
    expect(() => createPixNotificationHandler(options as PixNotificationHandlerOptions)).toThrow(want);
  });

  it('shares a store across receivers: a second replica acknowledges what the first handled', async () => {
    const store = memoryDeliveryStore();
    const seen: string[] = [];
    const one = await receiver({ onPix: (item) => void seen.push(`one ${item.endToEndId}`), store });
    const two = await receiver({ onPix: (item) => void seen.push(`two ${item.endToEndId}`), store });
    await one('/pix', { pix: [pix(first)] });
    expect((await two('/pix', { pix: [pix(first)] })).body).toEqual({ received: 1, duplicates: 1 });
    expect(seen).toEqual([`one ${first}`]);
  });
});

describe('notification routing and keys', () => {
  it.each([
    { given: '/hooks/loja42/pix', want: 'pix' },
    { given: '/pix?hmac=3f1c', want: 'pix' },
    { given: '/webhook/rec/', want: 'rec' },
    { given: '/cobr', want: 'cobr' },
    { given: '/hooks?hmac=3f1c/pix', want: 'pix' },
    { given: '/hooks?hmac=3f1c&ignorar=/rec', want: 'rec' },
    { given: '/hooks?hmac=3f1c&ignorar=%2Fcobr', want: 'cobr' },
    { given: '/hooks/pix?ignorar=/cobr', want: 'cobr' },
    { given: '/hooks?next=/pixel', want: undefined },
    { given: '/hooks?kind=pix', want: undefined },
    { given: '/pixel', want: undefined },
    { given: '/', want: undefined },
    { given: '/hooks/rec///', want: 'rec' },
    { given: '///', want: undefined },
  ])('$given -> $want', ({ given, want }) => {
    expect(notificationKindOf(given)).toBe(want);
  });

  it('a refund still in progress and the same refund finished have different keys', () => {
    expect(notificationKey('pix', pix(first, { devolucoes: [refund('EM_PROCESSAMENTO')] }))).not.toBe(
      notificationKey('pix', pix(first, { devolucoes: [refund('DEVOLVIDO')] })),
    );
  });
});

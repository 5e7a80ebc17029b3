/**
 * Webhook deliveries of the sandbox against real receivers on 127.0.0.1: method and headers as registered,
 * the resend schedule of section 6.1 played on an advanced clock (no real waiting), the subscription
 * disabled after more than 15 consecutive failures, order per subscription, resends, timeouts, stop().
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { createSandboxClock } from '../../src/sandbox/clock.js';
import type { Delivery } from '../../src/sandbox/contract.js';
import { createSeededRandom } from '../../src/sandbox/random.js';
import { createWebhookDispatcher, resendDelayMs } from '../../src/sandbox/webhooks.js';
import { type LoopbackServer, startLoopbackServer } from '../helpers/loopback.js';

const start = Date.UTC(2026, 0, 5, 12, 0, 0);
const minute = 60_000;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A dispatcher on a frozen clock: sandbox time moves only by `advance`, so attempt times are exact. */
function dispatcher(options: { timeoutMs?: number } = {}) {
  const clock = createSandboxClock({ startMs: start, speed: 0 });
  const disabledCalls: string[] = [];
  const webhooks = createWebhookDispatcher({
    clock,
    random: createSeededRandom('webhooks-test'),
    onDisabled: (subscription) => disabledCalls.push(subscription),
    ...options,
  });
  cleanups.push(async () => {
    await webhooks.stop();
    clock.stop();
  });
  /** Moves sandbox time and waits for the attempts it started. */
  const advance = async (ms: number) => {
    clock.advance(ms);
    await webhooks.idle();
  };
  return { clock, webhooks, disabledCalls, advance };
}

/** A receiver answering the status `statusOf(n)` to its n-th request (0-based). */
async function receiver(statusOf: (index: number) => number): Promise<LoopbackServer> {
  let index = 0;
  const server = await startLoopbackServer((_request, response) => {
    response.writeHead(statusOf(index++)).end();
  });
  cleanups.push(() => server.close());
  return server;
}

const delivery = (url: string, overrides: Partial<Delivery> = {}): Delivery => ({
  subscription: 'pix:12345678000190',
  url: `${url}/webhook/pix`,
  method: 'POST',
  headers: {},
  body: { pix: [{ endToEndId: 'E12345678202601051200abcdefghijk', valor: '10.00' }] },
  label: 'pix',
  ...overrides,
});

describe('resendDelayMs (section 6.1)', () => {
  it.each([
    { given: [1, 5], want: 2 * minute },
    { given: [6, 10], want: 15 * minute },
    { given: [11, 15], want: 60 * minute },
    { given: [16, 100], want: null }, // disabled
  ])('after $given.0 to $given.1 consecutive failures: $want', ({ given, want }) => {
    for (let failures = given[0]!; failures <= given[1]!; failures += 1) expect(resendDelayMs(failures)).toBe(want);
  });
});

describe('createWebhookDispatcher', () => {
  it.each([
    { given: { method: 'POST' }, want: { method: 'POST', contentType: 'application/json' } },
    { given: { method: 'PUT' }, want: { method: 'PUT', contentType: 'application/json' } },
    { given: { method: 'patch' }, want: { method: 'PATCH', contentType: 'application/json' } },
    {
      given: { method: 'PUT', contentType: 'application/json; charset=utf-8' },
      want: { method: 'PUT', contentType: 'application/json; charset=utf-8' },
    },
  ])('delivers once to a 2xx receiver with the registered method and headers and a JSON body: $given', async ({ given, want }) => {
    const server = await receiver(() => 204);
    const { webhooks } = dispatcher();
    const headers = { Authorization: 'Basic c2VjcmV0LXZhbHVl', 'X-Webhook-Secret': 'hook-secret-123' };
    const registered = given.contentType ? { ...headers, 'Content-Type': given.contentType } : headers;
    const id = webhooks.send(delivery(server.url, { method: given.method, headers: registered }));
    await webhooks.idle();
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request).toMatchObject({ method: want.method, path: '/webhook/pix' });
    expect(request!.headers).toMatchObject({
      authorization: 'Basic c2VjcmV0LXZhbHVl',
      'x-webhook-secret': 'hook-secret-123',
      'content-type': want.contentType,
    });
    expect(JSON.parse(request!.body)).toEqual(delivery(server.url).body);
    const log = webhooks.log();
    expect(log).toEqual([
      {
        id,
        subscription: 'pix:12345678000190',
        label: 'pix',
        url: `${server.url}/webhook/pix`,
        attempts: [{ atMs: start, status: 204 }],
        state: 'delivered',
      },
    ]);
    // The log never shows a header or the body: they may carry secrets.
    expect(JSON.stringify(log)).not.toMatch(/c2VjcmV0|hook-secret-123|endToEndId/);
  });

  it('resends to a failing receiver at +2 min ×5, +15 min ×5, +60 min ×5, then disables after the 16th failure', async () => {
    const server = await receiver((index) => (index < 16 ? 500 : 200));
    const { webhooks, disabledCalls, advance, clock } = dispatcher();
    const wantMinutes = [0, 2, 4, 6, 8, 10, 25, 40, 55, 70, 85, 145, 205, 265, 325, 385];
    const first = webhooks.send(delivery(server.url));
    const queued = webhooks.send(delivery(server.url, { label: 'queued behind' }));
    await webhooks.idle();
    for (let attempt = 1; attempt < wantMinutes.length; attempt += 1) {
      expect(server.requests).toHaveLength(attempt);
      const gap = (wantMinutes[attempt]! - wantMinutes[attempt - 1]!) * minute;
      await advance(gap - 1); // not a millisecond early
      expect(server.requests).toHaveLength(attempt);
      await advance(1);
    }
    expect(server.requests).toHaveLength(16);
    const [firstRecord, queuedRecord] = webhooks.log();
    expect(firstRecord!.attempts).toEqual(wantMinutes.map((minutes) => ({ atMs: start + minutes * minute, status: 500 })));
    expect(firstRecord).toMatchObject({ id: first, state: 'failed' });
    expect(queuedRecord).toMatchObject({ id: queued, state: 'dropped', attempts: [] });
    expect(webhooks.disabled('pix:12345678000190')).toBe(true);
    expect(disabledCalls).toEqual(['pix:12345678000190']);
    expect(clock.pending()).toBe(0);

    // Disabled: nothing more goes out, a new delivery is dropped at once, onDisabled is not told again.
    await advance(24 * 60 * minute);
    const dropped = webhooks.send(delivery(server.url));
    await webhooks.idle();
    expect(server.requests).toHaveLength(16);
    expect(webhooks.log().find((record) => record.id === dropped)).toMatchObject({ state: 'dropped', attempts: [] });
    expect(disabledCalls).toHaveLength(1);

    // A new registration enables it again.
    webhooks.enable('pix:12345678000190');
    const after = webhooks.send(delivery(server.url));
    await webhooks.idle();
    expect(webhooks.log().find((record) => record.id === after)).toMatchObject({ state: 'delivered' });
    expect(webhooks.disabled('pix:12345678000190')).toBe(false);
  });

  it('resets the count of consecutive failures on a success', async () => {
    // Seven failures (the seventh after a 15-minute wait), a success, then failures again.
    const server = await receiver((index) => (index < 7 ? 500 : index === 7 ? 200 : 500));
    const { webhooks, advance } = dispatcher();
    webhooks.send(delivery(server.url, { label: 'first' }));
    await webhooks.idle();
    for (const gap of [2, 2, 2, 2, 2, 15, 15]) await advance(gap * minute);
    const second = webhooks.send(delivery(server.url, { label: 'second' }));
    await webhooks.idle();
    await advance(2 * minute); // one failure since the success: resent after 2 minutes, not 15
    const [firstRecord, secondRecord] = webhooks.log();
    expect(firstRecord!.attempts.map((attempt) => [(attempt.atMs - start) / minute, attempt.status])).toEqual([
      [0, 500],
      [2, 500],
      [4, 500],
      [6, 500],
      [8, 500],
      [10, 500],
      [25, 500],
      [40, 200],
    ]);
    expect(secondRecord).toMatchObject({ id: second, state: 'pending' });
    expect(secondRecord!.attempts.map((attempt) => (attempt.atMs - start) / minute)).toEqual([40, 42]);
  });

  it('logs a refused connection with its errno and host:port, and retries it', async () => {
    const closed = await startLoopbackServer(() => undefined);
    const port = new URL(closed.url).port;
    await closed.close();
    const { webhooks, advance } = dispatcher();
    webhooks.send(delivery(closed.url, { headers: { authorization: 'Bearer secret-token' } }));
    await webhooks.idle();
    await advance(2 * minute);
    const [record] = webhooks.log();
    expect(record!.attempts).toEqual([
      { atMs: start, status: null, error: `ECONNREFUSED 127.0.0.1:${port}` },
      { atMs: start + 2 * minute, status: null, error: `ECONNREFUSED 127.0.0.1:${port}` },
    ]);
    expect(record!.state).toBe('pending');
  });

  it('resends a delivered delivery on request: the receiver sees a duplicate, logged as a further attempt', async () => {
    const server = await receiver(() => 200);
    const { webhooks, advance } = dispatcher();
    const id = webhooks.send(delivery(server.url));
    await webhooks.idle();
    await advance(5 * minute);
    expect(webhooks.resend(id)).toBe(true);
    await webhooks.idle();
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body).toBe(server.requests[0]!.body);
    expect(webhooks.log()[0]).toMatchObject({
      id,
      state: 'delivered',
      attempts: [
        { atMs: start, status: 200 },
        { atMs: start + 5 * minute, status: 200 },
      ],
    });
  });

  it.each([
    { given: 'an unknown id', status: 200, id: () => 'no-such-delivery' },
    { given: 'a delivery still pending', status: 500, id: (sent: string) => sent },
  ])('refuses to resend $given', async ({ status, id }) => {
    const server = await receiver(() => status);
    const { webhooks } = dispatcher();
    const sent = webhooks.send(delivery(server.url));
    await webhooks.idle();
    expect(webhooks.resend(id(sent))).toBe(false);
  });

  it('keeps the order of a subscription: later deliveries wait for an earlier pending one; others do not', async () => {
    const server = await receiver((index) => (index === 0 ? 503 : 200));
    const { webhooks, advance } = dispatcher();
    const bySubscription = (subscription: string) =>
      server.requests.filter((request) => request.headers['x-subscription'] === subscription).map((request) => JSON.parse(request.body).n);
    const send = (subscription: string, n: number) =>
      webhooks.send(delivery(server.url, { subscription, headers: { 'x-subscription': subscription }, body: { n } }));
    send('first', 1); // answered 503: the first request the receiver sees
    await webhooks.idle();
    send('first', 2);
    send('first', 3);
    send('second', 4);
    await webhooks.idle();
    expect([bySubscription('first'), bySubscription('second')]).toEqual([[1], [4]]);
    await advance(2 * minute);
    expect(bySubscription('first')).toEqual([1, 1, 2, 3]);
    expect(webhooks.log().map((record) => record.state)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
  });

  it('counts a receiver answering after timeoutMs as a failure, and resends', async () => {
    const held: ServerResponse[] = [];
    const slow = await startLoopbackServer((_request, response) => void held.push(response));
    cleanups.push(() => slow.close());
    const { webhooks, advance, clock } = dispatcher({ timeoutMs: 150 });
    webhooks.send(delivery(slow.url));
    await webhooks.idle();
    expect(clock.pending()).toBe(1);
    await advance(2 * minute);
    const port = new URL(slow.url).port;
    expect(webhooks.log()[0]!.attempts).toEqual([
      { atMs: start, status: null, error: `timeout: no answer within 150 ms from 127.0.0.1:${port}` },
      { atMs: start + 2 * minute, status: null, error: `timeout: no answer within 150 ms from 127.0.0.1:${port}` },
    ]);
    expect(slow.requests).toHaveLength(2);
  });

  it('refuses a url that is not http or https', () => {
    const { webhooks } = dispatcher();
    expect(() => webhooks.send(delivery('ftp://127.0.0.1:21'))).toThrow(/http or https/);
  });

  it('stop() cancels the scheduled resends and refuses later deliveries', async () => {
    const server = await receiver(() => 500);
    const { webhooks, clock } = dispatcher();
    webhooks.send(delivery(server.url));
    await webhooks.idle();
    expect(clock.pending()).toBe(1);
    await webhooks.stop();
    expect(clock.pending()).toBe(0);
    expect(() => webhooks.send(delivery(server.url))).toThrow(/stopped/);
  });

  it.each([
    { given: 'dispatcher and clock stopped', stop: true, wantPending: 0 },
    { given: 'a resend still scheduled on a running clock', stop: false, wantPending: 1 },
  ])('leaves nothing that keeps a process alive: $given', ({ stop, wantPending }) => {
    // In a child process: it must end on its own once its work is done (a live timer would keep it running).
    const folder = mkdtempSync(join(tmpdir(), 'contrato-webhooks-'));
    const module = (name: string) => pathToFileURL(join(projectRoot, 'src/sandbox', name)).href;
    const script = join(folder, 'exits.mts');
    writeFileSync(
      script,
      `import { createServer } from 'node:http';
import { createSandboxClock } from '${module('clock.ts')}';
import { createSeededRandom } from '${module('random.ts')}';
import { createWebhookDispatcher } from '${module('webhooks.ts')}';
const server = createServer((_request, response) => response.writeHead(500).end());
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const clock = createSandboxClock();
const webhooks = createWebhookDispatcher({ clock, random: createSeededRandom('exit') });
webhooks.send({ subscription: 's', url: 'http://127.0.0.1:' + server.address().port + '/', method: 'POST', headers: {}, body: {}, label: 'l' });
await webhooks.idle();
if (${stop}) { await webhooks.stop(); clock.stop(); }
server.closeAllConnections();
server.close();
console.log('pending ' + clock.pending());
`,
    );
    try {
      const child = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: projectRoot, encoding: 'utf8', timeout: 20_000 });
      expect({ signal: child.signal, status: child.status, stderr: child.stderr, stdout: child.stdout.trim() }).toEqual({
        signal: null,
        status: 0,
        stderr: '',
        stdout: `pending ${wantPending}`,
      });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

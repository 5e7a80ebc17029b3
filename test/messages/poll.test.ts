/**
 * Lossless long polling against a real HTTPS exchange with client certificates: cursors handed over only
 * after their batch was consumed, a consumer failing mid-batch and a worker process killed at random
 * instants both resume from the saved cursor with no message lost, backoff on failures, abort, and the
 * svc-token on every call but the login.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { ConfigurationError, createMessagesClient, ResponseValidationError, type MessagesClient } from '../../src/messages/index.js';
import { createTestPki, type TestPki } from '../helpers/certificates.js';
import { messageId, startExchange, type Exchange, type ExchangeOptions } from './fixtures/exchange-server.js';

let pki: TestPki;
let exchange: Exchange | undefined;
const scratch = mkdtempSync(join(tmpdir(), 'contrato-poll-'));
beforeAll(() => {
  pki = createTestPki();
});
afterAll(() => {
  pki.dispose();
  rmSync(scratch, { recursive: true, force: true });
});
afterEach(async () => {
  await exchange?.close();
  exchange = undefined;
});

async function connect(options: ExchangeOptions): Promise<MessagesClient> {
  exchange = await startExchange(pki, options);
  return createMessagesClient({
    baseUrl: exchange.url,
    login: { clientId: 'spi-padaria', clientSecret: 'exchange-secret' },
    tls: { pfx: pki.clientPfx, passphrase: pki.pfxPassphrase, ca: pki.ca },
  });
}
const ids = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => messageId(from + i));

describe('poll()', () => {
  it('delivers every message in order and saves each cursor only after its batch was consumed', async () => {
    const client = await connect({ total: 7 });
    const events: string[] = [];
    const received: unknown[] = [];
    const stop = new AbortController();
    for await (const batch of client.poll({ signal: stop.signal, onCursor: (cursor) => void events.push(`saved ${cursor}`) })) {
      for (const message of batch.messages) received.push(message.idFimAFim);
      events.push(`handled ${batch.from}..${batch.cursor}`);
      if (received.length === 7) stop.abort();
    }
    expect(received).toEqual(ids(0, 7));
    // The last batch was consumed too (the loop body ended), so its cursor is saved before the generator sees the abort.
    expect(events).toEqual(['handled start..c3', 'saved c3', 'handled c3..c6', 'saved c6', 'handled c6..c7', 'saved c7']);
    await client.close();
  });

  it('sends the svc-token on every poll and none on the login', async () => {
    const client = await connect({ total: 2 });
    const stop = new AbortController();
    for await (const _batch of client.poll({ signal: stop.signal })) stop.abort();
    expect(exchange!.seen[0]).toEqual({ method: 'POST', path: '/login', token: undefined });
    expect(exchange!.seen.slice(1).every((request) => request.token === 'svc-7f3a')).toBe(true);
    await client.close();
  });

  it('a consumer that fails mid-batch resumes from the saved cursor and loses nothing', async () => {
    const client = await connect({ total: 9 });
    let saved: string | undefined;
    const handled: string[] = [];
    await expect(
      (async () => {
        for await (const batch of client.poll({ onCursor: (cursor) => void (saved = cursor) })) {
          for (const message of batch.messages) {
            if (message.idFimAFim === messageId(4)) throw new Error('crashed while handling');
            handled.push(String(message.idFimAFim));
          }
        }
      })(),
    ).rejects.toThrow('crashed');
    expect(saved).toBe('c3');
    const stop = new AbortController();
    for await (const batch of client.poll({ cursor: saved!, signal: stop.signal, onCursor: (cursor) => void (saved = cursor) })) {
      for (const message of batch.messages) handled.push(String(message.idFimAFim));
      if (new Set(handled).size === 9) stop.abort();
    }
    expect([...new Set(handled)].sort()).toEqual(ids(0, 9));
    expect(handled.filter((id) => id === messageId(3))).toHaveLength(2); // redelivered, at least once
    await client.close();
  });

  it('a worker killed at random instants and restarted from its cursor file receives every message', async () => {
    exchange = await startExchange(pki, { total: 40, batchSize: 4 });
    const pkiFile = join(scratch, 'pki.json');
    writeFileSync(pkiFile, JSON.stringify({ ca: pki.ca, pfx: pki.clientPfx.toString('base64'), passphrase: pki.pfxPassphrase }));
    const cursorFile = join(scratch, 'cursor');
    const outputFile = join(scratch, 'handled');
    const handled = () => (existsSync(outputFile) ? readFileSync(outputFile, 'utf8').split('\n').filter(Boolean) : []);
    let kills = 0;
    for (let run = 0; run < 20 && new Set(handled()).size < 40; run += 1) {
      const worker = spawn(
        process.execPath,
        ['--import', 'tsx', join(projectRoot, 'test/messages/fixtures/poll-worker.ts'), exchange.url, pkiFile, cursorFile, outputFile],
        { cwd: projectRoot, stdio: 'ignore' },
      );
      const before = handled().length;
      // Kill it after a few more messages (mid-batch, most of the time) five times; then let it finish the list.
      const target = kills < 5 ? before + 3 + ((run * 7) % 5) : Number.POSITIVE_INFINITY;
      await new Promise<void>((resolve) => {
        const timer = setInterval(() => {
          if (handled().length >= target || new Set(handled()).size >= 40) {
            clearInterval(timer);
            worker.kill('SIGKILL');
            kills += 1;
          }
        }, 5);
        worker.on('exit', () => {
          clearInterval(timer);
          resolve();
        });
      });
    }
    expect(kills).toBeGreaterThanOrEqual(5);
    expect([...new Set(handled())].sort()).toEqual(ids(0, 40));
  }, 60_000);

  it('backs off and goes on after failed polls', async () => {
    const client = await connect({ total: 3, failFirst: 2 });
    const errors: number[] = [];
    const waits: number[] = [];
    const stop = new AbortController();
    const received: unknown[] = [];
    for await (const batch of client.poll({
      signal: stop.signal,
      onError: (_error, attempt) => void errors.push(attempt),
      backoff: { minMs: 10, maxMs: 15 },
      sleep: async (ms) => void waits.push(ms),
    })) {
      received.push(...batch.messages.map((m) => m.idFimAFim));
      stop.abort();
    }
    expect(errors).toEqual([1, 2]);
    expect(waits).toEqual([10, 15]);
    expect(received).toEqual(ids(0, 3));
    await client.close();
  });

  it('stops on abort while a poll is held open', async () => {
    const client = await connect({ total: 0, holdMs: 5_000 });
    const stop = new AbortController();
    const started = Date.now();
    setTimeout(() => stop.abort(), 100);
    const batches: unknown[] = [];
    for await (const batch of client.poll({ signal: stop.signal })) batches.push(batch);
    expect(batches).toEqual([]);
    expect(Date.now() - started).toBeLessThan(3_000);
    await client.close();
  });

  it('refuses to go on when an answer has no svc-pull-next', async () => {
    const client = await connect({ total: 2, withoutCursor: true });
    const outcome = (async () => {
      for await (const _batch of client.poll()) void _batch;
    })();
    await expect(outcome).rejects.toThrow(ResponseValidationError);
    await client.close();
  });

  it('needs the client certificate (section 1)', () => {
    expect(() =>
      createMessagesClient({ baseUrl: 'https://messages.example.com', login: { clientId: 'a', clientSecret: 'b' }, tls: { ca: 'x' } }),
    ).toThrow(ConfigurationError);
  });
});

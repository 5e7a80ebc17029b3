/**
 * Test helpers for the Pix notification handler: a real node:http server on 127.0.0.1, port 0, behind a
 * base path as a merchant would register it, closed by the test; posts by fetch; bodies built from values
 * of the shapes the API Pix standard notifies.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPixNotificationHandler, type NotifiedPix, type PixNotificationHandlerOptions } from '../../src/pix/index.js';
import { closeServers } from '../helpers/servers.js';

export interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers: Headers;
}

export interface PixReceiver {
  readonly port: number;
  /** POSTs (or sends `method`) `body` to `/hooks/loja42<suffix>`. */
  post(suffix: string, body: unknown, method?: string): Promise<Answer>;
}

const servers: Server[] = [];

/** Closes every receiver started so far; call it in afterEach. */
export const closeReceivers = (): Promise<void> => closeServers(servers);

export async function startPixReceiver(options: PixNotificationHandlerOptions): Promise<PixReceiver> {
  const handler = createPixNotificationHandler(options);
  const server = createServer((request, response) => void handler(request, response));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    async post(suffix, body, method = 'POST') {
      const response = await fetch(`http://127.0.0.1:${port}/hooks/loja42${suffix}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown>, headers: response.headers };
    },
  };
}

export const first = 'E18236120202611241432kR7mQ2xT9Lp';
export const second = 'E18236120202611241433aB3cD4eF5gH';

export const pix = (endToEndId: string, extra: Partial<NotifiedPix> = {}): NotifiedPix => ({
  endToEndId,
  txid: '7f3c9a2e5b1d4f8a9c0e6b2d4f1a8c3e',
  valor: '89.90',
  chave: '2d4c3a7e-9b61-4f0e-8a55-7c1b6d0e9f42',
  horario: '2026-11-24T14:32:08.214Z',
  ...extra,
});

export const refund = (status: string, id = 'DEV7731B') => ({
  id,
  rtrId: 'D18236120202611241020a8Fj3kLm9Qw',
  valor: '20.00',
  horario: { solicitacao: '2026-11-24T10:20:11.034Z' },
  status,
});

export const rec = (status: string, at: string) => ({
  recs: [
    {
      idRec: 'RR1314008820261105k7Q2mX9pL4a',
      status,
      atualizacao: [
        { status: 'CRIADA', data: '2026-11-05T13:22:41.904Z' },
        { status, data: at },
      ],
    },
  ],
});

export const cobr = (status: string) => ({
  cobsr: [
    {
      idRec: 'RR1314008820261105k7Q2mX9pL4a',
      txid: 'c0b7f3a91d24e6b8f0a5c7d2e9b4f61a',
      status,
      atualizacao: [{ status, data: '2026-12-10T03:00:41.556Z' }],
    },
  ],
});

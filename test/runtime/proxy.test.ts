/**
 * Transport users can reach: a real forward proxy on 127.0.0.1 (HTTP CONNECT tunnels) between the client
 * and a mutual-TLS platform — chosen by the `proxy` option or by HTTPS_PROXY / NO_PROXY as curl reads them,
 * with the client certificate presented end to end through the tunnel — and an undici dispatcher of the
 * caller's own carrying every request.
 */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { Agent, type Dispatcher } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError, createCoreBankingClient } from '../../src/core-banking/index.js';
import { createTestPki, type TestPki } from '../helpers/certificates.js';
import { startMutualTlsServer, type HttpsTestServer } from '../helpers/https-server.js';
import { sendJson, startLoopbackServer } from '../helpers/loopback.js';

interface ForwardProxy {
  readonly url: string;
  /** `host:port` of every CONNECT it tunnelled. */
  readonly tunnels: string[];
  close(): Promise<void>;
}

/** A forward proxy that only tunnels (CONNECT), as corporate proxies do for https. */
async function startForwardProxy(): Promise<ForwardProxy> {
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((_request, response) => response.writeHead(405).end());
  server.on('connect', (request, client: Socket, head: Buffer) => {
    const target = request.url ?? '';
    tunnels.push(target);
    const [host, port] = target.split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tunnels,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let pki: TestPki;
let platform: HttpsTestServer;
let proxy: ForwardProxy;
const seenCertificates: string[] = [];
const environment = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'] as const;
const savedEnvironment = Object.fromEntries(environment.map((name) => [name, process.env[name]]));

beforeAll(async () => {
  pki = createTestPki();
  platform = await startMutualTlsServer(pki, (request, response) => {
    seenCertificates.push(String((request.socket as TLSSocket).getPeerCertificate().subject?.CN ?? ''));
    response.setHeader('content-type', 'application/json');
    if (request.url === '/auth/token')
      return void response.end(JSON.stringify({ access_token: 'proxied-token', token_type: 'Bearer', expires_in: 3600 }));
    response.end(JSON.stringify({ accountId: '77', balance: 10.5, currency: 'BRL', lastUpdated: '2026-11-20T10:00:00Z' }));
  });
  proxy = await startForwardProxy();
});
afterEach(() => {
  for (const name of environment) {
    if (savedEnvironment[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnvironment[name];
  }
  proxy.tunnels.length = 0;
  seenCertificates.length = 0;
});
afterAll(async () => {
  await proxy.close();
  await platform.close();
  pki.dispose();
});

const platformHost = (): string => new URL(platform.url).host;
const clientWith = (extra: Record<string, unknown>) =>
  createCoreBankingClient({
    baseUrl: platform.url,
    clientId: 'partner',
    clientSecret: 'proxy-secret',
    tls: { ...pki.client, ca: pki.ca },
    retry: { maxRetries: 0 },
    rateLimit: false,
    ...extra,
  });

describe('a forward proxy', () => {
  it.each([
    { given: 'the proxy option', setup: () => ({ proxy: proxy.url }) },
    {
      given: 'HTTPS_PROXY in the environment',
      setup: () => {
        process.env.HTTPS_PROXY = proxy.url;
        delete process.env.NO_PROXY;
        delete process.env.no_proxy;
        return {};
      },
    },
  ])('$given: token and call tunnel through it, the client certificate reaches the platform', async ({ setup }) => {
    const client = clientWith(setup());
    await expect(client.accounts.balance({ path: { id: 77 } })).resolves.toMatchObject({ balance: 10.5 });
    await client.close();
    expect(proxy.tunnels.length).toBeGreaterThanOrEqual(1);
    expect(new Set(proxy.tunnels)).toEqual(new Set([platformHost()]));
    expect(seenCertificates).toEqual(['partner-client', 'partner-client']);
  });

  it.each([
    {
      given: 'NO_PROXY naming the platform',
      setup: () => ((process.env.HTTPS_PROXY = proxy.url), (process.env.NO_PROXY = '127.0.0.1'), {}),
    },
    { given: 'proxy: false', setup: () => ((process.env.HTTPS_PROXY = proxy.url), { proxy: false }) },
    { given: 'no proxy anywhere', setup: () => ({}) },
  ])('$given: the calls go direct', async ({ setup }) => {
    const client = clientWith(setup());
    await expect(client.accounts.balance({ path: { id: 77 } })).resolves.toMatchObject({ balance: 10.5 });
    await client.close();
    expect(proxy.tunnels).toEqual([]);
    expect(seenCertificates).toEqual(['partner-client', 'partner-client']);
  });

  it.each([
    { given: 'not a URL', proxy: 'http://proxy host:3128', want: /proxy is not a URL/ },
    { given: 'a SOCKS address', proxy: 'socks5://127.0.0.1:1080', want: /proxy protocol socks5: is not http\(s\)/ },
  ])('a proxy option that is $given is refused before any request', ({ proxy: given, want }) => {
    expect(() => clientWith({ proxy: given })).toThrow(ConfigurationError);
    expect(() => clientWith({ proxy: given })).toThrow(want);
  });
});

describe('a dispatcher of the caller', () => {
  it('carries the token request and every call; closing the client leaves it open', async () => {
    const server = await startLoopbackServer((request, response) =>
      request.path === '/auth/token'
        ? sendJson(response, 200, { access_token: 't', token_type: 'Bearer', expires_in: 3600 })
        : sendJson(response, 200, { accountId: '77', balance: 1, currency: 'BRL', lastUpdated: '2026-11-20T10:00:00Z' }),
    );
    const dispatched: string[] = [];
    class CountingAgent extends Agent {
      override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
        dispatched.push(`${options.method} ${options.path}`);
        return super.dispatch(options, handler);
      }
    }
    const dispatcher = new CountingAgent();
    try {
      const client = createCoreBankingClient({ baseUrl: server.url, clientId: 'c', clientSecret: 's', dispatcher, rateLimit: false });
      await client.accounts.balance({ path: { id: 77 } });
      await client.close();
      expect(dispatched).toEqual(['POST /auth/token', 'GET /accounts/77/balance']);
      expect(dispatcher.closed).toBe(false);
      await expect(client.accounts.balance({ path: { id: 77 } })).rejects.toThrow(/this client was closed/);
    } finally {
      await dispatcher.close();
      await server.close();
    }
  });

  it('with tls as well is refused: the TLS settings belong to the dispatcher', () => {
    expect(() => clientWith({ dispatcher: new Agent() })).toThrow(/give the TLS settings to your dispatcher/);
  });
});

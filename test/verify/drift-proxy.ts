/**
 * A loopback proxy in front of a server (the sandbox), for proving `contrato verify` judges: it forwards every
 * request (the control plane at /_sandbox too) and, while a drift is planted, lets the drift change what the
 * implementation does — the request before it is forwarded, the answer before it is returned, or the
 * connection itself (reset, answered late). Like a reverse proxy, it writes its own address for the target's
 * in the answers (problem types, locations), so passing through they are what the target's own would be.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ProxiedRequest {
  readonly method: string;
  /** Path and query, as the caller sent them. */
  readonly path: string;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

export interface ProxiedAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/** What a drift makes of an answer: another answer, a reset connection, or the answer late. */
export type Outcome = ProxiedAnswer | { readonly reset: true } | { readonly late: ProxiedAnswer; readonly afterMs: number };

export interface Drift {
  /** Whether this request is one the drift acts on (the others pass through untouched). */
  readonly matches: (request: ProxiedRequest) => boolean;
  /** The request as forwarded (a token added, a header changed). */
  readonly request?: (request: ProxiedRequest) => ProxiedRequest;
  /** The answer as returned (another status, a body changed, a stored answer replayed, the connection reset). */
  readonly answer?: (answer: ProxiedAnswer, request: ProxiedRequest) => Outcome;
}

export interface DriftProxy {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Plants one drift (null: every request passes through). */
  plant(drift: Drift | null): void;
  /** How many requests the planted drift acted on since it was planted. */
  readonly touched: () => number;
  close(): Promise<void>;
}

/** The headers of an answer or request as a plain record of lower-case names (joined when repeated). */
function flatHeaders(raw: IncomingMessage['headers']): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw))
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return headers;
}

async function bodyOf(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'proxy-connection', 'upgrade']);

function forward(target: URL, request: ProxiedRequest): Promise<ProxiedAnswer> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (!hopByHop.has(name)) headers[name] = value;
  headers['content-length'] = String(request.body.length);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: target.hostname, port: target.port, method: request.method, path: request.path, headers, agent: false },
      (incoming) => {
        bodyOf(incoming).then(
          (body) => resolve({ status: incoming.statusCode ?? 502, headers: flatHeaders(incoming.headers), body }),
          reject,
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

/**
 * The answer with the target's host:port replaced by the proxy's in its headers and in a problem's `type` (the
 * address section 7 shapes it from). Nothing else in a body is touched: a BR Code carries its location under
 * a CRC.
 */
function rehomed(answer: ProxiedAnswer, targetHost: string, own: string): ProxiedAnswer {
  const swap = (text: string): string => text.split(targetHost).join(own);
  const headers = Object.fromEntries(Object.entries(answer.headers).map(([name, value]) => [name, swap(value)]));
  let body = answer.body;
  try {
    const parsed = JSON.parse(body.toString('utf8')) as unknown;
    if (typeof parsed === 'object' && parsed !== null && typeof (parsed as { type?: unknown }).type === 'string') {
      const problem = parsed as { type: string };
      if (problem.type.includes(targetHost)) body = Buffer.from(JSON.stringify({ ...problem, type: swap(problem.type) }));
    }
  } catch {}
  return { ...answer, headers, body };
}

function reply(response: ServerResponse, answer: ProxiedAnswer): void {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers)) if (!hopByHop.has(name)) headers[name] = value;
  headers['content-length'] = String(answer.body.length);
  response.writeHead(answer.status, headers);
  response.end(answer.body);
}

/** Starts the proxy on 127.0.0.1 (a free port) in front of `targetUrl` (its origin). */
export async function startDriftProxy(targetUrl: string): Promise<DriftProxy> {
  const target = new URL(targetUrl);
  let planted: Drift | null = null;
  let touched = 0;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let own = '';
  const server: Server = createServer((incoming, response) => {
    void (async () => {
      let request: ProxiedRequest = {
        method: incoming.method ?? 'GET',
        path: incoming.url ?? '/',
        headers: flatHeaders(incoming.headers),
        body: await bodyOf(incoming),
      };
      const acting = planted?.matches(request) ? planted : null;
      if (acting) touched += 1;
      if (acting?.request) request = acting.request(request);
      let answer: ProxiedAnswer;
      try {
        answer = rehomed(await forward(target, request), target.host, own);
      } catch {
        incoming.socket.destroy();
        return;
      }
      const outcome: Outcome = acting?.answer ? acting.answer(answer, request) : answer;
      if ('reset' in outcome) {
        incoming.socket.destroy();
        return;
      }
      if ('late' in outcome) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!response.destroyed) reply(response, outcome.late);
        }, outcome.afterMs);
        timers.add(timer);
        return;
      }
      reply(response, outcome);
    })().catch(() => incoming.socket.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  own = `127.0.0.1:${port}`;
  return {
    url: `http://127.0.0.1:${port}`,
    plant(drift) {
      planted = drift;
      touched = 0;
    },
    touched: () => touched,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The answer with its JSON body changed by `change` (which may mutate the parsed body in place, or return a new one). */
export function withJson(answer: ProxiedAnswer, change: (body: Record<string, unknown>) => unknown): ProxiedAnswer {
  const parsed = JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>;
  const changed = change(parsed);
  return { ...answer, body: Buffer.from(JSON.stringify(changed === undefined ? parsed : changed)) };
}

/** Whether an answer body parses as JSON. */
export function isJson(answer: ProxiedAnswer): boolean {
  try {
    JSON.parse(answer.body.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

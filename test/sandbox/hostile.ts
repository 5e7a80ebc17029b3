/**
 * What the tests of hostile requests share (hostile-requests.test.ts, memory.test.ts and its child): raw HTTP
 * requests that may declare a length they never send or stream a body until the server answers, the malformed
 * multipart forms, a JSON text nested 100 000 deep, and the credentials and one body-taking operation of each
 * interface of the sandbox.
 */
import { request as httpRequest } from 'node:http';

export interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
  /** Body bytes the client wrote before the answer came (a streamed body stops there). */
  readonly bytesSent: number;
  /** Whether the server closed the connection after its answer. */
  readonly closed: boolean;
  readonly elapsedMs: number;
}

export interface RawRequest {
  readonly method: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The whole body, sent at once. */
  readonly body?: string | Buffer;
  /** A body of this many bytes written in 1 MiB chunks (chunked unless `declare`), stopped as soon as the answer came. */
  readonly stream?: number;
  /** A content-length declared without sending the body: the answer must come from the headers alone. */
  readonly declare?: number;
  /** Gives up after this long (default 20 s), so a request always ends. */
  readonly timeoutMs?: number;
  /** How long to wait, after the answer, for the server to close the connection (default 500 ms). */
  readonly closeWithinMs?: number;
}

/** One HTTP request on its own connection; rejects only when no answer came. */
export function rawRequest(url: string, options: RawRequest): Promise<RawAnswer> {
  const started = performance.now();
  const target = new URL(url);
  const headers: Record<string, string | number> = { ...options.headers, connection: 'keep-alive' };
  if (options.body !== undefined) headers['content-length'] = Buffer.byteLength(options.body);
  if (options.declare !== undefined) headers['content-length'] = options.declare;
  // Node's client frames a GET's body only when told: chunked, as any method streaming a body of unknown length.
  else if (options.stream !== undefined) headers['transfer-encoding'] = 'chunked';
  return new Promise((resolve, reject) => {
    let bytesSent = 0;
    let answered = false;
    const request = httpRequest({
      host: target.hostname,
      port: target.port,
      method: options.method,
      path: `${target.pathname}${target.search}`,
      headers,
    });
    const timer = setTimeout(
      () => request.destroy(new Error(`no answer from ${options.method} ${target.pathname} within the time`)),
      options.timeoutMs ?? 20_000,
    );
    request.on('response', (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', () => undefined);
      response.on('end', () => {
        const socket = response.socket;
        const finish = (closed: boolean) => {
          clearTimeout(timer);
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
            bytesSent,
            closed,
            elapsedMs: performance.now() - started,
          });
          request.destroy();
        };
        if (!socket || socket.destroyed) return finish(true);
        // Closed by the server soon after its answer, or kept open for the next request.
        const wait = setTimeout(() => finish(false), options.closeWithinMs ?? 500);
        socket.once('close', () => {
          clearTimeout(wait);
          finish(true);
        });
      });
    });
    // Writing into a connection the server dropped after answering fails; the answer is what counts.
    request.on('error', (error) => {
      if (answered) return;
      clearTimeout(timer);
      reject(error);
    });
    if (options.body !== undefined) {
      bytesSent = Buffer.byteLength(options.body);
      request.end(options.body);
    } else if (options.stream !== undefined) {
      const total = options.stream;
      const chunk = Buffer.alloc(1 << 20, 0x20);
      const pump = (): void => {
        // Bounded: at most total / 1 MiB writes, and none after the answer.
        while (bytesSent < total && !answered && !request.destroyed) {
          const size = Math.min(chunk.length, total - bytesSent);
          bytesSent += size;
          if (!request.write(size === chunk.length ? chunk : chunk.subarray(0, size))) return void request.once('drain', pump);
        }
        if (!answered && !request.destroyed) request.end();
      };
      pump();
    } else if (options.declare !== undefined) {
      request.flushHeaders();
    } else {
      request.end();
    }
  });
}

/** A JSON array nested `depth` deep (`[[[…]]]`), 2 bytes a level. */
export const nestedJson = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

export const boundary = 'contratoBoundary7MA4YWxk';
const multipartType = `multipart/form-data; boundary=${boundary}`;
const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const filePart = (bytes: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="front.png"\r\nContent-Type: image/png\r\n\r\n${bytes}\r\n`;
const close = `--${boundary}--\r\n`;
/** The first bytes of a PNG, so a well-formed upload passes the image check. */
export const pngBytes = '\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR';
/** A well-formed upload of the front of a document (accounts onboarding.uploadImage). */
export const goodUpload = { contentType: multipartType, body: `${field('type', 'FRONT')}${filePart(pngBytes)}${close}` } as const;

/** Multipart bodies the sandbox must refuse with 400: malformed forms, and well-formed ones whose fields break the schema. */
export function malformedMultipart(): { given: string; contentType: string; body: string }[] {
  const good = goodUpload.body;
  const fields = `${field('type', 'FRONT')}${filePart(pngBytes)}`;
  const cases: [string, string, string][] = [
    ['no boundary parameter', 'multipart/form-data', good],
    ['an empty boundary', 'multipart/form-data; boundary=', good],
    ['a boundary the body does not use', 'multipart/form-data; boundary=another', good],
    ['a boundary longer than the one the body uses', `multipart/form-data; boundary=${boundary}X`, good],
    ['the boundary given twice', `multipart/form-data; boundary=x; boundary=${boundary}`, good],
    ['truncated inside the first headers', multipartType, good.slice(0, 40)],
    ['truncated inside the file', multipartType, good.slice(0, good.length - 30)],
    ['no final delimiter', multipartType, fields],
    [
      'a delimiter not followed by a line end',
      multipartType,
      `--${boundary}Content-Disposition: form-data; name="type"\r\n\r\nFRONT\r\n${close}`,
    ],
    ['no parts at all', multipartType, close],
    ['plain text', multipartType, 'type=FRONT&file=front.png'],
    ['only line ends', multipartType, '\r\n\r\n\r\n'],
    ['binary noise', multipartType, String.fromCharCode(...Array.from({ length: 512 }, (_, index) => (index * 37) % 256))],
    ['JSON', multipartType, JSON.stringify({ type: 'FRONT', file: 'front.png' })],
    ['a part without Content-Disposition', multipartType, `--${boundary}\r\nContent-Type: text/plain\r\n\r\nFRONT\r\n${close}`],
    ['a Content-Disposition without a name', multipartType, `--${boundary}\r\nContent-Disposition: form-data\r\n\r\nFRONT\r\n${close}`],
    [
      'a Content-Disposition that is not form-data',
      multipartType,
      `--${boundary}\r\nContent-Disposition: attachment; name="type"\r\n\r\nFRONT\r\n${close}`,
    ],
    [
      'a header line without a colon',
      multipartType,
      `--${boundary}\r\nContent-Disposition form-data; name="type"\r\n\r\nFRONT\r\n${close}`,
    ],
    ['headers that never end', multipartType, `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\nX-Other: y\r\n`],
    ['an unterminated quoted name', multipartType, `--${boundary}\r\nContent-Disposition: form-data; name="type\r\n\r\nFRONT\r\n${close}`],
    [
      'a filename* that is no percent-encoding',
      multipartType,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''%FF%ZZ\r\n\r\nx\r\n${close}`,
    ],
    ['line ends without CR', multipartType, good.replace(/\r\n/g, '\n')],
    ['multipart/mixed instead of form-data', `multipart/mixed; boundary=${boundary}`, good],
    ['10 000 parts', multipartType, `${Array.from({ length: 10_000 }, (_, index) => field(`f${index}`, 'x')).join('')}${close}`],
    ['100 000 parts without a name', multipartType, `${field('', '').repeat(100_000)}${close}`],
    ['a part whose name is 1 MiB long', multipartType, `${field('a'.repeat(1 << 20), 'x')}${filePart(pngBytes)}${close}`],
    ['the type outside its values', multipartType, `${field('type', 'PASSPORT')}${filePart(pngBytes)}${close}`],
    ['the file missing', multipartType, `${field('type', 'FRONT')}${close}`],
  ];
  return cases.map(([given, contentType, body]) => ({ given, contentType, body }));
}

/** Headers that authorize a call of each interface at `sandboxUrl`, asked of its own token endpoint. */
export async function authorization(sandboxUrl: string, document: string): Promise<Record<string, string>> {
  const post = async (path: string, headers: Record<string, string>, body: string) => {
    const answer = await fetch(`${sandboxUrl}${path}`, { method: 'POST', headers, body });
    if (!answer.ok) throw new Error(`token of ${document}: ${answer.status} ${await answer.text()}`);
    return { json: (await answer.json()) as Record<string, string>, headers: answer.headers };
  };
  const json = { 'content-type': 'application/json' };
  const credential = (clientId: string) => JSON.stringify({ clientId, clientSecret: 'sandbox-secret', grantType: 'client_credentials' });
  switch (document) {
    case 'pix': {
      const basic = Buffer.from('sandbox-pix:sandbox-secret').toString('base64');
      const { json: token } = await post(
        '/pix/oauth/token',
        { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
        'grant_type=client_credentials',
      );
      return { authorization: `Bearer ${token.access_token}` };
    }
    case 'accounts':
      return { authorization: `Bearer ${(await post('/accounts/api/v2/auth/token', json, credential('baas_sandbox'))).json.accessToken}` };
    case 'core-banking': {
      const body = JSON.stringify({ client_id: 'sandbox-core', client_secret: 'sandbox-secret', grant_type: 'client_credentials' });
      return { authorization: `Bearer ${(await post('/core-banking/auth/token', json, body)).json.access_token}` };
    }
    case 'messages': {
      const body = JSON.stringify({ clientId: 'sandbox-messages', clientSecret: 'sandbox-secret' });
      return { 'svc-token': (await post('/messages/login', json, body)).json.token! };
    }
    default:
      return {};
  }
}

/** One operation of each interface that reads a JSON body, the path that reaches it, and what its 400 looks like. */
export const bodyProbes = [
  {
    document: 'pix',
    operationId: 'cob.replace',
    method: 'PUT',
    path: '/pix/cob/hostileRequestsTxid0000000000001',
    type: 'CobOperacaoInvalida',
    problemJson: true,
  },
  // The payload locations take no body: one sent anyway is read, and refused as the operation's 400.
  {
    document: 'pix-location',
    operationId: 'cobvPayload.get',
    method: 'GET',
    path: '/pix-location/cobv/abc',
    type: 'CobPayloadOperacaoInvalida',
    problemJson: true,
  },
  {
    document: 'accounts',
    operationId: 'onboarding.create',
    method: 'POST',
    path: '/accounts/api/v2/onboarding',
    type: 'invalid-parameters',
    problemJson: true,
  },
  {
    document: 'core-banking',
    operationId: 'feeRules.create',
    method: 'POST',
    path: '/core-banking/fee-rules',
    type: 'invalid-parameters',
    problemJson: true,
  },
  // Interface C shows no error format: its module answers JSON of its own (`{ error, message }`).
  {
    document: 'messages',
    operationId: 'pacs008.send',
    method: 'POST',
    path: '/messages/messages/pacs.008',
    type: 'invalid-request',
    problemJson: false,
  },
] as const;

/** The error type a problem answer names: the last segment of an RFC 7807 `type`, or interface C's `error`. */
export function errorTypeOf(text: string): string {
  const body = JSON.parse(text) as { type?: string; error?: string };
  return body.type ? body.type.slice(body.type.lastIndexOf('/') + 1) : String(body.error);
}

/** An onboarding created at `accountsUrl` (the accounts interface's base URL), for the image upload probes: its id. */
export async function createOnboarding(accountsUrl: string, headers: Record<string, string>): Promise<string> {
  const created = await fetch(`${accountsUrl}/onboarding`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      person: {
        name: 'Renata Alves Moura',
        document: '12345678909',
        phone: '+5511912345678',
        address: { zipCode: '01310100', address: 'Avenida Paulista', number: '900', district: 'Bela Vista' },
      },
    }),
  });
  if (created.status !== 201) throw new Error(`onboarding: ${created.status} ${await created.text()}`);
  return ((await created.json()) as { id: string }).id;
}

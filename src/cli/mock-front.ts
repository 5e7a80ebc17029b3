/**
 * The front of a mock: on the interface's fixed port, it checks each request with the same validators
 * and cross-field rules as the clients and answers a 422 RFC 7807 problem naming every violation; a
 * valid request goes on to Prism, which answers from the spec's examples. (Prism alone answers a bad
 * request with the operation's static 400 example, which names whatever that example names.)
 */
import { request as httpRequest, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PortInUseError, urlOf } from './ports.js';
import type { ValidationIssue } from '../runtime/errors.js';
import { checkHttpRequest, parseHttpBody } from '../checks/http-check.js';
import type { InterfaceModules } from '../checks/registry.js';

export interface MockFront {
  readonly url: string;
  stop(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function lowerCaseHeaders(request: IncomingMessage): Record<string, string> {
  return Object.fromEntries(
    Object.entries(request.headers).flatMap(([name, value]) =>
      value === undefined ? [] : [[name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value]],
    ),
  );
}

/** The request judged by the one checking path the client, `contrato validate` and the sandbox share. */
async function issuesOf(
  modules: InterfaceModules,
  request: IncomingMessage,
  bytes: Buffer,
  now: Date,
): Promise<{ operationId: string; issues: readonly ValidationIssue[] } | null> {
  const headers = lowerCaseHeaders(request);
  const parsed = await parseHttpBody(bytes, headers['content-type']);
  const raw = { method: request.method ?? 'GET', target: request.url ?? '/', headers };
  const verdict = checkHttpRequest(modules, { ...raw, body: 'body' in parsed ? parsed.body : undefined }, now);
  if (!verdict.operation) return null;
  const { operationId } = verdict.operation.info;
  return { operationId, issues: 'issue' in parsed ? [parsed.issue] : verdict.issues };
}

function problem(response: ServerResponse, request: IncomingMessage, operationId: string, issues: readonly ValidationIssue[]): void {
  const body = {
    type: 'https://contrato.example.com/problems/invalid-request',
    title: 'Invalid request',
    status: 422,
    detail: `${operationId}: ${issues.map((issue) => `${issue.pointer || '/'} ${issue.message}`).join('; ')}`,
    instance: request.url ?? '/',
    violations: issues.map((issue) => ({ pointer: issue.pointer, rule: issue.rule, message: issue.message })),
  };
  response.writeHead(422, { 'content-type': 'application/problem+json' }).end(JSON.stringify(body));
}

/**
 * Prism warns in an `sl-violations` header on every call that it cannot check the mutualTLS scheme the
 * specs declare (it sees no TLS). That says nothing about the request, so it is dropped; every other
 * violation Prism reports stays.
 */
const unsupportedMutualTls = 'We currently do not support this type of security scheme: mutualTLS';

export function withoutMutualTlsNoise(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  let violations: unknown;
  try {
    violations = JSON.parse(header);
  } catch {
    return header;
  }
  if (!Array.isArray(violations)) return header;
  const kept = violations.filter((violation: { message?: unknown }) => violation?.message !== unsupportedMutualTls);
  return kept.length > 0 ? JSON.stringify(kept) : undefined;
}

/** Listens on `host`:`port`, checks each request against `modules`, forwards the valid ones to `upstream`. */
export function startMockFront(
  modules: InterfaceModules,
  upstream: string,
  port: number,
  host = '127.0.0.1',
  label = 'mock',
): Promise<MockFront> {
  const target = new URL(upstream);
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const verdict = await issuesOf(modules, request, body, new Date());
      if (verdict && verdict.issues.length > 0) return problem(response, request, verdict.operationId, verdict.issues);
      const forwarded = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: request.method,
          path: request.url,
          headers: { ...request.headers, host: target.host },
        },
        (answer) => {
          const { 'sl-violations': violations, ...headers } = answer.headers;
          const kept = withoutMutualTlsNoise(violations);
          response.writeHead(answer.statusCode ?? 502, kept === undefined ? headers : { ...headers, 'sl-violations': kept });
          answer.pipe(response);
        },
      );
      forwarded.on('error', (error) => {
        if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
        response.end(`mock upstream failed: ${error.message}`);
      });
      forwarded.end(body);
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(host, [{ port, label }]) : error),
    );
    server.listen(port, host, () => {
      const { port: actual } = server.address() as AddressInfo;
      resolve({
        url: urlOf(host, actual),
        stop: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

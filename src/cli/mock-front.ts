/**
 * The front of a mock: on the interface's fixed port, it checks each request with the same validators
 * and cross-field rules as the clients and answers a 422 RFC 7807 problem naming every violation; a
 * valid request goes on to Prism, which answers from the spec's examples. (Prism alone answers a bad
 * request with the operation's static 400 example, which names whatever that example names.)
 */
import { request as httpRequest, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PortInUseError, urlOf } from './ports.js';
import { runCrossFieldChecks } from '../runtime/cross-field.js';
import type { ValidationIssue } from '../runtime/errors.js';
import { validateRequest } from '../runtime/steps/validate.js';
import type { InterfaceModules } from '../checks/registry.js';
import { matchOperation, parameterValue } from '../checks/validate.js';

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

/** The request as the client runtime sees a call: path, query and header parameters, and the body. */
function argsOf(modules: InterfaceModules, request: IncomingMessage, body: Buffer) {
  const url = new URL(request.url ?? '/', 'http://mock');
  const match = matchOperation(modules, request.method ?? 'GET', url.pathname);
  if (!match) return null;
  const { info } = match;
  const typeOf = (location: string, name: string) =>
    info.parameters.find((p) => p.in === location && p.name.toLowerCase() === name.toLowerCase())?.type ?? null;
  const query: Record<string, unknown> = {};
  for (const [name, value] of url.searchParams) query[name] = parameterValue(value, typeOf('query', name));
  const header: Record<string, unknown> = {};
  for (const parameter of info.parameters.filter((p) => p.in === 'header')) {
    const value = request.headers[parameter.name.toLowerCase()];
    if (typeof value === 'string') header[parameter.name] = parameterValue(value, parameter.type);
  }
  const path = Object.fromEntries(
    Object.entries(match.pathParameters).map(([name, value]) => [name, parameterValue(value, typeOf('path', name))]),
  );
  const contentType = request.headers['content-type'] ?? '';
  let parsed: unknown;
  let bodyIssue: ValidationIssue | undefined;
  if (body.length > 0 && /json/.test(contentType)) {
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch (error) {
      bodyIssue = { pointer: '/body', rule: 'json', message: `is not JSON: ${(error as Error).message}` };
    }
  } else if (body.length > 0 && /x-www-form-urlencoded/.test(contentType)) {
    parsed = Object.fromEntries(new URLSearchParams(body.toString('utf8')));
  }
  // A multipart body (an image upload) goes on unchecked: its file part is checked by the client.
  const multipart = /multipart\/form-data/.test(contentType);
  return { info, args: { path, query, header, ...(parsed === undefined || multipart ? {} : { body: parsed }) }, bodyIssue, multipart };
}

function issuesOf(
  modules: InterfaceModules,
  request: IncomingMessage,
  body: Buffer,
  now: Date,
): { operationId: string; issues: ValidationIssue[] } | null {
  const found = argsOf(modules, request, body);
  if (!found) return null;
  const { info, args, bodyIssue, multipart } = found;
  if (bodyIssue) return { operationId: info.operationId, issues: [bodyIssue] };
  const validators = modules.validators.operations[info.operationId];
  if (!validators) return { operationId: info.operationId, issues: [] };
  const checked = multipart ? { ...validators, body: null } : validators;
  const requiredBody = multipart ? { ...info, requestBody: null } : info;
  const issues = validateRequest(requiredBody, checked, args, modules.patternDescriptions);
  if (issues.length > 0) return { operationId: info.operationId, issues };
  return { operationId: info.operationId, issues: runCrossFieldChecks(modules.crossFieldChecks[info.operationId], args, { now }) };
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
      const verdict = issuesOf(modules, request, body, new Date());
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

/**
 * `contrato validate`: checks a JSON document as a request body, a response or a named schema of an
 * interface, through the one checking path (http-check.ts) the client, the sandbox and the mocks share.
 */
import type { ValidationIssue } from '../runtime/errors.js';
import { serializeQuery } from '../runtime/query.js';
import { check } from '../runtime/validation.js';
import { checkHttpAnswer, checkMatchedRequest, pathIssues, queryOf } from './http-check.js';
import type { InterfaceModules } from './registry.js';
import type { OperationMatch } from './router.js';
import { UsageError } from './usage-error.js';

export { UsageError };
export type { OperationMatch };
export { queryOf };

export type ValidateTarget = { kind: 'request' } | { kind: 'response'; status: string } | { kind: 'schema'; name: string };

/** What a request carries besides its body: its query string and headers, as records. */
export interface RequestParts {
  readonly query: Record<string, unknown>;
  readonly header: Record<string, unknown>;
}

export const noRequestParts: RequestParts = { query: {}, header: {} };

/** `--header name:value` options as headers of a request (names are case-insensitive: kept in lower case). */
export function headersOf(given: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const text of given) {
    const colon = text.indexOf(':');
    if (colon <= 0) throw new UsageError(`--header takes name:value, got ${JSON.stringify(text)}`);
    headers[text.slice(0, colon).trim().toLowerCase()] = text.slice(colon + 1).trim();
  }
  return headers;
}

/** Whether `validate … request` reads a body for this operation (one without a request body reads none). */
export function takesBody(modules: InterfaceModules, operation: OperationMatch): boolean {
  return Boolean(modules.validators.operations[operation.info.operationId]?.body);
}

/**
 * The issues of `document` as `target`. A request is judged as the sandbox judges it: its path, the query
 * and headers of `parts`, the body, then the cross-field rules; pointers are rooted at the request (`/body/…`).
 */
export function validateDocument(
  modules: InterfaceModules,
  target: ValidateTarget,
  document: unknown,
  operation?: OperationMatch,
  now: () => Date = () => new Date(),
  parts: RequestParts = noRequestParts,
): ValidationIssue[] {
  if (target.kind === 'schema') {
    const validator = modules.validators.schemas[target.name];
    if (!validator) {
      throw new UsageError(`no schema ${target.name}; known: ${Object.keys(modules.validators.schemas).join(', ')}`);
    }
    return check(validator, document, '', modules.patternDescriptions);
  }
  if (!operation) throw new UsageError('an operation is required');
  const { info } = operation;
  if (!modules.validators.operations[info.operationId]) throw new UsageError(`no validators for ${info.operationId}`);
  if (target.kind === 'request') {
    const headers = Object.fromEntries(Object.entries(parts.header).map(([name, value]) => [name.toLowerCase(), String(value)]));
    // The query written as the client writes it (each parameter's declared style), so queryOf reads it back alike.
    const query = serializeQuery(info.parameters, parts.query);
    const request = { method: info.method, target: `${info.path}?${query}`, headers, body: document };
    return [...checkMatchedRequest(modules, operation, request, now()).issues];
  }
  if (!info.responseStatuses.includes(target.status)) {
    throw new UsageError(`${info.operationId} has no response ${target.status}; it has ${info.responseStatuses.join(', ')}`);
  }
  const validator = modules.validators.operations[info.operationId]?.responses[target.status];
  if (!validator) throw new UsageError(`response ${target.status} of ${info.operationId} has no body`);
  return [...pathIssues(modules, operation), ...checkHttpAnswer(modules, info, { status: target.status, body: document })];
}

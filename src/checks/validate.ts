/**
 * `contrato validate`: checks a JSON document against a request body, a response or a named schema of
 * an interface, with the same generated validators the clients use.
 */
import type { OperationInfo } from '../runtime/contract.js';
import type { ValidationIssue } from '../runtime/errors.js';
import { runCrossFieldChecks } from '../runtime/cross-field.js';
import type { OperationValidatorSet } from '../runtime/pipeline.js';
import { check } from '../runtime/validation.js';
import type { InterfaceModules } from './registry.js';

import { UsageError } from './usage-error.js';

export { UsageError };

export interface OperationMatch {
  readonly info: OperationInfo;
  /** Path parameters taken from a concrete path, as text. */
  readonly pathParameters: Record<string, string>;
  readonly concrete: boolean;
}

/**
 * Finds the operation of `method` whose template is `path`, or whose template a concrete `path` fills in.
 * Among concrete matches the one with more literal segments wins; on a tie (the API Pix has
 * /cobv/{txid} beside the location /cobv/{pixUrlAccessToken}) the one whose path parameters are valid.
 */
export function matchOperation(modules: InterfaceModules, method: string, path: string): OperationMatch | null {
  const wanted = method.toLowerCase();
  const candidates = Object.values(modules.operationTable).filter((info) => info.method === wanted);
  // Webhook registration paths take their type segment in any case (section 4.5).
  const exact = candidates.find(
    (info) => info.path === path || (info.pathCaseInsensitive && info.path.toLowerCase() === path.split('?')[0]!.toLowerCase()),
  );
  if (exact) return { info: exact, pathParameters: {}, concrete: false };
  const segments = path.split('?')[0]!.split('/');
  const fitting: { match: OperationMatch; literals: number; valid: boolean }[] = [];
  for (const info of candidates) {
    const template = info.path.split('/');
    if (template.length !== segments.length) continue;
    const pathParameters: Record<string, string> = {};
    let literals = 0;
    const fits = template.every((part, index) => {
      const segment = segments[index]!;
      const parameter = /^\{(.+)\}$/.exec(part);
      if (parameter) {
        if (segment === '') return false;
        pathParameters[parameter[1]!] = decodeURIComponent(segment);
        return true;
      }
      literals += 1;
      return part === segment;
    });
    if (!fits) continue;
    const match: OperationMatch = { info, pathParameters, concrete: true };
    const validators = modules.validators.operations[info.operationId];
    const valid = validators ? pathIssues(modules, match, validators).length === 0 : true;
    fitting.push({ match, literals, valid });
  }
  fitting.sort((a, b) => b.literals - a.literals || Number(b.valid) - Number(a.valid));
  return fitting[0]?.match ?? null;
}

/** Text from a URL or the command line as the value its parameter's schema type expects. */
export function parameterValue(text: string, type: string | null): unknown {
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

export type ValidateTarget = { kind: 'request' } | { kind: 'response'; status: string } | { kind: 'schema'; name: string };

/** Issues of the path parameters of a concrete path (`/fee-rules/abc` -> `/path/id: must match format "uuid"`). */
function pathIssues(modules: InterfaceModules, operation: OperationMatch, validators: OperationValidatorSet): ValidationIssue[] {
  const validator = validators.parameters.path;
  if (!operation.concrete || !validator) return [];
  const path = Object.fromEntries(
    operation.info.parameters
      .filter((p) => p.in === 'path')
      .map((p) => [p.name, parameterValue(operation.pathParameters[p.name] ?? '', p.type)]),
  );
  return check(validator, path, '/path', modules.patternDescriptions);
}

/** What a request carries besides its body: the query string of the path and the `--header` values. */
export interface RequestParts {
  readonly query: Record<string, unknown>;
  readonly header: Record<string, unknown>;
}

export const noRequestParts: RequestParts = { query: {}, header: {} };

/**
 * The query string of `path` (`/cob?inicio=…&fim=…`) as the values its parameters' schemas expect; a name
 * given twice, or declared as an array, becomes a list.
 */
export function queryOf(info: OperationInfo, path: string): Record<string, unknown> {
  const marker = path.indexOf('?');
  if (marker < 0) return {};
  const types = new Map(info.parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.type]));
  const query: Record<string, unknown> = {};
  const search = new URLSearchParams(path.slice(marker + 1));
  for (const name of new Set(search.keys())) {
    const type = types.get(name) ?? null;
    const values = search.getAll(name);
    query[name] = type === 'array' || values.length > 1 ? values : parameterValue(values[0]!, type);
  }
  return query;
}

/** `--header name:value` options as a record in the spelling the operation declares (names are case-insensitive). */
export function headersOf(info: OperationInfo, given: readonly string[]): Record<string, unknown> {
  const declared = new Map(info.parameters.filter((p) => p.in === 'header').map((p) => [p.name.toLowerCase(), p]));
  const header: Record<string, unknown> = {};
  for (const text of given) {
    const colon = text.indexOf(':');
    if (colon <= 0) throw new UsageError(`--header takes name:value, got ${JSON.stringify(text)}`);
    const name = text.slice(0, colon).trim();
    const parameter = declared.get(name.toLowerCase());
    header[parameter?.name ?? name] = parameterValue(text.slice(colon + 1).trim(), parameter?.type ?? null);
  }
  return header;
}

/**
 * Issues of the query and header parameters. A required header the client fills itself (the operation's
 * idempotency key) is not reported missing: the client sends one when the caller gives none.
 */
function parameterIssues(
  modules: InterfaceModules,
  info: OperationInfo,
  validators: OperationValidatorSet,
  parts: RequestParts,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const { query, header } = validators.parameters;
  if (query) issues.push(...check(query, parts.query, '/query', modules.patternDescriptions));
  else if (Object.keys(parts.query).length > 0) {
    issues.push({
      pointer: '/query',
      rule: 'additionalProperties',
      message: 'this operation takes no query parameters: remove the query string',
    });
  }
  if (header) {
    const filled = info.idempotencyKeyRule?.header;
    issues.push(
      ...check(header, parts.header, '/header', modules.patternDescriptions).filter(
        (issue) => !(issue.rule === 'required' && filled !== undefined && issue.pointer === `/header/${filled}`),
      ),
    );
  }
  return issues;
}

/** Whether `validate … request` reads a body for this operation (one without a request body reads none). */
export function takesBody(modules: InterfaceModules, operation: OperationMatch): boolean {
  return Boolean(modules.validators.operations[operation.info.operationId]?.body);
}

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
  const validators = modules.validators.operations[info.operationId];
  if (!validators) throw new UsageError(`no validators for ${info.operationId}`);
  if (target.kind === 'request') {
    const schemaIssues = [
      ...pathIssues(modules, operation, validators),
      ...parameterIssues(modules, info, validators, parts),
      // An optional body may be left out (POST /locrec takes none in the standard); a required one may not.
      ...(validators.body && (document !== undefined || info.requestBody?.required !== false)
        ? check(validators.body, document, '', modules.patternDescriptions)
        : []),
    ];
    if (schemaIssues.length > 0) return schemaIssues;
    // Rule pointers are rooted at the request (/body/...); the document here is the body itself.
    return runCrossFieldChecks(
      modules.crossFieldChecks[info.operationId],
      { body: document, path: operation.pathParameters, query: parts.query },
      { now: now() },
    ).map((issue) => ({ ...issue, pointer: issue.pointer.replace(/^\/body/, '') }));
  }
  if (!info.responseStatuses.includes(target.status)) {
    throw new UsageError(`${info.operationId} has no response ${target.status}; it has ${info.responseStatuses.join(', ')}`);
  }
  const validator = validators.responses[target.status];
  if (!validator) throw new UsageError(`response ${target.status} of ${info.operationId} has no body`);
  return [...pathIssues(modules, operation, validators), ...check(validator, document, '', modules.patternDescriptions)];
}

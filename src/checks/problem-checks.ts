/**
 * Checks of a problem answer (RFC 9457) that its schema cannot say, made by `contrato validate … response`:
 * the body's `status` equals the HTTP status, and, where the operation lists its error types
 * (`x-error-types`, interface B's section 7.2), the `type` is one the operation declares for that status.
 * Which status a type answers with is read from the bundle: the statuses under which its response is used.
 */
import { readFileSync } from 'node:fs';
import type { OperationInfo } from '../runtime/contract.js';
import type { ValidationIssue } from '../runtime/errors.js';
import { errorTypeOf } from '../runtime/errors.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Error type -> the HTTP statuses its response component is declared under, across the given bundles. */
export function errorTypeStatuses(bundles: readonly Json[]): Map<string, Set<string>> {
  const statuses = new Map<string, Set<string>>();
  for (const bundle of bundles) {
    for (const item of Object.values(isObject(bundle.paths) ? bundle.paths : {})) {
      if (!isObject(item)) continue;
      for (const operation of Object.values(item)) {
        if (!isObject(operation) || !isObject(operation.responses)) continue;
        for (const [status, response] of Object.entries(operation.responses)) {
          const ref = isObject(response) && typeof response.$ref === 'string' ? response.$ref : '';
          const match = /^#\/components\/responses\/(.+)$/.exec(ref);
          if (!match) continue;
          const name = match[1]!;
          statuses.set(name, (statuses.get(name) ?? new Set()).add(status));
        }
      }
    }
  }
  return statuses;
}

export function readBundles(files: readonly string[]): Json[] {
  return files.map((file) => JSON.parse(readFileSync(file, 'utf8')) as Json);
}

/** The issues of a problem body answered with `status` by `info` (none when the body is not a problem object). */
export function problemIssues(
  info: OperationInfo,
  status: string,
  body: unknown,
  typeStatuses: ReadonlyMap<string, ReadonlySet<string>>,
): ValidationIssue[] {
  // Only an error answer is a problem: a success body may have a `status` of its own (OnboardingCreated's 1).
  if (!isObject(body) || !/^[45]\d\d$/.test(status)) return [];
  const issues: ValidationIssue[] = [];
  if (typeof body.status === 'number' && body.status !== Number(status)) {
    issues.push({
      pointer: '/status',
      rule: 'status-equals-http-status',
      message: `is ${body.status}, but the answer's HTTP status is ${status}: a problem's status repeats the HTTP status (RFC 9457)`,
      value: body.status,
    });
  }
  const declared = info.errorTypes.filter((type) => typeStatuses.get(type)?.has(status));
  const type = typeof body.type === 'string' ? errorTypeOf(body.type) : undefined;
  if (declared.length > 0 && type !== undefined && !declared.includes(type)) {
    issues.push({
      pointer: '/type',
      rule: 'declared-error-type',
      message: `names the error type ${type}, which ${info.operationId} does not answer with ${status}; it declares ${declared.join(', ')} for ${status}`,
      value: body.type,
    });
  }
  return issues;
}

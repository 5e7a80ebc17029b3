/**
 * The member of a planned fault that lands in an answer: `retryAfterSeconds` becomes the `Retry-After`
 * header of the fault's 503 (`unavailable`) or 429 (`rate-limited`), so it is checked against that header's
 * schema wherever an operation the fault applies to declares it. A fault itself is wanted off the happy
 * path, but the header it carries is read by the same clients.
 */
import type { MountedModule } from './engine.js';
import { type FaultKind, statusOfFault } from './faults.js';
import type { ControlViolation, VerbChecker } from './verb-contract.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `#/components/<kind>/<Name>` of `bundle`, or the object itself when it is no reference. */
function dereferenced(bundle: Json, value: unknown): Json | undefined {
  if (!isObject(value)) return undefined;
  if (typeof value.$ref !== 'string') return value;
  const [, kind, name] = /^#\/components\/([^/]+)\/(.+)$/.exec(value.$ref) ?? [];
  const components = isObject(bundle.components) ? bundle.components : {};
  const group = kind ? components[kind] : undefined;
  return isObject(group) && name && isObject(group[name]) ? (group[name] as Json) : undefined;
}

/** The schema of the Retry-After header `method path` declares with `status`, if it does. */
function retryAfterSchema(bundle: Json, method: string, path: string, status: string): unknown {
  const item = isObject(bundle.paths) ? bundle.paths[path] : undefined;
  const operation = isObject(item) ? item[method] : undefined;
  const response = isObject(operation) && isObject(operation.responses) ? dereferenced(bundle, operation.responses[status]) : undefined;
  const headers = response && isObject(response.headers) ? response.headers : {};
  const name = Object.keys(headers).find((candidate) => candidate.toLowerCase() === 'retry-after');
  return name ? dereferenced(bundle, headers[name])?.schema : undefined;
}

/** What the Retry-After schemas of the operations a fault applies to find wrong with its `retryAfterSeconds`. */
export function retryAfterViolations(body: Json, mounted: ReadonlyMap<string, MountedModule>, checker: VerbChecker): ControlViolation[] {
  const status = typeof body.kind === 'string' ? statusOfFault[body.kind as FaultKind] : undefined;
  if (body.retryAfterSeconds === undefined || status === undefined) return [];
  const checked = new Set<string>();
  const violations: ControlViolation[] = [];
  for (const [document, entry] of mounted) {
    for (const [operationId, info] of Object.entries(entry.generated.operationTable)) {
      if (body.operationId !== '*' && body.operationId !== operationId) continue;
      const schema = retryAfterSchema(entry.bundle, info.method, info.path, status);
      const key = `${document} ${JSON.stringify(schema)}`;
      if (schema === undefined || checked.has(key)) continue;
      checked.add(key);
      const place = `${document}#Retry-After of ${operationId} ${status}`;
      violations.push(...checker.issuesOf(document, place, schema, body.retryAfterSeconds, '/retryAfterSeconds'));
    }
  }
  return violations;
}

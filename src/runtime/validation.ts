/** Turns ajv errors of the generated validators into issues that name the pointer, the rule and the value. */
import type { ValidationIssue } from './errors.js';

interface AjvError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly message?: string;
  readonly params: Record<string, unknown>;
}

export interface CompiledValidator {
  (data: unknown): boolean;
  errors?: readonly AjvError[] | null;
}

const secretNames = /secret|password|passphrase|token|private.?key|authorization/i;

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function valueAt(data: unknown, pointer: string): unknown {
  let current = data;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function describeValue(value: unknown): string {
  if (value === undefined) return '';
  const text = JSON.stringify(value);
  return text === undefined ? '' : `; got ${text.length > 60 ? `${text.slice(0, 57)}...` : text}`;
}

function issueOf(error: AjvError, data: unknown, root: string): ValidationIssue {
  let pointer = error.instancePath;
  let message = error.message ?? 'is invalid';
  const { params } = error;
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
    pointer = `${pointer}/${escapePointer(params.missingProperty)}`;
    message = 'is required';
  } else if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    pointer = `${pointer}/${escapePointer(params.additionalProperty)}`;
    message = 'is not a field of this request (unknown or not writable here)';
  } else if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    message = `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  const lastSegment = pointer.split('/').pop() ?? '';
  const raw = error.keyword === 'required' ? undefined : valueAt(data, pointer);
  const value = secretNames.test(lastSegment) && raw !== undefined ? '[redacted]' : raw;
  const fullPointer = `${root}${pointer}`;
  return {
    pointer: fullPointer,
    rule: error.keyword,
    message: `${message} (${error.keyword}${describeValue(value)})`,
    ...(value === undefined ? {} : { value }),
  };
}

/**
 * Runs a generated validator. Returns the issues (empty when valid); `root` prefixes every pointer
 * (`/body`, `/query`) so an issue says which part of the request it is about.
 */
export function check(validator: CompiledValidator, data: unknown, root = ''): ValidationIssue[] {
  if (validator(data)) return [];
  const errors = validator.errors ?? [];
  // if/then/else and anyOf report a summary error beside the precise ones; keep the precise ones.
  const precise = errors.filter((error) => !['if', 'anyOf', 'oneOf'].includes(error.keyword));
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const error of precise.length > 0 ? precise : errors) {
    const issue = issueOf(error, data, root);
    const key = `${issue.pointer}|${issue.rule}|${issue.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      issues.push(issue);
    }
  }
  // Sorted by pointer: stable output whatever order the schema checks things in.
  return issues.sort((a, b) => (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0));
}

/**
 * Turns ajv errors of the generated validators into issues that name the pointer, the rule and the value.
 * What an issue quotes is redacted first: members named like credentials, private keys and Authorization
 * values in text replaced, CPF/CNPJ masked. Masked before a long value is cut, so a cut never leaves
 * digits of a document that masking would no longer recognise.
 */
import { escapeToken, pointerTokens } from './json-pointer.js';
import { checkFormat, formats, isFormatName } from '../formats/registry.js';
import type { ValidationIssue } from './errors.js';
import { credentialName, redact } from './logging.js';

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

function valueAt(data: unknown, pointer: string): unknown {
  let current = data;
  for (const key of pointerTokens(pointer)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** A short rendering of the offending value; never throws (BigInt, cycles, functions). */
function describeValue(value: unknown): string {
  if (value === undefined) return '';
  let text: string;
  try {
    text = typeof value === 'bigint' ? `${value}n` : (JSON.stringify(value) ?? String(value));
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return `; got ${text.length > 60 ? `${text.slice(0, 57)}...` : text}`;
}

const standardFormats: Record<string, string> = {
  uuid: 'a UUID (8-4-4-4-12 hexadecimal digits)',
  date: 'a date YYYY-MM-DD',
  'date-time': 'a date and time in RFC 3339 form, e.g. 2026-11-21T10:30:00Z or 2026-11-21T07:30:00-03:00',
  email: 'an e-mail address',
  uri: 'an absolute URI',
  'uri-reference': 'a URI reference',
  int64: 'a 64-bit integer',
  int32: 'a 32-bit integer',
};

const typeNames: Record<string, string> = {
  string: 'text (a string)',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list (array)',
  null: 'null',
};

/** Plain words for one ajv error; `patterns` maps a spec pattern to what it means. */
function messageOf(error: AjvError, value: unknown, patterns: Readonly<Record<string, string>>): string {
  const { params } = error;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a field of this request (unknown or not writable here)';
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'type': {
      const types = String(params.type)
        .split(',')
        .map((type) => typeNames[type] ?? type);
      return `must be ${types.join(' or ')}`;
    }
    case 'minLength':
      return `must have at least ${String(params.limit)} character${params.limit === 1 ? '' : 's'}`;
    case 'maxLength':
      return `must have at most ${String(params.limit)} characters`;
    case 'minimum':
      return `must be at least ${String(params.limit)}`;
    case 'maximum':
      return `must be at most ${String(params.limit)}`;
    case 'exclusiveMinimum':
      return `must be above ${String(params.limit)}`;
    case 'exclusiveMaximum':
      return `must be below ${String(params.limit)}`;
    case 'minItems':
      return `must have at least ${String(params.limit)} item${params.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `must have at most ${String(params.limit)} items`;
    case 'uniqueItems':
      return `must not repeat items (items ${String(params.j)} and ${String(params.i)} are equal)`;
    case 'pattern': {
      const meaning = patterns[String(params.pattern)];
      return meaning ? `must be ${meaning}` : `must match the pattern ${String(params.pattern)}`;
    }
    case 'format': {
      const name = String(params.format);
      if (isFormatName(name) && typeof value === 'string') {
        const result = checkFormat(name, value);
        return `must be ${formats[name].description}${result.valid ? '' : `: ${result.reason}`}`;
      }
      return `must be ${standardFormats[name] ?? `in the ${name} format`}`;
    }
    default:
      return error.message ?? 'is invalid';
  }
}

function issueOf(error: AjvError, data: unknown, root: string, patterns: Readonly<Record<string, string>>): ValidationIssue {
  let pointer = error.instancePath;
  const { params } = error;
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
    pointer = `${pointer}/${escapeToken(params.missingProperty)}`;
  } else if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    pointer = `${pointer}/${escapeToken(params.additionalProperty)}`;
  }
  const lastSegment = pointer.split('/').pop() ?? '';
  const raw = error.keyword === 'required' ? undefined : valueAt(data, pointer);
  const value = raw === undefined ? undefined : credentialName.test(lastSegment) ? '[redacted]' : redact(raw);
  const rule = error.keyword === 'format' ? `format ${String(params.format)}` : error.keyword;
  return {
    pointer: `${root}${pointer}`,
    rule: error.keyword,
    // The message as a whole too: the schema's words carry no document, and now nothing else can.
    message: redact(`${messageOf(error, raw, patterns)} (${rule}${describeValue(value)})`) as string,
    ...(value === undefined ? {} : { value }),
  };
}

/**
 * Runs a generated validator. Returns the issues (empty when valid); `root` prefixes every pointer
 * (`/body`, `/query`) so an issue says which part of the request it is about; `patterns` gives the
 * plain-words meaning of each pattern of the spec (generated beside the validators).
 */
export function check(
  validator: CompiledValidator,
  data: unknown,
  root = '',
  patterns: Readonly<Record<string, string>> = {},
): ValidationIssue[] {
  if (validator(data)) return [];
  const errors = validator.errors ?? [];
  // if/then/else and anyOf report a summary error beside the precise ones; keep the precise ones.
  const precise = errors.filter((error) => !['if', 'anyOf', 'oneOf'].includes(error.keyword));
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const error of precise.length > 0 ? precise : errors) {
    const issue = issueOf(error, data, root, patterns);
    const key = `${issue.pointer}|${issue.rule}|${issue.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      issues.push(issue);
    }
  }
  // Sorted by pointer: stable output whatever order the schema checks things in.
  return issues.sort((a, b) => (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0));
}

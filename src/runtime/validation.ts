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
  /** Where in the schema the rule is (absent in errors written by hand). */
  readonly schemaPath?: string;
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

/** Filler words that do not change what a reason says beside a description. */
const filler = new Set(['a', 'an', 'the', 'is', 'are', 'be', 'must', 'of', 'it']);
const wordsOf = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '' && !filler.has(word));

/** Words in a row that, found in both, make a reason a repetition of the description. */
const sharedPhraseWords = 3;

/**
 * Whether `reason` says again what `description` said (`a txid is 26 to 35 letters` beside `a txid: 26 to 35
 * letters`): every word of it is in the description, or both share a phrase of a few words.
 */
function repeats(reason: string, description: string): boolean {
  const described = wordsOf(description);
  const said = wordsOf(reason);
  if (said.every((word) => described.includes(word))) return true;
  const phrases = new Set(
    described.slice(0, described.length - sharedPhraseWords + 1).map((_, i) => described.slice(i, i + sharedPhraseWords).join(' ')),
  );
  return said.some((_, i) => i + sharedPhraseWords <= said.length && phrases.has(said.slice(i, i + sharedPhraseWords).join(' ')));
}

/** What a value matched that it must not (a `not` pattern the generator listed as `not:<pattern>`). */
function excludedMeaning(value: unknown, patterns: Readonly<Record<string, string>>): string | undefined {
  if (typeof value !== 'string') return undefined;
  for (const [key, meaning] of Object.entries(patterns)) {
    if (key.startsWith('not:') && new RegExp(key.slice('not:'.length), 'u').test(value)) return meaning;
  }
  return undefined;
}

/** Plain words for one ajv error; `patterns` maps a spec pattern to what it means. */
function messageOf(error: AjvError, value: unknown, patterns: Readonly<Record<string, string>>): string {
  const { params } = error;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return 'is not a field the spec lists here: remove it, or check its spelling';
    case 'false schema':
      return 'must be left out: this member is not allowed in this case';
    case 'not': {
      const excluded = excludedMeaning(value, patterns);
      return excluded ? `must not be ${excluded}` : 'must be left out: this member is not allowed in this case';
    }
    case 'dependentRequired':
      return `is required when ${String(params.property)} is given`;
    case 'oneOf':
      return 'matches more than one of the shapes allowed here; exactly one must match';
    case 'anyOf':
      return 'matches none of the shapes allowed here';
    case 'multipleOf':
      return `must be a multiple of ${String(params.multipleOf)}`;
    case 'minProperties':
      return `must have at least ${String(params.limit)} member${params.limit === 1 ? '' : 's'}`;
    case 'maxProperties':
      return `must have at most ${String(params.limit)} members`;
    case 'contains':
      return 'must contain at least one item of the kind required here';
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
        const description = formats[name].description;
        const reason = result.valid ? '' : [...new Set(result.reason.split('; '))].join('; ');
        return reason === '' || repeats(reason, description) ? `must be ${description}` : `must be ${description}: ${reason}`;
      }
      return `must be ${standardFormats[name] ?? `in the ${name} format`}`;
    }
    default:
      return error.message ?? 'is invalid';
  }
}

/** The message, then the rule and the value in brackets; a rule the message already says is not repeated. */
function withRule(message: string, rule: string, value: string): string {
  const said = wordsOf(message).join(' ').includes(wordsOf(rule).join(' '));
  const note = said ? value.replace(/^; /, '') : `${rule}${value}`;
  return note === '' ? message : `${message} (${note})`;
}

function issueOf(error: AjvError, data: unknown, root: string, patterns: Readonly<Record<string, string>>): ValidationIssue {
  let pointer = error.instancePath;
  const { params } = error;
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
    pointer = `${pointer}/${escapeToken(params.missingProperty)}`;
  } else if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    pointer = `${pointer}/${escapeToken(params.additionalProperty)}`;
  } else if (error.keyword === 'unevaluatedProperties' && typeof params.unevaluatedProperty === 'string') {
    pointer = `${pointer}/${escapeToken(params.unevaluatedProperty)}`;
  } else if (error.keyword === 'dependentRequired' && typeof params.missingProperty === 'string') {
    pointer = `${pointer}/${escapeToken(params.missingProperty)}`;
  }
  const lastSegment = pointer.split('/').pop() ?? '';
  const raw = error.keyword === 'required' || error.keyword === 'dependentRequired' ? undefined : valueAt(data, pointer);
  const value = raw === undefined ? undefined : credentialName.test(lastSegment) ? '[redacted]' : redact(raw);
  const rule = error.keyword === 'format' ? `format ${String(params.format)}` : error.keyword;
  return {
    pointer: `${root}${pointer}`,
    rule: error.keyword,
    // The message as a whole too: the schema's words carry no document, and now nothing else can.
    message: redact(withRule(messageOf(error, raw, patterns), rule, describeValue(value))) as string,
    ...(value === undefined ? {} : { value }),
  };
}

/** "cpf or cnpj", "a, b or c": the members, in the order the document has them. */
const alternatives = (members: readonly string[]): string =>
  members.length <= 2 ? members.join(' or ') : `${members.slice(0, -1).join(', ')} or ${members.at(-1)}`;

/**
 * A oneOf whose branches each take one member and refuse the others (`cpf` or `cnpj`), failed because the
 * document holds several of them: one issue naming them all and the rule, in place of one "must be left
 * out" per branch. Null for any other error.
 */
function exclusiveMembersIssue(
  oneOf: AjvError,
  errors: readonly AjvError[],
  data: unknown,
  root: string,
): { issue: ValidationIssue; covered: AjvError[] } | null {
  if (oneOf.keyword !== 'oneOf' || oneOf.schemaPath === undefined) return null;
  const branches = errors.filter((error) => error !== oneOf && error.schemaPath?.startsWith(`${oneOf.schemaPath}/`));
  const depth = pointerTokens(oneOf.instancePath).length + 1;
  const refusals = branches.filter(
    (error) =>
      (error.keyword === 'not' || error.keyword === 'false schema') &&
      error.instancePath.startsWith(`${oneOf.instancePath}/`) &&
      pointerTokens(error.instancePath).length === depth,
  );
  const refused = new Set(refusals.map((error) => pointerTokens(error.instancePath).at(-1)!));
  // A branch may also miss the member it takes (email, when phone and cpf were sent): that is part of the same story.
  const onlyMembers = branches.every(
    (error) =>
      refusals.includes(error) ||
      (error.keyword === 'required' && error.instancePath === oneOf.instancePath && typeof error.params.missingProperty === 'string'),
  );
  const holder = valueAt(data, oneOf.instancePath);
  const members = Object.keys(typeof holder === 'object' && holder !== null ? holder : {}).filter((name) => refused.has(name));
  if (!onlyMembers || members.length < 2) return null;
  const message = `send ${alternatives(members)}, not ${members.length === 2 ? 'both' : 'several'} (oneOf)`;
  return { issue: { pointer: `${root}${oneOf.instancePath}`, rule: 'oneOf', message }, covered: [oneOf, ...branches] };
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
  const exclusive = (validator.errors ?? [])
    .map((error, _, all) => exclusiveMembersIssue(error, all, data, root))
    .filter((found) => found !== null);
  const covered = new Set(exclusive.flatMap((found) => found.covered));
  const errors = (validator.errors ?? []).filter((error) => !covered.has(error));
  // if/then/else and anyOf report a summary error beside the precise ones; keep the precise ones.
  const precise = errors.filter((error) => !['if', 'anyOf', 'oneOf'].includes(error.keyword));
  const seen = new Set<string>();
  const issues: ValidationIssue[] = exclusive.map((found) => found.issue);
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

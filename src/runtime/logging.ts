/**
 * The logging hook and its redaction. Whatever a client logs, and whatever its errors carry, passes
 * through `redact`: credentials, tokens, `svc-token`, keys and passphrases are replaced, and CPF/CNPJ are
 * masked unless the caller turns masking off. Nothing here ever logs a request or response body it was
 * not asked to.
 */
import { cnpjCheckDigits } from '../formats/documents.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface LogEvent {
  readonly level: LogLevel;
  /** Short event name: `request`, `response`, `retry`, `token`, `rate-limit`, `response-contract`. */
  readonly event: string;
  readonly operationId?: string;
  readonly data: Readonly<Record<string, unknown>>;
}

export type Logger = (event: LogEvent) => void;

/** Names of members that hold credentials: their values never appear in a log or an error. */
export const credentialName = /authorization|secret|password|passphrase|token|private.?key|cookie|^svc-/i;
/** In logs also the TLS material of client options (`key`, `pfx`, `cert`). */
const secretKey = new RegExp(`${credentialName.source}|^key$|^pfx$|^cert$`, 'i');

/** CPF as ***.NNN.NNN-** (the middle six digits stay, as Brazilian receipts show it); `digits` is its 11 digits. */
function maskCpf(digits: string): string {
  return `***.${digits.slice(3, 6)}.${digits.slice(6, 9)}-**`;
}

/** CNPJ keeps its root (company), hides branch and check digits; `characters` is its 14 characters. */
function maskCnpj(characters: string): string {
  return `${characters.slice(0, 2)}.${characters.slice(2, 5)}.${characters.slice(5, 8)}/****-**`;
}

// CPF bare, punctuated or partly (NNN.NNN.NNN-NN, NNNNNNNNN-NN); CNPJ bare or punctuated (XX.XXX.XXX/XXXX-NN, X a
// digit or, in the alphanumeric CNPJ, an uppercase letter). Never glued to more digits (or, for CNPJ, letters).
const cpfWritten = /(?<!\d)(\d{3})(\.?)(\d{3})(\.?)(\d{3})(-?)(\d{2})(?!\d)/g;
const cnpjBare = /(?<![0-9A-Za-z])[0-9A-Z]{12}\d{2}(?![0-9A-Za-z])/g;
const cnpjPunctuated = /(?<![0-9A-Za-z])([0-9A-Z]{2})\.([0-9A-Z]{3})\.([0-9A-Z]{3})\/([0-9A-Z]{4})-(\d{2})(?![0-9A-Za-z])/g;

/**
 * Masks CPF and CNPJ in a text: every 11-digit run and every punctuated CPF; every punctuated CNPJ
 * (numeric or alphanumeric), whatever its check digits, as the punctuation makes it one; every bare
 * 14-character CNPJ with valid check digits (the check keeps other 14-character codes readable: ids,
 * compact dates). CPF first: a CPF glued to letters (`CPF39053344705`) must not read as an alphanumeric CNPJ.
 */
export function maskDocuments(text: string): string {
  return text
    .replace(cpfWritten, (_match, a: string, _s1, b: string, _s2, c: string, _s3, d: string) => maskCpf(`${a}${b}${c}${d}`))
    .replace(cnpjPunctuated, (_match, a: string, b: string, c: string, d: string, e: string) => maskCnpj(`${a}${b}${c}${d}${e}`))
    .replace(cnpjBare, (match) => (cnpjCheckDigits(match.slice(0, 12)) === match.slice(12) ? maskCnpj(match) : match));
}

export interface RedactOptions {
  /** Mask CPF and CNPJ (default true). */
  readonly maskDocuments?: boolean;
  /**
   * Exact secret values (8 characters or more) to scrub wherever they appear: client secret, current token,
   * a Basic credential. Each is also scrubbed as JSON, URI and form encodings write it (an echoed body).
   */
  readonly secrets?: readonly string[];
}

const redacted = '[redacted]';

/** The ways a secret is written in what a server may echo: as it is, JSON-escaped, URI- and form-encoded. */
function writtenForms(secret: string): string[] {
  return [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2)];
}

/** Every form of every secret long enough to scrub, longest first (a longer form may contain a shorter one). */
function secretForms(secrets: readonly string[]): string[] {
  // Very short values are not scrubbed: they would shred ordinary text and are no real secret anyway.
  const forms = new Set(secrets.filter((secret) => secret.length >= 8).flatMap(writtenForms));
  return [...forms].filter((form) => form.length >= 8).sort((a, b) => b.length - a.length);
}

const privateKeyHeader = /-----BEGIN (?:RSA |EC |DSA |ENCRYPTED |OPENSSH )?PRIVATE KEY-----/g;

/** PEM private keys replaced, to their END line or, cut short, to the end of the text. */
function scrubPrivateKeys(text: string): string {
  if (!text.includes('PRIVATE KEY-----')) return text;
  let result = '';
  let from = 0;
  for (const match of text.matchAll(privateKeyHeader)) {
    if (match.index < from) continue;
    const endLine = text.indexOf('-----END ', match.index + match[0].length);
    const closing = endLine < 0 ? -1 : text.indexOf('-----', endLine + 9);
    result += `${text.slice(from, match.index)}[redacted private key]`;
    from = closing < 0 ? text.length : closing + 5;
  }
  return result + text.slice(from);
}

// An Authorization value in text (`Basic <base64>`, `Bearer <token>`): the credential goes, the scheme stays.
const basicCredential = /\bBasic ([A-Za-z0-9+/]+={0,2})/gi;
const bearerCredential = /\bBearer ([A-Za-z0-9\-._~+/]+=*)/gi;

/** Base64 of `user:password` in printable text; anything else after "Basic" is ordinary words. */
function isBasicCredential(value: string): boolean {
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const unprintable = [...decoded].some((character) => character.charCodeAt(0) < 0x20 || character === '\ufffd');
  return value.length >= 8 && decoded.includes(':') && !unprintable;
}

/** A bearer token is long and not a plain word ("Bearer authentication"). */
function isBearerToken(value: string): boolean {
  return value.length >= 16 && /[0-9\-._~+/]/.test(value);
}

/** Index just past the JSON string literal that opens at `start`, or -1 when the text ends inside it. */
function endOfString(text: string, start: number): number {
  for (let index = start + 1; index < text.length; index += 1) {
    if (text[index] === '\\') index += 1;
    else if (text[index] === '"') return index + 1;
  }
  return -1;
}

/**
 * In text that holds JSON (a body echoed as text, a quoted value), the string value of every member named
 * like a credential is replaced, as `redact` replaces such members of an object. A scan of the string
 * literals rather than a regular expression: escapes are followed exactly, in linear time.
 */
function scrubCredentialMembers(text: string): string {
  if (!text.includes('"')) return text;
  let result = '';
  let from = 0;
  let valueIsSecret = false;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return result + text.slice(from);
    const between = text.slice(from, quote);
    // Only a colon and blanks may stand between a member's name and its value.
    if (valueIsSecret && !/^[\s:]*$/.test(between)) valueIsSecret = false;
    result += between;
    const end = endOfString(text, quote);
    if (valueIsSecret) {
      // Cut short (a truncated quote): the rest of the text is the secret's.
      result += end < 0 ? `"${redacted}` : `"${redacted}"`;
      if (end < 0) return result;
      valueIsSecret = false;
      from = end;
      continue;
    }
    if (end < 0) return result + text.slice(quote);
    result += text.slice(quote, end);
    valueIsSecret = /^\s*:/.test(text.slice(end, end + 16)) && secretKey.test(text.slice(quote + 1, end - 1));
    from = end;
  }
}

function scrubText(text: string, forms: readonly string[], masking: boolean): string {
  let result = text;
  for (const form of forms) if (result.includes(form)) result = result.split(form).join(redacted);
  result = scrubCredentialMembers(scrubPrivateKeys(result))
    .replace(basicCredential, (match, value: string) =>
      isBasicCredential(value) ? `${match.slice(0, match.length - value.length)}${redacted}` : match,
    )
    .replace(bearerCredential, (match, value: string) =>
      isBearerToken(value) ? `${match.slice(0, match.length - value.length)}${redacted}` : match,
    );
  return masking ? maskDocuments(result) : result;
}

/** A leaf (not an object) made safe: texts scrubbed, a number that reads as a document masked. */
function redactLeaf(value: unknown, forms: readonly string[], masking: boolean): unknown {
  if (typeof value === 'string') return scrubText(value, forms, masking);
  if (masking && (typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value)))) {
    const digits = String(value);
    const masked = maskDocuments(digits);
    return masked === digits ? value : masked;
  }
  return value;
}

interface Frame {
  readonly source: object;
  readonly target: Record<string, unknown> | unknown[];
  readonly entries: ReadonlyArray<readonly [string, unknown]>;
  index: number;
}

const isContainer = (value: unknown): value is object => typeof value === 'object' && value !== null;

/**
 * A copy safe to log: secret members replaced (in objects, and in JSON held in text), secret values
 * scrubbed, private keys and Authorization credentials in text removed, documents masked (in text, and
 * integers that read as one). Iterative, so no depth is too deep to redact: nothing is ever returned
 * unredacted because of its depth. A value that contains itself becomes `[circular]` (a value merely
 * shared by two members is copied twice); binary data becomes `[binary N bytes]`; a member whose getter
 * throws becomes `[unreadable]`.
 */
export function redact(value: unknown, options: RedactOptions = {}): unknown {
  const forms = secretForms(options.secrets ?? []);
  const masking = options.maskDocuments !== false;
  const copyOf = (child: unknown): unknown => {
    if (!isContainer(child)) return redactLeaf(child, forms, masking);
    if (ArrayBuffer.isView(child) || child instanceof ArrayBuffer) return `[binary ${child.byteLength} bytes]`;
    return undefined;
  };
  const leaf = copyOf(value);
  if (leaf !== undefined || !isContainer(value)) return leaf;

  // Depth-first with an explicit stack; `onPath` holds the objects being copied above the current one.
  const onPath = new Set<object>();
  const enter = (source: object): Frame => {
    onPath.add(source);
    const entries: (readonly [string, unknown])[] = [];
    let keys: string[] = [];
    try {
      keys = Array.isArray(source) ? Array.from({ length: source.length }, (_, index) => String(index)) : Object.keys(source);
    } catch {
      // A proxy that refuses to list its keys: nothing of it is copied.
    }
    for (const key of keys) {
      try {
        entries.push([key, (source as Record<string, unknown>)[key]]);
      } catch {
        entries.push([key, '[unreadable]']);
      }
    }
    return { source, target: Array.isArray(source) ? [] : {}, entries, index: 0 };
  };
  const put = (target: Frame['target'], key: string, child: unknown): void => {
    // defineProperty, not assignment: a member named __proto__ stays a member.
    Object.defineProperty(target, key, { value: child, enumerable: true, writable: true, configurable: true });
  };
  const root = enter(value);
  const stack: Frame[] = [root];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const entry = frame.entries[frame.index];
    if (entry === undefined) {
      onPath.delete(frame.source);
      stack.pop();
      continue;
    }
    frame.index += 1;
    const [key, child] = entry;
    if (!Array.isArray(frame.target) && secretKey.test(key)) put(frame.target, key, redacted);
    else if (!isContainer(child) || ArrayBuffer.isView(child) || child instanceof ArrayBuffer) put(frame.target, key, copyOf(child));
    else if (onPath.has(child)) put(frame.target, key, '[circular]');
    else {
      const inner = enter(child);
      put(frame.target, key, inner.target);
      stack.push(inner);
    }
  }
  return root.target;
}

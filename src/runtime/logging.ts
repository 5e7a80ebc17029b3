/**
 * The logging hook and its redaction. Whatever a client logs passes through `redact`: credentials,
 * tokens, `svc-token`, keys and passphrases are replaced, and CPF/CNPJ are masked unless the caller
 * turns masking off. Nothing here ever logs a request or response body it was not asked to.
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

/** CPF as ***.NNN.NNN-** (the middle six digits stay, as Brazilian receipts show it). */
function maskCpf(cpf: string): string {
  return `***.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-**`;
}

/** CNPJ keeps its root (company), hides branch and check digits. */
function maskCnpj(cnpj: string): string {
  return `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/****-**`;
}

/** Masks every 11-digit run (CPF) and every 14-character CNPJ with valid check digits in a text. */
export function maskDocuments(text: string): string {
  return text
    .replace(/(?<![0-9A-Za-z])[0-9A-Z]{12}\d{2}(?![0-9A-Za-z])/g, (match) => (cnpjCheckDigits(match.slice(0, 12)) === match.slice(12) ? maskCnpj(match) : match))
    .replace(/(?<!\d)\d{11}(?!\d)/g, maskCpf);
}

export interface RedactOptions {
  /** Mask CPF and CNPJ (default true). */
  readonly maskDocuments?: boolean;
  /** Exact secret values (8 characters or more) to scrub wherever they appear: client secret, current token. */
  readonly secrets?: readonly string[];
}

/** A copy safe to log: secret members replaced, secret values scrubbed, documents masked. */
export function redact(value: unknown, options: RedactOptions = {}, depth = 0): unknown {
  if (typeof value === 'string') {
    let text = value;
    // Very short values are not scrubbed: they would shred ordinary text and are no real secret anyway.
    for (const secret of options.secrets ?? []) if (secret.length >= 8) text = text.split(secret).join('[redacted]');
    return options.maskDocuments === false ? text : maskDocuments(text);
  }
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, options, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, child]) => [key, secretKey.test(key) ? '[redacted]' : redact(child, options, depth + 1)]),
  );
}

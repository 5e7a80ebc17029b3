/**
 * Idempotency keys that satisfy each operation's own header rule (section 8: `[a-zA-Z0-9]{1,50}` on
 * billets, TED and transfers, 1 to 50 characters on invoices, 1 to 160 on the administrative API, at most
 * 128 on CaaS). 32 random letters and digits fit every one of them; the length adapts to the limits.
 */
import { randomInt } from 'node:crypto';
import { ConfigurationError } from './errors.js';

export interface IdempotencyKeyRule {
  readonly header: string;
  readonly minLength: number | null;
  readonly maxLength: number | null;
  readonly pattern: string | null;
}

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `draw(n)` picks an integer below n: crypto's by default, a seeded one where a run must repeat (`contrato verify --seed`). */
export function generateIdempotencyKey(rule: IdempotencyKeyRule, draw: (below: number) => number = randomInt): string {
  const length = Math.max(rule.minLength ?? 1, Math.min(32, rule.maxLength ?? 32));
  let key = '';
  for (let index = 0; index < length; index += 1) key += alphabet[draw(alphabet.length)];
  if (rule.pattern && !new RegExp(rule.pattern).test(key)) {
    throw new ConfigurationError(`cannot generate a key for ${rule.header} matching ${rule.pattern}; pass one with { idempotencyKey }`);
  }
  return key;
}

/**
 * Notifications of the API Pix standard: what the receiving user's PSP POSTs to the registered webhook
 * address with `/pix`, `/rec` or `/cobr` appended. Parsing checks a body against its schema (the `webhooks`
 * of the pix spec) and splits it into its items; each item gets the key under which it is handled once.
 */
import { createHash } from 'node:crypto';
import { eventTable, type EventPayloads } from '../../generated/pix/operations.js';
import { patternDescriptions, validators } from '../../generated/pix/validators.js';
import { defaultMaxNestingDepth, nestsDeeperThan, stringifyIteratively, valueNestsDeeperThan } from '../events/json.js';
import { ValidationError, type ValidationIssue } from '../runtime/errors.js';
import { check, type CompiledValidator } from '../runtime/validation.js';

/** The kinds of notification, by the suffix the PSP appends to the webhook address. */
export type PixNotificationKind = keyof EventPayloads;

export const pixNotificationKinds = Object.keys(eventTable) as PixNotificationKind[];

export function isPixNotificationKind(kind: string): kind is PixNotificationKind {
  return Object.hasOwn(eventTable, kind);
}

/** The member of each body that lists the notified items. */
const itemsMember = { pix: 'pix', rec: 'recs', cobr: 'cobsr' } as const satisfies Record<PixNotificationKind, string>;

/** A Pix notified at `/pix`, as GET /pix/{e2eid} describes it. */
export type NotifiedPix = EventPayloads['pix']['pix'][number];
/** A recurrence notified at `/rec`. */
export type NotifiedRec = EventPayloads['rec']['recs'][number];
/** A recurring charge notified at `/cobr`. */
export type NotifiedCobR = EventPayloads['cobr']['cobsr'][number];

export interface NotifiedItems {
  pix: NotifiedPix;
  rec: NotifiedRec;
  cobr: NotifiedCobR;
}

/** One item of a notification with the key it is handled under. */
export interface NotificationItem<Kind extends PixNotificationKind = PixNotificationKind> {
  readonly kind: Kind;
  readonly key: string;
  readonly item: NotifiedItems[Kind];
}

/** The body is not a notification of its kind: the field and the rule are in `issues`. */
export class PixNotificationError extends ValidationError {
  override readonly name = 'PixNotificationError';
  readonly kind: string;
  constructor(kind: string, issues: readonly ValidationIssue[]) {
    super(`${kind} notification: invalid body`, issues);
    this.kind = kind;
  }
}

/** The issues of `body` as a notification of `kind` (an empty list when it is valid). */
export function checkPixNotification(kind: PixNotificationKind, body: unknown): ValidationIssue[] {
  const validator = (validators.schemas as Record<string, CompiledValidator>)[eventTable[kind].schema];
  if (!validator) throw new Error(`no validator for the ${kind} notification (${eventTable[kind].schema}): regenerate`);
  return check(validator, body, '', patternDescriptions);
}

const digest = (value: unknown): string =>
  createHash('sha256')
    .update(stringifyIteratively(value) ?? '')
    .digest('hex')
    .slice(0, 16);

const lastEntry = (history: unknown): unknown => (Array.isArray(history) ? history.at(-1) : undefined);

/**
 * The key under which an item is handled once. A Pix is the same news while its endToEndId and its
 * refunds' ids and statuses are the same: a finished refund is notified again with the same endToEndId and
 * must not be taken for a duplicate. A recurrence or recurring charge is the same news while its status,
 * its last history entry (and, for a charge, its attempts) are the same.
 */
export function notificationKey<Kind extends PixNotificationKind>(kind: Kind, item: NotifiedItems[Kind]): string {
  if (kind === 'pix') {
    const pix = item as NotifiedPix;
    const refunds = (pix.devolucoes ?? []).map((refund) => [refund.id, refund.status]).sort();
    return refunds.length === 0 ? `pix:${pix.endToEndId}` : `pix:${pix.endToEndId}:${digest(refunds)}`;
  }
  if (kind === 'rec') {
    const rec = item as NotifiedRec;
    return `rec:${rec.idRec}:${String(rec.status)}:${digest(lastEntry(rec.atualizacao) ?? null)}`;
  }
  const charge = item as NotifiedCobR;
  const attempts = (charge.tentativas ?? []).map((attempt) => [attempt.dataLiquidacao, attempt.status]);
  return `cobr:${charge.txid}:${String(charge.status)}:${digest([lastEntry(charge.atualizacao) ?? null, attempts])}`;
}

export interface ParsePixNotificationOptions {
  /** Deeper bodies are refused, rule `maxNestingDepth` (default 64). */
  readonly maxNestingDepth?: number;
}

function decode(kind: string, body: unknown, maxNestingDepth: number): unknown {
  const tooDeep = new PixNotificationError(kind, [
    { pointer: '', rule: 'maxNestingDepth', message: `nests objects and arrays deeper than ${maxNestingDepth} levels` },
  ]);
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) {
    if (valueNestsDeeperThan(body, maxNestingDepth)) throw tooDeep;
    return body;
  }
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  if (nestsDeeperThan(text, maxNestingDepth)) throw tooDeep;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new PixNotificationError(kind, [{ pointer: '', rule: 'json', message: `is not JSON: ${(error as Error).message}` }]);
  }
}

/**
 * A notification body (text, bytes or parsed JSON) of `kind` as its items, each with its key; throws
 * PixNotificationError naming each offending field when the body breaks the notification's schema.
 */
export function parsePixNotification<Kind extends PixNotificationKind>(
  kind: Kind,
  body: unknown,
  options: ParsePixNotificationOptions = {},
): NotificationItem<Kind>[] {
  const payload = decode(kind, body, options.maxNestingDepth ?? defaultMaxNestingDepth);
  const issues = checkPixNotification(kind, payload);
  if (issues.length > 0) throw new PixNotificationError(kind, issues);
  const items = (payload as Record<string, NotifiedItems[Kind][]>)[itemsMember[kind]]!;
  return items.map((item) => ({ kind, key: notificationKey(kind, item), item }));
}

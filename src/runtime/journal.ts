/**
 * The journal of outgoing keyed calls: a call that carries an idempotency key is written down, with the
 * arguments that re-send it, before it leaves, and settled once its outcome is known. A process killed
 * between sending a payment and reading its answer then restarts knowing the key it used, and re-sends the
 * call with that same key (`resumeInDoubt`, or the next call with the same business reference), so the
 * server executes it once. A call that succeeded is never sent again: the same reference resolves with the
 * recorded answer, since the server may have forgotten the key by then (idempotency windows are finite). The memory journal below serves one process; contrato/postgres keeps one that
 * every process of an integration shares.
 */
import { createHash } from 'node:crypto';
import type { FacadeRuntime } from './contract.js';
import { ConfigurationError, ContratoError } from './errors.js';
import type { CallArgs } from './pipeline.js';

/**
 * - `in-doubt`: written before sending, or sent without an answer that settles it (the call may have run);
 * - `succeeded`: a 2xx answer came (final: a later answer never undoes it);
 * - `failed`: an answer or a failure proves the call did not run (a 4xx problem, a refused connection).
 */
export type JournalState = 'in-doubt' | 'succeeded' | 'failed';

/** What names an entry: the client's interface, the operation, and the business reference (or the key itself). */
export interface JournalEntryId {
  /** The interface of the client that wrote it: two interfaces may share an operationId. */
  readonly scope: string;
  readonly operationId: string;
  readonly reference: string;
}

/** Arguments as the facade takes them (`path`, `query`, `header`, `body`), in plain JSON. */
export type JournaledArgs = { readonly [location: string]: unknown };

/** A call about to be sent for the first time, as the journal records it. */
export interface NewJournalEntry extends JournalEntryId {
  readonly idempotencyKey: string;
  /** sha256 (hex) of the canonical JSON of the arguments without the key: the same reference must carry the same call. */
  readonly payloadHash: string;
  /** The arguments that re-send the call, key included. Never logged, never put in an error. */
  readonly args: JournaledArgs;
}

export interface JournalEntry extends NewJournalEntry {
  readonly state: JournalState;
  /** Status of the answer that settled it; absent while in doubt or when nothing answered. */
  readonly status?: number;
  /**
   * The parsed body of the success answer, once `succeeded` (absent for an answer without a body): a later
   * call with the same reference resolves with it instead of being sent again. Never logged, never put in an error.
   */
  readonly result?: unknown;
  readonly createdAt: Date;
  /** When the call was last begun (sent) or settled. */
  readonly updatedAt: Date;
}

export type JournalOutcome =
  /** `result`: the success answer's parsed body, kept to answer the same reference again without sending it. */
  | { readonly state: 'succeeded'; readonly status: number; readonly result?: unknown }
  | { readonly state: 'failed'; readonly status?: number };

export interface InDoubtQuery {
  readonly scope?: string;
  /** Only entries not begun nor settled for at least this long (default 0: all of them). */
  readonly olderThanMs?: number;
  /** At most this many, the oldest first (default 100). */
  readonly limit?: number;
}

export interface IdempotencyJournal {
  /**
   * Atomically records the call as in doubt, or returns the entry its id has already: the caller sends with
   * THAT entry's key. An existing entry with the same payload that is not `succeeded` is marked in doubt
   * again (it is about to be sent again); one with another payload is returned unchanged, for the caller to
   * refuse, and so is a `succeeded` one, which the caller answers with its `result` without sending anything.
   */
  begin(entry: NewJournalEntry): Promise<JournalEntry>;
  /** Records the outcome (with a success, its `result`); a `succeeded` entry stays as it is, result included. */
  settle(id: JournalEntryId, outcome: JournalOutcome): Promise<void>;
  /** The entries in doubt, oldest first. */
  inDoubt(query?: InDoubtQuery): Promise<JournalEntry[]>;
  /** The entry of an id, if any: what became of a business reference. */
  entry(id: JournalEntryId): Promise<JournalEntry | undefined>;
}

const journalMethods = ['begin', 'settle', 'inDoubt', 'entry'] as const;

/** Refuses a `journal` option that is not one: better at construction than at the first payment. */
export function checkJournal(journal: unknown): IdempotencyJournal {
  const methods = journal as Partial<Record<(typeof journalMethods)[number], unknown>> | null;
  const missing = journalMethods.filter((name) => typeof methods?.[name] !== 'function');
  if (typeof journal !== 'object' || journal === null || missing.length > 0)
    throw new ConfigurationError(`journal must be an IdempotencyJournal (missing ${missing.join(', ')}), e.g. memoryIdempotencyJournal()`);
  return journal as IdempotencyJournal;
}

const isPlainObject = (value: object): boolean => {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
};

/**
 * The JSON of a value with every object's members in code-point order (undefined members left out, as
 * JSON.stringify does), so equal arguments hash equally whatever order they were written in. A value JSON
 * cannot carry back (a Blob, bytes, a Date, NaN) is refused: the journal could not re-send it as it was.
 */
export function canonicalJson(value: unknown, operationId: string, pointer = ''): string {
  const refuse = (what: string): never => {
    throw new ConfigurationError(
      `${operationId}: the journal keeps the arguments to re-send them, and ${pointer || '/'} is ${what}, which JSON does not carry back`,
      { operationId },
    );
  };
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : refuse('not a finite number');
  if (typeof value !== 'object') return refuse(`a ${typeof value}`);
  if (Array.isArray(value)) {
    const items = value.map((item, index) => (item === undefined ? 'null' : canonicalJson(item, operationId, `${pointer}/${index}`)));
    return `[${items.join(',')}]`;
  }
  if (!isPlainObject(value)) return refuse(`a ${value.constructor?.name ?? 'non-plain object'}`);
  const members = Object.entries(value)
    .filter(([, member]) => member !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(
      ([name, member]) =>
        `${JSON.stringify(name)}:${canonicalJson(member, operationId, `${pointer}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`)}`,
    );
  return `{${members.join(',')}}`;
}

/** Where an operation carries its key: a header (by name) or a body member. */
export interface KeyLocation {
  readonly header?: string | undefined;
  readonly bodyField?: string | undefined;
}

/** The arguments without the idempotency key, whose hash tells one call from another under one reference. */
function withoutKey(args: CallArgs, location: KeyLocation): CallArgs {
  const { header, bodyField } = location;
  let result: CallArgs = args;
  if (header && args.header && header in args.header) {
    const { [header]: _key, ...rest } = args.header;
    result = { ...result, header: rest };
  }
  if (bodyField && typeof args.body === 'object' && args.body !== null && !Array.isArray(args.body)) {
    const { [bodyField]: _key, ...rest } = args.body as Record<string, unknown>;
    result = { ...result, body: rest };
  }
  return result;
}

/** sha256 (hex) of the canonical JSON of the arguments other than the key. */
export function payloadHashOf(args: CallArgs, location: KeyLocation, operationId: string): string {
  return createHash('sha256')
    .update(canonicalJson(withoutKey(args, location), operationId))
    .digest('hex');
}

/** The arguments as the journal stores them: a plain JSON copy, detached from the caller's objects. */
export function journaledArgs(args: CallArgs, operationId: string): JournaledArgs {
  return JSON.parse(canonicalJson(args, operationId)) as JournaledArgs;
}

const entryKey = (id: JournalEntryId): string => JSON.stringify([id.scope, id.operationId, id.reference]);

/** The journal of one process: enough for one replica that is not killed, and the tests' reference. */
export function memoryIdempotencyJournal(options: { readonly now?: () => Date } = {}): IdempotencyJournal {
  const now = options.now ?? (() => new Date());
  const entries = new Map<string, JournalEntry>();
  return {
    async begin(proposed) {
      const key = entryKey(proposed);
      const existing = entries.get(key);
      if (!existing) {
        const at = now();
        const entry: JournalEntry = { ...proposed, args: structuredClone(proposed.args), state: 'in-doubt', createdAt: at, updatedAt: at };
        entries.set(key, entry);
        return entry;
      }
      if (existing.payloadHash !== proposed.payloadHash || existing.state === 'succeeded') return existing;
      const { status: _status, result: _result, ...rest } = existing;
      const again: JournalEntry = { ...rest, state: 'in-doubt', updatedAt: now() };
      entries.set(key, again);
      return again;
    },
    async settle(id, outcome) {
      const key = entryKey(id);
      const existing = entries.get(key);
      if (!existing || existing.state === 'succeeded') return;
      const { status: _status, result: _result, ...rest } = existing;
      // A copy: the caller's answer may be changed after it was recorded.
      const recorded =
        'result' in outcome && outcome.result !== undefined ? { ...outcome, result: structuredClone(outcome.result) } : outcome;
      entries.set(key, { ...rest, ...recorded, updatedAt: now() });
    },
    async inDoubt(query = {}) {
      const cutoff = now().getTime() - (query.olderThanMs ?? 0);
      return [...entries.values()]
        .filter((entry) => entry.state === 'in-doubt' && (query.scope === undefined || entry.scope === query.scope))
        .filter((entry) => entry.updatedAt.getTime() <= cutoff)
        .sort((a, b) => a.updatedAt.getTime() - b.updatedAt.getTime())
        .slice(0, query.limit ?? 100);
    },
    async entry(id) {
      return entries.get(entryKey(id));
    },
  };
}

export interface ResumeOptions {
  /** Leave alone what was sent less than this long ago: it may still be in flight in another process (default 0). */
  readonly olderThanMs?: number;
  /** At most this many calls per run, the oldest first (default 100). */
  readonly limit?: number;
}

/** What became of one call re-sent by `resumeInDoubt`; the arguments are not repeated here. */
export interface ResumedCall {
  readonly operationId: string;
  readonly reference: string;
  readonly idempotencyKey: string;
  /** The journal's state after the attempt: `in-doubt` when the outcome is still unknown (try again later). */
  readonly state: JournalState;
  /** Status of the answer, when one came. */
  readonly status?: number;
  /** The error the call ended in, when it did. */
  readonly error?: ContratoError | Error;
}

/**
 * Re-sends every in-doubt call of `scope`, one after the other, with its original key and arguments, through
 * `runtime` (so through every step, the journal's included, which records the outcome), and reports each.
 */
export async function resumeInDoubtCalls(
  runtime: FacadeRuntime,
  journal: IdempotencyJournal,
  scope: string,
  options: ResumeOptions = {},
): Promise<ResumedCall[]> {
  const entries = await Promise.resolve()
    .then(() =>
      journal.inDoubt({
        scope,
        ...(options.olderThanMs === undefined ? {} : { olderThanMs: options.olderThanMs }),
        ...(options.limit === undefined ? {} : { limit: options.limit }),
      }),
    )
    .catch((error: unknown) => {
      // As a call's failure to record itself is: a ContratoError that names the journal, its cause kept.
      throw new ContratoError(
        `${scope} client: resumeInDoubt could not read the journal, so nothing was re-sent (call it again once the journal answers): ${error instanceof Error ? error.message : String(error)}`,
        {},
        { cause: error },
      );
    });
  const report: ResumedCall[] = [];
  for (const entry of entries) {
    const { operationId, reference, idempotencyKey } = entry;
    const ended = await runtime
      .invoke(operationId, entry.args, { reference, idempotencyKey })
      .withResponse()
      .then(
        ({ response }) => ({ status: response.status }),
        (error: unknown) => ({ error: error instanceof Error ? error : new Error(String(error)) }),
      );
    // A journal gone meanwhile leaves the entry as the report says when nothing is known: in doubt.
    const after = await Promise.resolve()
      .then(() => journal.entry(entry))
      .catch(() => undefined);
    const status = after?.status ?? ('status' in ended ? ended.status : undefined);
    report.push({
      operationId,
      reference,
      idempotencyKey,
      state: after?.state ?? 'in-doubt',
      ...(status === undefined ? {} : { status }),
      ...('error' in ended ? { error: ended.error } : {}),
    });
  }
  return report;
}

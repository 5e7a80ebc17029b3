/**
 * The journal step (after idempotency-key and validate, before retry): a keyed call is written down as in
 * doubt before its first attempt, under its business reference (`reference` call option) or else under its
 * key, and settled once the retries are over. A reference maps to one key for good: a later call with the
 * same reference is sent with the key of the first (after a crash, the server then answers the original
 * instead of executing it again); the same reference with other arguments is refused. A reference that
 * already succeeded is not sent at all: it resolves with the recorded result, since the server may have
 * forgotten the key by then and would execute the payment again.
 */
import { ConfigurationError, ContratoError } from '../errors.js';
import {
  type IdempotencyJournal,
  type JournalEntry,
  type JournalEntryId,
  type JournalOutcome,
  journaledArgs,
  type KeyLocation,
  payloadHashOf,
} from '../journal.js';
import type { Call, CallArgs, CallState, Outcome, Step } from '../pipeline.js';

export interface JournalServices {
  readonly journal: IdempotencyJournal;
  /** The client's interface: entries of two interfaces never mix. */
  readonly scope: string;
  /** Masks documents in the words of an error (a reference is the caller's text). */
  readonly scrub: <T>(value: T) => T;
  /** Told when an outcome could not be recorded: the entry stays in doubt, and a resume re-sends it with its key. */
  readonly onSettleFailure?: (operationId: string, data: Record<string, unknown>) => void;
}

/**
 * What the end of a call proves: a 2xx that it ran; a 4xx (not 409, which may mean the same key is being
 * executed) or a failure that cannot have left that it did not, unless an earlier attempt may have run;
 * anything else (a 5xx, a dropped connection, a timeout) proves nothing, and the entry stays in doubt.
 */
export function journalOutcomeOf(outcome: Outcome, state: Pick<CallState, 'maybeExecuted'>): JournalOutcome | undefined {
  if (outcome.kind === 'answer') {
    const { status } = outcome.answer;
    if (status >= 200 && status < 300) {
      const { body } = outcome.answer;
      return body === undefined ? { state: 'succeeded', status } : { state: 'succeeded', status, result: body };
    }
    if (status >= 400 && status < 500 && status !== 409 && !state.maybeExecuted) return { state: 'failed', status };
    return undefined;
  }
  return outcome.maybeExecuted || state.maybeExecuted ? undefined : { state: 'failed' };
}

/** The call with another key, where the operation carries it. */
function withKey(call: Call, location: KeyLocation, key: string): Call {
  call.state.idempotencyKey = key;
  const { args } = call;
  const next: CallArgs = location.header
    ? { ...args, header: { ...args.header, [location.header]: key } }
    : { ...args, body: { ...(args.body as Record<string, unknown>), [location.bodyField as string]: key } };
  return { ...call, args: next };
}

/**
 * The answer of a reference that already succeeded, from the journal: nothing is sent (no token either), and
 * the call carries the original key and no attempt. A copy of the result, so the caller's changes stay theirs.
 */
function replayed(call: Call, entry: JournalEntry): Outcome {
  call.state.idempotencyKey = entry.idempotencyKey;
  call.state.fromJournal = true;
  const body = entry.result === undefined ? undefined : structuredClone(entry.result);
  // A journal of your own may keep no status: a success it recorded still answers.
  return { kind: 'answer', answer: { status: entry.status ?? 200, headers: new Headers(), body } };
}

export function journalStep(services: JournalServices): Step {
  const { journal, scope, scrub } = services;
  return {
    name: 'journal',
    async run(call, next) {
      const { info, options, state } = call;
      const { operationId } = info;
      const refuse = (words: string): never => {
        throw new ConfigurationError(scrub(`${operationId}: ${words}`), { operationId });
      };
      const key = state.idempotencyKey;
      if (key === undefined) {
        if (options?.reference !== undefined)
          refuse('takes no idempotency key, so a reference cannot name its call (only keyed operations are journaled)');
        return next(call);
      }
      const reference = options?.reference ?? key;
      if (typeof reference !== 'string' || reference.length === 0) refuse('reference must be a non-empty string');
      const location: KeyLocation = { header: info.idempotencyKeyRule?.header, bodyField: info.idempotencyBodyField ?? undefined };
      const payloadHash = payloadHashOf(call.args, location, operationId);
      const id: JournalEntryId = { scope, operationId, reference };
      const args = journaledArgs(call.args, operationId);
      const entry = await journal.begin({ ...id, idempotencyKey: key, payloadHash, args }).catch((error: unknown) => {
        throw new ContratoError(
          scrub(
            `${operationId}: the journal could not record the call, so it was not sent: ${error instanceof Error ? error.message : String(error)}`,
          ),
          { operationId },
          { cause: error },
        );
      });
      if (entry.payloadHash !== payloadHash)
        refuse(
          `reference ${reference} was first used with other arguments; a reference names one call for good (use a new reference for a new call)`,
        );
      let sent = call;
      if (entry.idempotencyKey !== key) {
        if (options?.idempotencyKey !== undefined)
          refuse(
            `reference ${reference} keeps the idempotency key of its first call, not the one given; leave idempotencyKey out or use another reference`,
          );
        sent = withKey(call, location, entry.idempotencyKey);
      }
      if (entry.state === 'succeeded') return replayed(call, entry);
      // A call that throws (cancelled by its caller) stays in doubt: it may have been sent.
      const outcome = await next(sent);
      const settled = journalOutcomeOf(outcome, state);
      if (settled) {
        await journal.settle(id, settled).catch((error: unknown) => {
          services.onSettleFailure?.(operationId, {
            idempotencyKey: entry.idempotencyKey,
            outcome: settled.state,
            failure: error instanceof Error ? error.message : String(error),
          });
        });
      }
      return outcome;
    },
  };
}

/**
 * The shape of the request pipeline: a call passes through a list of named steps, each a small function
 * that may change the call, answer it, or hand it to the next step (as openapi-fetch's and Stainless's
 * middleware do). The default order is in steps/index.ts; an interface may add steps of its own.
 */
import type { AttemptAbort } from './attempt-abort.js';
import type { CallOptions, OperationInfo } from './contract.js';
import type { CrossFieldChecks } from './cross-field.js';
import type { CallContext, ContratoError, NotRetried } from './errors.js';
import type { CallTelemetry } from './telemetry.js';
import type { CompiledValidator } from './validation.js';

/** The arguments of a facade call, as the caller gave them (then completed by the steps). */
export interface CallArgs {
  readonly path?: Record<string, unknown>;
  readonly query?: Record<string, unknown>;
  readonly header?: Record<string, unknown>;
  readonly body?: unknown;
}

export interface OperationValidatorSet {
  readonly body: CompiledValidator | null;
  readonly parameters: { readonly path?: CompiledValidator; readonly query?: CompiledValidator; readonly header?: CompiledValidator };
  readonly responses: Readonly<Record<string, CompiledValidator>>;
}

/** What the request checks of an operation need: its validators, the words for its patterns, its cross-field rules. */
export interface OperationChecks {
  readonly validators: OperationValidatorSet;
  readonly patterns: Readonly<Record<string, string>>;
  readonly crossField: CrossFieldChecks[string] | undefined;
}

/** Bookkeeping of one call that outlives its attempts; the steps share it. */
export interface CallState {
  attempts: number;
  idempotencyKey: string | undefined;
  /** Whether an attempt may have been executed by the server without an answer saying so. */
  maybeExecuted: boolean;
  /** `host:port` the last attempt went to (set by the send step). */
  target?: string | undefined;
  /** Status of the last attempt's answer once its headers arrived, before its body was read. */
  answeredStatus?: number | undefined;
  /** Why the call was not tried again, when the retry step let its last outcome stand. */
  notRetried?: NotRetried | undefined;
  /** The journal answered with the recorded result of an earlier success under the same reference: nothing was sent. */
  fromJournal?: boolean | undefined;
  /** The call's spans and metrics (telemetry.ts); absent in a call made without a client (a step's own test). */
  telemetry?: CallTelemetry | undefined;
}

export interface Call {
  readonly info: OperationInfo;
  readonly args: CallArgs;
  readonly options: CallOptions | undefined;
  readonly checks: OperationChecks;
  /** Headers the steps add (token, Basic credentials) on top of the caller's `options.headers`. */
  readonly headers: Readonly<Record<string, string>>;
  /** Ends the attempt: the caller's signal, joined by the timeout step with its timer. */
  readonly signal: AbortSignal | undefined;
  /**
   * Set by the timeout step when the caller gave no signal (`signal` is then undefined): the attempt's end,
   * as undici takes it without an AbortSignal (attempt-abort.ts; `abort.signal` makes one for who needs it).
   */
  readonly abort?: AttemptAbort | undefined;
  readonly state: CallState;
}

/** A server's answer, body read and parsed (JSON, or text for an operation answering a JWS). */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

/**
 * How an attempt ended: an answer with any status, or a failure the retry step can judge by its flags:
 * - `retryable`: the kind of failure may go away (a dropped connection, a timeout, a 503 on the token);
 * - `beforeSending`: the call itself never left (its token could not be had), so any method may be repeated;
 * - `maybeExecuted`: the server may have run the call without the client learning its outcome.
 */
export type Outcome =
  | { readonly kind: 'answer'; readonly answer: Answer }
  | {
      readonly kind: 'failure';
      readonly error: ContratoError;
      readonly retryable: boolean;
      readonly beforeSending: boolean;
      readonly maybeExecuted: boolean;
    };

export type Next = (call: Call) => Promise<Outcome>;

export interface Step {
  readonly name: string;
  run(call: Call, next: Next): Promise<Outcome>;
}

/** The context an error of this call carries: operation, attempts so far, idempotency key. */
export function contextOf(call: Pick<Call, 'info' | 'state'>): CallContext {
  const { attempts, idempotencyKey } = call.state;
  return { operationId: call.info.operationId, attempts, ...(idempotencyKey ? { idempotencyKey } : {}) };
}

/** The steps as one function: each step's `next` is the rest of the list; the last step must answer. */
export function compose(steps: readonly Step[]): Next {
  const run = (index: number, call: Call): Promise<Outcome> => {
    const step = steps[index];
    if (!step) return Promise.reject(new Error('the pipeline ended without a step that sends the request'));
    // A step that throws before its first await still ends as a rejected promise.
    try {
      return step.run(call, nexts[index + 1]!);
    } catch (error) {
      return Promise.reject(error);
    }
  };
  // The `next` of each step, made once rather than on every call.
  const nexts = Array.from(
    { length: steps.length + 1 },
    (_, index): Next =>
      (call) =>
        run(index, call),
  );
  return nexts[0]!;
}

/** The list with `step` placed before the step named `before` (at the end when there is none). */
export function insertBefore(steps: readonly Step[], before: string, ...added: readonly Step[]): Step[] {
  const index = steps.findIndex((step) => step.name === before);
  return index < 0 ? [...steps, ...added] : [...steps.slice(0, index), ...added, ...steps.slice(index)];
}

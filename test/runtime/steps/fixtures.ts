/**
 * Building blocks of the step tests: an operation row with sensible defaults, a call around it whose
 * validators accept everything, a fake `next` that records what it receives and answers from a script,
 * and the outcomes it answers with. Each step is tested alone with these, never through a whole runtime.
 */
import type { CallOptions, OperationInfo } from '../../../src/runtime/contract.js';
import type { ContratoError } from '../../../src/runtime/errors.js';
import type { Call, CallArgs, CallState, Next, OperationChecks, Outcome } from '../../../src/runtime/pipeline.js';
import type { CompiledValidator } from '../../../src/runtime/validation.js';

/** A full operation row: a secured GET without parameters, body or idempotency, unless `overrides` says otherwise. */
export function operation(overrides: Partial<OperationInfo> = {}): OperationInfo {
  return {
    operationId: 'getThing',
    group: 'things',
    name: 'get',
    method: 'get',
    path: '/things',
    summary: 'A thing',
    scopes: [],
    secured: true,
    basicAuth: false,
    tokenHeader: null,
    parameters: [],
    requestBody: null,
    idempotencyKeyRule: null,
    pagination: null,
    errorTypes: [],
    problemTypes: { shape: null, byStatus: {} },
    jwsPayload: null,
    source: null,
    idempotencyBodyField: null,
    message: null,
    accountHeader: null,
    pathCaseInsensitive: false,
    provisional: false,
    responseStatuses: ['200'],
    ...overrides,
  };
}

/** A validator that accepts any data. */
export function acceptAll(): CompiledValidator {
  const validator: CompiledValidator = () => true;
  validator.errors = null;
  return validator;
}

type AjvError = NonNullable<CompiledValidator['errors']>[number];

/** A validator that refuses any data with these ajv errors (paths relative to the part it checks). */
export function refuseWith(...errors: AjvError[]): CompiledValidator {
  const validator: CompiledValidator = () => false;
  validator.errors = errors;
  return validator;
}

/** Checks whose validators accept every parameter and any body; no patterns, no cross-field rules. */
export function acceptingChecks(): OperationChecks {
  return {
    validators: { body: acceptAll(), parameters: { path: acceptAll(), query: acceptAll(), header: acceptAll() }, responses: {} },
    patterns: {},
    crossField: undefined,
  };
}

export function freshState(overrides: Partial<CallState> = {}): CallState {
  return { attempts: 0, idempotencyKey: undefined, maybeExecuted: false, ...overrides };
}

/** A call of `info` with a fresh state, accepting checks, no step headers and no signal; `extra` replaces any member. */
export function callOf(info: OperationInfo, args: CallArgs = {}, options?: CallOptions, extra: Partial<Call> = {}): Call {
  return {
    info,
    args,
    options,
    checks: acceptingChecks(),
    headers: {},
    signal: undefined,
    state: freshState(),
    ...extra,
  };
}

export function answer(status: number, body?: unknown, headers: Record<string, string> = {}): Outcome {
  return { kind: 'answer', answer: { status, headers: new Headers(headers), body } };
}

export function failure(
  error: ContratoError,
  flags: { retryable?: boolean; beforeSending?: boolean; maybeExecuted?: boolean } = {},
): Outcome {
  return {
    kind: 'failure',
    error,
    retryable: flags.retryable ?? true,
    beforeSending: flags.beforeSending ?? false,
    maybeExecuted: flags.maybeExecuted ?? false,
  };
}

export interface RecordingNext {
  readonly next: Next;
  /** Every call `next` received, in order. */
  readonly calls: Call[];
}

/**
 * A `next` that records each call and answers with the scripted outcomes in turn (the last one repeats;
 * a 200 without body when none is scripted). A function in the script is called with the call.
 */
export function recordingNext(...script: (Outcome | ((call: Call) => Outcome | Promise<Outcome>))[]): RecordingNext {
  const calls: Call[] = [];
  const next: Next = async (call) => {
    calls.push(call);
    const entry = script[Math.min(calls.length, script.length) - 1] ?? answer(200);
    return typeof entry === 'function' ? entry(call) : entry;
  };
  return { next, calls };
}

/**
 * Faults injected on the next calls of an operation (control plane `POST /_sandbox/faults`), so a user can
 * prove that an integration survives what the clients are proven against: a 503 before processing, a
 * connection reset after processing (the call executed, its answer lost), a 429 with Retry-After, a slow
 * answer.
 */

export type FaultKind = 'unavailable' | 'reset-after-processing' | 'rate-limited' | 'slow';
export const faultKinds: readonly FaultKind[] = ['unavailable', 'reset-after-processing', 'rate-limited', 'slow'];

export interface Fault {
  readonly kind: FaultKind;
  /** Operation it applies to (`cob.create`), or `*` for every operation of every interface. */
  readonly operationId: string;
  /** How many calls it still applies to. */
  remaining: number;
  /** Seconds in the Retry-After of `unavailable` and `rate-limited` (none when absent). */
  readonly retryAfterSeconds?: number;
  /** Real milliseconds a `slow` answer waits before it is processed. */
  readonly delayMs?: number;
}

export interface FaultRequest {
  readonly kind: unknown;
  readonly operationId: unknown;
  readonly count?: unknown;
  readonly retryAfterSeconds?: unknown;
  readonly delayMs?: unknown;
}

/** The longest a slow answer may be held, so a mistyped delay cannot hang a test run. */
const maxDelayMs = 120_000;

export class FaultPlan {
  #faults: Fault[] = [];

  /** Adds a fault from a control-plane body; throws a one-line Error naming the member when it is wrong. */
  add(request: FaultRequest, knownOperation: (operationId: string) => boolean): Fault {
    const { kind, operationId } = request;
    if (typeof kind !== 'string' || !faultKinds.includes(kind as FaultKind))
      throw new Error(`kind must be one of ${faultKinds.join(', ')}`);
    if (typeof operationId !== 'string' || (operationId !== '*' && !knownOperation(operationId)))
      throw new Error('operationId must name an operation of the sandbox (e.g. cob.create), or * for every one');
    const count = request.count ?? 1;
    if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > 1000)
      throw new Error('count must be an integer from 1 to 1000');
    const retryAfter = request.retryAfterSeconds;
    if (retryAfter !== undefined && (!Number.isInteger(retryAfter) || (retryAfter as number) < 0))
      throw new Error('retryAfterSeconds must be a whole number of seconds');
    const delay = request.delayMs ?? (kind === 'slow' ? 2000 : undefined);
    if (delay !== undefined && (!Number.isInteger(delay) || (delay as number) < 0 || (delay as number) > maxDelayMs))
      throw new Error(`delayMs must be an integer from 0 to ${maxDelayMs}`);
    const fault: Fault = {
      kind: kind as FaultKind,
      operationId,
      remaining: count as number,
      ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter as number }),
      ...(delay === undefined ? {} : { delayMs: delay as number }),
    };
    this.#faults.push(fault);
    return fault;
  }

  /** The fault the next call of `operationId` meets, consumed; faults apply in the order they were added. */
  take(operationId: string): Fault | undefined {
    const fault = this.#faults.find((candidate) => candidate.operationId === operationId || candidate.operationId === '*');
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.#faults = this.#faults.filter((candidate) => candidate !== fault);
    return { ...fault };
  }

  list(): readonly Fault[] {
    return this.#faults.map((fault) => ({ ...fault }));
  }

  clear(): void {
    this.#faults = [];
  }
}

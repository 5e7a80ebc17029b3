/**
 * Faults injected on the next calls of an operation (control plane `POST /_sandbox/faults`), so a user can
 * prove that an integration survives what the clients are proven against: a 503 before processing, a
 * connection reset after processing (the call executed, its answer lost), a 429 with Retry-After, a slow
 * answer.
 */

export type FaultKind = 'unavailable' | 'reset-after-processing' | 'rate-limited' | 'slow';
export const faultKinds: readonly FaultKind[] = ['unavailable', 'reset-after-processing', 'rate-limited', 'slow'];

/** The status a fault answers with before anything is processed: one the operation it meets must declare. */
export const statusOfFault: Readonly<Partial<Record<FaultKind, string>>> = { unavailable: '503', 'rate-limited': '429' };

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

  /**
   * Adds a fault from a control-plane body; throws a one-line Error naming the member when it is wrong.
   * `statusesOf` gives the statuses an operation declares (undefined: no such operation): a fault answering a
   * status the named operation does not declare would take the sandbox outside the contract, so it is refused.
   */
  add(request: FaultRequest, statusesOf: (operationId: string) => readonly string[] | undefined): Fault {
    const { kind, operationId } = request;
    if (typeof kind !== 'string' || !faultKinds.includes(kind as FaultKind))
      throw new Error(`kind must be one of ${faultKinds.join(', ')}`);
    const statuses = typeof operationId === 'string' && operationId !== '*' ? statusesOf(operationId) : undefined;
    if (typeof operationId !== 'string' || (operationId !== '*' && !statuses))
      throw new Error('operationId must name an operation of the sandbox (e.g. cob.create), or * for every one');
    const status = statusOfFault[kind as FaultKind];
    if (statuses && status && !statuses.includes(status))
      throw new Error(
        `kind ${kind} answers ${status}, which ${operationId} does not declare: plan it on an operation that declares ${status}, or plan another kind`,
      );
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

  /**
   * The fault the next call of `operationId` meets, consumed; faults apply in the order they were added. A fault
   * planned for every operation (`*`) passes by one that does not declare its status (Pix declares no 429).
   */
  take(operationId: string, declares: (status: string) => boolean): Fault | undefined {
    const meets = (candidate: Fault): boolean => {
      if (candidate.operationId === operationId) return true;
      const status = statusOfFault[candidate.kind];
      return candidate.operationId === '*' && (status === undefined || declares(status));
    };
    const fault = this.#faults.find(meets);
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

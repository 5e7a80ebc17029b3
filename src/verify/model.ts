/**
 * What `contrato verify` finds, as data: each check of an operation with its verdict and, for a failure, the
 * exchange that shows it. The live view, the summary, the JUnit and the HTML reports all read these records;
 * the checks (src/verify/checks/) and the flows (src/verify/flows/) write them.
 */

/** Which kind of judgment a check makes (one section of the report each). */
export type CheckKind =
  /** A valid request (the spec's example, with what earlier calls made) is accepted as declared. */
  | 'valid'
  /** A request breaking one rule is refused with a declared 4xx in the problem format of section 7. */
  | 'invalid'
  /** No token, a malformed one, another interface's, one without the scope: each refused as declared. */
  | 'token'
  /** The same key and payload answer the same; another payload under the key answers 409. */
  | 'idempotency'
  /** Page members agree with the items across pages. */
  | 'paging'
  /** A state machine of section 3, followed call by call. */
  | 'flow';

/**
 * - `pass`: the target did what the contract says;
 * - `fail`: it did not (the reason says what, the exchange shows it);
 * - `skipped`: not run (read-only, `--skip`, nothing to run it on): the reason says why;
 * - `needs-platform`: a step needs the platform to act (a payer pays, a clock passes) and the target has no
 *   control plane to ask: reported, never guessed.
 */
export type Verdict = 'pass' | 'fail' | 'skipped' | 'needs-platform';

/** A request as it was sent, secrets already masked (see mask.ts). */
export interface SentRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body as sent: parsed JSON, text, or a description of a multipart form. */
  readonly body?: unknown;
}

/** What came back, or why nothing usable did. */
export type Received =
  | {
      readonly kind: 'answer';
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      readonly body?: unknown;
      /** The body was declared JSON (or the operation answers JSON) but did not parse: its first bytes. */
      readonly unparsable?: string;
    }
  | {
      readonly kind: 'no-answer';
      /** `timeout` (no answer within --timeout), `reset` (the connection closed), `refused`, `tls`, `other`. */
      readonly reason: 'timeout' | 'reset' | 'refused' | 'tls' | 'other';
      readonly message: string;
    };

export interface Exchange {
  readonly request: SentRequest;
  readonly received: Received;
  readonly durationMs: number;
}

/** One judgment: an operation, a check, a rule, a verdict. */
export interface CheckResult {
  /** The operation judged; a flow names the operation of the step that decided it. */
  readonly operationId: string;
  readonly kind: CheckKind;
  /**
   * The rule checked, short and stable (a JUnit test name): `example accepted`, `maxLength /body/chave`,
   * `missing header x-idempotency-key`, `token of pix`, `same key replays`, `cob: not changeable once not ATIVA`.
   */
  readonly rule: string;
  readonly verdict: Verdict;
  /** One line: what was expected and what happened (a failure), or why it did not run. */
  readonly reason: string;
  /** The exchanges that decided it (kept for failures; the last ones for flows). */
  readonly exchanges: readonly Exchange[];
}

/** What a run covered and found, for the summary, the reports and the exit status. */
export interface VerifyReport {
  readonly interface: string;
  /** The base URL judged (no credentials in it). */
  readonly baseUrl: string;
  readonly seed: string;
  readonly allowWrites: boolean;
  /** Whether the target answered the sandbox's control plane (the flows could make the platform act). */
  readonly controlPlane: boolean;
  readonly startedAt: string;
  readonly durationMs: number;
  /** Every operation of the interface, in table order (including those not run, with a `skipped` result). */
  readonly operations: readonly string[];
  readonly results: readonly CheckResult[];
}

/** Counts of a list of results by verdict. */
export function countsOf(results: readonly CheckResult[]): Record<Verdict, number> {
  const counts: Record<Verdict, number> = { pass: 0, fail: 0, skipped: 0, 'needs-platform': 0 };
  for (const result of results) counts[result.verdict] += 1;
  return counts;
}

/** Live progress, as the run goes (the terminal view listens). */
export type ProgressEvent =
  | { readonly kind: 'start'; readonly operations: readonly string[] }
  | { readonly kind: 'operation'; readonly operationId: string }
  | { readonly kind: 'result'; readonly result: CheckResult }
  | { readonly kind: 'end'; readonly report: VerifyReport };

/**
 * The engine's contract for rules JSON Schema cannot say (a field against another, or against today):
 * a named check that returns issues carrying its name as the rule, and the runner the client, the mock
 * front and `contrato validate` use. The rules themselves live outside the runtime (src/rules and the
 * interfaces' checks), which import this module — never the other way round.
 */
import type { ValidationIssue } from './errors.js';

export interface CheckContext {
  /** The present instant; injectable so date rules are testable. */
  readonly now: Date;
}

/** The parts of a request a check reads. */
export interface CheckedRequest {
  readonly path?: Readonly<Record<string, unknown>>;
  readonly query?: Readonly<Record<string, unknown>>;
  readonly body?: unknown;
}

export interface CrossFieldCheck {
  /** Reported as the rule of every issue it finds. */
  readonly name: string;
  /** What it enforces, in plain words (docs and coverage). */
  readonly description: string;
  readonly check: (request: CheckedRequest, context: CheckContext) => ValidationIssue[];
}

/** Cross-field checks of an interface, by operationId. */
export type CrossFieldChecks = Readonly<Record<string, readonly CrossFieldCheck[]>>;

/** Runs the checks of one operation; a check that meets an unexpected shape reports nothing rather than throwing. */
export function runCrossFieldChecks(
  checks: readonly CrossFieldCheck[] | undefined,
  request: CheckedRequest,
  context: CheckContext,
): ValidationIssue[] {
  return (checks ?? []).flatMap((entry) => {
    try {
      return entry.check(request, context);
    } catch {
      return [];
    }
  });
}

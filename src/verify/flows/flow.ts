/**
 * What a flow is (a state machine of section 3 for one interface), what it is given, and `FlowSteps`, the
 * small runner every flow of this folder shares: one step, one rule, stop at the first failure,
 * `needs-platform` for what only the platform does when the target has no control plane.
 */
import type { CallArgs } from '../../runtime/pipeline.js';
import { judged, result } from '../checks/context.js';
import type { RunContext } from '../checks/context.js';
import { withChosenIds } from '../checks/valid.js';
import type { ControlPlane } from '../control.js';
import type { Expectation } from '../judge.js';
import type { CheckResult, Exchange } from '../model.js';

/** What a step of a flow got: the exchange, the judge's failure line (null: as expected), the answer's body. */
export interface StepOutcome {
  readonly exchange: Exchange;
  readonly failure: string | null;
  readonly status: number | null;
  readonly body: unknown;
}

export interface FlowContext {
  readonly run: RunContext;
  /** The sandbox's control plane, when the target has one. */
  readonly control: ControlPlane | null;
  /** The valid example request of an operation (a new idempotency key, the caller's credential), to change. */
  example(operationId: string): CallArgs;
  /** Sends `args` to `operationId` and judges the answer as `expect` says (strict body, section 7 problems). */
  call(operationId: string, args: CallArgs, expect: Expectation): Promise<StepOutcome>;
}

/** A state machine of section 3 for one interface. */
export interface Flow {
  /** `cob`, `rec`, `fee-rule weights`: the report's rules are `<name>: <what the step proves>`. */
  readonly name: string;
  readonly interfaceName: string;
  /** The operations the flow needs in the interface (a flow whose operations are left out by --only/--skip does not run). */
  readonly operations: readonly string[];
  /** Runs the flow and returns one result per rule it proved or failed (operationId: the step that decided it). */
  run(context: FlowContext): Promise<readonly CheckResult[]>;
}

/** The member at a dotted path of an answer (`data.status`), or undefined. */
export function member(body: unknown, path: string): unknown {
  let current = body;
  for (const name of path.split('.'))
    current = typeof current === 'object' && current !== null ? (current as Record<string, unknown>)[name] : undefined;
  return current;
}

/** One line when `body`'s member at `path` is not `expected`, else null. */
export function expectMember(body: unknown, path: string, expected: unknown): string | null {
  const found = member(body, path);
  return found === expected ? null : `${path} is ${JSON.stringify(found)}, expected ${JSON.stringify(expected)}`;
}

/** A refusal the specification names by its status (400 for a Pix charge no longer ATIVA, 409, 422). */
export const statusIs =
  (status: number) =>
  (outcome: StepOutcome): string | null =>
    outcome.status === status ? null : `refused with ${outcome.status}, the specification gives ${status}`;

/** The steps of one flow: each records its rule, and the flow stops at the first that fails or needs the platform. */
export class FlowSteps {
  readonly results: CheckResult[] = [];
  private done = false;

  constructor(
    readonly flow: string,
    readonly context: FlowContext,
  ) {}

  get stopped(): boolean {
    return this.done;
  }

  /** The example request of `operationId` with new values for the ids the caller chooses (a new txid). */
  fresh(operationId: string): CallArgs {
    const entry = this.context.run.operations.get(operationId)!;
    return withChosenIds(this.context.run, entry.info, this.context.example(operationId), entry.data.callerChosen);
  }

  /**
   * Sends one step and records `rule`: passed when the judge finds the answer as `expect` says and `check`
   * (what the state machine says of the answer) finds nothing wrong. Null when it failed (the flow stops).
   */
  async step(
    operationId: string,
    args: CallArgs,
    expect: Expectation,
    rule: string,
    check: (outcome: StepOutcome) => string | null = () => null,
  ): Promise<StepOutcome | null> {
    if (this.done) return null;
    const outcome = await this.context.call(operationId, args, expect);
    const failure = outcome.failure ?? check(outcome);
    this.results.push(
      judged(
        operationId,
        'flow',
        `${this.flow}: ${rule}`,
        failure,
        failure === null ? [] : [outcome.exchange],
        'as the state machine says',
      ),
    );
    if (failure !== null) this.done = true;
    return failure === null ? outcome : null;
  }

  /**
   * A move only the platform makes: asked of the control plane when the target has one (a refusal of it is the
   * rule's failure); otherwise `needs-platform` is recorded for `rule` and the flow stops. True when it moved.
   */
  async platform(operationId: string, rule: string, move: (control: ControlPlane) => Promise<unknown>): Promise<boolean> {
    if (this.done) return false;
    const control = this.context.control;
    if (!control) {
      this.results.push(
        result(
          operationId,
          'flow',
          `${this.flow}: ${rule}`,
          'needs-platform',
          'the platform makes this move, and the target has no control plane to ask',
        ),
      );
      this.done = true;
      return false;
    }
    try {
      await move(control);
      return true;
    } catch (error) {
      this.results.push(
        result(
          operationId,
          'flow',
          `${this.flow}: ${rule}`,
          'fail',
          `the control plane refused the move: ${(error as Error).message.split('\n')[0]}`,
        ),
      );
      this.done = true;
      return false;
    }
  }
}

/**
 * The state machines of section 3, followed call by call at the target. A flow sends each step through the
 * same session and judge as the other checks, names the rule each step proves, and stops at the first step
 * that fails. A transition only the platform can make (a payer pays, a clock passes) is asked of the sandbox's
 * control plane when the target has one; otherwise the flow records `needs-platform` for it — never guessed.
 */
import type { CallArgs } from '../../runtime/pipeline.js';
import type { ControlPlane } from '../control.js';
import type { Expectation } from '../judge.js';
import type { CheckResult, Exchange } from '../model.js';
import { exampleArgs, isWrite, result, type RunContext } from '../checks/context.js';
import { newKey } from '../checks/valid.js';
import { flowsOf } from './registry.js';

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

function flowContext(run: RunContext, control: ControlPlane | null): FlowContext {
  return {
    run,
    control,
    example(operationId) {
      const { info } = run.operations.get(operationId)!;
      const args = exampleArgs(run, operationId);
      return info.idempotencyKeyRule
        ? { ...args, header: { ...args.header, [info.idempotencyKeyRule.header]: newKey(info, run.random) } }
        : args;
    },
    async call(operationId, args, expect) {
      const { info, baseUrl } = run.operations.get(operationId)!;
      const exchange = await run.session.send(info, args, { kind: 'token' }, { baseUrl });
      const failure = run.judge.verdict(info, exchange, expect);
      const answered = exchange.received.kind === 'answer' ? exchange.received : null;
      return { exchange, failure, status: answered?.status ?? null, body: answered?.body };
    },
  };
}

export async function runFlows(
  run: RunContext,
  control: ControlPlane | null,
  selected: (operationId: string) => boolean = () => true,
): Promise<void> {
  for (const flow of flowsOf(run.interfaceName)) {
    const first = flow.operations[0] ?? flow.name;
    if (!run.allowWrites && flow.operations.some((id) => run.operations.has(id) && isWrite(run.operations.get(id)!.info))) {
      run.record(result(first, 'flow', `${flow.name}: state machine`, 'skipped', 'a flow of writes: runs only with --allow-writes'));
      continue;
    }
    if (flow.operations.some((id) => !run.operations.has(id) || !selected(id))) {
      run.record(result(first, 'flow', `${flow.name}: state machine`, 'skipped', 'one of its operations is left out by --only or --skip'));
      continue;
    }
    try {
      for (const each of await flow.run(flowContext(run, control))) run.record(each);
    } catch (error) {
      // A flow must never end the run: what it could not do is its failure.
      run.record(
        result(first, 'flow', `${flow.name}: ran to the end`, 'fail', `the flow stopped: ${(error as Error).message.split('\n')[0]}`),
      );
    }
  }
}

import type { ControlPlane } from '../control.js';
import { exampleArgs, isWrite, result, type RunContext } from '../checks/context.js';
import { newKey } from '../checks/valid.js';
import type { FlowContext } from './flow.js';
import { flowsOf } from './registry.js';

export type { Flow, FlowContext, StepOutcome } from './flow.js';

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

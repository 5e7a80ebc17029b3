/**
 * The state machines of the Pix receiving API (section 3, errors of 7.2): an immediate (cob) and a due-date
 * (cobv) charge are created ATIVA at revisao 0, each change raises revisao by 1, a removal is sent alone and
 * ends the charge, and a charge no longer ATIVA (removed, or paid: CONCLUIDA) is not changed (400). A
 * recurrence is created CRIADA, a confirmation request for it CRIADA; the payer's answer is the platform's.
 *
 * `FlowSteps` is the small runner every flow file of this folder shares: one step, one rule, stop at the first
 * failure, `needs-platform` for what only the platform does when the target has no control plane.
 */
import type { CallArgs } from '../../runtime/pipeline.js';
import { judged, result } from '../checks/context.js';
import { withChosenIds } from '../checks/valid.js';
import type { Expectation } from '../judge.js';
import type { CheckResult } from '../model.js';
import type { ControlPlane } from '../control.js';
import type { Flow, FlowContext, StepOutcome } from './index.js';

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

const pathArgs = (args: CallArgs, path: Record<string, unknown>, body?: unknown): CallArgs => ({
  ...args,
  path: { ...args.path, ...path },
  ...(body === undefined ? {} : { body }),
});

const removed = 'REMOVIDA_PELO_USUARIO_RECEBEDOR';

/** cob or cobv: created ATIVA at revisao 0, revised to 1 and read back, removed alone, then unchangeable; paid: CONCLUIDA and unchangeable. */
function chargeFlow(kind: 'cob' | 'cobv'): Flow {
  const create = `${kind}.create`;
  const revise = `${kind}.revise`;
  const get = `${kind}.get`;
  return {
    name: kind,
    interfaceName: 'pix',
    operations: [create, revise, get],
    async run(context) {
      const steps = new FlowSteps(kind, context);
      const created = async (rule: string): Promise<string | null> => {
        const args = steps.fresh(create);
        const outcome = await steps.step(
          create,
          args,
          'success',
          rule,
          ({ body }) => expectMember(body, 'status', 'ATIVA') ?? expectMember(body, 'revisao', 0),
        );
        return outcome ? String(args.path?.txid) : null;
      };
      const at = (txid: string, body?: unknown): CallArgs => pathArgs(context.example(revise), { txid }, body);

      // Removal: needs no platform.
      const txid = await created('created ATIVA at revisao 0');
      if (txid === null) return steps.results;
      await steps.step(revise, at(txid), 'success', 'a revision raises revisao to 1', ({ body }) => expectMember(body, 'revisao', 1));
      await steps.step(
        get,
        pathArgs(context.example(get), { txid }),
        'success',
        'a read shows the revision',
        ({ body }) => expectMember(body, 'status', 'ATIVA') ?? expectMember(body, 'revisao', 1),
      );
      await steps.step(
        revise,
        at(txid, { status: removed, solicitacaoPagador: 'Removida com outra mudança.' }),
        'refusal',
        'a removal combined with other changes is refused (400)',
        statusIs(400),
      );
      await steps.step(revise, at(txid, { status: removed }), 'success', `a removal sent alone makes it ${removed}`, ({ body }) =>
        expectMember(body, 'status', removed),
      );
      await steps.step(revise, at(txid), 'refusal', 'a removed charge is not changeable (400)', statusIs(400));

      // Payment: the payer is the platform's.
      const paid = await created('a second charge is created ATIVA at revisao 0');
      if (paid === null) return steps.results;
      if (!(await steps.platform(get, 'a paid charge is CONCLUIDA', ({ control }) => control.pay(paid)))) return steps.results;
      await steps.step(get, pathArgs(context.example(get), { txid: paid }), 'success', 'a paid charge is CONCLUIDA', ({ body }) =>
        expectMember(body, 'status', 'CONCLUIDA'),
      );
      await steps.step(revise, at(paid), 'refusal', 'a CONCLUIDA charge is not changeable (400)', statusIs(400));
      return steps.results;
    },
  };
}

/** A recurrence (CRIADA), a confirmation request for it (CRIADA); the payer accepts it (APROVADA) through the platform. */
const recurrence: Flow = {
  name: 'rec',
  interfaceName: 'pix',
  operations: ['rec.create', 'rec.get', 'solicrec.create', 'solicrec.get', 'solicrec.revise'],
  async run(context) {
    const steps = new FlowSteps('rec', context);
    const createRec = async (rule: string): Promise<string | null> => {
      const args = context.example('rec.create');
      // Without a location: the example's is linked to the recurrence the valid request made.
      const { loc: _loc, ...body } = args.body as Record<string, unknown>;
      const outcome = await steps.step('rec.create', { ...args, body }, 'success', rule, ({ body: answer }) =>
        expectMember(answer, 'status', 'CRIADA'),
      );
      const idRec = member(outcome?.body, 'idRec');
      return typeof idRec === 'string' ? idRec : null;
    };
    const request = async (idRec: string, rule: string): Promise<string | null> => {
      const args = context.example('solicrec.create');
      const outcome = await steps.step(
        'solicrec.create',
        { ...args, body: { ...(args.body as Record<string, unknown>), idRec } },
        'success',
        rule,
        ({ body }) => expectMember(body, 'status', 'CRIADA') ?? expectMember(body, 'idRec', idRec),
      );
      const id = member(outcome?.body, 'idSolicRec');
      return typeof id === 'string' ? id : null;
    };
    const solicrec = (idSolicRec: string, body?: unknown): CallArgs =>
      pathArgs(context.example(body === undefined ? 'solicrec.get' : 'solicrec.revise'), { idSolicRec }, body);

    // A request cancelled by the receiver: needs no platform.
    const cancelled = await createRec('a recurrence is created CRIADA');
    if (cancelled === null) return steps.results;
    const first = await request(cancelled, 'a confirmation request is created CRIADA');
    if (first === null) return steps.results;
    await steps.step('solicrec.get', solicrec(first), 'success', 'a read shows the request CRIADA', ({ body }) =>
      expectMember(body, 'status', 'CRIADA'),
    );
    await steps.step('solicrec.revise', solicrec(first, { status: 'CANCELADA' }), 'success', 'a CRIADA request is cancelled', ({ body }) =>
      expectMember(body, 'status', 'CANCELADA'),
    );
    await steps.step(
      'solicrec.revise',
      solicrec(first, { status: 'CANCELADA' }),
      'refusal',
      'a cancelled request is not cancelled again (400)',
      statusIs(400),
    );

    // The payer accepts: the platform's.
    const approved = await createRec('a second recurrence is created CRIADA');
    if (approved === null) return steps.results;
    const second = await request(approved, 'a confirmation request for it is created CRIADA');
    if (second === null) return steps.results;
    if (
      !(await steps.platform('rec.get', 'the payer accepting the request approves the recurrence', ({ control }) =>
        control.call('pix/solicrec', { idSolicRec: second, status: 'ACEITA' }),
      ))
    )
      return steps.results;
    await steps.step('solicrec.get', solicrec(second), 'success', 'an accepted request is ACEITA', ({ body }) =>
      expectMember(body, 'status', 'ACEITA'),
    );
    await steps.step(
      'rec.get',
      pathArgs(context.example('rec.get'), { idRec: approved }),
      'success',
      'the payer accepting the request approves the recurrence',
      ({ body }) => expectMember(body, 'status', 'APROVADA'),
    );
    return steps.results;
  },
};

export const pixFlows: readonly Flow[] = [chargeFlow('cob'), chargeFlow('cobv'), recurrence];

/**
 * The state machines of the Pix receiving API (section 3, errors of 7.2): an immediate (cob) and a due-date
 * (cobv) charge are created ATIVA at revisao 0, each change raises revisao by 1, a removal is sent alone and
 * ends the charge, and a charge no longer ATIVA (removed, or paid: CONCLUIDA) is not changed (400). A
 * recurrence is created CRIADA, a confirmation request for it CRIADA; the payer's answer is the platform's.
 */
import type { CallArgs } from '../../runtime/pipeline.js';
import { type Flow, FlowSteps, expectMember, member, statusIs } from './flow.js';

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

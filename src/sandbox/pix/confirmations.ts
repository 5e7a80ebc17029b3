/**
 * Recurrence confirmation requests (POST /solicrec, GET and PATCH /solicrec/{idSolicRec}): a request asks
 * the payer's PSP to have the payer confirm a recurrence awaiting confirmation (journey 1). It is created
 * CRIADA, then ENVIADA and RECEBIDA as the payer's PSP takes it, and ends ACEITA (the recurrence becomes
 * APROVADA), REJEITADA (the recurrence too), EXPIRADA at its `dataExpiracaoSolicitacao` on the sandbox clock,
 * or CANCELADA by PATCH — only from CRIADA, ENVIADA or RECEBIDA (section 3), else 400
 * SolicRecOperacaoInvalida. One active request per recurrence. Control verb `solicrec` moves a request as
 * the payer's PSP and app would.
 */
import { cancellableConfirmationStatuses, checkConfirmationCancellable } from '../../pix/read-checks.js';
import { type ControlVerb, type Handler, type SandboxEnvironment, SandboxProblem } from '../contract.js';
import { approveRecurrence, moveRecurrence, storedRecurrence } from './recurrence-moves.js';
import { codeOf, defined, isRecord, newIdSolicRec, recurrenceRejectionCodes, record, refuse } from './recurrence-support.js';
import { schedulePix } from './schedule.js';
import type { Json, PixState } from './state.js';

const invalid = 'SolicRecOperacaoInvalida';
/**
 * The statuses a request moves through before the payer answers, in order: the ones section 3 lets the
 * receiving user cancel it from, as the client's check of R-B-solicrec-cancel lists them.
 */
const active = cancellableConfirmationStatuses;

/** What the payer is shown of the recurrence (RecPayload). */
function recPayload(state: PixState, recurrence: Json): Json {
  const { idRec, vinculo, calendario, valor, politicaRetentativa, atualizacao } = recurrence;
  const recebedor = { cnpj: state.receiver.cnpj, nome: state.receiver.name, ispbParticipante: state.receiver.ispb };
  return defined({ idRec, vinculo, calendario, valor, recebedor, politicaRetentativa, atualizacao });
}

/** The request as GET answers it (SolicRecCompleta); inside a recurrence, without the recurrence again. */
export function confirmationView(state: PixState, confirmation: Json, withPayload = true): Json {
  const recurrence = state.recurrences[String(confirmation.idRec)];
  return withPayload && recurrence ? { ...confirmation, recPayload: recPayload(state, recurrence) } : { ...confirmation };
}

/** Requests still awaiting the payer whose expiry has come become EXPIRADA (run on reads and on the clock). */
export function expireConfirmations(state: PixState, env: SandboxEnvironment): void {
  const now = env.clock.nowMs();
  for (const confirmation of Object.values(state.confirmations)) {
    const expiry = Date.parse(String((confirmation.calendario as Json).dataExpiracaoSolicitacao));
    if (active.includes(String(confirmation.status)) && expiry <= now) record(confirmation, 'EXPIRADA', env);
  }
}

function stored(state: PixState, env: SandboxEnvironment, id: string, type: string): Json {
  expireConfirmations(state, env);
  const confirmation = state.confirmations[id];
  if (!confirmation)
    throw new SandboxProblem(404, type, `no recurrence confirmation request has the id ${id}`, [
      { pointer: '/idSolicRec', message: 'unknown idSolicRec', value: id },
    ]);
  return confirmation;
}

export const confirmationHandlers: Record<string, Handler<PixState>> = {
  'solicrec.create': (request, state, env) => {
    expireConfirmations(state, env);
    const body = request.body as Json;
    const idRec = String(body.idRec);
    const recurrence = state.recurrences[idRec];
    if (!recurrence)
      throw new SandboxProblem(404, 'NaoEncontrado', `no recurrence has the idRec ${idRec}`, [
        { pointer: '/idRec', message: 'unknown idRec', value: idRec },
      ]);
    if (recurrence.status !== 'CRIADA')
      refuse(
        invalid,
        `the recurrence is ${String(recurrence.status)}: only a recurrence awaiting confirmation (CRIADA) is sent to the payer`,
        'idRec',
        idRec,
      );
    // An expiry before now was refused before this handler (requestExpiryNotPast, run by the engine on the sandbox clock).
    const calendario = body.calendario as Json;
    const open = Object.values(state.confirmations).find((entry) => entry.idRec === idRec && active.includes(String(entry.status)));
    if (open)
      refuse(invalid, `the recurrence already has the active request ${String(open.idSolicRec)} (${String(open.status)})`, 'idRec', idRec);
    const idSolicRec = newIdSolicRec(state, env);
    const confirmation: Json = { idSolicRec, idRec, calendario, destinatario: body.destinatario };
    record(confirmation, 'CRIADA', env);
    state.confirmations[idSolicRec] = confirmation;
    schedulePix(env, 'expireConfirmations', Date.parse(String(calendario.dataExpiracaoSolicitacao)));
    return { status: 201, body: confirmationView(state, confirmation) };
  },
  'solicrec.get': (request, state, env) => ({
    status: 200,
    body: confirmationView(state, stored(state, env, request.path.idSolicRec!, 'SolicRecNaoEncontrada')),
  }),
  'solicrec.revise': (request, state, env) => {
    const confirmation = stored(state, env, request.path.idSolicRec!, 'NaoEncontrado');
    const [issue] = checkConfirmationCancellable(confirmation as { status: string });
    if (issue) refuse(invalid, issue.message, 'status', confirmation.status);
    record(confirmation, 'CANCELADA', env);
    return { status: 200, body: confirmationView(state, confirmation) };
  },
};

/**
 * Control verb `solicrec`: `{ idSolicRec, status }` moves a request as the payer's PSP (ENVIADA, RECEBIDA)
 * and the payer (ACEITA, REJEITADA) would, forward only; the steps skipped are recorded on the way. ACEITA
 * makes the recurrence APROVADA (journey 1, the payer's PSP and document from `destinatario`), REJEITADA
 * makes it REJEITADA (`codigo` AP13 unless told AP14).
 */
export const confirmationVerb: ControlVerb<PixState> = (body, state, env) => {
  if (typeof body.idSolicRec !== 'string') throw new Error('idSolicRec must name a confirmation request of the sandbox');
  const confirmation = stored(state, env, body.idSolicRec, 'SolicRecNaoEncontrada');
  const target = String(body.status);
  const from = active.indexOf(String(confirmation.status));
  const to = ['ACEITA', 'REJEITADA'].includes(target) ? active.length : active.indexOf(target);
  if (to < 0) throw new Error('status must be ENVIADA, RECEBIDA, ACEITA or REJEITADA');
  if (from < 0 || to <= from)
    throw new SandboxProblem(409, invalid, `the request is ${String(confirmation.status)}: it cannot move to ${target}`);
  const recurrence = storedRecurrence(state, String(confirmation.idRec));
  if (to === active.length && recurrence.status !== 'CRIADA')
    throw new SandboxProblem(409, 'RecOperacaoInvalida', `the recurrence is ${String(recurrence.status)}: the payer can no longer answer`);
  const codigo = codeOf(body, recurrenceRejectionCodes(), 'AP13');
  for (const status of active.slice(from + 1, to + 1)) record(confirmation, status, env);
  if (to < active.length) return confirmationView(state, confirmation);
  record(confirmation, target, env);
  const destinatario = isRecord(confirmation.destinatario) ? confirmation.destinatario : {};
  if (target === 'ACEITA') {
    const { ispbParticipante, cpf, cnpj } = destinatario;
    approveRecurrence(state, env, recurrence, 'JORNADA_1', defined({ ispbParticipante, cpf, cnpj }));
  } else {
    const rejeicao = { codigo, descricao: 'Recorrência rejeitada pelo usuário pagador.' };
    moveRecurrence(state, env, recurrence, 'REJEITADA', { encerramento: { rejeicao } });
  }
  return confirmationView(state, confirmation);
};

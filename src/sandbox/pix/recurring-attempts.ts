/**
 * Settlement attempts of recurring charges (`tentativas`). The first attempt (AGND) is sent to the payer's
 * PSP when the charge is created (SOLICITADA); the payer's PSP schedules it `attemptScheduledAfterSeconds`
 * of sandbox time later (AGENDADA, and the charge CRIADA → ATIVA). Control verb `cobr` settles it (PAGA: the
 * charge CONCLUIDA with its Pix, listed by GET /pix too) or fails it (REJEITADA with a code, EXPIRADA). A
 * failed attempt leaves the charge open while a retry can still be asked (PERMITE_3R_7D: at most 3 retries,
 * up to 7 days after the due date); otherwise the charge is EXPIRADA, or REJEITADA when the code rejects
 * the charge itself. Every move is notified at `<webhookcobr>/cobr`.
 */
import { finalRecurringChargeStatuses } from '../../pix/read-checks.js';
import { type ControlVerb, type SandboxEnvironment, SandboxProblem } from '../contract.js';
import { declaredValues } from '../spec-values.js';
import { announceReceived, endToEndId } from './payments.js';
import { addDays, codeOf, record, today } from './recurrence-support.js';
import { notifyRecurringCharge } from './recurrence-webhooks.js';
import { schedulePix } from './schedule.js';
import { instant, type Json, type PixState, type StoredRecurringCharge } from './state.js';

/** Sandbox seconds between the sending of an attempt and its scheduling by the payer's PSP. */
export const attemptScheduledAfterSeconds = 5;
export const maxRetries = 3;
export const retryWindowDays = 7;

/** Attempts still waiting on the payer's PSP: a retry waits for them, a cancelled charge cancels them. */
export const pendingAttemptStatuses: readonly string[] = ['SOLICITADA', 'AGENDADA'];
/**
 * Rejection codes that end the recurring charge itself, not only the attempt. The spec says so only in the
 * words of CobRTentativas' `rejeicao` (no member lists them apart), so they are kept here and
 * test/sandbox/spec-values.test.ts checks them against those words.
 */
export const chargeRejectionCodes: readonly string[] = ['AC05', 'AM09', 'DENC', 'DS27', 'DTED', 'MIDI', 'MSUC', 'NITX', 'RC09'];
/** The codes a payer's PSP rejects an attempt with (CobRTentativas' `rejeicao.codigo`). */
const attemptRejectionCodes = (): readonly string[] => declaredValues('pix', 'CobRTentativas/rejeicao/codigo');

export const attemptsOf = (current: Json): Json[] => (Array.isArray(current.tentativas) ? (current.tentativas as Json[]) : []);
export const pendingOf = (current: Json): Json | undefined =>
  attemptsOf(current).find((attempt) => pendingAttemptStatuses.includes(String(attempt.status)));
const retriesOf = (current: Json): number => attemptsOf(current).filter((attempt) => attempt.tipo !== 'AGND').length;

/** The charge as GET answers it (CobRCompleta): the stored record with the Pix that settled it. */
export function recurringChargeView(state: PixState, charge: StoredRecurringCharge): Json {
  const pix = charge.paidBy.map((id) => state.received[id]).filter((entry) => entry !== undefined);
  return pix.length > 0 ? { ...charge.current, pix } : { ...charge.current };
}

/** A new attempt for `date`, sent to the payer's PSP now; the payer's PSP schedules it a little later. */
export function sendAttempt(state: PixState, env: SandboxEnvironment, current: Json, date: string, tipo: 'AGND' | 'NTAG'): void {
  const attempt: Json = { dataLiquidacao: date, tipo, endToEndId: endToEndId(env, 'E', state.receiver.ispb) };
  record(attempt, 'SOLICITADA', env);
  current.tentativas = [...attemptsOf(current), attempt];
  schedulePix(env, 'scheduleAttempts', env.clock.nowMs() + attemptScheduledAfterSeconds * 1000);
}

/** Whether a failed attempt can still be followed by a retry (the policy, the count and the window). */
export function canRetry(current: Json, env: SandboxEnvironment): boolean {
  const dueDate = String((current.calendario as Json).dataDeVencimento);
  return (
    current.politicaRetentativa === 'PERMITE_3R_7D' && retriesOf(current) < maxRetries && addDays(dueDate, retryWindowDays) > today(env)
  );
}

function notify(state: PixState, env: SandboxEnvironment, charge: StoredRecurringCharge): void {
  notifyRecurringCharge(state, env, recurringChargeView(state, charge));
}

function schedule(env: SandboxEnvironment, charge: StoredRecurringCharge, attempt: Json): void {
  record(attempt, 'AGENDADA', env);
  if (charge.current.status === 'CRIADA') record(charge.current, 'ATIVA', env);
}

/** Attempts sent long enough ago are AGENDADA (run on reads and on the clock). */
export function scheduleAttempts(state: PixState, env: SandboxEnvironment): void {
  const due = env.clock.nowMs() - attemptScheduledAfterSeconds * 1000;
  for (const charge of Object.values(state.recurringCharges)) {
    const attempt = pendingOf(charge.current);
    if (attempt === undefined || attempt.status !== 'SOLICITADA' || finalRecurringChargeStatuses.includes(String(charge.current.status)))
      continue;
    if (Date.parse(String((attempt.atualizacao as Json[]).at(-1)?.data)) > due) continue;
    schedule(env, charge, attempt);
    notify(state, env, charge);
  }
}

/** Ends the charge unpaid when its last attempt failed and no retry can follow. */
function afterFailure(env: SandboxEnvironment, current: Json, codigo?: string): void {
  if (codigo !== undefined && chargeRejectionCodes.includes(codigo)) {
    current.encerramento = { rejeicao: { codigo, descricao: 'Cobrança rejeitada pelo PSP do usuário pagador.' } };
    record(current, 'REJEITADA', env);
  } else if (!canRetry(current, env)) record(current, 'EXPIRADA', env);
}

/**
 * Control verb `cobr`: `{ txid, status }` moves the pending attempt of a recurring charge as the payer's PSP
 * would: AGENDADA, PAGA (settled: `valor` is the charge's amount), REJEITADA (`codigo`, default AM02), or
 * EXPIRADA (not settled on its date).
 */
export const recurringChargeVerb: ControlVerb<PixState> = (body, state, env) => {
  if (typeof body.txid !== 'string') throw new Error('txid must name a recurring charge of the sandbox');
  scheduleAttempts(state, env);
  const charge = state.recurringCharges[body.txid];
  if (!charge) throw new SandboxProblem(404, 'CobRNaoEncontrado', `no recurring charge has the txid ${body.txid}`);
  const { current } = charge;
  const attempt = pendingOf(current);
  if (!attempt || finalRecurringChargeStatuses.includes(String(current.status)))
    throw new SandboxProblem(409, 'CobROperacaoInvalida', `the charge ${body.txid} is ${String(current.status)} with no attempt pending`);
  switch (body.status) {
    case 'AGENDADA':
      if (attempt.status !== 'SOLICITADA') throw new SandboxProblem(409, 'CobROperacaoInvalida', 'the attempt is already AGENDADA');
      schedule(env, charge, attempt);
      break;
    case 'PAGA': {
      if (attempt.status === 'SOLICITADA') schedule(env, charge, attempt);
      record(attempt, 'PAGA', env);
      const valor = (current.valor as Json).original;
      const pix = { endToEndId: attempt.endToEndId, txid: current.txid, valor, horario: instant(env), devolucoes: [] };
      state.received[String(attempt.endToEndId)] = pix;
      charge.paidBy.push(String(attempt.endToEndId));
      announceReceived(state, env, pix);
      record(current, 'CONCLUIDA', env);
      break;
    }
    case 'REJEITADA': {
      const codigo = codeOf(body, attemptRejectionCodes(), 'AM02');
      attempt.rejeicao = { codigo, descricao: 'Tentativa de liquidação rejeitada pelo PSP do usuário pagador.' };
      record(attempt, 'REJEITADA', env);
      afterFailure(env, current, codigo);
      break;
    }
    case 'EXPIRADA':
      record(attempt, 'EXPIRADA', env);
      afterFailure(env, current);
      break;
    default:
      throw new Error('status must be AGENDADA, PAGA, REJEITADA or EXPIRADA');
  }
  notify(state, env, charge);
  return recurringChargeView(state, charge);
};

/** Cancels the pending attempts of a charge being cancelled. */
export function cancelAttempts(env: SandboxEnvironment, current: Json): void {
  for (const attempt of attemptsOf(current)) if (pendingAttemptStatuses.includes(String(attempt.status))) record(attempt, 'CANCELADA', env);
}

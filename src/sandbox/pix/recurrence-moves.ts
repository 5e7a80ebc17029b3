/**
 * The moves of a recurrence that both sides of Pix Automático make: the receiving user's operations
 * (recurrences.ts) and the payer's answer to a confirmation request (confirmations.ts). Each status is
 * recorded in `atualizacao` and notified at `<webhookrec>/rec`.
 */
import type { SandboxEnvironment } from '../contract.js';
import { isRecord, record, unknown } from './recurrence-support.js';
import { notifyRecurrence } from './recurrence-webhooks.js';
import type { Json, PixState } from './state.js';

/** The recurrence `idRec`, or 404 RecNaoEncontrada. */
export function storedRecurrence(state: PixState, idRec: string): Json {
  return state.recurrences[idRec] ?? unknown('RecNaoEncontrada', `no recurrence has the idRec ${idRec}`, 'idRec', idRec);
}

/** Moves a recurrence to `status` with what explains it (`encerramento`, `ativacao`, `pagador`), and notifies. */
export function moveRecurrence(state: PixState, env: SandboxEnvironment, recurrence: Json, status: string, members: Json = {}): void {
  Object.assign(recurrence, members);
  record(recurrence, status, env);
  notifyRecurrence(state, env, recurrence);
}

/** The payer confirmed the recurrence through `jornada`; `pagador` is the payer's PSP and document. */
export function approveRecurrence(state: PixState, env: SandboxEnvironment, recurrence: Json, jornada: string, pagador: Json): void {
  const ativacao = { ...(isRecord(recurrence.ativacao) ? recurrence.ativacao : {}), tipoJornada: jornada };
  moveRecurrence(state, env, recurrence, 'APROVADA', { ativacao, pagador });
}

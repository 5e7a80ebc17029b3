/**
 * What the Pix sandbox does on the clock, one runner per kind of schedule.ts: a refund settles (DEVOLVIDO), the
 * batches of due-date charges are processed, confirmation requests expire, recurring attempts are scheduled by
 * the payer's PSP. Each reads the state as it is when it runs: the batch, confirmation and attempt runners
 * move whatever fell due by then (the same they do on a read), so running late or twice changes nothing more.
 */
import type { TaskRunner } from '../contract.js';
import { settleBatches } from './batches.js';
import { expireConfirmations } from './confirmations.js';
import { settleRefund } from './payments.js';
import { scheduleAttempts } from './recurring-attempts.js';
import type { PixTaskKind } from './schedule.js';
import type { PixState } from './state.js';

export const pixTasks: Readonly<Record<PixTaskKind, TaskRunner<PixState>>> = {
  settleRefund,
  settleBatches: (_args, state, env) => settleBatches(state, env),
  expireConfirmations: (_args, state, env) => expireConfirmations(state, env),
  scheduleAttempts: (_args, state, env) => scheduleAttempts(state, env),
};

/**
 * The receive queue and its long poll (section 4.9): GET /messages/pull/{pullNext} with `start` or the
 * cursor of the previous answer's `svc-pull-next` answers the messages that came after that cursor,
 * oldest first, and the cursor after the last of them. Messages stay on the queue: a consumer that
 * restarts from the last cursor it stored gets nothing twice and loses nothing. An empty poll is held
 * until a message arrives or a short real-time bound passes, then answers `[]` with the same cursor.
 */
import { type ControlVerb, type Handler, type SandboxEnvironment, SandboxProblem } from '../contract.js';
import {
  endToEndId,
  exchangeMessages,
  instructionId,
  isRecord,
  type Json,
  type MessagesState,
  type QueuedMessage,
  refusal,
  schemaIssues,
} from './state.js';

/** Messages the participant sends in answer to one it received: the kinds answered and the member naming the one answered. */
export const replies: Readonly<Record<string, { readonly to: readonly string[]; readonly member: string }>> = {
  'pacs.002': { to: ['pacs.008', 'pacs.004'], member: 'idFimAFimOriginal' },
  'pain.014': { to: ['pain.013'], member: 'idFimAFimOriginal' },
  'camt.029': { to: ['camt.055'], member: 'idCancelamentoAgendamentoOriginal' },
  'pain.012-authorization': { to: ['pain.009'], member: 'idRecorrencia' },
};

/** The id by which a message is answered: a payment's or a return's end-to-end id, a schedule's, a cancellation's, a recurrence's. */
export function answeredId(messageType: string, message: Json): string | undefined {
  const pick = (...members: string[]) =>
    members.map((member) => message[member]).find((value) => typeof value === 'string') as string | undefined;
  if (messageType === 'pacs.008' || messageType === 'pacs.004') return pick('endToEndID');
  if (messageType === 'pain.013') return pick('idFimAFim');
  if (messageType === 'camt.055') return pick('idCancelamentoAgendamento', 'idMensagemDoCancelamento', 'idMensagem');
  if (messageType === 'pain.009') return pick('idRecorrencia');
  return undefined;
}

const waiters = new WeakMap<MessagesState, Set<() => void>>();

/** Puts a message on the queue, wakes the polls held open, and notes the answer the participant owes for it. */
export function enqueue(state: MessagesState, env: SandboxEnvironment, messageType: string, body: Json): QueuedMessage {
  const message: Json = { messageType, idMensagem: instructionId(env), ...body };
  const queued: QueuedMessage = { sequence: state.nextSequence, message };
  state.nextSequence += 1;
  state.queue.push(queued);
  const id = answeredId(messageType, message);
  for (const [reply, { to }] of Object.entries(replies))
    if (id !== undefined && to.includes(messageType)) state.owed[`${reply}:${id}`] = { sequence: queued.sequence, answered: false };
  for (const wake of waiters.get(state) ?? []) wake();
  return queued;
}

const cursorOf = (state: MessagesState, sequence: number): string => (sequence === 0 ? 'start' : `${state.epoch}-${sequence}`);

/** The queue position a cursor stands for; a cursor this queue never gave is a 400. */
function positionOf(state: MessagesState, cursor: string): number {
  if (cursor === 'start') return 0;
  const match = /^(.+)-([1-9][0-9]{0,14})$/.exec(cursor);
  const sequence = match ? Number(match[2]) : Number.NaN;
  if (!match || match[1] !== state.epoch || !(sequence < state.nextSequence))
    throw refusal(
      'the cursor is not one this queue gave (a cursor of another run, or before a reset of the sandbox): poll with start',
      '/path/pullNext',
    );
  return sequence;
}

/** Resolves when a message is put on the queue, or after `ms` of real time. */
function arrival(state: MessagesState, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const set = waiters.get(state) ?? new Set<() => void>();
    waiters.set(state, set);
    const done = () => {
      clearTimeout(timer);
      set.delete(done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref();
    set.add(done);
  });
}

export interface PollSettings {
  /** Real milliseconds an empty poll is held open before answering `[]` (default 1000). */
  readonly waitMs: number;
  /** Most messages in one answer (default 10). */
  readonly batchSize: number;
}

export function pollHandler(settings: PollSettings): Handler<MessagesState> {
  return async (request, state) => {
    const from = positionOf(state, request.path.pullNext!);
    // Messages never leave the queue and are numbered from 1: the one after position `from` is at index `from`.
    const after = () => state.queue.slice(from, from + settings.batchSize);
    let batch = after();
    if (batch.length === 0 && settings.waitMs > 0) {
      await arrival(state, settings.waitMs);
      batch = after();
    }
    const last = batch.at(-1)?.sequence ?? from;
    return { status: 200, body: batch.map((entry) => entry.message), headers: { 'svc-pull-next': cursorOf(state, last) } };
  };
}

/**
 * Control verb `receive { message, body }`: another participant (or the exchange) sends `message` to the
 * participant; the body is checked against the message's schema, a pacs.008 or pacs.004 without its own
 * endToEndID gets one, as the exchange would give it.
 */
export const receive: ControlVerb<MessagesState> = (given, state, env) => {
  const { message, body } = given;
  if (typeof message !== 'string' || !exchangeMessages.includes(message))
    throw new Error(`message must be one of ${exchangeMessages.join(', ')}`);
  if (!isRecord(body)) throw new Error('body must be the JSON object of the message');
  const issues = schemaIssues(message, body);
  if (issues.length > 0)
    throw new SandboxProblem(
      400,
      'invalid-request',
      `body: ${issues.map((issue) => `${issue.pointer || '/'} ${issue.message}`).join('; ')}`,
    );
  const filled: Json = { ...body };
  if ((message === 'pacs.008' || message === 'pacs.004') && filled.endToEndID === undefined) {
    const payer = message === 'pacs.008' ? filled.participanteDoUsuarioPagador : filled.participanteUsuarioRecebedor;
    filled.endToEndID = endToEndId(env, message === 'pacs.008' ? 'E' : 'D', String(payer));
  }
  const queued = enqueue(state, env, message, filled);
  return { sequence: queued.sequence, message: queued.message };
};

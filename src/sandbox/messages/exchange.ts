/**
 * Sending the messages of interface C (section 4.9), each stored with its receipt. What the other side
 * does, as the message schemas of section 2.12 pair them:
 * - a pacs.008 (payment) or pacs.004 (return) is answered with a pacs.002 on the receive queue: ACSP, or
 *   RJCT with the code the sandbox was told to give (control verb `reject`);
 * - a pain.013 (scheduled charge) is answered with a pain.014 (ACSP or RJCT), a camt.055 (cancellation of
 *   a schedule) with a camt.029 (ACCR or RJCR);
 * - a pacs.002, pain.014, camt.029 or pain.012 authorization answers a message the participant received:
 *   it must name one on the queue that is not answered yet;
 * - pain.009, pain.011, pain.012 confirmation, camt.060 and reda.022 are stored and answered by nothing
 *   (a pain.009 waits for the payer's decision, which a test plays with `receive`; the reports camt.060
 *   asks for have no format in the specification).
 * Sending a message that is answered again with the same id and body replays its receipt without a
 * second answer; with another body it is a 400.
 */
import { isDeepStrictEqual } from 'node:util';
import { messageTable } from '../../../generated/messages/operations.js';
import { type ControlVerb, type Handler, type SandboxEnvironment, SandboxProblem } from '../contract.js';
import { enqueue, replies } from './queue.js';
import {
  codesOf,
  endToEndId,
  exchangeMessages,
  instant,
  instructionId,
  type Json,
  type MessagesState,
  refusal,
  schemaIssues,
} from './state.js';

interface Answered {
  readonly reply: string;
  /** Member of the reply that carries a rejection's code. */
  readonly codeMember: string;
  /** Member of the sent message that names it (filled by the sandbox when the message leaves it out). */
  readonly idMember: string;
  id(body: Json, idMensagem: string, env: SandboxEnvironment): string;
  build(body: Json, sent: { readonly id: string; readonly idMensagem: string }, code: string | undefined, env: SandboxEnvironment): Json;
}

const statusReport: Answered['build'] = (_body, sent, code) => ({
  idInstrucaoOriginal: sent.idMensagem,
  idFimAFimOriginal: sent.id,
  situacaoDaTransacao: code ? 'RJCT' : 'ACSP',
  ...(code ? { codigoDeErro: code } : {}),
});

/** Messages the other participant answers. */
export const answered: Readonly<Record<string, Answered>> = {
  'pacs.008': {
    reply: 'pacs.002',
    codeMember: 'codigoDeErro',
    idMember: 'endToEndID',
    id: (body, _id, env) => (body.endToEndID as string | undefined) ?? endToEndId(env, 'E', String(body.participanteDoUsuarioPagador)),
    build: statusReport,
  },
  'pacs.004': {
    reply: 'pacs.002',
    codeMember: 'codigoDeErro',
    idMember: 'endToEndID',
    id: (body, _id, env) => (body.endToEndID as string | undefined) ?? endToEndId(env, 'D', String(body.participanteUsuarioRecebedor)),
    build: statusReport,
  },
  'pain.013': {
    reply: 'pain.014',
    codeMember: 'codigoDeErro',
    idMember: 'idFimAFim',
    id: (body) => body.idFimAFim as string,
    build: (body, sent, code, env) => ({
      idFimAFimOriginal: sent.id,
      situacaoDoAgendamento: code ? 'RJCT' : 'ACSP',
      ...(code ? { codigoDeErro: code } : {}),
      idConciliacaoRecebedorOriginal: body.idConciliacaoRecebedor,
      dataHoraAceitacaoOuRejeicaoDoAgendamento: instant(env),
    }),
  },
  'camt.055': {
    reply: 'camt.029',
    codeMember: 'codigoDeRejeicaoDoCancelamento',
    idMember: 'idCancelamentoAgendamento',
    id: (body, idMensagem) => (body.idCancelamentoAgendamento ?? body.idMensagemDoCancelamento ?? idMensagem) as string,
    build: (_body, sent, code) => ({
      idCancelamentoAgendamentoOriginal: sent.id,
      statusDoCancelamento: code ? 'RJCR' : 'ACCR',
      ...(code ? { codigoDeRejeicaoDoCancelamento: code } : {}),
    }),
  },
};

/** The rejection planned for this send, consumed: one for its id first, else the next one for any. */
function takeRejection(state: MessagesState, message: string, id: string): string | undefined {
  const index = [
    state.rejections.findIndex((entry) => entry.message === message && entry.id === id),
    state.rejections.findIndex((entry) => entry.message === message && entry.id === undefined),
  ].find((candidate) => candidate >= 0);
  if (index === undefined) return undefined;
  const rejection = state.rejections[index]!;
  rejection.remaining -= 1;
  if (rejection.remaining <= 0) state.rejections.splice(index, 1);
  return rejection.code;
}

const cents = (amount: unknown): number => Math.round(Number(amount) * 100);

/** What only state can say about a message before it is accepted: the payment a return returns, the schedule a cancellation cancels. */
function checkAgainstState(state: MessagesState, message: string, body: Json): void {
  if (message === 'pacs.004') {
    const original = state.owed[`pacs.002:${String(body.idFimAFim)}`];
    const payment = original && state.queue.find((entry) => entry.sequence === original.sequence)?.message;
    if (payment?.messageType !== 'pacs.008')
      throw refusal(`no payment (pacs.008) was received with the end-to-end id ${String(body.idFimAFim)}`, '/body/idFimAFim');
    const returned = state.sent
      .filter((entry) => entry.messageType === 'pacs.004' && entry.body.idFimAFim === body.idFimAFim && !entry.rejectedWith)
      .reduce((sum, entry) => sum + cents(entry.body.valor), 0);
    if (returned + cents(body.valor) > cents(payment.valor))
      throw refusal(`returns together would exceed the ${String(payment.valor)} received`, '/body/valor');
  }
  if (message === 'camt.055') {
    const id = String(body.idFimAFimOriginal);
    if (state.sentIds[`pain.013:${id}`] === undefined && !state.owed[`pain.014:${id}`])
      throw refusal(`no scheduled charge (pain.013) was sent or received with the end-to-end id ${id}`, '/body/idFimAFimOriginal');
  }
  const reply = replies[message];
  if (reply) {
    const id = String(body[reply.member]);
    const owed = state.owed[`${message}:${id}`];
    if (!owed) throw refusal(`no ${reply.to.join(' or ')} was received with ${reply.member} ${id}`, `/body/${reply.member}`);
    if (owed.answered) throw refusal(`the ${reply.to.join(' or ')} ${id} was answered already`, `/body/${reply.member}`);
    const original = state.queue.find((entry) => entry.sequence === owed.sequence)?.message;
    if (message === 'pacs.002' && original?.idMensagem !== body.idInstrucaoOriginal)
      throw refusal(
        `idInstrucaoOriginal must be the idMensagem of the message answered (${String(original?.idMensagem)})`,
        '/body/idInstrucaoOriginal',
      );
  }
}

function sendHandler(message: string): Handler<MessagesState> {
  return (request, state, env) => {
    const body = request.body as Json;
    const rule = answered[message];
    const idMensagem = instructionId(env);
    const id = rule?.id(body, idMensagem, env);
    const key = `${message}:${id}`;
    const earlier = id === undefined ? undefined : state.sent[state.sentIds[key] ?? -1];
    if (earlier) {
      if (isDeepStrictEqual(earlier.body, body)) return { status: 200, body: earlier.receipt };
      throw refusal(`a ${message} with the id ${id} was sent already with another body`, `/body/${rule!.idMember}`);
    }
    checkAgainstState(state, message, body);
    const receipt: Json = { accepted: true, idMensagem, ...(rule ? { [rule.idMember]: id } : {}) };
    const rejectedWith = rule ? takeRejection(state, message, id!) : undefined;
    state.sent.push({ messageType: message, body, receipt, at: instant(env), ...(rejectedWith ? { rejectedWith } : {}) });
    if (rule) {
      state.sentIds[key] = state.sent.length - 1;
      const answer = rule.build(body, { id: id!, idMensagem }, rejectedWith, env);
      const issues = schemaIssues(rule.reply, answer);
      if (issues.length > 0) throw new Error(`the sandbox built a ${rule.reply} its schema refuses: ${JSON.stringify(issues)}`);
      enqueue(state, env, rule.reply, answer);
    }
    const reply = replies[message];
    if (reply) state.owed[`${message}:${String(body[reply.member])}`]!.answered = true;
    return { status: 200, body: receipt };
  };
}

/** A send handler for every message of the exchange, by operationId. */
export const exchangeHandlers: Record<string, Handler<MessagesState>> = Object.fromEntries(
  exchangeMessages.map((message) => [
    (messageTable as Record<string, { operationId: string }>)[message]!.operationId,
    sendHandler(message),
  ]),
);

/**
 * Control verb `reject { code, message?, endToEndId?, next? }`: the other side rejects the next `next`
 * (default 1) sends of `message` (default pacs.008), or the one whose id is `endToEndId`, with `code`
 * (one of the reply's codes: pacs.002 codigoDeErro for pacs.008 and pacs.004).
 */
export const reject: ControlVerb<MessagesState> = (body, state) => {
  const message = body.message ?? 'pacs.008';
  const rule = typeof message === 'string' ? answered[message] : undefined;
  if (!rule || typeof message !== 'string') throw new Error(`message must be one of ${Object.keys(answered).join(', ')}`);
  const codes = codesOf(rule.reply, rule.codeMember);
  if (typeof body.code !== 'string' || !codes.includes(body.code))
    throw new Error(`code must be a ${rule.reply} ${rule.codeMember}: ${codes.join(', ')}`);
  const { endToEndId: id, next } = body;
  if (id !== undefined && next !== undefined) throw new Error('give endToEndId or next, not both');
  if (id !== undefined) {
    if (typeof id !== 'string' || id === '') throw new Error(`endToEndId must be the ${rule.idMember} of a ${message} still to be sent`);
    if (state.sentIds[`${message}:${id}`] !== undefined)
      throw new SandboxProblem(409, 'conflict', `the ${message} ${id} was sent and answered already`);
  }
  const count = next ?? 1;
  if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > 1000)
    throw new Error('next must be an integer from 1 to 1000');
  state.rejections.push({
    message,
    code: body.code,
    ...(id === undefined ? {} : { id: id as string }),
    remaining: id === undefined ? (count as number) : 1,
  });
  return { rejections: state.rejections };
};

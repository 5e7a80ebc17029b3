/**
 * Recurrences of Pix Automático (POST, GET, PATCH /rec/{idRec}, GET /rec) through the statuses of the
 * standard (RecStatus): created CRIADA with an idRec `R[RN]<ISPB><yyyyMMdd><11>` (RR when the policy allows
 * retries) and `ativacao.tipoJornada` AGUARDANDO_DEFINICAO; APROVADA when the payer confirms it (a
 * confirmation request accepted, or a QR code read: control verb `rec`), REJEITADA or EXPIRADA while it
 * awaits confirmation, CANCELADA by PATCH (the receiving user, alone in the body, from CRIADA or APROVADA)
 * or by the payer. Its terms (debtor's name, first date, location, journey charge) change only while
 * CRIADA. Each change of status is notified at `<webhookrec>/rec`.
 */
import { crc16 } from '../../formats/brcode.js';
import { type ControlVerb, type Handler, type SandboxEnvironment, SandboxProblem } from '../contract.js';
import { declaredValues } from '../spec-values.js';
import { confirmationView, expireConfirmations } from './confirmations.js';
import { approveRecurrence, moveRecurrence, storedRecurrence } from './recurrence-moves.js';
import { linkRecLocation, unlinkRecLocation } from './rec-locations.js';
import {
  codeOf,
  convenioOf,
  createdAt,
  defined,
  isRecord,
  listParameters,
  newIdRec,
  recurrenceRejectionCodes,
  record,
  refuse,
} from './recurrence-support.js';
import { type Json, page, payerIspb, type PixState, within } from './state.js';

const invalid = 'RecOperacaoInvalida';
/** The code the receiving user's own cancellation carries (PATCH /rec/{idRec}); every other one is the payer's side. */
const receiverCancellationCode = 'SLCR';

/** The recurrence as POST and PATCH answer it (RecGerada: without the payer and the requests). */
const generatedView = ({ pagador: _pagador, ...recurrence }: Json): Json => recurrence;

const field = (id: string, value: string): string => `${id}${String(value.length).padStart(2, '0')}${value}`;
const withCrc = (body: string): string => `${body}6304${crc16(`${body}6304`)}`;
/** Template 80 of Pix Automático: the Pix GUI and the recurrence location (field 25). */
const recurrenceTemplate = (url: string): string => field('80', field('00', 'br.gov.bcb.pix') + field('25', url));

/**
 * The QR code of a confirmation journey (`dadosQR`), while the recurrence awaits confirmation with a location:
 * its own code (JORNADA_2), or with `txid` the immediate (JORNADA_3) or due-date (JORNADA_4) charge's code
 * carrying the recurrence too.
 */
function qrData(state: PixState, recurrence: Json, txid: unknown): Json | undefined {
  if (recurrence.status !== 'CRIADA' || !isRecord(recurrence.loc)) return undefined;
  const url = String(recurrence.loc.location);
  if (typeof txid !== 'string') {
    const { name, city } = state.receiver;
    const body = [
      field('00', '01'),
      field('01', '12'),
      // The Pix GUI alone: the code carries no key and no charge location, only the recurrence's (template 80).
      field('26', field('00', 'br.gov.bcb.pix')),
      field('52', '0000'),
      field('53', '986'),
      field('58', 'BR'),
      field('59', name),
      field('60', city),
      field('62', field('05', '***')),
    ].join('');
    return { jornada: 'JORNADA_2', pixCopiaECola: withCrc(body + recurrenceTemplate(url)) };
  }
  const charge = state.charges[txid];
  const code = charge?.current.pixCopiaECola;
  if (!charge || typeof code !== 'string')
    refuse('RecConsultaInvalida', `no charge with a payload location has the txid ${txid}`, 'txid', txid);
  return {
    jornada: charge.kind === 'cob' ? 'JORNADA_3' : 'JORNADA_4',
    pixCopiaECola: withCrc(code.slice(0, -8) + recurrenceTemplate(url)),
  };
}

/** The recurrence as GET answers it (RecCompleta): with its confirmation requests and, when it has one, its QR code. */
export function recurrenceView(state: PixState, recurrence: Json, txid?: unknown): Json {
  const solicitacao = Object.values(state.confirmations)
    .filter((confirmation) => confirmation.idRec === recurrence.idRec)
    .map((confirmation) => confirmationView(state, confirmation, false));
  return defined({
    ...recurrence,
    solicitacao: solicitacao.length > 0 ? solicitacao : undefined,
    dadosQR: qrData(state, recurrence, txid),
  });
}

/** A charge named for a journey-3 or journey-4 confirmation must be one of the receiving user's cob or cobv. */
function checkJourneyCharge(state: PixState, body: Json): void {
  const txid = isRecord(body.ativacao) && isRecord(body.ativacao.dadosJornada) ? body.ativacao.dadosJornada.txid : undefined;
  if (txid !== undefined && !state.charges[String(txid)])
    refuse(invalid, `no immediate or due-date charge has the txid ${String(txid)}`, 'ativacao.dadosJornada.txid', txid);
}

/** A recurrence `idRec` made CRIADA from the body of POST /rec (also for the seed, whose ids the spec's examples name). */
export function createRecurrence(state: PixState, env: SandboxEnvironment, idRec: string, body: Json): Json {
  // dataFinal not before dataInicial: recDatesInOrder, run by the engine before the handler.
  checkJourneyCharge(state, body);
  const dadosJornada = isRecord(body.ativacao) ? body.ativacao.dadosJornada : undefined;
  const convenio = isRecord(body.recebedor) ? body.recebedor.convenio : undefined;
  const recurrence = defined({
    idRec,
    vinculo: body.vinculo,
    calendario: body.calendario,
    valor: body.valor,
    recebedor: defined({ cnpj: state.receiver.cnpj, nome: state.receiver.name, convenio }),
    politicaRetentativa: body.politicaRetentativa,
    ativacao: defined({ tipoJornada: 'AGUARDANDO_DEFINICAO', dadosJornada }),
  });
  if (body.loc !== undefined)
    recurrence.loc = linkRecLocation(state, body.loc, idRec, (detail) => refuse(invalid, detail, 'loc', body.loc));
  record(recurrence, 'CRIADA', env);
  state.recurrences[idRec] = recurrence;
  return recurrence;
}

export const recurrenceHandlers: Record<string, Handler<PixState>> = {
  'rec.create': (request, state, env) => {
    const body = request.body as Json;
    const idRec = newIdRec(state, env, body.politicaRetentativa === 'PERMITE_3R_7D');
    return { status: 201, body: generatedView(createRecurrence(state, env, idRec, body)) };
  },
  'rec.get': (request, state, env) => {
    expireConfirmations(state, env);
    return { status: 200, body: recurrenceView(state, storedRecurrence(state, request.path.idRec!), request.query.txid) };
  },
  'rec.revise': (request, state, env) => {
    const recurrence = storedRecurrence(state, request.path.idRec!);
    const body = request.body as Json;
    const status = String(recurrence.status);
    if (body.status !== undefined) {
      if (Object.keys(body).length > 1) refuse(invalid, 'a cancellation is sent alone, without other changes', 'status', body.status);
      if (status !== 'CRIADA' && status !== 'APROVADA')
        refuse(invalid, `the recurrence is ${status}: only a CRIADA or APROVADA recurrence can be cancelled`, 'status', body.status);
      const cancelamento = {
        solicitante: 'USUARIO_RECEBEDOR',
        codigo: receiverCancellationCode,
        descricao: 'Recorrência cancelada pelo usuário recebedor.',
      };
      moveRecurrence(state, env, recurrence, 'CANCELADA', { encerramento: { cancelamento } });
      return { status: 200, body: generatedView(recurrence) };
    }
    if (status !== 'CRIADA')
      refuse(invalid, `the recurrence is ${status}: its terms change only while it awaits confirmation (CRIADA)`, 'status', status);
    const calendario = { ...(recurrence.calendario as Json), ...(isRecord(body.calendario) ? body.calendario : {}) };
    if (typeof calendario.dataFinal === 'string' && calendario.dataFinal < String(calendario.dataInicial))
      refuse(
        invalid,
        `dataInicial ${String(calendario.dataInicial)} is after dataFinal ${calendario.dataFinal}`,
        'calendario.dataInicial',
        calendario.dataInicial,
      );
    checkJourneyCharge(state, body);
    if (body.loc !== undefined && (!isRecord(recurrence.loc) || recurrence.loc.id !== body.loc)) {
      const linked = linkRecLocation(state, body.loc, recurrence.idRec as string, (detail) => refuse(invalid, detail, 'loc', body.loc));
      if (isRecord(recurrence.loc)) unlinkRecLocation(state, recurrence.loc.id);
      recurrence.loc = linked;
    }
    recurrence.calendario = calendario;
    if (isRecord(body.vinculo) && isRecord(body.vinculo.devedor)) {
      const vinculo = recurrence.vinculo as Json;
      recurrence.vinculo = { ...vinculo, devedor: { ...(vinculo.devedor as Json), nome: body.vinculo.devedor.nome } };
    }
    if (isRecord(body.ativacao)) recurrence.ativacao = { ...(recurrence.ativacao as Json), dadosJornada: body.ativacao.dadosJornada };
    return { status: 200, body: generatedView(recurrence) };
  },
  'rec.list': (request, state, env) => {
    expireConfirmations(state, env);
    const { query } = request;
    const matching = Object.values(state.recurrences).filter((recurrence) => {
      const devedor = ((recurrence.vinculo as Json).devedor ?? {}) as Json;
      return (
        within(createdAt(recurrence), query) &&
        (query.status === undefined || recurrence.status === query.status) &&
        (query.cpf === undefined || devedor.cpf === query.cpf) &&
        (query.cnpj === undefined || devedor.cnpj === query.cnpj) &&
        (query.locationPresente === undefined || isRecord(recurrence.loc) === query.locationPresente) &&
        (query.convenio === undefined || convenioOf(recurrence) === query.convenio)
      );
    });
    const { items, paginacao } = page(matching, query);
    const parametros = listParameters(request, 'ParametrosConsultaRec', paginacao);
    return { status: 200, body: { parametros, recs: items.map((recurrence) => recurrenceView(state, recurrence)) } };
  },
};

/** The codes of a cancellation by the payer: the spec's cancellation codes (RecEncerramento) but the receiving user's. */
const payerCancellationCodes = (): readonly string[] =>
  declaredValues('pix', 'RecEncerramento/cancelamento/codigo').filter((code) => code !== receiverCancellationCode);

/** The journeys in which the payer confirms by reading a QR code: those `dadosQR.jornada` names (JORNADA_2, 3 and 4). */
const qrJourneys = (): readonly string[] => declaredValues('pix', 'RecCompleta/dadosQR/jornada');

/**
 * Control verb `rec`: the payer's side of a recurrence, as the payer's app and PSP would move it:
 * `{ idRec, status: 'APROVADA', jornada? }` (a QR code read: JORNADA_2, or 3/4 with the journey's charge),
 * `{ idRec, status: 'REJEITADA', codigo? }`, `{ idRec, status: 'EXPIRADA' }`,
 * `{ idRec, status: 'CANCELADA', codigo? }` (cancelled by the payer).
 */
export const recurrenceVerb: ControlVerb<PixState> = (body, state, env) => {
  if (typeof body.idRec !== 'string') throw new Error('idRec must name a recurrence of the sandbox');
  const recurrence = state.recurrences[body.idRec];
  if (!recurrence) throw new SandboxProblem(404, 'RecNaoEncontrada', `no recurrence has the idRec ${body.idRec}`);
  const from = String(recurrence.status);
  const conflict = (allowed: string) =>
    new SandboxProblem(409, invalid, `the recurrence is ${from}: ${String(body.status)} is a move from ${allowed} only`);
  const vinculo = recurrence.vinculo as Json;
  const devedor = (vinculo.devedor ?? {}) as Json;
  switch (body.status) {
    case 'APROVADA': {
      if (from !== 'CRIADA') throw conflict('CRIADA');
      if (body.jornada !== undefined && !qrJourneys().includes(String(body.jornada)))
        throw new Error(`jornada must be one of ${qrJourneys().join(', ')}`);
      const txid =
        isRecord(recurrence.ativacao) && isRecord(recurrence.ativacao.dadosJornada) ? recurrence.ativacao.dadosJornada.txid : undefined;
      const byCharge = typeof txid === 'string' ? (state.charges[txid]?.kind === 'cobv' ? 'JORNADA_4' : 'JORNADA_3') : 'JORNADA_2';
      const pagador = defined({ ispbParticipante: payerIspb, cpf: devedor.cpf, cnpj: devedor.cnpj });
      approveRecurrence(state, env, recurrence, typeof body.jornada === 'string' ? body.jornada : byCharge, pagador);
      break;
    }
    case 'REJEITADA': {
      if (from !== 'CRIADA') throw conflict('CRIADA');
      const rejeicao = {
        codigo: codeOf(body, recurrenceRejectionCodes(), 'AP13'),
        descricao: 'Recorrência rejeitada pelo usuário pagador.',
      };
      moveRecurrence(state, env, recurrence, 'REJEITADA', { encerramento: { rejeicao } });
      break;
    }
    case 'EXPIRADA':
      if (from !== 'CRIADA') throw conflict('CRIADA');
      moveRecurrence(state, env, recurrence, 'EXPIRADA');
      break;
    case 'CANCELADA': {
      if (from !== 'CRIADA' && from !== 'APROVADA') throw conflict('CRIADA or APROVADA');
      const codigo = codeOf(body, payerCancellationCodes(), 'SLDB');
      const cancelamento = { solicitante: 'USUARIO_PAGADOR', codigo, descricao: 'Recorrência cancelada pelo usuário pagador.' };
      moveRecurrence(state, env, recurrence, 'CANCELADA', { encerramento: { cancelamento } });
      break;
    }
    default:
      throw new Error('status must be APROVADA, REJEITADA, EXPIRADA or CANCELADA');
  }
  return recurrenceView(state, recurrence);
};

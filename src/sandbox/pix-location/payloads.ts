/**
 * What a location shows, read from the Pix module's state (`env.stateOf('pix')`): the charge linked to the
 * location's token as a CobPayload or CobVPayload, or a recurrence as a RecPayload. Which answer a charge
 * gets, among those section 7.2 allows:
 *
 * - a token no location has, or a location linked to no charge (never, or no longer: DELETE /loc/{id}/txid),
 *   or to a charge of the other type: 404 CobPayloadNaoEncontrado;
 * - a removed charge (REMOVIDA_PELO_USUARIO_RECEBEDOR, REMOVIDA_PELO_PSP: a charge never leaves those):
 *   410 CobPayloadNaoEncontrado;
 * - a concluded charge, and an immediate charge past its expiry: served, its `status` and `calendario` say so
 *   (the payer's app decides; the sandbox lets an app's handling of both be tested);
 * - a charge with a due date: its amounts computed for the `DPP` (today in São Paulo when absent). A DPP
 *   before today or after the last payable day (dataDeVencimento + validadeAposVencimento) is 400
 *   CobPayloadOperacaoInvalida; without a DPP, a charge past its last payable day can no longer be paid and
 *   is 404 CobPayloadNaoEncontrado. A DPP so early that the discount leaves nothing to pay is 400 too.
 */
import { todayInSaoPaulo } from '../../rules/cross-field.js';
import { SandboxProblem, type SandboxEnvironment } from '../contract.js';
import type { Json, PixState, StoredCharge } from '../pix/state.js';
import { amountsOn } from './amounts.js';

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Only the members that have a value. */
const defined = (members: Json): Json => Object.fromEntries(Object.entries(members).filter(([, value]) => value !== undefined));

const dayMs = 86_400_000;
const addDays = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + days * dayMs).toISOString().slice(0, 10);

const removed = new Set(['REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP']);

/** The charge of `kind` linked to the location token, or the 404/410 of CobPayloadNaoEncontrado. */
export function linkedCharge(pix: PixState | undefined, token: string, kind: StoredCharge['kind']): StoredCharge {
  const txid = pix && Object.hasOwn(pix.locationTokens, token) ? pix.locationTokens[token] : undefined;
  const charge = pix && txid !== undefined && Object.hasOwn(pix.charges, txid) ? pix.charges[txid] : undefined;
  if (!charge || charge.kind !== kind)
    throw new SandboxProblem(
      404,
      'CobPayloadNaoEncontrado',
      `no ${kind === 'cob' ? 'immediate charge' : 'charge with a due date'} is shown at this location`,
    );
  if (removed.has(String(charge.current.status)))
    throw new SandboxProblem(
      410,
      'CobPayloadNaoEncontrado',
      `the charge shown at this location was removed (${String(charge.current.status)}) and will not be shown again`,
    );
  return charge;
}

/** The members a payer sees of either kind of charge. */
function shownToPayer(current: Json): Json {
  return defined({
    txid: current.txid,
    revisao: current.revisao,
    status: current.status,
    devedor: current.devedor,
    chave: current.chave,
    solicitacaoPagador: current.solicitacaoPagador,
    infoAdicionais: current.infoAdicionais,
  });
}

export function cobPayload(charge: StoredCharge, env: SandboxEnvironment): Json {
  const { current } = charge;
  const calendario = isRecord(current.calendario) ? current.calendario : {};
  return {
    calendario: defined({ criacao: calendario.criacao, apresentacao: env.clock.now().toISOString(), expiracao: calendario.expiracao }),
    ...shownToPayer(current),
    valor: current.valor,
  };
}

const invalid = (detail: string, value: string): SandboxProblem =>
  new SandboxProblem(400, 'CobPayloadOperacaoInvalida', detail, [{ pointer: '/query/DPP', message: detail, value }]);

export function cobvPayload(charge: StoredCharge, env: SandboxEnvironment, query: Readonly<Record<string, unknown>>): Json {
  const { current } = charge;
  const calendario = isRecord(current.calendario) ? current.calendario : {};
  const dueDate = String(calendario.dataDeVencimento);
  const validity = typeof calendario.validadeAposVencimento === 'number' ? calendario.validadeAposVencimento : 30;
  const lastPayableDay = addDays(dueDate, validity);
  const today = todayInSaoPaulo(env.clock.now());
  const asked = typeof query.DPP === 'string' ? query.DPP : undefined;
  if (asked !== undefined && asked < today)
    throw invalid(`DPP ${asked} is in the past: today is ${today} in São Paulo; give today or a later date`, asked);
  if (asked !== undefined && asked > lastPayableDay)
    throw invalid(
      `DPP ${asked} is after the last day the charge can be paid, ${lastPayableDay} (dataDeVencimento ${dueDate} plus validadeAposVencimento ${validity} days)`,
      asked,
    );
  if (asked === undefined && today > lastPayableDay)
    throw new SandboxProblem(
      404,
      'CobPayloadNaoEncontrado',
      `the charge can no longer be paid: its last payable day was ${lastPayableDay} (dataDeVencimento plus validadeAposVencimento)`,
    );
  const paymentDate = asked ?? today;
  const amounts = amountsOn(isRecord(current.valor) ? current.valor : {}, dueDate, paymentDate);
  if (amounts.finalCents <= 0)
    throw invalid(`paid on ${paymentDate}, the discount would leave nothing to pay: give a date closer to the due date`, paymentDate);
  return {
    calendario: defined({
      criacao: calendario.criacao,
      apresentacao: env.clock.now().toISOString(),
      dataDeVencimento: dueDate,
      validadeAposVencimento: validity,
    }),
    ...shownToPayer(current),
    recebedor: current.recebedor,
    valor: amounts.valor,
  };
}

/**
 * Recurrences as the Pix module holds them (its state's `recurrences`, by idRec in the form GET /rec/{idRec}
 * answers them, and `recLocationTokens`, the access token of each recurrence location → the idRec linked to
 * it; the locations are `<host>/pix-location/rec/<token>`). Optional here: a Pix state without recurrences
 * shows none, and every recurrence location is unknown.
 */
export interface RecurrenceHolding {
  recurrences?: Record<string, Json>;
  recLocationTokens?: Record<string, string>;
}

const ended = new Set(['REJEITADA', 'CANCELADA', 'EXPIRADA']);

/** The recurrence behind a recurrence location as a RecPayload; 404 when none, 400 when it ended (section 7.2). */
export function recPayload(pix: (PixState & RecurrenceHolding) | undefined, token: string): Json {
  const tokens = pix?.recLocationTokens ?? {};
  const idRec = Object.hasOwn(tokens, token) ? tokens[token] : undefined;
  const recurrences = pix?.recurrences ?? {};
  const recurrence = idRec !== undefined && Object.hasOwn(recurrences, idRec) ? recurrences[idRec] : undefined;
  if (!pix || !recurrence) throw new SandboxProblem(404, 'RecPayloadNaoEncontrado', 'no recurrence is shown at this location');
  if (ended.has(String(recurrence.status)))
    throw new SandboxProblem(
      400,
      'RecPayloadOperacaoInvalida',
      `the recurrence ${String(idRec)} is ${String(recurrence.status)}: there is nothing for a payer to authorise`,
    );
  const recebedor = isRecord(recurrence.recebedor) ? recurrence.recebedor : {};
  return defined({
    idRec: recurrence.idRec,
    vinculo: recurrence.vinculo,
    calendario: recurrence.calendario,
    valor: recurrence.valor,
    recebedor: {
      cnpj: recebedor.cnpj ?? pix.receiver.cnpj,
      nome: recebedor.nome ?? pix.receiver.name,
      ispbParticipante: pix.receiver.ispb,
    },
    politicaRetentativa: recurrence.politicaRetentativa,
    atualizacao: recurrence.atualizacao,
  });
}

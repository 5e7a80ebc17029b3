/**
 * Recurring charges of Pix Automático (POST /cobr, PUT, PATCH, GET /cobr/{txid}, GET /cobr, POST
 * /cobr/{txid}/retentativa/{data}). A charge is made for an APROVADA recurrence, due within its dates, for
 * its fixed amount when it has one, into the receiving user's account, one per cycle of the recurrence
 * (unless the other is REJEITADA or CANCELADA); it is created CRIADA with its first attempt sent
 * (recurring-attempts.ts). PATCH cancels it only before the expected first settlement date — its due date —
 * and while it is not final; a retry is refused while an attempt is pending, for a date not in the future or
 * past the window, and when the recurrence forbids retries (section 7.2, CobROperacaoInvalida).
 */
import { checkRecurringChargeCancellable, finalRecurringChargeStatuses } from '../../pix/read-checks.js';
import { dayNumber } from '../../rules/cross-field.js';
import { type Handler, type SandboxEnvironment, SandboxProblem } from '../contract.js';
import { expireConfirmations } from './confirmations.js';
import {
  canRetry,
  cancelAttempts,
  maxRetries,
  pendingOf,
  recurringChargeView,
  retryWindowDays,
  scheduleAttempts,
  sendAttempt,
} from './recurring-attempts.js';
import {
  addDays,
  convenioOf,
  createdAt,
  defined,
  isRecord,
  listParameters,
  record,
  refuse,
  today,
  txidInUse,
} from './recurrence-support.js';
import { notifyRecurringCharge } from './recurrence-webhooks.js';
import { cents, type Json, page, type PixState, type StoredRecurringCharge, within } from './state.js';

const invalid = 'CobROperacaoInvalida';

/** The index of the recurrence's cycle a date falls in (weeks or months since `dataInicial`). */
function cycleOf(calendario: Json, date: string): number {
  const start = String(calendario.dataInicial);
  if (calendario.periodicidade === 'SEMANAL') return Math.floor((dayNumber(date) - dayNumber(start)) / 7);
  const [y1, m1, d1] = start.split('-').map(Number) as [number, number, number];
  const [y2, m2, d2] = date.split('-').map(Number) as [number, number, number];
  const months = (y2 - y1) * 12 + (m2 - m1) - (d2 < d1 ? 1 : 0);
  const size = { TRIMESTRAL: 3, SEMESTRAL: 6, ANUAL: 12 }[String(calendario.periodicidade)] ?? 1;
  return Math.floor(months / size);
}

function stored(state: PixState, env: SandboxEnvironment, txid: string): StoredRecurringCharge {
  scheduleAttempts(state, env);
  const charge = state.recurringCharges[txid];
  if (!charge)
    throw new SandboxProblem(404, 'CobRNaoEncontrado', `no recurring charge has the txid ${txid}`, [
      { pointer: '/txid', message: 'unknown txid', value: txid },
    ]);
  return charge;
}

/** The checks of section 7.2 that need the recurrence and the other charges, then the charge, CRIADA. */
/** The recurring charge `txid` of an APROVADA recurrence, from the body of POST /cobr (also for the seed). */
export function createRecurringCharge(state: PixState, env: SandboxEnvironment, txid: string, body: Json): StoredRecurringCharge {
  expireConfirmations(state, env);
  if (txidInUse(state, txid)) refuse(invalid, `the txid ${txid} is already in use by this receiving user`, 'txid', txid);
  const idRec = String(body.idRec);
  const recurrence = state.recurrences[idRec];
  if (!recurrence)
    throw new SandboxProblem(404, 'NaoEncontrado', `no recurrence has the idRec ${idRec}`, [
      { pointer: '/idRec', message: 'unknown idRec', value: idRec },
    ]);
  if (recurrence.status !== 'APROVADA')
    refuse(invalid, `the recurrence is ${String(recurrence.status)}: charges are made only for an APROVADA recurrence`, 'idRec', idRec);
  // A due date before today was refused before this handler (dueDateNotBeforeToday, run by the engine).
  const dueDate = String((body.calendario as Json).dataDeVencimento);
  const calendar = recurrence.calendario as Json;
  if (dueDate < String(calendar.dataInicial) || (typeof calendar.dataFinal === 'string' && dueDate > calendar.dataFinal))
    refuse(invalid, 'dataDeVencimento is outside the dates of the recurrence', 'calendario.dataDeVencimento', dueDate);
  const original = (body.valor as Json).original;
  const fixed = isRecord(recurrence.valor) ? recurrence.valor.valorRec : undefined;
  if (fixed !== undefined && cents(original) !== cents(fixed))
    refuse(invalid, `the recurrence has the fixed amount ${String(fixed)}`, 'valor.original', original);
  const account = body.recebedor as Json;
  const own = state.recurringAccount;
  if (
    account.conta !== own.conta ||
    account.tipoConta !== own.tipoConta ||
    (account.agencia !== undefined && account.agencia !== own.agencia)
  )
    refuse(invalid, 'the account is not one of the receiving user (POST /_sandbox/pix/account names it)', 'recebedor.conta', account.conta);
  const cycle = cycleOf(calendar, dueDate);
  const other = Object.values(state.recurringCharges).find(
    ({ current }) =>
      current.idRec === idRec &&
      !['REJEITADA', 'CANCELADA'].includes(String(current.status)) &&
      cycleOf(calendar, String((current.calendario as Json).dataDeVencimento)) === cycle,
  );
  if (other)
    refuse(
      invalid,
      `the charge ${String(other.current.txid)} is already open in this cycle of the recurrence`,
      'calendario.dataDeVencimento',
      dueDate,
    );
  const current = defined({
    idRec,
    txid,
    infoAdicional: body.infoAdicional,
    calendario: { criacao: today(env), dataDeVencimento: dueDate },
    valor: { original },
    ajusteDiaUtil: body.ajusteDiaUtil,
    recebedor: { ...account, cnpj: state.receiver.cnpj, nome: state.receiver.name },
    devedor: body.devedor,
    politicaRetentativa: recurrence.politicaRetentativa,
  });
  record(current, 'CRIADA', env);
  sendAttempt(state, env, current, dueDate, 'AGND');
  const charge: StoredRecurringCharge = { current, paidBy: [] };
  state.recurringCharges[txid] = charge;
  return charge;
}

/** The charge as a creation answers it (CobRGerada: no attempts yet to show, no end). */
const generated = ({ tentativas: _tentativas, encerramento: _encerramento, ...current }: Json): Json => current;

export const recurringChargeHandlers: Record<string, Handler<PixState>> = {
  'cobr.create': (request, state, env) => {
    let txid = env.random.text(32);
    while (txidInUse(state, txid)) txid = env.random.text(32);
    return { status: 201, body: generated(createRecurringCharge(state, env, txid, request.body as Json).current) };
  },
  'cobr.replace': (request, state, env) => ({
    status: 201,
    body: generated(createRecurringCharge(state, env, request.path.txid!, request.body as Json).current),
  }),
  'cobr.get': (request, state, env) => ({ status: 200, body: recurringChargeView(state, stored(state, env, request.path.txid!)) }),
  'cobr.revise': (request, state, env) => {
    const charge = stored(state, env, request.path.txid!);
    const { current } = charge;
    // The client's own check on the charge as GET shows it: every charge here has its first attempt, so the date is known.
    const [late] = checkRecurringChargeCancellable(
      recurringChargeView(state, charge) as Parameters<typeof checkRecurringChargeCancellable>[0],
      env.clock.now(),
    );
    if (late) refuse(invalid, late.message, late.pointer.slice(1).replace(/\//g, '.'), late.value);
    cancelAttempts(env, current);
    current.encerramento = {
      cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR', descricao: 'Cobrança cancelada pelo usuário recebedor.' },
    };
    record(current, 'CANCELADA', env);
    notifyRecurringCharge(state, env, recurringChargeView(state, charge));
    return { status: 200, body: recurringChargeView(state, charge) };
  },
  'cobr.retry': (request, state, env) => {
    const charge = stored(state, env, request.path.txid!);
    const { current } = charge;
    const date = request.path.data!;
    const status = String(current.status);
    if (finalRecurringChargeStatuses.includes(status))
      refuse(invalid, `the charge is ${status}: it takes no more attempts`, 'status', status);
    if (current.politicaRetentativa !== 'PERMITE_3R_7D')
      refuse(
        invalid,
        `the recurrence ${String(current.idRec)} does not allow retries (NAO_PERMITE)`,
        'politicaRetentativa',
        current.politicaRetentativa,
      );
    // A date that is not in the future was refused before this handler (retryDateInTheFuture, run by the engine).
    const pending = pendingOf(current);
    if (pending)
      refuse(invalid, `the attempt for ${String(pending.dataLiquidacao)} is ${String(pending.status)}`, 'tentativas', pending.status);
    const last = addDays(String((current.calendario as Json).dataDeVencimento), retryWindowDays);
    if (date > last) refuse(invalid, `retries end ${retryWindowDays} days after the due date, on ${last}`, 'data', date);
    if (!canRetry(current, env)) refuse(invalid, `the charge already had ${maxRetries} retries`, 'data', date);
    sendAttempt(state, env, current, date, 'NTAG');
    notifyRecurringCharge(state, env, recurringChargeView(state, charge));
    return { status: 201, body: recurringChargeView(state, charge) };
  },
  'cobr.list': (request, state, env) => {
    scheduleAttempts(state, env);
    const { query } = request;
    const matching = Object.values(state.recurringCharges).filter(({ current }) => {
      const recurrence = state.recurrences[String(current.idRec)];
      const devedor = isRecord(recurrence?.vinculo) && isRecord(recurrence.vinculo.devedor) ? recurrence.vinculo.devedor : {};
      return (
        within(createdAt(current), query) &&
        (query.idRec === undefined || current.idRec === query.idRec) &&
        (query.status === undefined || current.status === query.status) &&
        (query.cpf === undefined || devedor.cpf === query.cpf) &&
        (query.cnpj === undefined || devedor.cnpj === query.cnpj) &&
        (query.convenio === undefined || convenioOf(recurrence) === query.convenio)
      );
    });
    const { items, paginacao } = page(matching, query);
    const parametros = listParameters(request, 'ParametrosConsultaCobR', paginacao);
    return { status: 200, body: { parametros, cobsr: items.map((charge) => recurringChargeView(state, charge)) } };
  },
};

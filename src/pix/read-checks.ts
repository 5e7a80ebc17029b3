/**
 * Rules of the Pix receiving API that depend on a state the PSP holds, checked against a value the
 * client read before the call: the charge before a PUT or PATCH (section 3: only an ATIVA charge
 * changes), the batch before changing one of its due-date charges, the confirmation request before
 * cancelling it, the recurring charge before cancelling it. Each check is a pure function returning the issues that stop the call, none when it
 * can go; the `rule` of an issue is the rule's id in specs/traceability.yaml.
 *
 * Pointers are rooted at the value read (`/status` of the charge). What was read may be stale: the PSP
 * still decides (400 with the error type named in each check), these checks spare a call that cannot
 * succeed.
 */
import type { components } from '../../generated/pix/types.js';
import type { ValidationIssue } from '../runtime/errors.js';
import { isDate, issue, todayInSaoPaulo } from '../rules/cross-field.js';

type Schemas = components['schemas'];
/** A charge as GET /cob/{txid} or GET /cobv/{txid} answers it. */
type Charge = Pick<Schemas['CobCompleta'] | Schemas['CobVCompleta'], 'status'>;
type Batch = Pick<Schemas['LoteCobVConsultado'], 'cobsv'>;
type ConfirmationRequest = Pick<Schemas['SolicRecCompleta'], 'status'>;
/** A recurring charge as GET /cobr/{txid} answers it. */
type RecurringCharge = Partial<Pick<Schemas['CobRCompleta'], 'status' | 'calendario' | 'ajusteDiaUtil' | 'tentativas'>>;

const none: readonly ValidationIssue[] = Object.freeze([]);
const shown = (value: unknown): string => (value === undefined ? 'missing' : JSON.stringify(value));

/**
 * R-B-cob-not-ativa-immutable (with CobOperacaoInvalida 6 and 7, CobVOperacaoInvalida 12): a PUT or PATCH
 * that alters a charge is accepted only while it is ATIVA; CONCLUIDA and the removed statuses answer 400.
 */
export function checkChargeChangeable(charge: Charge): readonly ValidationIssue[] {
  if (charge.status === 'ATIVA') return none;
  return [
    issue(
      '/status',
      'R-B-cob-not-ativa-immutable',
      `status ${shown(charge.status)}: only an ATIVA charge can be changed (the PSP answers 400 CobOperacaoInvalida or CobVOperacaoInvalida); create a new charge instead`,
      charge.status,
    ),
  ];
}

/** Batch entries whose charge is being created or was refused: PUT or PATCH /cobv/{txid} is refused for them. */
export const unsettledBatchStatuses: readonly string[] = ['EM_PROCESSAMENTO', 'NEGADA'];

/**
 * R-B-err-CobVOperacaoInvalida-1: a due-date charge whose batch entry is EM_PROCESSAMENTO or NEGADA cannot
 * be changed by PUT or PATCH /cobv/{txid}. A txid the batch does not list passes (it is not the batch's).
 */
export function checkBatchChargeChangeable(batch: Batch, txid: string): readonly ValidationIssue[] {
  const index = batch.cobsv.findIndex((entry) => entry.txid === txid);
  const entry = batch.cobsv[index];
  if (!entry || !unsettledBatchStatuses.includes(entry.status)) return none;
  const why = entry.status === 'NEGADA' ? 'the batch refused it (see its problema)' : 'the batch is still creating it';
  return [
    issue(
      `/cobsv/${index}/status`,
      'R-B-err-CobVOperacaoInvalida-1',
      `charge ${txid} is ${entry.status} in its batch: ${why}, so PUT or PATCH /cobv/${txid} answers 400 CobVOperacaoInvalida; wait for CRIADA or change it through the batch`,
      entry.status,
    ),
  ];
}

/** Statuses from which a confirmation request can be cancelled (section 3). */
export const cancellableConfirmationStatuses: readonly string[] = ['CRIADA', 'ENVIADA', 'RECEBIDA'];

/**
 * R-B-solicrec-cancel (with SolicRecOperacaoInvalida 4): a confirmation request is cancelled only from
 * CRIADA, ENVIADA or RECEBIDA; any other status answers 400.
 */
export function checkConfirmationCancellable(request: ConfirmationRequest): readonly ValidationIssue[] {
  if (typeof request.status === 'string' && cancellableConfirmationStatuses.includes(request.status)) return none;
  return [
    issue(
      '/status',
      'R-B-solicrec-cancel',
      `status ${shown(request.status)}: a confirmation request is cancelled only while CRIADA, ENVIADA or RECEBIDA (the PSP answers 400 SolicRecOperacaoInvalida); nothing to cancel`,
      request.status,
    ),
  ];
}

/** Statuses of a recurring charge that nothing moves any more (section 2.11): a cancel of one is refused. */
export const finalRecurringChargeStatuses: readonly string[] = ['CONCLUIDA', 'EXPIRADA', 'REJEITADA', 'CANCELADA'];

/**
 * The expected first settlement date of a recurring charge, where the value read shows it: the earliest
 * `dataLiquidacao` of its attempts (the PSP's own date), else, with `ajusteDiaUtil` false, the due date itself.
 * With `ajusteDiaUtil` true (the default) and no attempt the due date may move to the next business day of the
 * payer's municipality, by holidays only the PSP knows: undefined then.
 */
function firstSettlementOf(charge: RecurringCharge): { readonly date: string; readonly pointer: string } | undefined {
  let first: { date: string; pointer: string } | undefined;
  for (const [index, attempt] of (Array.isArray(charge.tentativas) ? charge.tentativas : []).entries()) {
    const date = attempt?.dataLiquidacao;
    if (isDate(date) && (first === undefined || date < first.date)) first = { date, pointer: `/tentativas/${index}/dataLiquidacao` };
  }
  if (first) return first;
  const dueDate = charge.calendario?.dataDeVencimento;
  return charge.ajusteDiaUtil === false && isDate(dueDate) ? { date: dueDate, pointer: '/calendario/dataDeVencimento' } : undefined;
}

/**
 * R-B-cobr-cancel (with CobROperacaoInvalida 6): PATCH /cobr/{txid} with status CANCELADA is accepted only while
 * the charge is not final and before its expected first settlement date (section 3); on or after that date, in
 * São Paulo, the PSP answers 400. A status this release does not know passes, and so does a date the value read
 * cannot show (see firstSettlementOf): the PSP decides. `now` is the instant of the call.
 */
export function checkRecurringChargeCancellable(charge: RecurringCharge, now: Date = new Date()): readonly ValidationIssue[] {
  const { status } = charge;
  if (typeof status === 'string' && finalRecurringChargeStatuses.includes(status))
    return [
      issue(
        '/status',
        'R-B-cobr-cancel',
        `status ${shown(status)}: a recurring charge that is CONCLUIDA, EXPIRADA, REJEITADA or CANCELADA is final and is not cancelled (the PSP answers 400 CobROperacaoInvalida); nothing to cancel`,
        status,
      ),
    ];
  const first = firstSettlementOf(charge);
  const today = todayInSaoPaulo(now);
  if (first === undefined || today < first.date) return none;
  return [
    issue(
      first.pointer,
      'R-B-cobr-cancel',
      `${first.date} is the expected first settlement date and today is ${today} in São Paulo: a recurring charge is cancelled only before that date (the PSP answers 400 CobROperacaoInvalida); its attempt goes ahead, so leave the charge as it is`,
      first.date,
    ),
  ];
}

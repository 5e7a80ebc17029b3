/**
 * Immediate (cob) and due-date (cob with vencimento, cobv) charges through the state machine of section 3,
 * shared by their operations (charge-handlers.ts) and the batches of due-date charges (batches.ts):
 * created ATIVA with `revisao` 0, a payload location and a BR Code; a PUT or PATCH of an ATIVA charge
 * raises `revisao` by 1 (a change of `loc` alone does not); `status` REMOVIDA_PELO_USUARIO_RECEBEDOR sent
 * alone removes it; any change of a charge that is not ATIVA is refused with the operation's 400.
 */
import { buildBrCode } from '../../formats/brcode.js';
import { checkBrlAmount } from '../../formats/values.js';
import { checkChargeChangeable } from '../../pix/read-checks.js';
import { type SandboxEnvironment, SandboxProblem, type SandboxRequest } from '../contract.js';
import { instant, type Json, type PixState, type StoredCharge } from './state.js';
import { linkLocation, newLocation, unlinkLocation } from './locations.js';

export type ChargeKind = StoredCharge['kind'];

/** The error types of each kind of charge. */
export const chargeErrorTypes = {
  cob: { invalid: 'CobOperacaoInvalida', missing: 'CobNaoEncontrado', query: 'CobConsultaInvalida' },
  cobv: { invalid: 'CobVOperacaoInvalida', missing: 'CobVNaoEncontrada', query: 'CobVConsultaInvalida' },
} as const;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** 400 `CobOperacaoInvalida` or `CobVOperacaoInvalida` naming the offending member (`loc.id`). */
export function refuseCharge(kind: ChargeKind, detail: string, property: string, value?: unknown): never {
  throw new SandboxProblem(400, chargeErrorTypes[kind].invalid, detail, [
    { pointer: `/${property.replace(/\./g, '/')}`, message: detail, value },
  ]);
}

/** The charge `txid` of this kind, or 404 `CobNaoEncontrado` or `CobVNaoEncontrada`. */
export function storedCharge(state: PixState, kind: ChargeKind, txid: string): StoredCharge {
  const charge = state.charges[txid];
  if (!charge || charge.kind !== kind)
    throw new SandboxProblem(404, chargeErrorTypes[kind].missing, `no ${kind} charge has the txid ${txid}`, [
      { pointer: '/txid', message: 'unknown txid', value: txid },
    ]);
  return charge;
}

/** The charge as GET answers it: the stored record with the Pix that paid it. */
export function chargeView(state: PixState, charge: StoredCharge, revision?: Json): Json {
  const view = revision ?? charge.current;
  const pix = charge.paidBy.map((id) => state.received[id]).filter(isRecord);
  return pix.length > 0 ? { ...view, pix } : view;
}

/** The BR Code of a charge: dynamic, pointing at its payload location (field 26.25). */
function brCodeOf(state: PixState, location: string, amount: unknown): string {
  return buildBrCode({
    url: location,
    merchantName: state.receiver.name,
    merchantCity: state.receiver.city,
    ...(typeof amount === 'string' && checkBrlAmount(amount).valid ? { amount } : {}),
  });
}

/** What charge code reads of a request: the module's address, for the location of a new charge. */
type Origin = Pick<SandboxRequest, 'baseUrl'>;

/** The members of a request body applied to a charge, checking what the schema cannot (chave, loc). */
function apply(state: PixState, kind: ChargeKind, txid: string, base: Json, body: Json, request: Origin, env: SandboxEnvironment): Json {
  const next: Json = { ...base };
  for (const [member, value] of Object.entries(body)) {
    if (member === 'loc' || member === 'status') continue;
    if (member === 'calendario' || member === 'valor' || member === 'devedor')
      next[member] = { ...(isRecord(base[member]) ? base[member] : {}), ...(value as Json) };
    else next[member] = value;
  }
  if (typeof next.chave === 'string' && !state.receiver.keys.includes(next.chave))
    refuseCharge(
      kind,
      'the key is not one of the receiving user (GET /_sandbox shows them; POST /_sandbox/pix/keys adds one)',
      'chave',
      next.chave,
    );
  if (kind === 'cobv' && !isRecord(next.recebedor)) {
    next.recebedor = {
      cnpj: state.receiver.cnpj,
      nome: state.receiver.name,
      logradouro: 'Avenida Paulista, 1000',
      cidade: 'Sao Paulo',
      uf: 'SP',
      cep: '01310100',
    };
  }
  const requested = body.loc;
  const currentLoc = isRecord(base.loc) ? base.loc : undefined;
  if (isRecord(requested) && requested.id !== currentLoc?.id) {
    if (currentLoc) unlinkLocation(state, String(currentLoc.id));
    next.loc = linkLocation(state, kind, txid, requested.id as number, (detail, value) => refuseCharge(kind, detail, 'loc.id', value));
  } else if (!currentLoc && !isRecord(requested)) {
    next.loc = newLocation(state, kind, txid, request, env);
  }
  const location = (next.loc as Json).location as string;
  // Only an immediate charge shows the location at its top level (CobGerada); a cobv shows it in loc alone.
  if (kind === 'cob') next.location = location;
  next.pixCopiaECola = brCodeOf(state, location, (next.valor as Json | undefined)?.original);
  return next;
}

/** The calendar a charge gets before its body's: one day to pay an immediate charge, 30 days after a due date. */
function defaultCalendar(kind: ChargeKind, criacao: unknown): Json {
  return kind === 'cob' ? { criacao, expiracao: 86_400 } : { criacao, validadeAposVencimento: 30 };
}

/** Creates the charge `txid` ATIVA, revisao 0 (also for each entry of a batch, batches.ts). */
export function createCharge(
  state: PixState,
  kind: ChargeKind,
  txid: string,
  body: Json,
  request: Origin,
  env: SandboxEnvironment,
): StoredCharge {
  if (state.charges[txid]) refuseCharge(kind, `the txid ${txid} is already in use by this receiving user`, 'txid', txid);
  const base: Json = { calendario: defaultCalendar(kind, instant(env)), txid, revisao: 0, status: 'ATIVA' };
  const current = apply(state, kind, txid, base, body, request, env);
  const charge: StoredCharge = { kind, current, revisions: [current], paidBy: [] };
  state.charges[txid] = charge;
  return charge;
}

/** Changes an ATIVA charge: `replace` for PUT, a revision (PATCH) otherwise (also for batch entries, batches.ts). */
export function reviseCharge(
  state: PixState,
  charge: StoredCharge,
  body: Json,
  request: Origin,
  env: SandboxEnvironment,
  replace: boolean,
): void {
  const kind = charge.kind;
  const txid = charge.current.txid as string;
  // The state rule, as the client checks it on a charge it read. The body's own rules (status only
  // REMOVIDA_PELO_USUARIO_RECEBEDOR, a removal sent alone) were checked before: the engine runs the
  // schema and the cross-field checks of PATCH, and batches.ts the same checks on each batch entry.
  const [notChangeable] = checkChargeChangeable(charge.current as Parameters<typeof checkChargeChangeable>[0]);
  if (notChangeable) refuseCharge(kind, notChangeable.message, 'status', charge.current.status);
  const members = Object.keys(body);
  // A replacement starts again from the defaults of a creation, keeping the creation instant and the location.
  const base = replace
    ? {
        calendario: defaultCalendar(kind, (charge.current.calendario as Json).criacao),
        txid,
        revisao: charge.current.revisao,
        status: 'ATIVA',
        loc: charge.current.loc,
      }
    : charge.current;
  const next = apply(state, kind, txid, base, body, request, env);
  if (body.status !== undefined) next.status = body.status;
  const locOnly = members.length === 1 && members[0] === 'loc';
  if (!locOnly) next.revisao = (charge.current.revisao as number) + 1;
  charge.current = next;
  if (!locOnly) charge.revisions.push(next);
  else charge.revisions[charge.revisions.length - 1] = next;
}

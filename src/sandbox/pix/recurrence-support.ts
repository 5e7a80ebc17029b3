/**
 * What the Pix Automático parts of the sandbox share (recurrences, confirmation requests, recurring charges,
 * batches): refusals in the API Pix's terms, status histories (`atualizacao`), dates of the São Paulo
 * calendar on the sandbox clock, and the ids the PSP assigns (idRec, idSolicRec) from the seeded random.
 */
import { checkIdRec } from '../../formats/pix.js';
import { todayInSaoPaulo } from '../../rules/cross-field.js';
import { type SandboxEnvironment, SandboxProblem, type SandboxRequest } from '../contract.js';
import { declaredMembers, declaredValues } from '../spec-values.js';
import type { SchemaPlace } from '../verb-contract.js';
import { instant, type Json, type PixState } from './state.js';

export const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Only the members that have a value. */
export const defined = (members: Json): Json => Object.fromEntries(Object.entries(members).filter(([, value]) => value !== undefined));

/** A 400 of `type` naming the offending member (`calendario.dataFinal`). */
export function refuse(type: string, detail: string, property: string, value?: unknown): never {
  throw new SandboxProblem(400, type, detail, [{ pointer: `/${property.replace(/\./g, '/')}`, message: detail, value }]);
}

/** A 404 of `type` naming the unknown id. */
export function unknown(type: string, detail: string, property: string, value: unknown): never {
  throw new SandboxProblem(404, type, detail, [{ pointer: `/${property}`, message: detail, value }]);
}

/** Today in the Pix arrangement's calendar (America/Sao_Paulo), on the sandbox clock: YYYY-MM-DD. */
export const today = (env: SandboxEnvironment): string => todayInSaoPaulo(env.clock.now());

const dayMs = 86_400_000;

/** `date` (YYYY-MM-DD) moved by `days`. */
export const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * dayMs).toISOString().slice(0, 10);

/** Sets `status` and appends it to the history `atualizacao`, stamped with the sandbox time. */
export function record(target: Json, status: string, env: SandboxEnvironment): void {
  target.status = status;
  const history = Array.isArray(target.atualizacao) ? (target.atualizacao as Json[]) : [];
  history.push({ status, data: instant(env) });
  target.atualizacao = history;
}

/** When the record was created: the first entry of its history. */
export const createdAt = (target: Json): unknown => (target.atualizacao as Json[] | undefined)?.[0]?.data;

const compactDate = (env: SandboxEnvironment): string => today(env).replace(/-/g, '');

/** A new idRec: R, R or N (retries allowed or not), the PSP's 8-digit id, yyyyMMdd, 11 letters or digits. */
export function newIdRec(state: PixState, env: SandboxEnvironment, allowsRetries: boolean): string {
  for (;;) {
    const id = `R${allowsRetries ? 'R' : 'N'}${state.receiver.ispb}${compactDate(env)}${env.random.text(11)}`;
    if (!checkIdRec(id).valid) throw new Error(`the sandbox made an invalid idRec ${id}`);
    if (!state.recurrences[id]) return id;
  }
}

/** A new idSolicRec: SC, the PSP's ISPB, yyyyMMdd, 11 letters or digits. */
export function newIdSolicRec(state: PixState, env: SandboxEnvironment): string {
  for (;;) {
    const id = `SC${state.receiver.ispb}${compactDate(env)}${env.random.text(11)}`;
    if (!state.confirmations[id]) return id;
  }
}

/** Whether a txid is taken by any charge of the receiving user (cob, cobv or cobr). */
export const txidInUse = (state: PixState, txid: string): boolean => Boolean(state.charges[txid] || state.recurringCharges[txid]);

/** The value of a list query's filter on the receiver's agreement (`convenio`). */
export const convenioOf = (recurrence: Json | undefined): unknown =>
  isRecord(recurrence?.recebedor) ? (recurrence.recebedor as Json).convenio : undefined;

/**
 * `parametros` of a list answer: the filters the query was given that the answer's `parametros` schema (at
 * `place`) echoes by name, the agreement filter under `recebedor` (as the standard echoes it), and the page.
 */
export function listParameters(request: SandboxRequest, place: SchemaPlace, paginacao: Json): Json {
  const echoed = declaredMembers('pix', place);
  const { query } = request;
  const parametros: Json = {};
  for (const { name, in: where } of request.info.parameters)
    if (where === 'query' && echoed.includes(name) && query[name] !== undefined) parametros[name] = query[name];
  if (query.convenio !== undefined) parametros.recebedor = { convenio: query.convenio };
  parametros.paginacao = paginacao;
  return parametros;
}

/** The codes a payer's rejection of a recurrence takes (RecEncerramento.rejeicao.codigo: AP13, AP14). */
export const recurrenceRejectionCodes = (): readonly string[] => declaredValues('pix', 'RecEncerramento/rejeicao/codigo');

/** The `codigo` a control verb was given, one of `known`, or `fallback` when it was given none. */
export function codeOf(body: Json, known: readonly string[], fallback: string): string {
  if (body.codigo === undefined) return fallback;
  if (typeof body.codigo !== 'string' || !known.includes(body.codigo)) throw new Error(`codigo must be one of ${known.join(', ')}`);
  return body.codigo;
}

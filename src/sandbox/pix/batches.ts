/**
 * Batches of due-date charges (PUT, PATCH, GET /lotecobv/{id}, GET /lotecobv). A batch is accepted with
 * 202 and processed `batchProcessedAfterSeconds` of sandbox time later: each charge request is
 * EM_PROCESSAMENTO, then CRIADA or NEGADA with the problem PUT or PATCH /cobv/{txid} would have answered —
 * through the same code as those (charges.ts) and the same cross-field checks. A creation lists only new
 * txids held by no other batch; a PUT of an existing batch lists exactly its txids (each replaced, or created
 * when it was refused before); a PATCH some of them. While a batch is processing it takes no other change,
 * and a charge whose entry is EM_PROCESSAMENTO or NEGADA is refused by /cobv/{txid} (400 CobVOperacaoInvalida).
 */
import { pixChecks } from '../../pix/checks.js';
import { checkBatchChargeChangeable } from '../../pix/read-checks.js';
import { runCrossFieldChecks } from '../../runtime/cross-field.js';
import { type Handler, type SandboxEnvironment, SandboxProblem } from '../contract.js';
import { createCharge, reviseCharge } from './charges.js';
import { pixProblems } from './problems.js';
import { refuse, txidInUse } from './recurrence-support.js';
import { schedulePix } from './schedule.js';
import { instant, type Json, page, type PixState, type StoredBatch, within } from './state.js';

/** Sandbox seconds between a batch's acceptance and the outcome of its charges. */
export const batchProcessedAfterSeconds = 5;

const invalid = 'LoteCobVOperacaoInvalida';
type Mode = StoredBatch['pending'][string]['mode'];
type Entry = { txid: string; status: string; problema?: Json; criacao?: string };

const entriesOf = (batch: StoredBatch): Entry[] => batch.view.cobsv as Entry[];

/** Applies one charge request as PUT (create or replace) or PATCH /cobv/{txid} would. */
function processEntry(state: PixState, env: SandboxEnvironment, batch: StoredBatch, entry: Entry, body: Json, mode: Mode): void {
  try {
    const operation = mode === 'revise' ? 'cobv.revise' : 'cobv.replace';
    const issues = runCrossFieldChecks(pixChecks[operation], { body }, { now: env.clock.now() });
    if (issues.length > 0) throw new SandboxProblem(400, 'CobVOperacaoInvalida', issues.map((issue) => issue.message).join('; '), issues);
    const existing = state.charges[entry.txid];
    const origin = { baseUrl: batch.baseUrl };
    if (mode === 'create' || (mode === 'replace' && !existing)) createCharge(state, 'cobv', entry.txid, body, origin, env);
    else if (existing?.kind === 'cobv') reviseCharge(state, existing, body, origin, env, mode === 'replace');
    else
      throw new SandboxProblem(404, 'CobVNaoEncontrada', `the batch never created the charge ${entry.txid}`, [
        { pointer: '/txid', message: 'unknown txid', value: entry.txid },
      ]);
    entry.status = 'CRIADA';
    entry.criacao = String((state.charges[entry.txid]!.current.calendario as Json).criacao);
    delete entry.problema;
  } catch (error) {
    if (!(error instanceof SandboxProblem)) throw error;
    entry.status = 'NEGADA';
    entry.problema = pixProblems.problem(error, { baseUrl: batch.baseUrl, correlationId: env.random.uuid() }).body as Json;
  }
}

/** Processes the batches whose time has come (run on reads and on the clock). */
export function settleBatches(state: PixState, env: SandboxEnvironment): void {
  for (const batch of Object.values(state.batches)) {
    if (batch.processAtMs > env.clock.nowMs()) continue;
    for (const entry of entriesOf(batch)) {
      const pending = batch.pending[entry.txid];
      if (!pending) continue;
      delete batch.pending[entry.txid];
      processEntry(state, env, batch, entry, pending.body, pending.mode);
    }
  }
}

/** PUT or PATCH /cobv/{txid} of a charge whose batch entry is EM_PROCESSAMENTO or NEGADA: 400 CobVOperacaoInvalida. */
export function checkBatchEntry(state: PixState, env: SandboxEnvironment, txid: string): void {
  const id = state.batchOfTxid[txid];
  const batch = id === undefined ? undefined : state.batches[id];
  if (!batch) return;
  settleBatches(state, env);
  const [issue] = checkBatchChargeChangeable(
    { cobsv: entriesOf(batch).map(({ txid: listed, status }) => ({ txid: listed, status })) },
    txid,
  );
  if (issue)
    throw new SandboxProblem(400, 'CobVOperacaoInvalida', issue.message, [{ pointer: '/txid', message: issue.message, value: txid }]);
}

function stored(state: PixState, env: SandboxEnvironment, id: string): StoredBatch {
  settleBatches(state, env);
  const batch = state.batches[id];
  if (!batch)
    throw new SandboxProblem(404, 'LoteCobVNaoEncontrado', `no batch of due-date charges has the id ${id}`, [
      { pointer: '/id', message: 'unknown batch', value: id },
    ]);
  return batch;
}

/** Puts the listed entries EM_PROCESSAMENTO and schedules their processing. */
function accept(
  state: PixState,
  env: SandboxEnvironment,
  id: string,
  batch: StoredBatch,
  requests: Json[],
  mode: (txid: string) => Mode,
): void {
  if (Object.keys(batch.pending).length > 0) refuse(invalid, `the batch ${id} is still being processed`, 'id', id);
  const txids = requests.map((request) => String(request.txid));
  const repeated = txids.find((txid, index) => txids.indexOf(txid) !== index);
  if (repeated !== undefined)
    refuse(invalid, `the txid ${repeated} is listed twice`, `cobsv.${txids.lastIndexOf(repeated)}.txid`, repeated);
  for (const { txid: _txid, ...body } of requests) {
    const txid = String(_txid);
    let entry = entriesOf(batch).find((candidate) => candidate.txid === txid);
    if (!entry) {
      entry = { txid, status: 'EM_PROCESSAMENTO' };
      entriesOf(batch).push(entry);
    }
    entry.status = 'EM_PROCESSAMENTO';
    delete entry.problema;
    batch.pending[txid] = { body, mode: mode(txid) };
    state.batchOfTxid[txid] = id;
  }
  batch.processAtMs = env.clock.nowMs() + batchProcessedAfterSeconds * 1000;
  schedulePix(env, 'settleBatches', batch.processAtMs);
}

/** A new batch `id` of the charges of `body` (PUT /lotecobv/{id}), EM_PROCESSAMENTO (also for the seed). */
export function createBatch(
  state: PixState,
  env: SandboxEnvironment,
  id: string,
  body: Json,
  origin: { readonly baseUrl: string },
): StoredBatch {
  const requests = body.cobsv as Json[];
  requests.forEach((entry, index) => {
    const txid = String(entry.txid);
    if (txidInUse(state, txid))
      refuse(invalid, `the txid ${txid} is already a charge: a batch creates new charges only`, `cobsv.${index}.txid`, txid);
    if (state.batchOfTxid[txid] !== undefined)
      refuse(invalid, `the txid ${txid} belongs to the batch ${state.batchOfTxid[txid]}`, `cobsv.${index}.txid`, txid);
  });
  const numeric = Number(id);
  const view: Json = {
    ...(Number.isSafeInteger(numeric) ? { id: numeric } : {}),
    descricao: body.descricao,
    criacao: instant(env),
    cobsv: [],
  };
  const batch: StoredBatch = { view, pending: {}, processAtMs: 0, baseUrl: origin.baseUrl };
  accept(state, env, id, batch, requests, () => 'create');
  state.batches[id] = batch;
  return batch;
}

export const batchHandlers: Record<string, Handler<PixState>> = {
  'lotecobv.create': (request, state, env) => {
    settleBatches(state, env);
    const id = request.path.id!;
    const body = request.body as Json;
    const requests = body.cobsv as Json[];
    const existing = state.batches[id];
    if (existing) {
      const listed = new Set(requests.map((entry) => String(entry.txid)));
      const held = entriesOf(existing).map((entry) => entry.txid);
      if (listed.size !== held.length || held.some((txid) => !listed.has(txid)))
        refuse(invalid, `a change of the batch ${id} lists exactly its charges: ${held.join(', ')}`, 'cobsv', [...listed].join(', '));
      accept(state, env, id, existing, requests, (txid) => (state.charges[txid] ? 'replace' : 'create'));
      existing.view.descricao = body.descricao;
      return { status: 202 };
    }
    createBatch(state, env, id, body, request);
    return { status: 202 };
  },
  'lotecobv.revise': (request, state, env) => {
    const id = request.path.id!;
    const batch = stored(state, env, id);
    const body = request.body as Json;
    const requests = Array.isArray(body.cobsv) ? (body.cobsv as Json[]) : [];
    requests.forEach((entry, index) => {
      if (state.batchOfTxid[String(entry.txid)] !== id)
        refuse(invalid, `the txid ${String(entry.txid)} is not a charge of the batch ${id}`, `cobsv.${index}.txid`, entry.txid);
    });
    if (requests.length > 0) accept(state, env, id, batch, requests, () => 'revise');
    if (typeof body.descricao === 'string') batch.view.descricao = body.descricao;
    return { status: 202 };
  },
  'lotecobv.get': (request, state, env) => ({ status: 200, body: stored(state, env, request.path.id!).view }),
  'lotecobv.list': (request, state, env) => {
    settleBatches(state, env);
    const { query } = request;
    const matching = Object.values(state.batches).filter((batch) => within(batch.view.criacao, query));
    const { items, paginacao } = page(matching, query);
    return {
      status: 200,
      body: { parametros: { inicio: query.inicio, fim: query.fim, paginacao }, lotes: items.map((batch) => batch.view) },
    };
  },
};

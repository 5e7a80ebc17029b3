/**
 * The HTTP operations of immediate (cob) and due-date (cobv) charges: PUT, PATCH, GET /cob(v)/{txid}, GET
 * /cob(v), POST /cob. What a charge becomes is charges.ts's, shared with the batches (batches.ts); here, a
 * due-date charge whose batch entry is still being processed or was refused is refused first.
 */
import { type Handler, SandboxProblem } from '../contract.js';
import { checkBatchEntry } from './batches.js';
import { type ChargeKind, chargeErrorTypes, chargeView, createCharge, refuseCharge, reviseCharge, storedCharge } from './charges.js';
import { isRecord } from './recurrence-support.js';
import { type Json, page, type PixState, type StoredCharge, within } from './state.js';

const created = (state: PixState, charge: StoredCharge) => ({ status: 201, body: chargeView(state, charge) });

export function chargeHandlers(kind: ChargeKind): Record<string, Handler<PixState>> {
  const handlers: Record<string, Handler<PixState>> = {
    [`${kind}.create`]: (request, state, env) => {
      if (kind === 'cobv') checkBatchEntry(state, env, request.path.txid!);
      return created(state, createCharge(state, kind, request.path.txid!, request.body as Json, request, env));
    },
    [`${kind}.replace`]: (request, state, env) => {
      if (kind === 'cobv') checkBatchEntry(state, env, request.path.txid!);
      const existing = state.charges[request.path.txid!];
      if (!existing) return created(state, createCharge(state, kind, request.path.txid!, request.body as Json, request, env));
      if (existing.kind !== kind)
        refuseCharge(kind, `the txid ${request.path.txid} is in use by a ${existing.kind} charge`, 'txid', request.path.txid);
      reviseCharge(state, existing, request.body as Json, request, env, true);
      return { status: 200, body: chargeView(state, existing) };
    },
    [`${kind}.revise`]: (request, state, env) => {
      if (kind === 'cobv') checkBatchEntry(state, env, request.path.txid!);
      const charge = storedCharge(state, kind, request.path.txid!);
      reviseCharge(state, charge, request.body as Json, request, env, false);
      return { status: 200, body: chargeView(state, charge) };
    },
    [`${kind}.get`]: (request, state) => {
      const charge = storedCharge(state, kind, request.path.txid!);
      const wanted = request.query.revisao;
      if (typeof wanted === 'number') {
        const revision = charge.revisions.find((entry) => entry.revisao === wanted);
        if (!revision)
          throw new SandboxProblem(400, chargeErrorTypes[kind].query, `the charge has no revision ${wanted}`, [
            { pointer: '/revisao', message: 'no such revision', value: wanted },
          ]);
        return { status: 200, body: chargeView(state, charge, revision) };
      }
      return { status: 200, body: chargeView(state, charge) };
    },
    [`${kind}.list`]: (request, state) => {
      const { query } = request;
      const matching = Object.values(state.charges).filter((charge) => {
        const { current } = charge;
        const devedor = isRecord(current.devedor) ? current.devedor : {};
        return (
          charge.kind === kind &&
          within((current.calendario as Json).criacao, query) &&
          (query.status === undefined || current.status === query.status) &&
          (query.cpf === undefined || devedor.cpf === query.cpf) &&
          (query.cnpj === undefined || devedor.cnpj === query.cnpj) &&
          (query.locationPresente === undefined || Boolean(current.loc) === query.locationPresente) &&
          (query.loteCobVId === undefined || state.batchOfTxid[current.txid as string] === String(query.loteCobVId))
        );
      });
      const { items, paginacao } = page(matching, query);
      const parametros = { inicio: query.inicio, fim: query.fim, paginacao };
      return { status: 200, body: { parametros, cobs: items.map((charge) => chargeView(state, charge)) } };
    },
  };
  if (kind === 'cob') {
    handlers['cob.createWithoutTxid'] = (request, state, env) => {
      let txid = env.random.text(32);
      while (state.charges[txid]) txid = env.random.text(32);
      return created(state, createCharge(state, 'cob', txid, request.body as Json, request, env));
    };
  }
  return handlers;
}

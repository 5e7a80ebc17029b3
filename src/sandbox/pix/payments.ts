/**
 * Pix received and their refunds, and the notifications of the standard: a charge paid through the control
 * plane (`POST /_sandbox/pix/pay`) becomes CONCLUIDA, its Pix is listed by GET /pix, and the webhook of its
 * key gets `{ "pix": [ … ] }` at `<webhookUrl>/pix`; a refund starts EM_PROCESSAMENTO and ends DEVOLVIDO a
 * few sandbox seconds later (a scheduled task, kept by the snapshot), notified again.
 *
 * The receiving user is an account of the platform: each Pix received and each refund is announced
 * (platform-events.ts), and the accounts sandbox credits or debits the account whose document is the
 * receiver's, with its RECEIVE and REFUND events.
 */
import { type ControlVerb, type Handler, type SandboxEnvironment, SandboxProblem, type TaskRunner } from '../contract.js';
import type { PixPayer, PixReceiver } from '../platform-events.js';
import { chargeView } from './charges.js';
import { schedulePix } from './schedule.js';
import { amountOf, cents, instant, type Json, page, payerIspb, type PixState, within } from './state.js';
import { withoutTrailingSlashes } from '../../runtime/text.js';

/** Sandbox seconds between a refund's request and its settlement. */
export const refundSettlesAfterSeconds = 5;
const refundWindowDays = 90;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `E` (or `D` for a refund), the ISPB, the UTC minute and 11 letters or digits. */
export function endToEndId(env: SandboxEnvironment, prefix: 'E' | 'D', ispb: string): string {
  const stamp = env.clock.now().toISOString().replace(/[-T:]/g, '').slice(0, 12);
  return `${prefix}${ispb}${stamp}${env.random.text(11)}`;
}

/** Sends the Pix to the webhook of its key, as the standard's notification. */
export function notifyPix(state: PixState, env: SandboxEnvironment, pix: Json): void {
  const webhook = typeof pix.chave === 'string' ? state.webhooks[pix.chave] : undefined;
  if (!webhook || typeof pix.txid !== 'string') return;
  env.webhooks.send({
    subscription: `pix:${String(pix.chave)}`,
    url: `${withoutTrailingSlashes(String(webhook.webhookUrl))}/pix`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: { pix: [pix] },
    label: 'pix',
  });
}

/** The receiving user as the other modules know it: its institution, CNPJ and name. */
const receiverOf = (state: PixState): PixReceiver => ({
  ispb: state.receiver.ispb,
  document: state.receiver.cnpj,
  name: state.receiver.name,
});

/** Tells the platform a Pix was received: the receiver's account is credited. */
export function announceReceived(state: PixState, env: SandboxEnvironment, pix: Json, devedor?: unknown): void {
  const payer: Json = isRecord(devedor) ? devedor : {};
  const document = typeof payer.cpf === 'string' ? payer.cpf : typeof payer.cnpj === 'string' ? payer.cnpj : null;
  const from: PixPayer = { ispb: payerIspb, document, name: typeof payer.nome === 'string' ? payer.nome : null };
  env.announce({
    kind: 'pix.received',
    endToEndId: String(pix.endToEndId),
    txid: typeof pix.txid === 'string' ? pix.txid : null,
    key: typeof pix.chave === 'string' ? pix.chave : null,
    cents: cents(pix.valor),
    at: String(pix.horario),
    receiver: receiverOf(state),
    payer: from,
    message: typeof pix.infoPagador === 'string' ? pix.infoPagador : null,
  });
}

function announceRefund(state: PixState, env: SandboxEnvironment, pix: Json, refund: Json): void {
  env.announce({
    kind: 'pix.refund',
    status: refund.status === 'DEVOLVIDO' ? 'DEVOLVIDO' : 'EM_PROCESSAMENTO',
    endToEndId: String(pix.endToEndId),
    returnId: String(refund.rtrId),
    cents: cents(refund.valor),
    receiver: receiverOf(state),
    description: typeof refund.descricao === 'string' ? refund.descricao : null,
    at: instant(env),
  });
}

/** Task `settleRefund { e2eid, id }`: the refund asked earlier is DEVOLVIDO, notified and announced. */
export const settleRefund: TaskRunner<PixState> = (args, state, env) => {
  const pix = state.received[String(args.e2eid)];
  const refund = ((pix?.devolucoes ?? []) as Json[]).find((entry) => entry.id === args.id);
  if (!pix || refund?.status !== 'EM_PROCESSAMENTO') return;
  refund.status = 'DEVOLVIDO';
  refund.horario = { ...(refund.horario as Json), liquidacao: instant(env) };
  notifyPix(state, env, pix);
  announceRefund(state, env, pix, refund);
};

/** Control verb `pay`: a payer pays the charge `txid` (its whole amount unless `valor` says otherwise). */
export const pay: ControlVerb<PixState> = (body, state, env) => {
  const { txid } = body;
  if (typeof txid !== 'string') throw new Error('txid must name a charge of the sandbox');
  const charge = state.charges[txid];
  if (!charge) throw new SandboxProblem(404, 'CobNaoEncontrado', `no charge has the txid ${txid}`);
  if (charge.current.status !== 'ATIVA')
    throw new SandboxProblem(
      409,
      'CobOperacaoInvalida',
      `the charge ${txid} is ${String(charge.current.status)}: only an ATIVA charge takes a payment`,
    );
  const original = (charge.current.valor as Json | undefined)?.original;
  const valor = body.valor ?? original;
  if (typeof valor !== 'string' || Number.isNaN(cents(valor)) || cents(valor) <= 0)
    throw new Error('valor must be an amount such as "10.50"');
  if (body.infoPagador !== undefined && typeof body.infoPagador !== 'string') throw new Error('infoPagador must be text');
  const pix: Json = {
    endToEndId: endToEndId(env, 'E', payerIspb),
    txid,
    valor,
    chave: charge.current.chave,
    horario: instant(env),
    ...(typeof body.infoPagador === 'string' ? { infoPagador: body.infoPagador } : {}),
    devolucoes: [],
  };
  state.received[pix.endToEndId as string] = pix;
  charge.paidBy.push(pix.endToEndId as string);
  charge.current = { ...charge.current, status: 'CONCLUIDA' };
  charge.revisions[charge.revisions.length - 1] = charge.current;
  notifyPix(state, env, pix);
  announceReceived(state, env, pix, charge.current.devedor);
  return { pix, cob: chargeView(state, charge) };
};

/** The Pix received with `e2eid`; unknown, the 404 of the operation asking (PixNaoEncontrado for GET /pix, NaoEncontrado for a refund). */
function received(state: PixState, e2eid: string, missingType = 'PixNaoEncontrado'): Json {
  const pix = state.received[e2eid];
  if (!pix)
    throw new SandboxProblem(404, missingType, `no Pix received has the endToEndId ${e2eid}`, [
      { pointer: '/e2eid', message: 'unknown endToEndId', value: e2eid },
    ]);
  return pix;
}

const refusal = (detail: string, property: string, value: unknown): SandboxProblem =>
  new SandboxProblem(400, 'PixDevolucaoInvalida', detail, [{ pointer: `/${property}`, message: detail, value }]);

export const paymentHandlers: Record<string, Handler<PixState>> = {
  'pix.get': (request, state) => ({ status: 200, body: received(state, request.path.e2eid!) }),
  'pix.list': (request, state) => {
    const { query } = request;
    const matching = Object.values(state.received).filter((pix) => {
      const charge = typeof pix.txid === 'string' ? state.charges[pix.txid] : undefined;
      const devedor = charge && isRecord(charge.current.devedor) ? charge.current.devedor : {};
      const refunds = Array.isArray(pix.devolucoes) ? pix.devolucoes : [];
      return (
        within(pix.horario, query) &&
        (query.txid === undefined || pix.txid === query.txid) &&
        (query.txIdPresente === undefined || (typeof pix.txid === 'string') === query.txIdPresente) &&
        (query.devolucaoPresente === undefined || refunds.length > 0 === query.devolucaoPresente) &&
        (query.cpf === undefined || devedor.cpf === query.cpf) &&
        (query.cnpj === undefined || devedor.cnpj === query.cnpj)
      );
    });
    const { items, paginacao } = page(matching, query);
    return { status: 200, body: { parametros: { inicio: query.inicio, fim: query.fim, paginacao }, pix: items } };
  },
  'pixRefund.request': (request, state, env) => {
    const pix = received(state, request.path.e2eid!, 'NaoEncontrado');
    const id = request.path.id!;
    const body = request.body as Json;
    const refunds = (pix.devolucoes ?? []) as Json[];
    if (refunds.some((refund) => refund.id === id)) throw refusal(`the refund id ${id} is already used for this Pix`, 'id', id);
    const settledMs = Date.parse(String(pix.horario));
    if (env.clock.nowMs() - settledMs > refundWindowDays * 86_400_000)
      throw refusal(`the Pix was settled more than ${refundWindowDays} days ago`, 'e2eid', pix.endToEndId);
    const asked = cents(body.valor);
    const done = refunds.filter((refund) => refund.status !== 'NAO_REALIZADO').reduce((sum, refund) => sum + cents(refund.valor), 0);
    if (asked + done > cents(pix.valor))
      throw refusal(`refunds together (${amountOf(asked + done)}) would exceed the ${String(pix.valor)} received`, 'valor', body.valor);
    const refund: Json = {
      id,
      rtrId: endToEndId(env, 'D', state.receiver.ispb),
      valor: body.valor,
      natureza: body.natureza ?? 'ORIGINAL',
      ...(typeof body.descricao === 'string' ? { descricao: body.descricao } : {}),
      horario: { solicitacao: instant(env) },
      status: 'EM_PROCESSAMENTO',
    };
    refunds.push(refund);
    pix.devolucoes = refunds;
    schedulePix(env, 'settleRefund', env.clock.nowMs() + refundSettlesAfterSeconds * 1000, { e2eid: pix.endToEndId, id });
    announceRefund(state, env, pix, refund);
    return { status: 201, body: refund };
  },
  'pixRefund.get': (request, state) => {
    const pix = received(state, request.path.e2eid!, 'NaoEncontrado');
    const refund = ((pix.devolucoes ?? []) as Json[]).find((entry) => entry.id === request.path.id);
    if (!refund)
      throw new SandboxProblem(404, 'PixDevolucaoNaoEncontrada', `no refund ${request.path.id} of this Pix`, [
        { pointer: '/id', message: 'unknown refund', value: request.path.id },
      ]);
    return { status: 200, body: refund };
  },
};

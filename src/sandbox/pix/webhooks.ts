/**
 * Webhooks of interface B (PUT, GET, DELETE /webhook/{chave}; GET /webhook): one address per key of the
 * receiving user; Pix received with a txid on that key are notified at `<webhookUrl>/pix`.
 */
import { type Handler, SandboxProblem } from '../contract.js';
import { instant, type Json, page, type PixState, within } from './state.js';

const missing = (chave: string): never => {
  throw new SandboxProblem(404, 'WebhookNaoEncontrado', `no webhook is configured for the key ${chave}`, [
    { pointer: '/chave', message: 'no webhook for this key', value: chave },
  ]);
};

export const webhookHandlers: Record<string, Handler<PixState>> = {
  'webhook.configure': (request, state, env) => {
    const chave = request.path.chave!;
    if (!state.receiver.keys.includes(chave))
      throw new SandboxProblem(400, 'WebhookOperacaoInvalida', 'the key is not one of the receiving user', [
        { pointer: '/chave', message: 'not a key of the receiving user', value: chave },
      ]);
    const { webhookUrl } = request.body as Json;
    state.webhooks[chave] = { webhookUrl, chave, criacao: state.webhooks[chave]?.criacao ?? instant(env) };
    env.webhooks.enable(`pix:${chave}`);
    return { status: 200 };
  },
  'webhook.get': (request, state) => ({ status: 200, body: state.webhooks[request.path.chave!] ?? missing(request.path.chave!) }),
  'webhook.delete': (request, state) => {
    if (!state.webhooks[request.path.chave!]) missing(request.path.chave!);
    delete state.webhooks[request.path.chave!];
    return { status: 204 };
  },
  'webhook.list': (request, state) => {
    const { query } = request;
    const matching = Object.values(state.webhooks).filter((webhook) => within(webhook.criacao, query));
    const { items, paginacao } = page(matching, query);
    const parametros: Json = { paginacao };
    if (query.inicio !== undefined) parametros.inicio = query.inicio;
    if (query.fim !== undefined) parametros.fim = query.fim;
    return { status: 200, body: { parametros, webhooks: items } };
  },
};

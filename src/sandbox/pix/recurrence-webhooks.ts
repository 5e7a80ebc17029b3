/**
 * Webhooks of Pix Automático (PUT, GET, DELETE /webhookrec and /webhookcobr): one address each for the
 * receiving user. When a recurrence changes status the sandbox POSTs `{ "recs": [ … ] }` to
 * `<webhookUrl>/rec`; when a recurring charge changes status or one of its attempts moves, `{ "cobsr": [ … ] }`
 * to `<webhookUrl>/cobr` — the bodies of the spec's `webhooks:` (NotificacaoRec, NotificacaoCobR). Creation
 * itself is not notified: the receiving user made it and has the answer.
 */
import { type Handler, type SandboxEnvironment, SandboxProblem } from '../contract.js';
import { defined } from './recurrence-support.js';
import { instant, type Json, type PixState } from './state.js';
import { withoutTrailingSlashes } from '../../runtime/text.js';

type Kind = 'rec' | 'cobr';

/** The subscription of each kind in the dispatcher: failures are counted per subscription (section 6.1). */
export const recurrenceSubscription = (kind: Kind): string => `pix-${kind}`;

const notFound = (kind: Kind): never => {
  throw new SandboxProblem(
    404,
    'NaoEncontrado',
    `no webhook is configured for the ${kind === 'rec' ? 'recurrences' : 'recurring charges'}`,
  );
};

function webhookHandlers(kind: Kind, group: string): Record<string, Handler<PixState>> {
  return {
    [`${group}.configure`]: (request, state, env) => {
      const { webhookUrl } = request.body as Json;
      state.recurrenceWebhooks[kind] = { webhookUrl, criacao: state.recurrenceWebhooks[kind]?.criacao ?? instant(env) };
      env.webhooks.enable(recurrenceSubscription(kind));
      return { status: 200 };
    },
    [`${group}.get`]: (_request, state) => ({ status: 200, body: state.recurrenceWebhooks[kind] ?? notFound(kind) }),
    [`${group}.delete`]: (_request, state) => {
      if (!state.recurrenceWebhooks[kind]) notFound(kind);
      delete state.recurrenceWebhooks[kind];
      return { status: 204 };
    },
  };
}

export const recurrenceWebhookHandlers: Record<string, Handler<PixState>> = {
  ...webhookHandlers('rec', 'webhookRec'),
  ...webhookHandlers('cobr', 'webhookCobR'),
};

function send(state: PixState, env: SandboxEnvironment, kind: Kind, body: Json): void {
  const webhook = state.recurrenceWebhooks[kind];
  if (!webhook) return;
  env.webhooks.send({
    subscription: recurrenceSubscription(kind),
    url: `${withoutTrailingSlashes(String(webhook.webhookUrl))}/${kind}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    label: kind,
  });
}

/** Tells the webhook of recurrences that `recurrence` changed status (RecNotificada). */
export function notifyRecurrence(state: PixState, env: SandboxEnvironment, recurrence: Json): void {
  const { idRec, status, atualizacao, encerramento, ativacao } = recurrence;
  send(state, env, 'rec', { recs: [defined({ idRec, status, atualizacao, encerramento, ativacao })] });
}

/** Tells the webhook of recurring charges that `charge` (as GET answers it) changed (CobRNotificada). */
export function notifyRecurringCharge(state: PixState, env: SandboxEnvironment, charge: Json): void {
  const { idRec, txid, status, atualizacao, tentativas, pix } = charge;
  send(state, env, 'cobr', { cobsr: [defined({ idRec, txid, status, atualizacao, tentativas, pix })] });
}

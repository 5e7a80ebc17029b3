/**
 * Webhook registrations of interface A (POST /webhooks/{type}, list, get, delete; section 4.5) and the
 * delivery of the events of section 6 to them: each event goes to the account's registration of its
 * type, enabled, with the registered method and headers, through the sandbox's dispatcher (which resends
 * on the schedule of 6.1 and disables a registration after more than 15 consecutive failures).
 */
import type { Handler, SandboxEnvironment } from '../contract.js';
import { accountOf, notFound } from './access.js';
import { type AccountsState, type Json, isRecord } from './state.js';

/** Webhook type of each event of section 6 (6.2 types are their own; 6.3 INVOICE; 6.4 CRYPTO). */
export function webhookTypeOf(eventType: string): string {
  if (eventType.startsWith('invoice.')) return 'INVOICE';
  if (eventType.startsWith('crypto.')) return 'CRYPTO';
  return eventType;
}

const subscriptionOf = (accountId: number, webhookId: unknown): string => `accounts:${accountId}:${String(webhookId)}`;

/**
 * Sends an event of the account to its registration of the event's webhook type, when one is enabled.
 * Without one nothing is sent, and the journey goes on (section 6.4: "continues unaffected").
 */
export function deliver(state: AccountsState, env: SandboxEnvironment, accountId: number, event: Json & { type: string }): void {
  const type = webhookTypeOf(event.type);
  const registration = state.webhooks.find((entry) => entry.accountId === accountId && entry.record.type === type)?.record;
  if (registration?.enabled !== true) return;
  env.webhooks.send({
    subscription: subscriptionOf(accountId, registration.id),
    url: String(registration.uri),
    method: String(registration.method ?? 'POST'),
    headers: isRecord(registration.headers) ? (registration.headers as Record<string, string>) : {},
    body: event,
    label: event.type,
  });
}

/** POST /webhooks/{type}: one registration per type and account; registering again replaces it (same id). */
const register =
  (type: string): Handler<AccountsState> =>
  (request, state, env) => {
    const account = accountOf(request, state, env);
    const body = request.body as Json;
    const existing = state.webhooks.find((entry) => entry.accountId === account.id && entry.record.type === type);
    const record: Json = {
      id: existing?.record.id ?? env.random.uuid(),
      type,
      enabled: body.enabled,
      uri: body.uri,
      email: typeof body.email === 'string' ? body.email : null,
      method: typeof body.method === 'string' ? body.method : 'POST',
      pauseOnFail: typeof body.pauseOnFail === 'boolean' ? body.pauseOnFail : true,
      headers: isRecord(body.headers) ? body.headers : null,
    };
    if (existing) existing.record = record;
    else state.webhooks.push({ accountId: account.id, record });
    // A registration made again re-enables one the dispatcher disabled after more than 15 failures.
    env.webhooks.enable(subscriptionOf(account.id, record.id));
    return { status: 200, body: record };
  };

function registrationOf(state: AccountsState, accountId: number, webhookId: string) {
  return (
    state.webhooks.find((entry) => entry.accountId === accountId && entry.record.id === webhookId) ??
    notFound(`no webhook registration ${webhookId} in this account`)
  );
}

/** The registration as answered: a disabled subscription (more than 15 failures) shows enabled false. */
function view(env: SandboxEnvironment, accountId: number, record: Json): Json {
  return env.webhooks.disabled(subscriptionOf(accountId, record.id)) ? { ...record, enabled: false } : record;
}

export const webhookHandlers: Record<string, Handler<AccountsState>> = {
  'webhooks.registerTransfer': register('TRANSFER'),
  'webhooks.registerReceive': register('RECEIVE'),
  'webhooks.registerRefund': register('REFUND'),
  'webhooks.registerCashout': register('CASHOUT'),
  'webhooks.registerInfraction': register('INFRACTION'),
  'webhooks.registerInvoice': register('INVOICE'),
  'webhooks.registerCrypto': register('CRYPTO'),
  'webhooks.list': (request, state, env) => {
    const account = accountOf(request, state, env);
    const data = state.webhooks.filter((entry) => entry.accountId === account.id).map((entry) => view(env, account.id, entry.record));
    return { status: 200, body: { meta: { total: data.length, limit: data.length, offset: 0 }, data } };
  },
  'webhooks.get': (request, state, env) => {
    const account = accountOf(request, state, env);
    return { status: 200, body: view(env, account.id, registrationOf(state, account.id, request.path.webhookId!).record) };
  },
  'webhooks.delete': (request, state, env) => {
    const account = accountOf(request, state, env);
    const registration = registrationOf(state, account.id, request.path.webhookId!);
    state.webhooks = state.webhooks.filter((entry) => entry !== registration);
    const { id, type } = registration.record;
    return {
      status: 200,
      body: {
        type: `${request.baseUrl}/webhooks/removed`,
        title: 'Webhook removed',
        detail: `The ${String(type)} webhook ${String(id)} was removed; no further ${String(type)} notifications will be sent.`,
        instance: `/webhooks/${String(id)}`,
      },
    };
  },
};

/**
 * The sandbox of interface B, the Pix receiving API: token, charges (cob, cobv), payload locations, Pix
 * received and refunds, webhooks and their notifications; batches of due-date charges; Pix Automático
 * (recurrences, their locations and confirmation requests, recurring charges, their webhooks). Control
 * verbs: `pay` (a payer pays a charge), `keys` (the receiving user's keys, and one more with `{ add }`),
 * `state` (everything held, for a test), `rec` / `solicrec` / `cobr` (the payer's side of Pix Automático:
 * confirm or refuse a recurrence or a request, settle or fail an attempt), `account` (the account recurring
 * charges are paid into). Each verb declares where its members land in the contract (verb-contract.ts).
 */
import { defineSandboxModule, type Handler, type SandboxAnswer, SandboxProblem } from '../contract.js';
import { batchHandlers } from './batches.js';
import { chargeHandlers } from './charge-handlers.js';
import { confirmationHandlers, confirmationVerb } from './confirmations.js';
import { locationHandlers } from './locations.js';
import { pay, paymentHandlers } from './payments.js';
import { pixProblems } from './problems.js';
import { pixWorld } from './world.js';
import { recLocationHandlers } from './rec-locations.js';
import { recurrenceHandlers, recurrenceVerb } from './recurrences.js';
import { recurrenceWebhookHandlers } from './recurrence-webhooks.js';
import { recurringChargeVerb } from './recurring-attempts.js';
import { recurringChargeHandlers } from './recurring-charges.js';
import { createPixState } from './seed.js';
import type { Json, PixState } from './state.js';
import { pixTasks } from './tasks.js';
import { webhookHandlers } from './webhooks.js';
import { declareVerb, type Produced, type VerbContract } from '../verb-contract.js';

/** Seconds a token of interface B lives (the standard's examples use one hour). */
export const pixTokenSeconds = 3600;

/**
 * The answer to a client that did not authenticate: 401 (section 5: a wrong client id or secret is 401, the
 * 403 of the token call is a source address not allowed). Section 7.2 names no error type for it, so the
 * problem is `about:blank`, as the spec's 401 of this operation declares; the Basic challenge is RFC 6749's.
 */
const unauthenticated = (detail: string): SandboxAnswer => ({
  status: 401,
  contentType: 'application/problem+json',
  headers: { 'www-authenticate': 'Basic realm="pix"' },
  body: { type: 'about:blank', title: 'Unauthorized', status: 401, detail },
});

/** POST /oauth/token: the client authenticates with HTTP Basic (section 5.6); the scopes asked for, or all of its own. */
const token: Handler<PixState> = (request, _state, env) => {
  const basic = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  const decoded = basic ? Buffer.from(basic[1]!, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  const clientId = colon > 0 ? decoded.slice(0, colon) : '';
  if (colon <= 0)
    return unauthenticated('no client id and secret: send them as HTTP Basic credentials (Authorization: Basic base64(id:secret))');
  if (!env.tokens.checkCredential(clientId, decoded.slice(colon + 1)))
    return unauthenticated('the client id or secret is not one the sandbox knows (GET /_sandbox names its credentials)');
  const held = env.tokens.scopesOf(clientId) ?? [];
  const { scope } = request.body as Json;
  const asked = typeof scope === 'string' && scope.trim() !== '' ? scope.trim().split(/\s+/) : held;
  const refused = asked.filter((name) => !held.includes(name));
  if (refused.length > 0) throw new SandboxProblem(403, 'AcessoNegado', `the credential does not hold the scope ${refused.join(', ')}`);
  const accessToken = env.tokens.issue({ clientId, scopes: asked }, pixTokenSeconds);
  return { status: 200, body: { access_token: accessToken, token_type: 'Bearer', expires_in: pixTokenSeconds, scope: asked.join(' ') } };
};

/** A verb that takes no member. */
const nothingTaken: VerbContract<PixState> = { document: 'pix' };

/** A charge paid is answered as GET /cob or GET /cobv answers it. */
const chargeComponent: Produced<PixState> = (cob, state) =>
  state.charges[String((cob as Json).txid)]?.kind === 'cobv' ? 'CobVCompleta' : 'CobCompleta';

export const pixSandbox = defineSandboxModule<PixState>({
  document: 'pix',
  prefix: '/pix',
  createState: createPixState,
  problems: pixProblems,
  world: pixWorld,
  handlers: {
    'auth.token': token,
    ...chargeHandlers('cob'),
    ...chargeHandlers('cobv'),
    ...locationHandlers,
    ...paymentHandlers,
    ...webhookHandlers,
    ...batchHandlers,
    ...recurrenceHandlers,
    ...recLocationHandlers,
    ...confirmationHandlers,
    ...recurringChargeHandlers,
    ...recurrenceWebhookHandlers,
  },
  tasks: pixTasks,
  controls: {
    pay: declareVerb(
      {
        document: 'pix',
        selects: { txid: 'the charge paid (its txid)' },
        lands: { valor: 'Pix/valor', infoPagador: 'Pix/infoPagador' },
        answers: { '/pix': 'Pix', '/cob': chargeComponent },
      },
      pay,
    ),
    keys: declareVerb({ document: 'pix', lands: { add: 'Chave' } }, (body, state) => {
      if (typeof body.add === 'string' && !state.receiver.keys.includes(body.add)) state.receiver.keys.push(body.add);
      return { keys: state.receiver.keys };
    }),
    state: declareVerb(nothingTaken, (_body, state) => state),
    rec: declareVerb(
      {
        document: 'pix',
        selects: { idRec: 'the recurrence moved', status: 'APROVADA, REJEITADA, EXPIRADA or CANCELADA' },
        lands: {
          jornada: 'RecAtivacao/tipoJornada',
          // A code is kept only by a rejection or a cancellation, each in its own member.
          codigo: (body) =>
            body.status === 'CANCELADA'
              ? 'RecEncerramento/cancelamento/codigo'
              : body.status === 'REJEITADA'
                ? 'RecEncerramento/rejeicao/codigo'
                : undefined,
        },
        answers: { '': 'RecCompleta' },
      },
      recurrenceVerb,
    ),
    solicrec: declareVerb(
      {
        document: 'pix',
        selects: { idSolicRec: 'the confirmation request moved', status: 'ENVIADA, RECEBIDA, ACEITA or REJEITADA' },
        lands: { codigo: 'RecEncerramento/rejeicao/codigo' },
        answers: { '': 'SolicRecCompleta' },
      },
      confirmationVerb,
    ),
    cobr: declareVerb(
      {
        document: 'pix',
        selects: { txid: 'the recurring charge whose pending attempt moves', status: 'AGENDADA, PAGA, REJEITADA or EXPIRADA' },
        lands: { codigo: ['CobRTentativas/rejeicao/codigo', 'CobREncerramento/rejeicao/codigo'] },
        answers: { '': 'CobRCompleta' },
      },
      recurringChargeVerb,
    ),
    account: declareVerb(nothingTaken, (_body, state) => ({ recebedor: state.recurringAccount })),
  },
});

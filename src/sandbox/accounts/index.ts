/**
 * The sandbox of interface A, the accounts API: token, x-account-id rules, Pix keys with their challenge,
 * balance, transactions and statements derived from a ledger, TED, internal transfers and billet payments
 * with idempotency, invoices, webhooks really delivered, CaaS wallets, quotes and orders, crypto risk
 * ingests and analyses, BaaS child accounts, onboardings and credentials.
 *
 * Control verbs (POST /_sandbox/accounts/<verb>): `otp { key }` the code of a key challenge; `receive
 * { amount, accountId? }` a Pix received; `billet { amount, … }` a payable billet's codes; `payment
 * { idempotencyKey, approve }` decides an APPROVAL_REQUIRED payment; `payInvoice { invoiceId }`;
 * `verifyWallet { walletId }`; `approveOrder`, `settleOrder`, `rejectOrder { orderId }`;
 * `onboardingStatus { id, status }`; `infraction { transactionId, accountId?, reportDetails? }` a fraud case
 * against a Pix received (INFRACTION event); `state` (everything held, for a test). Each verb declares where its
 * members land in the contract (verb-contract.ts).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { type Handler, defineSandboxModule } from '../contract.js';
import { accountsProblems, isAccountsCredential, refuse } from './access.js';
import { baasHandlers, onboardingHandlers, onboardingStatus } from './baas.js';
import { billetHandlers, issueBillet } from './billets.js';
import { approveOrder, orderHandlers, rejectOrder, settleOrder } from './caas-orders.js';
import { verifyWallet, walletHandlers } from './caas-wallets.js';
import { cryptoRiskHandlers } from './crypto-risk.js';
import { invoiceHandlers, payInvoice } from './invoices.js';
import { keyHandlers, otp } from './keys.js';
import { ledgerHandlers, receive } from './ledger.js';
import { decidePayment } from './outgoing.js';
import { accountsListeners, openInfraction } from './platform.js';
import { createAccountsState } from './seed.js';
import type { AccountsState, Json } from './state.js';
import { accountsTasks } from './tasks.js';
import { transferHandlers } from './transfers.js';
import { webhookHandlers } from './webhooks.js';
import { accountsWorld } from './world.js';
import { declareVerb } from '../verb-contract.js';

/** Seconds a token of interface A lives (the `expiresAt` of the answer, read as a lifetime by the client). */
export const accountsTokenSeconds = 3600;

const digest = (secret: string): Buffer => createHash('sha256').update(secret, 'utf8').digest();
/** Secrets compared in constant time (digests of equal length, whatever the secrets' lengths). */
const sameSecret = (held: string, given: string): boolean => timingSafeEqual(digest(held), digest(given));

/**
 * The token request of section 5.5 (camelCase). The seeded credentials and those issued by POST
 * /credentials are accepted; a wrong id or secret is 401, a scope the credential lacks 403.
 */
const token: Handler<AccountsState> = (request, state, env) => {
  const { clientId, clientSecret, scope } = request.body as Json;
  const id = String(clientId);
  const issued = state.credentials.find((credential) => credential.clientId === id);
  const known = issued ? sameSecret(issued.clientSecret, String(clientSecret)) : env.tokens.checkCredential(id, String(clientSecret));
  const held = issued ? issued.scopes : (env.tokens.scopesOf(id) ?? []);
  if (!known || !isAccountsCredential(id, state, env))
    refuse(401, 'invalid-credentials', 'the client id or secret is not one the sandbox knows (GET /_sandbox names its credentials)');
  const asked = typeof scope === 'string' && scope.trim() !== '' ? scope.trim().split(/\s+/) : [...held];
  const refused = asked.filter((name) => !held.includes(name));
  if (refused.length > 0) refuse(403, 'forbidden', `the credential does not hold the scope ${refused.join(', ')}`);
  const accessToken = env.tokens.issue({ clientId: id, scopes: asked }, accountsTokenSeconds);
  return {
    status: 200,
    body: {
      tokenType: 'Bearer',
      expiresAt: accountsTokenSeconds,
      refreshExpiresIn: 0,
      notBeforePolicy: 0,
      accessToken,
      scope: asked.join(' '),
    },
  };
};

export const accountsSandbox = defineSandboxModule<AccountsState>({
  document: 'accounts',
  prefix: '/accounts/api/v2',
  createState: createAccountsState,
  problems: accountsProblems(),
  world: accountsWorld,
  handlers: {
    'auth.token': token,
    ...ledgerHandlers,
    ...keyHandlers,
    ...transferHandlers,
    ...billetHandlers,
    ...invoiceHandlers,
    ...webhookHandlers,
    ...walletHandlers,
    ...orderHandlers,
    ...cryptoRiskHandlers,
    ...baasHandlers,
    ...onboardingHandlers,
  },
  tasks: accountsTasks,
  listens: accountsListeners,
  controls: {
    otp: declareVerb({ document: 'accounts', selects: { key: 'the e-mail or phone of an open key challenge' } }, otp),
    receive: declareVerb(
      {
        document: 'accounts',
        selects: { accountId: "the account credited (default: the sandbox's own)" },
        lands: {
          amount: ['TransactionAmount/available', 'Money/amount'],
          payerName: 'PartyAccount/name',
          remittanceInformation: ['TransactionDetail/remittanceInformation', 'TransferEventData/remittanceInformation'],
        },
      },
      receive,
    ),
    billet: declareVerb(
      {
        document: 'accounts',
        selects: { dueInDays: 'days from today to the due date (default 10)' },
        lands: { amount: 'BilletInfo/originalValue' },
        answers: { '/barcode': 'BilletInfoRequest/billetCode', '/digitableCode': 'BilletPayByDigitableLineRequest/digitableCode' },
      },
      issueBillet,
    ),
    payment: declareVerb(
      {
        document: 'accounts',
        selects: { idempotencyKey: 'the x-idempotency-key of the APPROVAL_REQUIRED payment', approve: 'true to approve, false to refuse' },
      },
      decidePayment,
    ),
    payInvoice: declareVerb(
      { document: 'accounts', selects: { invoiceId: 'the invoice paid', via: 'PIX or BOLETO' }, answers: { '': 'Invoice' } },
      payInvoice,
    ),
    verifyWallet: declareVerb(
      { document: 'accounts', selects: { walletId: 'the wallet verified' }, answers: { '': 'CaasWallet' } },
      verifyWallet,
    ),
    approveOrder: declareVerb(
      { document: 'accounts', selects: { orderId: 'the order approved' }, answers: { '': 'CaasOrder' } },
      approveOrder,
    ),
    settleOrder: declareVerb(
      { document: 'accounts', selects: { orderId: 'the order settled' }, answers: { '/order': 'CaasOrder' } },
      settleOrder,
    ),
    rejectOrder: declareVerb(
      {
        document: 'accounts',
        selects: { orderId: 'the order rejected' },
        lands: { reason: 'CaasOrder/rejectionReason' },
        answers: { '': 'CaasOrder' },
      },
      rejectOrder,
    ),
    onboardingStatus: declareVerb(
      {
        document: 'accounts',
        selects: { id: 'the onboarding moved' },
        lands: { status: 'Onboarding/status' },
        answers: { '': 'Onboarding' },
      },
      onboardingStatus,
    ),
    infraction: declareVerb(
      {
        document: 'accounts',
        selects: { transactionId: 'the Pix received the case is about', accountId: "the account (default: the sandbox's own)" },
        lands: { reportDetails: 'InfractionEvent/data/reportDetails' },
        answers: { '': 'InfractionEvent' },
      },
      openInfraction,
    ),
    state: declareVerb({ document: 'accounts' }, (_body, state) => state),
  },
});

/**
 * The sandbox of interface D, the core banking administrative API (section 4.10): token, accounts and
 * balances, BaaS partners, fee rules, invoices, bankarization products and applications, and the
 * provisional credential operations, answered from state with the RFC 7807 problems of section 7.1.
 *
 * Control verbs (`POST /_sandbox/core-banking/<verb>`):
 * - `payInvoice { invoiceId }`: a payer pays a registered invoice; it is COMPLETED and the balance credited;
 * - `register { invoiceId }`: the registry confirms a REGISTERING boleto now (it does on its own after
 *   `registrySeconds` of sandbox time);
 * - `customers { accountId? }`: the payers invoices can be made out to (`customerId` of the creation);
 * - `state`: everything held, each invoice with its stage of section 3.
 * Each verb declares where its members land in the contract (verb-contract.ts).
 */
import { defineSandboxModule, type Handler, SandboxProblem } from '../contract.js';
import { problemDetails } from '../problem-details.js';
import { accountHandlers } from './accounts.js';
import { bankarizationHandlers } from './bankarization.js';
import { credentialHandlers } from './credentials.js';
import { feeRuleHandlers } from './fee-rules.js';
import { confirmRegistrations, invoiceHandlers, payInvoice, register } from './invoices.js';
import { createCoreBankingState } from './seed.js';
import type { CoreBankingState, Json } from './state.js';
import { coreBankingWorld } from './world.js';
import { declareVerb } from '../verb-contract.js';

/** Seconds a token of interface D lives (section 5.4: 3600 in the sample). */
export const coreBankingTokenSeconds = 3600;

/** POST /auth/token: client credentials in the JSON body (section 5.4); a wrong id or secret is 401 (section 5). */
const token: Handler<CoreBankingState> = (request, _state, env) => {
  const { client_id: clientId, client_secret: clientSecret } = request.body as Json;
  if (typeof clientId !== 'string' || typeof clientSecret !== 'string' || !env.tokens.checkCredential(clientId, clientSecret))
    throw new SandboxProblem(
      401,
      'invalid-credentials',
      'invalid credentials: wrong client id or secret (GET /_sandbox names the sandbox credentials)',
    );
  const accessToken = env.tokens.issue({ clientId, scopes: env.tokens.scopesOf(clientId) ?? [] }, coreBankingTokenSeconds);
  return { status: 200, body: { access_token: accessToken, token_type: 'Bearer', expires_in: coreBankingTokenSeconds } };
};

export const coreBankingSandbox = defineSandboxModule<CoreBankingState>({
  document: 'core-banking',
  prefix: '/core-banking',
  createState: createCoreBankingState,
  problems: problemDetails(),
  world: coreBankingWorld,
  handlers: {
    'auth.token': token,
    ...accountHandlers,
    ...feeRuleHandlers,
    ...invoiceHandlers,
    ...bankarizationHandlers,
    ...credentialHandlers,
  },
  controls: {
    payInvoice: declareVerb(
      { document: 'core-banking', selects: { invoiceId: 'the registered invoice paid' }, answers: { '/invoice': 'Invoice' } },
      payInvoice,
    ),
    register: declareVerb(
      { document: 'core-banking', selects: { invoiceId: 'the REGISTERING invoice confirmed' }, answers: { '/invoice': 'Invoice' } },
      register,
    ),
    customers: declareVerb({ document: 'core-banking', selects: { accountId: 'the account whose payers are listed' } }, (body, state) => {
      const { accountId } = body;
      if (accountId !== undefined && typeof accountId !== 'number' && typeof accountId !== 'string')
        throw new Error('accountId must name an account of the sandbox');
      const customers = Object.values(state.customers).filter(
        (customer) => accountId === undefined || String(customer.accountId) === String(accountId),
      );
      return { customers };
    }),
    state: declareVerb({ document: 'core-banking' }, (_body, state, env) => {
      confirmRegistrations(state, env);
      return state;
    }),
  },
});

export type { CoreBankingState } from './state.js';

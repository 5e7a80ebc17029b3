/**
 * Credentials provisioned through interface D (provisional routes, section 4.10; rules of section 4.3):
 *
 * - accounts API credentials are issued by BaaS credentials only (403 to an account credential), for an
 *   active child account of the BaaS (never its owner account), at most 10 per child account (400 beyond,
 *   since creation declares no 409 or 422); the secret is shown once;
 * - Pix manager credentials give the account's random Pix key, created by the first of them
 *   (`pixKeyCreated` true) and reused afterwards; an account caller issues them for its own account;
 * - update and delete by clientId answer `{ message }`, 404 for a credential the caller does not own.
 *
 * The sandbox's token endpoints know only the credentials it was started with: a credential issued here is
 * kept and listed by the control verb `state`, but cannot ask for tokens.
 */
import type { Handler, SandboxEnvironment, SandboxRequest } from '../contract.js';
import {
  type Caller,
  type CoreBankingState,
  callerOf,
  invalid,
  type Json,
  notFound,
  requireBaas,
  type StoredAccount,
  type StoredCredential,
} from './state.js';

type Kind = StoredCredential['kind'];

/** Section 4.3: active accounts API credentials per child account. */
export const maxCredentialsPerAccount = 10;

/** The account a credential is for: an active child account of the caller's BaaS, or the account caller's own. */
function targetOf(state: CoreBankingState, caller: Caller, accountId: unknown): StoredAccount {
  if (caller.kind === 'account') {
    if (accountId !== undefined && String(accountId) !== caller.accountId)
      throw invalid(`/body/accountId: an account credential issues credentials for its own account ${caller.accountId} only`);
    return state.accounts[caller.accountId]!;
  }
  if (accountId === undefined) throw invalid('/body/accountId: name the child account the credential is for');
  const account = state.accounts[String(accountId)];
  if (!account || account.partnerId !== caller.partnerId)
    throw invalid(`/body/accountId: ${String(accountId)} is not a child account of this BaaS`);
  if (account.main) throw invalid(`/body/accountId: ${account.id} is the owner account of the BaaS, which takes no credentials`);
  if (account.status !== 'ACTIVE') throw invalid(`/body/accountId: the account ${account.id} is ${account.status}`);
  return account;
}

function owned(state: CoreBankingState, caller: Caller, kind: Kind, clientId: string): StoredCredential {
  const credential = state.credentials[clientId];
  const mine =
    credential !== undefined &&
    credential.kind === kind &&
    (caller.kind === 'baas' ? credential.partnerId === caller.partnerId : String(credential.accountId) === caller.accountId);
  if (!mine) throw notFound(`no ${kind === 'api' ? 'accounts API' : 'Pix manager'} credential ${clientId} of this caller`);
  return credential;
}

function issue(state: CoreBankingState, kind: Kind, account: StoredAccount, body: Json, env: SandboxEnvironment): StoredCredential {
  if (kind === 'api') {
    const active = Object.values(state.credentials).filter((entry) => entry.kind === 'api' && String(entry.accountId) === account.id);
    if (active.length >= maxCredentialsPerAccount)
      throw invalid(`/body/accountId: the account ${account.id} already has ${maxCredentialsPerAccount} active credentials`);
  }
  let clientId = env.random.uuid();
  while (state.credentials[clientId]) clientId = env.random.uuid();
  const credential: StoredCredential = {
    kind,
    clientId,
    id: state.nextCredentialId,
    partnerId: account.partnerId,
    accountId: Number(account.id),
    description: typeof body.description === 'string' ? body.description : null,
    allowedIps: Array.isArray(body.allowedIps) ? (body.allowedIps as string[]) : [],
    scopes: Array.isArray(body.scopes) ? (body.scopes as string[]) : [],
  };
  state.nextCredentialId += 1;
  state.credentials[clientId] = credential;
  return credential;
}

function update(state: CoreBankingState, caller: Caller, credential: StoredCredential, body: Json): void {
  if (body.accountId !== undefined && String(body.accountId) !== String(credential.accountId))
    credential.accountId = Number(targetOf(state, caller, body.accountId).id);
  if (typeof body.description === 'string') credential.description = body.description;
  if (Array.isArray(body.allowedIps)) credential.allowedIps = body.allowedIps as string[];
  if (Array.isArray(body.scopes)) credential.scopes = body.scopes as string[];
}

const callerFor = (state: CoreBankingState, request: SandboxRequest, kind: Kind): Caller => {
  const caller = callerOf(state, request.principal);
  return kind === 'api' ? requireBaas(caller, 'issuing accounts API credentials') : caller;
};

function handlers(kind: Kind, group: string): Record<string, Handler<CoreBankingState>> {
  return {
    [`${group}.create`]: (request, state, env) => {
      const caller = callerFor(state, request, kind);
      const body = request.body as Json;
      const account = targetOf(state, caller, body.accountId);
      const credential = issue(state, kind, account, body, env);
      const clientSecret = env.random.text(32);
      if (kind === 'api') {
        const { clientId, id, description, allowedIps } = credential;
        return { status: 201, body: { clientId, clientSecret, id, ...(description === null ? {} : { description }), allowedIps } };
      }
      const pixKeyCreated = account.pixKey === null;
      if (account.pixKey === null) account.pixKey = env.random.uuid();
      return { status: 201, body: { clientId: credential.clientId, clientSecret, pixKey: account.pixKey, pixKeyCreated } };
    },
    [`${group}.update`]: (request, state) => {
      const caller = callerFor(state, request, kind);
      update(state, caller, owned(state, caller, kind, request.path.clientId!), request.body as Json);
      return { status: 200, body: { message: 'Credencial atualizada com sucesso.' } };
    },
    [`${group}.delete`]: (request, state) => {
      const caller = callerFor(state, request, kind);
      delete state.credentials[owned(state, caller, kind, request.path.clientId!).clientId];
      return { status: 200, body: { message: 'Credencial removida com sucesso.' } };
    },
  };
}

export const credentialHandlers: Record<string, Handler<CoreBankingState>> = {
  ...handlers('api', 'apiCredentials'),
  ...handlers('pix-manager', 'pixManagerCredentials'),
};

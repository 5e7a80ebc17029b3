/**
 * BaaS-scope operations (section 4.3, convention 2: no x-account-id, the link comes from the BaaS
 * credential): the partner's child accounts (its owner account is never listed), onboardings with their
 * document images (accepted only in statuses 0 and 1), and accounts-API credentials issued for child
 * accounts — usable at once at the token endpoint, each operating its child account with its scopes.
 */
import { checkImageFile, imageTypeOf } from '../../accounts/onboarding-image.js';
import { checkImageUpload } from '../../accounts/read-checks.js';
import type { ControlVerb, Handler, SandboxEnvironment, SandboxRequest } from '../contract.js';
import { callerOf, invalid, notFound, refuse } from './access.js';
import { type Account, type AccountsState, instant, type Json, next } from './state.js';

/** Section 4.3: at most 10 active accounts-API credentials per child account. */
export const maxCredentialsPerAccount = 10;

/** BaaS-scope operations are the partner's: an account credential lacks their scopes, and is refused here too. */
function requireBaas(request: SandboxRequest, state: AccountsState, env: SandboxEnvironment): void {
  if (callerOf(request, state, env).kind !== 'baas')
    refuse(403, 'forbidden', `${request.operationId} is a BaaS-scope operation: BaaS credentials only`);
}

function childView(account: Account): Json {
  return {
    id: account.id,
    accountNumber: Number(account.number),
    branchNumber: Number(account.branch),
    type: 'CACC',
    subType: account.personType === 'NATURAL_PERSON' ? 'INDIVIDUAL' : 'BUSINESS',
    status: account.status,
    nickname: null,
    person: {
      id: account.id * 100 + 1,
      name: account.name,
      tradeName: account.tradeName,
      document: account.document,
      type: account.personType,
      status: account.status,
    },
    createdAt: account.createdAt,
    updatedAt: account.updatedAt,
  };
}

/** `{ meta, data }` of a page-numbered list whose meta has total, limit and offset. */
function paged<T>(items: readonly T[], query: Readonly<Record<string, unknown>>): { meta: Json; data: T[] } {
  const page = typeof query.page === 'number' ? query.page : 1;
  const perPage = typeof query.perPage === 'number' ? query.perPage : 20;
  const offset = (page - 1) * perPage;
  return { meta: { total: items.length, limit: perPage, offset }, data: items.slice(offset, offset + perPage) };
}

const within = (at: string, query: Readonly<Record<string, unknown>>): boolean =>
  (typeof query.createdAtStart !== 'string' || Date.parse(at) >= Date.parse(query.createdAtStart)) &&
  (typeof query.createdAtEnd !== 'string' || Date.parse(at) <= Date.parse(query.createdAtEnd));

export const baasHandlers: Record<string, Handler<AccountsState>> = {
  'childAccounts.list': (request, state, env) => {
    requireBaas(request, state, env);
    const { query } = request;
    const children = Object.values(state.accounts).filter(
      (account) =>
        account.child &&
        (query.status === undefined || account.status === query.status) &&
        (query.type === undefined || query.type === 'CACC') &&
        (query.document === undefined || account.document === query.document) &&
        (query.accountNumber === undefined || Number(account.number) === query.accountNumber) &&
        within(account.createdAt, query),
    );
    return { status: 200, body: paged(children.map(childView), query) };
  },
  'childAccounts.get': (request, state, env) => {
    requireBaas(request, state, env);
    const account = state.accounts[request.path.id!];
    if (!account?.child) notFound(`no child account ${request.path.id} of this BaaS partner`);
    return { status: 200, body: { data: childView(account!) } };
  },
};

function onboardingOf(state: AccountsState, id: string): Json {
  return state.onboardings.find((entry) => entry.id === id) ?? notFound(`no onboarding ${id} of this BaaS partner`);
}

const defined = (value: Json): Json => Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined));

export const onboardingHandlers: Record<string, Handler<AccountsState>> = {
  'onboarding.create': (request, state, env) => {
    requireBaas(request, state, env);
    const body = request.body as Json;
    const person = body.person as Json;
    const document = person.document;
    if (typeof document !== 'string')
      refuse(422, 'onboarding-rejected', 'person.document: the CPF of the person is needed to open an account');
    if (Object.values(state.accounts).some((account) => account.document === document))
      refuse(422, 'onboarding-rejected', `person.document: ${String(document)} already holds an account here`);
    if (state.onboardings.some((entry) => (entry.person as Json).document === document && [0, 1].includes(entry.status as number)))
      refuse(422, 'onboarding-rejected', `person.document: an onboarding of ${String(document)} is already open`);
    const address = person.address as Json | undefined;
    const at = instant(env);
    const onboarding: Json = {
      id: env.random.uuid(),
      accountType: body.accountType ?? 'NATURAL_PERSON',
      status: 1,
      person: defined({ name: person.name, tradeName: person.socialName ?? null, document, phone: person.phone }),
      company: null,
      ...(address ? { address: defined({ ...address, complement: address.complement ?? null }) } : {}),
      createdAt: at,
      updatedAt: at,
    };
    state.onboardings.push(onboarding);
    return { status: 201, body: { message: 'Onboarding created: awaiting approval', id: onboarding.id, status: onboarding.status } };
  },
  'onboarding.uploadImage': (request, state, env) => {
    requireBaas(request, state, env);
    const onboarding = onboardingOf(state, request.path.id!);
    const { type, file } = request.body as { type: string; file: { size?: number; bytes?: Uint8Array } | string };
    const bytes = typeof file === 'string' ? Buffer.from(file, 'latin1') : (file.bytes ?? new Uint8Array());
    // The rules the client checks before uploading (image type and size, then the onboarding's status), the same functions.
    const fileIssues = checkImageFile(bytes.subarray(0, 8), bytes.length);
    if (fileIssues.length > 0) invalid(fileIssues.map((issue) => `file: ${issue.message}`).join('; '));
    const [notAllowed] = checkImageUpload(onboarding);
    if (notAllowed) refuse(422, 'onboarding-image-not-allowed', notAllowed.message);
    onboarding.updatedAt = instant(env);
    const extension = imageTypeOf(bytes)!.extension;
    return {
      status: 200,
      body: {
        image: { type, url: `${request.baseUrl}/onboardings/${String(onboarding.id)}/images/${type.toLowerCase()}.${extension}` },
      },
    };
  },
  'onboardings.list': (request, state, env) => {
    requireBaas(request, state, env);
    const { query } = request;
    const matching = state.onboardings.filter(
      (entry) =>
        (query.status === undefined || entry.status === query.status) &&
        (query.accountType === undefined || entry.accountType === query.accountType) &&
        (query.document === undefined || (entry.person as Json).document === query.document) &&
        within(String(entry.createdAt), query),
    );
    return { status: 200, body: paged(matching, query) };
  },
  'onboardings.get': (request, state, env) => {
    requireBaas(request, state, env);
    return { status: 200, body: { data: onboardingOf(state, request.path.id!) } };
  },
  'credentials.create': (request, state, env) => {
    requireBaas(request, state, env);
    const body = request.body as { accountId: number; description?: string; allowedIps?: string[]; scopes: string[] };
    if (body.accountId === state.baasOwnerAccountId)
      refuse(403, 'forbidden', 'accountId: credentials cannot target the BaaS owner account');
    const account = state.accounts[String(body.accountId)];
    if (!account?.child) refuse(403, 'forbidden', `accountId: ${body.accountId} is not a child account of this BaaS partner`);
    if (account!.status !== 1 || !account!.apiEnabled)
      refuse(422, 'account-not-eligible', `accountId: the child account ${body.accountId} is not active and enabled for the accounts API`);
    const active = state.credentials.filter((credential) => credential.accountId === body.accountId).length;
    if (active >= maxCredentialsPerAccount)
      refuse(
        422,
        'credential-limit-reached',
        `accountId: the child account ${body.accountId} already has ${maxCredentialsPerAccount} active credentials`,
      );
    const credential = {
      id: next(state, 'credential', 501),
      clientId: env.random.uuid(),
      clientSecret: env.random.text(40),
      accountId: body.accountId,
      scopes: [...new Set(body.scopes)],
      description: body.description ?? '',
      allowedIps: body.allowedIps ?? [],
    };
    state.credentials.push(credential);
    const { id, clientId, clientSecret, description, allowedIps } = credential;
    return { status: 201, body: { clientId, clientSecret, id, description, allowedIps } };
  },
};

/** Control verb `onboardingStatus { id, status }`: the institution's operators move an onboarding (0 to 4; meanings beyond 0 and 1 not shown). */
export const onboardingStatus: ControlVerb<AccountsState> = (body, state, env) => {
  const onboarding = state.onboardings.find((entry) => entry.id === body.id);
  if (!onboarding) throw new Error(`id ${String(body.id)} names no onboarding of the sandbox`);
  if (typeof body.status !== 'number' || !Number.isInteger(body.status) || body.status < 0 || body.status > 4)
    throw new Error('status must be an integer from 0 to 4');
  onboarding.status = body.status;
  onboarding.updatedAt = instant(env);
  return onboarding;
};

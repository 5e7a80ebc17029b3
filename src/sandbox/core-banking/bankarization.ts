/**
 * Credit bankarization (sections 2.13, 3 and 4.10): products, and applications received asynchronously.
 *
 * - An application is created RECEIVED (202) with nextAction INTERNAL_CREDIT_FLOW, under an
 *   `Idempotency-Key` (same key and payload: the first answer; another payload: 409). BaaS callers send
 *   `assignment`; account callers omit it and act as assignee of their account (400 otherwise).
 * - The list is for account callers only (BaaS callers get 403); get and cancel serve the application to
 *   whoever it belongs to (its BaaS, or its account). Cancel is allowed before the loan is created (the
 *   sandbox creates no loan) and is idempotent: CANCELLED again.
 * - Products are seeded; `assignees` is shown to BaaS callers only.
 */
import { idempotencyKeyOf } from '../idempotency.js';
import type { Handler, SandboxEnvironment } from '../contract.js';
import { SandboxProblem } from '../contract.js';
import {
  type Caller,
  type CoreBankingState,
  callerOf,
  idempotent,
  invalid,
  type Json,
  notFound,
  numberOr,
  pageOf,
  type StoredApplication,
} from './state.js';

const applicationsPath = '/credit/bankarization/applications';

function productView(state: CoreBankingState, product: Json, caller: Caller): Json {
  if (caller.kind !== 'baas') return product;
  const partner = state.partners[caller.partnerId]!;
  return { ...product, assignees: [{ baasId: partner.id, name: partner.name }] };
}

function visibleTo(application: StoredApplication, caller: Caller): boolean {
  return caller.kind === 'baas' ? application.partnerId === caller.partnerId : application.accountId === caller.accountId;
}

function applicationOf(state: CoreBankingState, caller: Caller, requestId: string): StoredApplication {
  const application = state.applications[requestId];
  if (!application || !visibleTo(application, caller)) throw notFound(`no bankarization application ${requestId} of this credential`);
  return application;
}

function create(state: CoreBankingState, caller: Caller, body: Json, baseUrl: string, env: SandboxEnvironment): StoredApplication {
  if (caller.kind === 'baas' && body.assignment === undefined)
    throw invalid('/body/assignment: a BaaS caller names the assignment (section 4.10)');
  if (caller.kind === 'account' && body.assignment !== undefined)
    throw invalid('/body/assignment: an account caller omits it and acts as assignee of its own account (section 4.10)');
  if (body.creditProductId !== undefined && !state.products[String(body.creditProductId)])
    throw invalid(`/body/creditProductId: no bankarization product ${String(body.creditProductId)}`);
  let requestId = env.random.uuid();
  while (state.applications[requestId]) requestId = env.random.uuid();
  const application: StoredApplication = {
    view: {
      requestId,
      ...(typeof body.externalRequestId === 'string' ? { externalRequestId: body.externalRequestId } : {}),
      status: 'RECEIVED',
      nextAction: 'INTERNAL_CREDIT_FLOW',
      error: null,
      expiresAt: null,
      retryAt: null,
      pricing: null,
      links: { self: `${baseUrl}${applicationsPath}/${requestId}` },
    },
    partnerId: caller.kind === 'baas' ? caller.partnerId : state.accounts[caller.accountId]!.partnerId,
    accountId: caller.kind === 'account' ? caller.accountId : null,
    createdAtMs: env.clock.nowMs(),
  };
  state.applications[requestId] = application;
  return application;
}

export const bankarizationHandlers: Record<string, Handler<CoreBankingState>> = {
  'bankarizationApplications.create': (request, state, env) => {
    const caller = callerOf(state, request.principal);
    const scope = { clientId: caller.clientId, operationId: request.operationId, key: idempotencyKeyOf(request) };
    return idempotent(state, scope, request.body, () => ({
      status: 202,
      body: structuredClone(create(state, caller, request.body as Json, request.baseUrl, env).view),
    }));
  },
  'bankarizationApplications.list': (request, state) => {
    const caller = callerOf(state, request.principal);
    if (caller.kind === 'baas')
      throw new SandboxProblem(403, 'forbidden', 'the list of bankarization applications is for account callers; BaaS callers get 403');
    const mine = Object.values(state.applications)
      .filter((application) => visibleTo(application, caller))
      .sort((a, b) => b.createdAtMs - a.createdAtMs);
    const page = numberOr(request.query.page, 1);
    const limit = numberOr(request.query.limit, 25);
    return {
      status: 200,
      body: { data: pageOf(mine, page, limit).map((application) => application.view), meta: { total: mine.length, page, limit } },
    };
  },
  'bankarizationApplications.get': (request, state) => {
    const application = applicationOf(state, callerOf(state, request.principal), request.path.requestId!);
    return { status: 200, body: application.view };
  },
  'bankarizationApplications.cancel': (request, state) => {
    const application = applicationOf(state, callerOf(state, request.principal), request.path.requestId!);
    // Cancelled, nothing is next for it; cancelling again answers the same (section 3: idempotent).
    if (application.view.status !== 'CANCELLED') {
      const { nextAction: _next, ...rest } = application.view;
      application.view = { ...rest, status: 'CANCELLED' };
    }
    return { status: 200, body: application.view };
  },
  'bankarizationProducts.list': (request, state) => {
    const caller = callerOf(state, request.principal);
    return { status: 200, body: { data: Object.values(state.products).map((product) => productView(state, product, caller)) } };
  },
  'bankarizationProducts.get': (request, state) => {
    const product = state.products[String(request.path.productId)];
    if (!product) throw notFound(`no bankarization product ${request.path.productId}`);
    return { status: 200, body: productView(state, product, callerOf(state, request.principal)) };
  },
};

/**
 * Automatic-debit fee rules of a BaaS partner (section 4.10, shapes in 2.13), for BaaS credentials only
 * (section 5: account credentials get 403). Creation assigns the weight, the highest of the partner plus 1;
 * PUT replaces the mutable members (name, weight, percent, fixedAmount, minAmount, maxAmount) and gives 409
 * for a weight another rule of the same partner holds; `requirements` and `effectiveDate` are not mutable
 * (the request schema refuses them in a PUT body: 400). DELETE removes the rule for good.
 */
import type { Handler, SandboxEnvironment } from '../contract.js';
import { SandboxProblem } from '../contract.js';
import { type CoreBankingState, callerOf, instant, type Json, notFound, numberOr, pageOf, requireBaas } from './state.js';

const what = 'fee rules';

function ruleOf(state: CoreBankingState, partnerId: string, id: string): Json {
  const rule = state.feeRules[id];
  if (!rule || rule.baasId !== partnerId) throw notFound(`no fee rule ${id} belongs to this BaaS`);
  return rule;
}

const rulesOf = (state: CoreBankingState, partnerId: string): Json[] =>
  Object.values(state.feeRules).filter((rule) => rule.baasId === partnerId);

function create(state: CoreBankingState, partnerId: string, body: Json, env: SandboxEnvironment): Json {
  const weights = rulesOf(state, partnerId).map((rule) => rule.weight as number);
  const now = instant(env);
  let id = env.random.uuid();
  while (state.feeRules[id]) id = env.random.uuid();
  const rule: Json = {
    id,
    baasId: partnerId,
    name: body.name,
    percent: body.percent,
    fixedAmount: body.fixedAmount ?? 0,
    minAmount: body.minAmount,
    maxAmount: body.maxAmount,
    weight: Math.max(0, ...weights) + 1,
    effectiveDate: typeof body.effectiveDate === 'string' ? new Date(body.effectiveDate).toISOString() : null,
    requirements: body.requirements ?? [],
    createdAt: now,
    updatedAt: now,
  };
  state.feeRules[id] = rule;
  return rule;
}

function update(state: CoreBankingState, rule: Json, body: Json, env: SandboxEnvironment): void {
  if (typeof body.weight === 'number' && body.weight !== rule.weight) {
    const holder = rulesOf(state, rule.baasId as string).find((other) => other.id !== rule.id && other.weight === body.weight);
    if (holder)
      throw new SandboxProblem(
        409,
        'duplicate-weight',
        `the weight ${body.weight} is already held by the fee rule ${String(holder.id)} of this BaaS`,
      );
  }
  for (const member of ['name', 'weight', 'percent', 'fixedAmount', 'minAmount', 'maxAmount'])
    if (body[member] !== undefined) rule[member] = body[member];
  rule.updatedAt = instant(env);
}

export const feeRuleHandlers: Record<string, Handler<CoreBankingState>> = {
  'feeRules.list': (request, state) => {
    const { partnerId } = requireBaas(callerOf(state, request.principal), what);
    const filter = typeof request.query.filter === 'string' ? request.query.filter.toLowerCase() : '';
    const rules = rulesOf(state, partnerId)
      .filter((rule) => String(rule.name).toLowerCase().includes(filter))
      .sort((a, b) => (a.weight as number) - (b.weight as number));
    const page = numberOr(request.query.page, 1);
    const perPage = numberOr(request.query.perPage, 10);
    return { status: 200, body: { meta: { total: rules.length, page, perPage }, data: pageOf(rules, page, perPage) } };
  },
  'feeRules.create': (request, state, env) => {
    const { partnerId } = requireBaas(callerOf(state, request.principal), what);
    return { status: 201, body: create(state, partnerId, request.body as Json, env) };
  },
  'feeRules.get': (request, state) => {
    const { partnerId } = requireBaas(callerOf(state, request.principal), what);
    return { status: 200, body: ruleOf(state, partnerId, request.path.id!) };
  },
  'feeRules.update': (request, state, env) => {
    const { partnerId } = requireBaas(callerOf(state, request.principal), what);
    const rule = ruleOf(state, partnerId, request.path.id!);
    update(state, rule, request.body as Json, env);
    return { status: 200, body: rule };
  },
  'feeRules.delete': (request, state) => {
    const { partnerId } = requireBaas(callerOf(state, request.principal), what);
    const rule = ruleOf(state, partnerId, request.path.id!);
    delete state.feeRules[rule.id as string];
    return { status: 204 };
  },
};

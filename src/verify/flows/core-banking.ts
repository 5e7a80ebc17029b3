/**
 * The state machines of the core banking API (interface D, sections 3, 4.10 and 7.1): a SCHEDULED invoice
 * starts DRAFT and is emitted later (emit is idempotent), then cancelled; an IMMEDIATE boleto invoice is
 * REGISTERING until the registry confirms it, and its cancel is refused with 422 until then (the registry is
 * the platform's). A fee rule's weight is the highest plus 1 on creation, and a weight another rule of the same
 * BaaS holds is refused with 409.
 */
import type { CallArgs } from '../../runtime/pipeline.js';
import type { Flow } from './flow.js';
import { expectMember, FlowSteps, member, statusIs } from './flow.js';

const withBody = (args: CallArgs, changes: Record<string, unknown>, without: readonly string[] = []): CallArgs => {
  const body = { ...(args.body as Record<string, unknown>), ...changes };
  for (const name of without) delete body[name];
  return { ...args, body };
};

const invoice: Flow = {
  name: 'invoice',
  interfaceName: 'core-banking',
  operations: ['invoices.create', 'invoices.get', 'invoices.emit', 'invoices.cancel'],
  async run(context) {
    const steps = new FlowSteps('invoice', context);
    const at = (operationId: string, created: CallArgs, invoiceId: unknown): CallArgs => {
      const args = context.example(operationId);
      return { ...args, path: { ...args.path, accountId: created.path?.accountId, invoiceId } };
    };

    // SCHEDULED: DRAFT, emitted (twice: idempotent), cancelled.
    const scheduled = withBody(context.example('invoices.create'), { type: 'SCHEDULED' });
    const draft = await steps.step('invoices.create', scheduled, 'success', 'a SCHEDULED invoice is created DRAFT', ({ body }) =>
      expectMember(body, 'status', 'DRAFT'),
    );
    if (!draft) return steps.results;
    const id = member(draft.body, 'id');
    await steps.step('invoices.get', at('invoices.get', scheduled, id), 'success', 'a read shows it DRAFT', ({ body }) =>
      expectMember(body, 'status', 'DRAFT'),
    );
    const issued = (outcome: { body: unknown }): string | null =>
      member(outcome.body, 'status') === 'DRAFT' ? 'the emitted invoice is still DRAFT' : expectMember(outcome.body, 'id', id);
    await steps.step('invoices.emit', at('invoices.emit', scheduled, id), 'success', 'a DRAFT invoice is emitted', issued);
    await steps.step('invoices.emit', at('invoices.emit', scheduled, id), 'success', 'emit is idempotent on an emitted invoice', issued);
    await steps.step('invoices.cancel', at('invoices.cancel', scheduled, id), 'success', 'an emitted invoice is cancelled', ({ body }) =>
      expectMember(body, 'success', true),
    );

    // BOLETO: REGISTERING until the registry confirms; cancel refused until then.
    const boleto = withBody(context.example('invoices.create'), { type: 'IMMEDIATE', paymentMethod: 'BOLETO' }, ['pixKey']);
    const registering = await steps.step('invoices.create', boleto, 'success', 'an IMMEDIATE boleto invoice is REGISTERING', ({ body }) =>
      expectMember(body, 'status', 'REGISTERING'),
    );
    if (!registering) return steps.results;
    const boletoId = member(registering.body, 'id');
    await steps.step(
      'invoices.cancel',
      at('invoices.cancel', boleto, boletoId),
      'refusal',
      'a REGISTERING invoice is not cancelled (422)',
      statusIs(422),
    );
    const confirmed = await steps.platform('invoices.cancel', 'a registered invoice is cancelled', ({ control }) =>
      control.call('core-banking/register', { invoiceId: boletoId as number }),
    );
    if (!confirmed) return steps.results;
    await steps.step(
      'invoices.cancel',
      at('invoices.cancel', boleto, boletoId),
      'success',
      'a registered invoice is cancelled',
      ({ body }) => expectMember(body, 'success', true),
    );
    return steps.results;
  },
};

const feeRuleWeights: Flow = {
  name: 'fee-rule weights',
  interfaceName: 'core-banking',
  operations: ['feeRules.create', 'feeRules.update', 'feeRules.get', 'feeRules.delete'],
  async run(context) {
    const steps = new FlowSteps('fee-rule weights', context);
    const create = async (name: string, rule: string, check: (weight: unknown) => string | null) => {
      const outcome = await steps.step(
        'feeRules.create',
        withBody(context.example('feeRules.create'), { name }),
        'success',
        rule,
        ({ body }) => check(member(body, 'weight')),
      );
      return outcome ? { id: member(outcome.body, 'id'), weight: member(outcome.body, 'weight') } : null;
    };
    const positive = (weight: unknown): string | null =>
      Number.isInteger(weight) && (weight as number) > 0 ? null : `weight is ${JSON.stringify(weight)}, an integer above 0 expected`;
    const first = await create('Tarifa verificada A', 'a created rule has a weight above 0', positive);
    if (!first) return steps.results;
    const second = await create('Tarifa verificada B', 'a new rule takes the highest weight plus 1', (weight) =>
      weight === (first.weight as number) + 1 ? null : `weight is ${JSON.stringify(weight)}, expected ${(first.weight as number) + 1}`,
    );
    if (!second) return steps.results;
    const update = (id: unknown, weight: number): CallArgs => {
      const args = context.example('feeRules.update');
      return { ...args, path: { ...args.path, id }, body: { ...(args.body as Record<string, unknown>), weight } };
    };
    await steps.step(
      'feeRules.update',
      update(first.id, second.weight as number),
      'refusal',
      'a weight another rule of the BaaS holds is refused (409)',
      statusIs(409),
    );
    const free = (second.weight as number) + 1;
    await steps.step('feeRules.update', update(first.id, free), 'success', 'a weight no rule holds is taken', ({ body }) =>
      expectMember(body, 'weight', free),
    );
    for (const id of [first.id, second.id]) {
      const args = context.example('feeRules.delete');
      await steps.step('feeRules.delete', { ...args, path: { ...args.path, id } }, 'success', 'a rule is deleted');
    }
    const get = context.example('feeRules.get');
    await steps.step(
      'feeRules.get',
      { ...get, path: { ...get.path, id: first.id } },
      'refusal',
      'a deleted rule is gone (404)',
      statusIs(404),
    );
    return steps.results;
  },
};

export const coreBankingFlows: readonly Flow[] = [invoice, feeRuleWeights];

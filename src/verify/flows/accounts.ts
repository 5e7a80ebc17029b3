/**
 * The state machines of the accounts API (interface A, sections 3, 4.4, 4.6 and 7.1): a SCHEDULED invoice
 * starts DRAFT; emitted with a boleto it is REGISTERING until the registry confirms it (the platform's, on its
 * clock), and its cancel is refused with 422 until then. A TED and an internal transfer read back by id (or
 * end-to-end id) and by idempotency key as created. A CaaS order is made from a wallet and a quote, read back,
 * and settles when the operator and the broker act (the platform's).
 */
import type { CallArgs } from '../../runtime/pipeline.js';
import { platformWaitSeconds } from '../checks/valid.js';
import type { Flow, FlowContext } from './flow.js';
import { expectMember, FlowSteps, member, statusIs } from './flow.js';

const at = (args: CallArgs, path: Record<string, unknown>): CallArgs => ({ ...args, path: { ...args.path, ...path } });

const invoice: Flow = {
  name: 'invoice',
  interfaceName: 'accounts',
  operations: ['invoices.create', 'invoices.get', 'invoices.emit', 'invoices.cancel'],
  async run(context) {
    const steps = new FlowSteps('invoice', context);
    const example = context.example('invoices.create');
    // A boleto, emitted later (without a Pix charge: the example's key need not be the account's).
    const { pixKey: _pixKey, ...rest } = example.body as Record<string, unknown>;
    const body = { ...rest, type: 'SCHEDULED', paymentMethod: 'BOLETO' };
    const created = await steps.step(
      'invoices.create',
      { ...example, body },
      'success',
      'a SCHEDULED invoice is created DRAFT',
      (outcome) => expectMember(outcome.body, 'status', 'DRAFT'),
    );
    if (!created) return steps.results;
    const invoiceId = member(created.body, 'id');
    const on = (operationId: string): CallArgs => at(context.example(operationId), { invoiceId });
    await steps.step('invoices.get', on('invoices.get'), 'success', 'a read shows it DRAFT', (outcome) =>
      expectMember(outcome.body, 'status', 'DRAFT'),
    );
    await steps.step('invoices.emit', on('invoices.emit'), 'success', 'an emitted boleto invoice is REGISTERING', (outcome) =>
      expectMember(outcome.body, 'status', 'REGISTERING'),
    );
    await steps.step('invoices.cancel', on('invoices.cancel'), 'refusal', 'a REGISTERING invoice is not cancelled (422)', statusIs(422));
    const confirmed = await steps.platform('invoices.cancel', 'a registered invoice is cancelled', ({ control }) =>
      control.clock(platformWaitSeconds),
    );
    if (!confirmed) return steps.results;
    await steps.step('invoices.cancel', on('invoices.cancel'), 'success', 'a registered invoice is cancelled', (outcome) =>
      member(outcome.body, 'status') === 'REGISTERING'
        ? 'the cancelled invoice is still REGISTERING'
        : expectMember(outcome.body, 'id', invoiceId),
    );
    return steps.results;
  },
};

/** The idempotency key a step sent. */
const keyOf = (context: FlowContext, operationId: string, args: CallArgs): unknown => {
  const header = context.run.operations.get(operationId)!.info.idempotencyKeyRule?.header;
  const found =
    header === undefined ? undefined : Object.keys(args.header ?? {}).find((name) => name.toLowerCase() === header.toLowerCase());
  return found === undefined ? undefined : args.header![found];
};

/** A transfer created, then read back by its id and by its idempotency key: the same transfer. */
function transferFlow(name: string, create: string, byId: string, idParameter: string, idMember: string, byKey: string): Flow {
  return {
    name,
    interfaceName: 'accounts',
    operations: [create, byId, byKey],
    async run(context) {
      const steps = new FlowSteps(name, context);
      const args = context.example(create);
      const created = await steps.step(create, args, 'success', 'created with a status', (outcome) =>
        typeof member(outcome.body, 'data.status') === 'string' ? null : 'data.status is missing',
      );
      if (!created) return steps.results;
      const id = member(created.body, `data.${idMember}`);
      const same = (outcome: { body: unknown }): string | null => expectMember(outcome.body, `data.${idMember}`, id);
      await steps.step(byId, at(context.example(byId), { [idParameter]: id }), 'success', `read back by ${idMember}`, same);
      await steps.step(
        byKey,
        at(context.example(byKey), { idempotencyKey: keyOf(context, create, args) }),
        'success',
        'read back by its idempotency key',
        same,
      );
      return steps.results;
    },
  };
}

const hex = (random: () => number, length: number): string =>
  Array.from({ length }, () => '0123456789abcdef'[Math.floor(random() * 16)]).join('');

const caasOrder: Flow = {
  name: 'CaaS order',
  interfaceName: 'accounts',
  operations: ['caasWallets.create', 'caasQuotes.create', 'caasOrders.create', 'caasOrders.get'],
  async run(context) {
    const steps = new FlowSteps('CaaS order', context);
    const walletArgs = context.example('caasWallets.create');
    const walletBody = { ...(walletArgs.body as Record<string, unknown>) };
    // A new address: the same one twice in an account is a 409.
    if (walletBody.network === 'ETH') walletBody.address = `0x${hex(context.run.random, 40)}`;
    const wallet = await steps.step('caasWallets.create', { ...walletArgs, body: walletBody }, 'success', 'a wallet is created');
    if (!wallet) return steps.results;
    const walletId = member(wallet.body, 'data.id');
    const quoteArgs = context.example('caasQuotes.create');
    const quoteBody = { ...(quoteArgs.body as Record<string, unknown>), destinationWalletId: walletId };
    const quote = await steps.step('caasQuotes.create', { ...quoteArgs, body: quoteBody }, 'success', 'a quote for it is given');
    if (!quote) return steps.results;
    const orderArgs = context.example('caasOrders.create');
    const orderBody = {
      ...(orderArgs.body as Record<string, unknown>),
      quoteId: member(quote.body, 'data.id'),
      destinationWalletId: walletId,
    };
    const order = await steps.step('caasOrders.create', { ...orderArgs, body: orderBody }, 'success', 'an order on the quote is created');
    if (!order) return steps.results;
    const orderId = member(order.body, 'data.id');
    const get = (): CallArgs => at(context.example('caasOrders.get'), { id: orderId });
    await steps.step(
      'caasOrders.get',
      get(),
      'success',
      'a read shows the order as created',
      (outcome) =>
        expectMember(outcome.body, 'data.id', orderId) ?? expectMember(outcome.body, 'data.status', member(order.body, 'data.status')),
    );
    const settled = await steps.platform('caasOrders.get', 'a settled order is SETTLED', ({ control }) =>
      control.call('accounts/settleOrder', { orderId: orderId as string }),
    );
    if (!settled) return steps.results;
    await steps.step('caasOrders.get', get(), 'success', 'a settled order is SETTLED', (outcome) =>
      expectMember(outcome.body, 'data.status', 'SETTLED'),
    );
    return steps.results;
  },
};

export const accountsFlows: readonly Flow[] = [
  invoice,
  transferFlow('TED', 'ted.create', 'ted.getById', 'id', 'id', 'ted.getByIdempotencyKey'),
  transferFlow(
    'internal transfer',
    'internalTransfers.create',
    'internalTransfers.getByEndToEndId',
    'endToEndId',
    'endToEndId',
    'internalTransfers.getByIdempotencyKey',
  ),
  caasOrder,
];

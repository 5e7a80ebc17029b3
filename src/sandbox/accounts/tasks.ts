/**
 * What the accounts sandbox does on the clock, one runner per kind (state.ts, AccountsTaskKind): a payment
 * liquidates, a crypto-risk ingest finishes, the registry confirms a boleto, an invoice falls overdue or its
 * settlement completes. Each finds what its arguments name in the state as it is when it runs, and does
 * nothing when that moved on meanwhile (a payment refused, an invoice paid or cancelled).
 */
import type { TaskRunner } from '../contract.js';
import { finishIngest } from './crypto-risk.js';
import { confirmRegistry, invoiceOverdue, settleInvoice } from './invoices.js';
import { liquidate } from './outgoing.js';
import type { AccountsState, AccountsTaskKind } from './state.js';

export const accountsTasks: Readonly<Record<AccountsTaskKind, TaskRunner<AccountsState>>> = {
  liquidate: (args, state, env) => liquidate(state, env, String(args.source)),
  finishIngest,
  confirmRegistry,
  invoiceOverdue,
  settleInvoice,
};

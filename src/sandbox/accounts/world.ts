/**
 * The accounts sandbox as `GET /_sandbox` lists it: every account with the credential that operates it (the
 * account credential its own account, the BaaS credential its child accounts through x-account-id), their
 * invoice customers, the registered keys and the other institution's keys a lookup finds.
 */
import type { AccountsState } from './state.js';

export function accountsWorld(state: AccountsState): Record<string, unknown> {
  const accounts = Object.values(state.accounts).map((account) => ({
    id: account.id,
    name: account.name,
    personType: account.personType,
    open: account.status === 1,
    operatedBy:
      account.id === state.ownAccountId
        ? 'the account credential (no x-account-id)'
        : account.child
          ? `the BaaS credential with x-account-id ${account.id}`
          : 'the BaaS credential (its partner account)',
    customers: state.customers
      .filter((customer) => customer.accountId === account.id)
      .map((customer) => ({ id: customer.id, name: customer.name })),
  }));
  return {
    accounts,
    keys: state.keys.map((key) => ({ accountId: key.accountId, ...key.record })),
    lookupKeys: state.directory.map((entry) => ({ keyType: entry.keyType, key: entry.key })),
  };
}

/**
 * The core banking sandbox as `GET /_sandbox` lists it: the partners, which account each kind of credential acts
 * on, every account with its customers, and the bankarization products.
 */
import type { CoreBankingState } from './state.js';

export function coreBankingWorld(state: CoreBankingState): Record<string, unknown> {
  return {
    baasCredentialsActFor: state.callerPartnerId,
    accountCredentialsActOn: state.callerAccountId,
    partners: Object.values(state.partners).map((partner) => ({
      id: partner.id,
      name: partner.name,
      mainAccountId: partner.mainAccountId,
    })),
    accounts: Object.values(state.accounts).map((account) => ({
      id: account.id,
      partnerId: account.partnerId,
      main: account.main,
      status: account.status,
      name: account.person.name,
      customers: Object.values(state.customers)
        .filter((customer) => String(customer.accountId) === account.id)
        .map((customer) => ({ id: customer.id, name: customer.name })),
    })),
    products: Object.values(state.products).map((product) => ({ id: product.id, name: product.name })),
    feeRules: Object.keys(state.feeRules),
  };
}

/**
 * Conventions 1 and 2 of section 1, as a step of the call: a BaaS token names the child account on
 * account-operational endpoints (`x-account-id`); account tokens operate their own account and send none;
 * BaaS-scope endpoints take none. A call that cannot be right stops with a ConfigurationError.
 */
import { ConfigurationError } from '../runtime/errors.js';
import type { Step } from '../runtime/pipeline.js';

const accountHeaderName = 'x-account-id';

/** BaaS credentials are told apart by their client id (section 5.5). */
export function isBaasCredential(clientId: string): boolean {
  return clientId.startsWith('baas_');
}

export function accountHeaderStep(clientId: string, accountId: number | undefined): Step {
  const baas = isBaasCredential(clientId);
  return {
    name: 'account-header',
    run(call, next) {
      const { info } = call;
      const header = call.args.header;
      const given = header && Object.keys(header).find((name) => name.toLowerCase() === accountHeaderName);
      const context = { operationId: info.operationId };
      if (!info.accountHeader) {
        if (given)
          throw new ConfigurationError(
            `${info.operationId} is a BaaS-scope operation: it takes no x-account-id (the BaaS link comes from the credential)`,
            context,
          );
        return next(call);
      }
      if (!baas) {
        if (given) {
          throw new ConfigurationError(
            `${info.operationId}: x-account-id selects a child account and only BaaS credentials (client id baas_…) send it; this credential operates its own account`,
            context,
          );
        }
        return next(call);
      }
      if (given) return next(call);
      if (accountId === undefined) {
        throw new ConfigurationError(
          `${info.operationId} operates an account: a BaaS credential must name the child account (client option accountId, or header x-account-id on the call)`,
          context,
        );
      }
      return next({ ...call, args: { ...call.args, header: { ...header, [info.accountHeader]: accountId } } });
    },
  };
}

/**
 * Section 4.3: "the credential issuing endpoints ... are exclusive to BaaS credentials". The client knows
 * its own client id (BaaS ones start with `baas_`, section 5.5), so a call an account credential may not
 * make stops here, before the token request and before anything is sent, with a ConfigurationError.
 *
 * Which operations issue credentials is read from the operation table, not listed by operationId: an
 * operation is credential issuing when its security asks for a scope that section 5 grants for issuing
 * (`baas.credentials.write`: "create API credentials for linked accounts"). Section 4.3 speaks of
 * endpoints in the plural and their routes are provisional, so any such operation the spec adds is
 * covered without a change here.
 */
import { ConfigurationError } from '../runtime/errors.js';
import type { Step } from '../runtime/pipeline.js';
import { isBaasCredential } from './account-header.js';

/** Scopes of section 5 that only the credential issuing endpoints of section 4.3 ask for. */
export const credentialIssuingScopes: readonly string[] = ['baas.credentials.write'];

/** Whether an operation needing these scopes issues credentials, and so takes a BaaS credential only. */
export function issuesCredentials(scopes: readonly string[]): boolean {
  return scopes.some((scope) => credentialIssuingScopes.includes(scope));
}

export function baasOnlyStep(clientId: string): Step {
  const baas = isBaasCredential(clientId);
  return {
    name: 'baas-only',
    run(call, next) {
      const { operationId, scopes } = call.info;
      if (baas || !issuesCredentials(scopes)) return next(call);
      throw new ConfigurationError(
        `${operationId} issues API credentials, which only a BaaS credential (client id baas_…) may do (R-A-credential-baas-only, section 4.3); this client holds an account credential: make the call from a client created with the BaaS partner's credential`,
        { operationId },
      );
    },
  };
}

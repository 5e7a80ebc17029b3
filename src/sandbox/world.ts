/**
 * What `GET /_sandbox` (and `contrato sandbox status`) shows a user before the first call: the credentials the
 * sandbox accepts and, per interface, the ids its state holds now — the keys it owns, the accounts a credential
 * can see, their customers. Hints in the sandbox's refusals send users here ("GET /_sandbox shows them"), so
 * every module with state describes it; documents (CPF, CNPJ) are left out unless they are the id itself (a
 * CNPJ key).
 */
import { sandboxSecret } from '../runtime/definition.js';
import type { SandboxCredential } from './tokens.js';

/** A credential as the overview shows it: its id, its scopes, and the secret only when it is the public sandbox one. */
export interface ListedCredential {
  readonly clientId: string;
  /** `sandbox-secret`, printed in the README; a credential configured with another secret shows "(as configured)". */
  readonly clientSecret: string;
  readonly scopes: readonly string[];
}

export function listedCredentials(credentials: readonly SandboxCredential[]): ListedCredential[] {
  return credentials.map((credential) => ({
    clientId: credential.clientId,
    clientSecret: credential.clientSecret === sandboxSecret ? sandboxSecret : '(as configured)',
    scopes: credential.scopes,
  }));
}

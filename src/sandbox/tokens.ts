/**
 * The sandbox's token issuer: the token endpoints of every interface issue opaque bearer tokens here, and
 * the engine verifies them on each protected call (issue 18, point 4: real expiry, 401 when expired).
 * Expiry is measured on the sandbox clock, so `advance` expires a token as the passing of real time would.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Principal, SandboxClock, SeededRandom, TokenIssuer } from './contract.js';

/** A credential the sandbox accepts at its token endpoints (section 5.2: seeded, not created by users). */
export interface SandboxCredential {
  readonly clientId: string;
  readonly clientSecret: string;
  /** What its tokens may do (section 5.9: scopes are declared per credential). */
  readonly scopes: readonly string[];
}

export interface TokenIssuerOptions {
  readonly clock: SandboxClock;
  readonly random: SeededRandom;
  readonly credentials: readonly SandboxCredential[];
}

export interface SandboxTokenIssuer extends TokenIssuer {
  /** The scopes of a known credential, undefined for an unknown client id. */
  scopesOf(clientId: string): readonly string[] | undefined;
}

/** Long enough that a guess never hits (62^43 ≈ 2^256), and the length of a typical OAuth access token. */
const tokenLength = 43;

export function createTokenIssuer(options: TokenIssuerOptions): SandboxTokenIssuer {
  const { clock, random } = options;
  const credentials = new Map<string, SandboxCredential>();
  for (const credential of options.credentials) {
    if (credentials.has(credential.clientId)) throw new Error(`the sandbox credential ${credential.clientId} is listed twice`);
    credentials.set(credential.clientId, credential);
  }
  // Expired tokens are kept so a call with one answers "expired" (the 401 a client renews on), not "unknown".
  const issued = new Map<string, { readonly principal: Principal; readonly expiresAtMs: number }>();
  // The secret compared against when the client id is unknown: the answer takes as long as for a known one.
  const unknownSecretDigest = digest(random.text(32));

  return {
    issue(principal: Principal, ttlSeconds: number): string {
      if (!Number.isFinite(ttlSeconds) || ttlSeconds <= 0) throw new RangeError(`a token needs a lifetime > 0 seconds, got ${ttlSeconds}`);
      let token = random.text(tokenLength);
      while (issued.has(token)) token = random.text(tokenLength);
      const copy: Principal = Object.freeze({
        clientId: principal.clientId,
        scopes: Object.freeze([...principal.scopes]),
        ...(principal.audience === undefined ? {} : { audience: principal.audience }),
      });
      issued.set(token, { principal: copy, expiresAtMs: clock.nowMs() + ttlSeconds * 1000 });
      return token;
    },
    verify(token: string): Principal | 'expired' | 'unknown' {
      const entry = issued.get(token);
      if (!entry) return 'unknown';
      return clock.nowMs() >= entry.expiresAtMs ? 'expired' : entry.principal;
    },
    checkCredential(clientId: string, clientSecret: string): boolean {
      const credential = credentials.get(clientId);
      // Digests have equal lengths whatever the secrets' lengths: timingSafeEqual then leaks neither content nor length.
      const same = timingSafeEqual(digest(clientSecret), credential ? digest(credential.clientSecret) : unknownSecretDigest);
      return same && credential !== undefined;
    },
    scopesOf: (clientId: string) => credentials.get(clientId)?.scopes,
  };
}

function digest(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** Every scope of the table of section 5, in its order (interfaces A and D share the table). */
const sectionFiveScopes = [
  'account.read',
  'transactions.read',
  'pix.read',
  'pix.create',
  'pix.write',
  'internal-transfer.read',
  'internal-transfer.create',
  'internal-transfer.write',
  'ted.read',
  'ted.create',
  'ted.write',
  'billets.read',
  'billets.create',
  'billets.write',
  'webhook.read',
  'webhook.write',
  'infractions.read',
  'infractions.write',
  'baas.accounts.read',
  'baas.onboarding.read',
  'baas.onboarding.write',
  'baas.credentials.write',
  'econsignado.read',
  'econsignado.write',
  'crypto-risk.read',
  'crypto-risk.write',
  'crypto-caas.read',
  'crypto-caas.write',
  'invoices.read',
  'invoices.write',
  'credit.products.read',
  'credit.simulations.write',
  'credit.applications.write',
  'credit.bankarization.applications.read',
  'credit.bankarization.applications.write',
  'credit.consignado.read',
  'credit.consignado.write',
  'credit.loans.read',
  'fee-rules.read',
  'fee-rules.write',
  'baas-users.read',
  'baas-users.write',
] as const;

/** Scopes the table grants to BaaS credentials only: child accounts, onboarding, credentials, fee rules, portal users. */
const baasOnlyScope = (scope: string): boolean => /^(baas\.|fee-rules\.|baas-users\.)/.test(scope);

/** The scopes of the oauth2 scheme of generated/pix/openapi.json (the API Pix standard's); a test keeps them equal. */
const pixScopes = [
  'cob.read',
  'cob.write',
  'cobv.read',
  'cobv.write',
  'lotecobv.read',
  'lotecobv.write',
  'cobr.read',
  'cobr.write',
  'rec.read',
  'rec.write',
  'solicrec.read',
  'solicrec.write',
  'payloadlocation.read',
  'payloadlocation.write',
  'payloadlocationrec.read',
  'payloadlocationrec.write',
  'pix.read',
  'pix.write',
  'webhook.read',
  'webhook.write',
  'webhookrec.read',
  'webhookrec.write',
  'webhookcobr.read',
  'webhookcobr.write',
] as const;

/** The scopes of the oauth2 scheme of generated/core-banking/openapi.json (with `institution`, which section 5 omits). */
const coreBankingScopes = [
  'institution',
  'fee-rules.read',
  'fee-rules.write',
  'invoices.read',
  'invoices.write',
  'credit.bankarization.applications.read',
  'credit.bankarization.applications.write',
  'credit.products.read',
  'baas-users.read',
  'baas-users.write',
] as const;

/**
 * The credentials a fresh sandbox knows, one per kind of caller, all with the secret `sandbox-secret`
 * (a sandbox's; never a real one):
 * - `sandbox-account`: an account credential of interface A (its own account; no x-account-id), every
 *   scope of section 5 except the BaaS-only ones, so BaaS-only operations answer 403 to it;
 * - `baas_sandbox`: a BaaS credential of A (the `baas_` prefix of section 5.5: x-account-id selects a child
 *   account), every scope of section 5;
 * - `sandbox-pix`: the API Pix of interface B, every scope of its oauth2 scheme;
 * - `sandbox-core`: interface D, every scope of its oauth2 scheme;
 * - `sandbox-messages`: the login of interface C, which has no scopes (a `svc-token` session).
 */
export const defaultSandboxCredentials: readonly SandboxCredential[] = Object.freeze([
  { clientId: 'sandbox-account', clientSecret: 'sandbox-secret', scopes: sectionFiveScopes.filter((scope) => !baasOnlyScope(scope)) },
  { clientId: 'baas_sandbox', clientSecret: 'sandbox-secret', scopes: [...sectionFiveScopes] },
  { clientId: 'sandbox-pix', clientSecret: 'sandbox-secret', scopes: [...pixScopes] },
  { clientId: 'sandbox-core', clientSecret: 'sandbox-secret', scopes: [...coreBankingScopes] },
  { clientId: 'sandbox-messages', clientSecret: 'sandbox-secret', scopes: [] },
]);

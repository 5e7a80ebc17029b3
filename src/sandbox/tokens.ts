/**
 * The sandbox's token issuer: the token endpoints of every interface issue opaque bearer tokens here, and
 * the engine verifies them on each protected call (issue 18, point 4: real expiry, 401 when expired).
 * Expiry is measured on the sandbox clock, so `advance` expires a token as the passing of real time would.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { bundledSpecPath } from '../checks/registry.js';
import { definitions } from '../interfaces.js';
import { type InterfaceDefinition, sandboxCredentialsOf, sandboxSecret } from '../runtime/definition.js';
import type { Principal, SandboxClock, SeededRandom, TokenIssuer } from './contract.js';

/** A credential the sandbox accepts at its token endpoints (section 5.2: seeded, not created by users). */
export interface SandboxCredential {
  readonly clientId: string;
  readonly clientSecret: string;
  /** What its tokens may do (section 5.9: scopes are declared per credential). */
  readonly scopes: readonly string[];
}

/** A token as the issuer keeps it: whom it was issued to and when it expires (sandbox time). */
export interface IssuedToken {
  readonly principal: Principal;
  readonly expiresAtMs: number;
}

export interface TokenIssuerOptions {
  readonly clock: SandboxClock;
  readonly random: SeededRandom;
  readonly credentials: readonly SandboxCredential[];
  /**
   * Tokens an earlier issuer gave out that stay valid: a reset empties the state, not the callers' sessions, so
   * a client made before it goes on (interface B declares no 401, so a Pix client would not know to renew).
   */
  readonly carried?: ReadonlyMap<string, IssuedToken>;
}

export interface SandboxTokenIssuer extends TokenIssuer {
  /** The scopes of a known credential, undefined for an unknown client id. */
  scopesOf(clientId: string): readonly string[] | undefined;
  /** The tokens given out so far, for the issuer that follows a reset (`carried`). */
  issued(): ReadonlyMap<string, IssuedToken>;
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
  const issued = new Map<string, IssuedToken>(options.carried ?? []);
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
    issued: () => new Map(issued),
  };
}

function digest(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** The scopes of the oauth2 flows of a bundle's security schemes, each once, in the order the spec lists them. */
export function schemeScopes(bundle: unknown): string[] {
  const scopes = new Set<string>();
  for (const scheme of Object.values(asObject(asObject(asObject(bundle).components).securitySchemes))) {
    if (asObject(scheme).type !== 'oauth2') continue;
    for (const flow of Object.values(asObject(asObject(scheme).flows)))
      for (const scope of Object.keys(asObject(asObject(flow).scopes))) scopes.add(scope);
  }
  return [...scopes];
}

const asObject = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/**
 * The credentials each definition seeds (src/runtime/definition.ts `sandboxCredentialsOf`: those it declares,
 * else `sandbox-<name>`), all with the secret `sandbox-secret`, their scopes those of the oauth2 schemes of
 * the documents they name (the interface's own by default), read from `bundleOf(document)`.
 */
export function sandboxCredentials(
  definitions: readonly Pick<InterfaceDefinition<never>, 'name' | 'sandbox' | 'documents'>[],
  bundleOf: (document: string) => unknown,
): SandboxCredential[] {
  return definitions.flatMap((definition) =>
    sandboxCredentialsOf(definition).map((credential) => {
      const documents = credential.scopesOf ?? definition.documents.map((document) => document.name);
      const scopes = [...new Set(documents.flatMap((document) => schemeScopes(bundleOf(document))))];
      return { clientId: credential.clientId, clientSecret: sandboxSecret, scopes: scopes.filter((scope) => !credential.lacks?.(scope)) };
    }),
  );
}

/**
 * The credentials a fresh sandbox knows: those of every definition of src/interfaces.ts, their scopes read
 * from generated/<document>/openapi.json now (a regenerated spec's new scope is held at the next start).
 */
export function defaultSandboxCredentials(): SandboxCredential[] {
  const bundles = new Map<string, unknown>();
  const bundleOf = (document: string): unknown => {
    if (!bundles.has(document)) bundles.set(document, JSON.parse(readFileSync(bundledSpecPath(document), 'utf8')));
    return bundles.get(document);
  };
  return sandboxCredentials(definitions, bundleOf);
}

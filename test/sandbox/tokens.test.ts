/**
 * The sandbox's token issuer: opaque seeded tokens, expiry on the sandbox clock, credentials compared in constant time;
 * and its seeded credentials, derived from the definitions and the security schemes of their specs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { isBaasOnlyScope } from '../../src/accounts/definition.js';
import { bundledSpecPath } from '../../src/checks/registry.js';
import { sandboxCredentialsOf, sandboxSecret } from '../../src/runtime/definition.js';
import { createSandboxClock } from '../../src/sandbox/clock.js';
import { createSeededRandom } from '../../src/sandbox/random.js';
import {
  createTokenIssuer,
  defaultSandboxCredentials,
  type SandboxCredential,
  sandboxCredentials,
  schemeScopes,
} from '../../src/sandbox/tokens.js';
import { definitions } from '../helpers/interfaces.js';

const start = Date.UTC(2026, 0, 5, 12, 0, 0);
const credentials: SandboxCredential[] = [
  { clientId: 'partner', clientSecret: 'correct horse battery staple', scopes: ['cob.read', 'cob.write'] },
  { clientId: 'baas_other', clientSecret: 'another-secret', scopes: [] },
];

function issuer(seed = 'tokens-test') {
  const clock = createSandboxClock({ startMs: start, speed: 0 });
  clock.stop(); // frozen and timer-free: only advance moves it
  return { clock, tokens: createTokenIssuer({ clock, random: createSeededRandom(seed), credentials }) };
}

const principal = { clientId: 'partner', scopes: ['cob.read'] };

describe('createTokenIssuer', () => {
  it('issues opaque tokens of at least 32 letters and digits that verify to their principal', () => {
    const { tokens } = issuer();
    const first = tokens.issue(principal, 3600);
    const second = tokens.issue(principal, 3600);
    expect(first).toMatch(/^[A-Za-z0-9]{32,}$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('partner');
    expect(tokens.verify(first)).toEqual(principal);
  });

  it('carries the tokens an earlier issuer gave out (a reset), their expiry included', () => {
    const { clock, tokens } = issuer();
    const lasting = tokens.issue(principal, 3600);
    const brief = tokens.issue(principal, 60);
    const next = createTokenIssuer({ clock, random: createSeededRandom('after-reset'), credentials, carried: tokens.issued() });
    expect(next.verify(lasting)).toEqual(principal);
    clock.advance(61_000);
    expect(next.verify(brief)).toBe('expired');
    expect(next.verify(lasting)).toEqual(principal);
    expect(createTokenIssuer({ clock, random: createSeededRandom('fresh'), credentials }).verify(lasting)).toBe('unknown');
  });

  it('issues the same tokens for the same seed (a seeded run repeats)', () => {
    const issueThree = (seed: string) => {
      const { tokens } = issuer(seed);
      return [1, 2, 3].map(() => tokens.issue(principal, 60));
    };
    expect(issueThree('seed-a')).toEqual(issueThree('seed-a'));
    expect(issueThree('seed-a')).not.toEqual(issueThree('seed-b'));
  });

  it('keeps the principal as issued: changing the caller’s array afterwards changes nothing', () => {
    const { tokens } = issuer();
    const scopes = ['cob.read'];
    const token = tokens.issue({ clientId: 'partner', scopes }, 60);
    scopes.push('cob.write');
    expect(tokens.verify(token)).toEqual({ clientId: 'partner', scopes: ['cob.read'] });
  });

  it.each([
    { given: { ttlSeconds: 60, advanceMs: 0 }, want: 'valid' },
    { given: { ttlSeconds: 60, advanceMs: 59_999 }, want: 'valid' },
    { given: { ttlSeconds: 60, advanceMs: 60_000 }, want: 'expired' },
    { given: { ttlSeconds: 3600, advanceMs: 86_400_000 }, want: 'expired' },
    { given: { ttlSeconds: 0.5, advanceMs: 499 }, want: 'valid' },
  ])('measures expiry on the sandbox clock: $given → $want', ({ given, want }) => {
    const { clock, tokens } = issuer();
    const token = tokens.issue(principal, given.ttlSeconds);
    clock.advance(given.advanceMs);
    expect(tokens.verify(token)).toEqual(want === 'valid' ? principal : 'expired');
  });

  it.each([{ given: '' }, { given: 'not-a-token' }, { given: 'A'.repeat(43) }])(
    'answers unknown to a token never issued: "$given"',
    ({ given }) => {
      expect(issuer().tokens.verify(given)).toBe('unknown');
    },
  );

  it.each([{ given: 0 }, { given: -1 }, { given: Number.NaN }])('refuses a lifetime of $given seconds', ({ given }) => {
    expect(() => issuer().tokens.issue(principal, given)).toThrow(RangeError);
  });

  it.each([
    { given: ['partner', 'correct horse battery staple'], want: true },
    { given: ['partner', 'correct horse battery stapl'], want: false },
    { given: ['partner', 'correct horse battery staple!'], want: false },
    { given: ['partner', 'Correct horse battery staple'], want: false },
    { given: ['partner', ''], want: false },
    { given: ['partner', 'another-secret'], want: false },
    { given: ['baas_other', 'another-secret'], want: true },
    { given: ['nobody', 'correct horse battery staple'], want: false },
    { given: ['', ''], want: false },
  ])('checks the credential $given.0 / "$given.1" → $want (secrets of any length, no throw)', ({ given, want }) => {
    expect(issuer().tokens.checkCredential(given[0]!, given[1]!)).toBe(want);
  });

  it('tells the scopes of a known credential, undefined for an unknown one', () => {
    const { tokens } = issuer();
    expect(tokens.scopesOf('partner')).toEqual(['cob.read', 'cob.write']);
    expect(tokens.scopesOf('nobody')).toBeUndefined();
  });

  it('refuses a credential listed twice', () => {
    const clock = createSandboxClock({ speed: 0 });
    clock.stop();
    const twice = [credentials[0]!, { ...credentials[0]!, clientSecret: 'other' }];
    expect(() => createTokenIssuer({ clock, random: createSeededRandom('x'), credentials: twice })).toThrow(/listed twice/);
  });
});

describe('sandboxCredentials: from the definitions and the security schemes of their specs', () => {
  const oauth2 = (...scopes: string[]) => ({
    components: {
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: { clientCredentials: { tokenUrl: '/token', scopes: Object.fromEntries(scopes.map((s) => [s, s])) } },
        },
        mutualTLS: { type: 'mutualTLS' },
      },
    },
  });
  const bundles: Record<string, unknown> = {
    widgets: oauth2('widgets.read', 'widgets.write'),
    gadgets: oauth2('gadgets.read', 'widgets.read'),
    'gadget-files': oauth2('files.read'),
    plain: { components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'key' } } } },
  };
  const document = (name: string) => ({
    name,
    identifier: name,
    title: name,
    mockPort: 0,
    load: () => Promise.reject(new Error('unused')),
  });
  const credentialsOf = (definition: object) =>
    sandboxCredentials([definition as never], (name) => bundles[name]).map(({ clientId, scopes }) => [clientId, scopes]);

  it.each([
    {
      given: 'no declaration: sandbox-<name>, every scope of its documents',
      definition: { name: 'gadgets', documents: [document('gadgets'), document('gadget-files')] },
      want: [['sandbox-gadgets', ['gadgets.read', 'widgets.read', 'files.read']]],
    },
    {
      given: 'a scheme without scopes (an API key): a credential with none',
      definition: { name: 'plain', documents: [document('plain')] },
      want: [['sandbox-plain', []]],
    },
    {
      given: 'declared credentials, the scopes of other documents, some it lacks',
      definition: {
        name: 'widgets',
        documents: [document('widgets')],
        sandbox: {
          credentials: [
            { clientId: 'widgets-partner', scopesOf: ['widgets', 'gadgets'] },
            { clientId: 'widgets-reader', lacks: (scope: string) => scope.endsWith('.write') },
          ],
        },
      },
      want: [
        ['widgets-partner', ['widgets.read', 'widgets.write', 'gadgets.read']],
        ['widgets-reader', ['widgets.read']],
      ],
    },
  ])('$given', ({ definition, want }) => {
    expect(credentialsOf(definition)).toEqual(want);
  });

  it('gives every credential the secret sandbox-secret', () => {
    expect(sandboxCredentials(definitions, (name) => bundles[name] ?? {}).map((credential) => credential.clientSecret)).toEqual(
      definitions.flatMap((definition) => sandboxCredentialsOf(definition).map(() => sandboxSecret)),
    );
  });
});

describe('defaultSandboxCredentials', () => {
  const defaults = defaultSandboxCredentials();
  const bundleScopes = (document: string): string[] => schemeScopes(JSON.parse(readFileSync(bundledSpecPath(document), 'utf8')));
  const scopesOf = (clientId: string) => defaults.find((credential) => credential.clientId === clientId)?.scopes;
  const sorted = (scopes: readonly string[] | undefined) => [...(scopes ?? [])].sort();

  it('seeds the credentials of every definition, each client id once', () => {
    const ids = defaults.map((credential) => credential.clientId);
    expect(ids).toEqual(definitions.flatMap((definition) => sandboxCredentialsOf(definition).map((credential) => credential.clientId)));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('knows every credential the sandbox guide names, with its secret', () => {
    const guide = readFileSync(join(projectRoot, 'docs/guides/sandbox.md'), 'utf8');
    const header = guide.indexOf('| interface | base URL | credential');
    // The credential column of the table's rows (after its header and separator lines).
    const rows = guide.slice(header, guide.indexOf('\n\n', header)).split('\n').slice(2);
    const named = rows.flatMap((row) => [...(row.split('|').at(-2) ?? '').matchAll(/`([a-z_-]+)`/g)].map((match) => match[1]!));
    expect(named.length).toBeGreaterThanOrEqual(definitions.length);
    for (const clientId of named) expect(scopesOf(clientId), clientId).toBeDefined();
    expect(guide).toContain(`secret \`${sandboxSecret}\``);
  });

  it.each(definitions.map((definition) => [definition.name, definition] as const))(
    '%s: a credential it does not declare holds every scope of its documents (they cannot drift from the bundles)',
    (_name, definition) => {
      if (definition.sandbox?.credentials) return;
      const [credential] = sandboxCredentialsOf(definition);
      expect(sorted(scopesOf(credential!.clientId))).toEqual(
        sorted(definition.documents.flatMap((document) => bundleScopes(document.name))),
      );
    },
  );

  it('gives the BaaS credential every scope of section 5: those of the accounts and core-banking schemes but institution', () => {
    // `institution` is core banking's own scope, which section 5's table omits (its description says so).
    const sectionFive = new Set([...bundleScopes('accounts'), ...bundleScopes('core-banking')].filter((scope) => scope !== 'institution'));
    expect(sorted(scopesOf('baas_sandbox'))).toEqual(sorted([...sectionFive]));
    expect(sectionFive.size).toBe(42);
  });

  it('gives the account credential the scopes of section 5 but the BaaS-only ones', () => {
    const baas = scopesOf('baas_sandbox') ?? [];
    expect(sorted(scopesOf('sandbox-account'))).toEqual(sorted(baas.filter((scope) => !isBaasOnlyScope(scope))));
    expect(baas.filter((scope) => isBaasOnlyScope(scope)).sort()).toEqual([
      'baas-users.read',
      'baas-users.write',
      'baas.accounts.read',
      'baas.credentials.write',
      'baas.onboarding.read',
      'baas.onboarding.write',
      'fee-rules.read',
      'fee-rules.write',
    ]);
  });

  it('names the BaaS credential with the baas_ prefix of section 5.5, and only it', () => {
    expect(defaults.filter((credential) => credential.clientId.startsWith('baas_')).map((c) => c.clientId)).toEqual(['baas_sandbox']);
  });

  it('gives the messages credential no scopes (interface C has a svc-token session, not scopes)', () => {
    expect(scopesOf('sandbox-messages')).toEqual([]);
  });

  it('accepts every default credential with its documented secret', () => {
    const clock = createSandboxClock({ speed: 0 });
    clock.stop();
    const tokens = createTokenIssuer({ clock, random: createSeededRandom('defaults'), credentials: defaults });
    expect(defaults.filter((credential) => !tokens.checkCredential(credential.clientId, sandboxSecret))).toEqual([]);
  });
});

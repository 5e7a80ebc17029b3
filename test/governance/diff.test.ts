/**
 * `contrato diff` against a table of spec mutations, each with the classification section 9.3 gives it;
 * the command's exit codes; and the working specs against their latest release snapshot, less the
 * corrections listed next to it (what CI holds every change to). corrections.test.ts tests the corrections.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { bundledSpecPath } from '../../src/checks/registry.js';
import { collectChanges, latestVersion, renderInterface } from '../../src/governance/changelog.js';
import { diffSpecs, type Classification } from '../../src/governance/diff.js';
import { interfaces } from '../../src/interfaces.js';

type Json = Record<string, any>;
const load = (name: Parameters<typeof bundledSpecPath>[0]): Json => JSON.parse(readFileSync(bundledSpecPath(name), 'utf8')) as Json;
const core = load('core-banking');
const accounts = load('accounts');
const schema = (doc: Json, name: string): Json => doc.components.schemas[name] as Json;
const op = (doc: Json, path: string, method: string): Json => doc.paths[path][method] as Json;

interface Mutation {
  readonly given: string;
  readonly base: Json;
  readonly mutate: (doc: Json) => void;
  /** The classifications expected among the changes (`none`: no change at all). */
  readonly want: Classification | 'none';
  /** Text the change list must contain. */
  readonly says?: RegExp;
}

const mutations: Mutation[] = [
  { given: 'nothing changed', base: core, mutate: () => undefined, want: 'none' },
  {
    given: 'fields of a schema reordered',
    base: core,
    mutate: (d) =>
      (schema(d, 'FeeRule').properties = Object.fromEntries(Object.entries(schema(d, 'FeeRule').properties as Json).reverse())),
    want: 'none',
  },
  {
    given: 'a new resource (operation)',
    base: core,
    mutate: (d) => (d.paths['/people'] = { get: { operationId: 'people.list', responses: { '200': { description: 'ok' } } } }),
    want: 'compatible',
    says: /new operation/,
  },
  { given: 'an operation removed', base: core, mutate: (d) => delete d.paths['/baas'], want: 'breaking', says: /operation removed/ },
  {
    given: 'a new optional query parameter',
    base: core,
    mutate: (d) => op(d, '/fee-rules', 'get').parameters.push({ name: 'weight', in: 'query', schema: { type: 'integer' } }),
    want: 'compatible',
    says: /new optional parameter/,
  },
  {
    given: 'a new required query parameter',
    base: core,
    mutate: (d) => op(d, '/fee-rules', 'get').parameters.push({ name: 'weight', in: 'query', required: true, schema: { type: 'integer' } }),
    want: 'breaking',
    says: /new required parameter/,
  },
  {
    given: 'a new required request field',
    base: core,
    mutate: (d) => (
      (schema(d, 'FeeRuleCreateRequest').properties.code = { type: 'string' }), schema(d, 'FeeRuleCreateRequest').required.push('code')
    ),
    want: 'breaking',
    says: /new required request field/,
  },
  {
    given: 'a new optional request field',
    base: core,
    mutate: (d) => (schema(d, 'FeeRuleCreateRequest').properties.code = { type: 'string' }),
    want: 'compatible',
    says: /new optional request field/,
  },
  {
    given: 'an optional request field made required',
    base: core,
    mutate: (d) => schema(d, 'FeeRuleCreateRequest').required.push('fixedAmount'),
    want: 'breaking',
    says: /now required/,
  },
  {
    given: 'a new response field',
    base: core,
    mutate: (d) => (schema(d, 'FeeRule').properties.channel = { type: 'string' }),
    want: 'compatible',
    says: /new response field/,
  },
  {
    given: 'a response field removed',
    base: core,
    mutate: (d) => delete schema(d, 'FeeRule').properties.weight,
    want: 'breaking',
    says: /response field removed/,
  },
  {
    given: 'a request field removed',
    base: core,
    mutate: (d) => delete schema(d, 'FeeRuleCreateRequest').properties.fixedAmount,
    want: 'breaking',
    says: /request field removed/,
  },
  {
    given: 'a new enumeration element in a response',
    base: accounts,
    mutate: (d) => schema(d, 'CaasOrder').properties.status['x-known-values'].push('ON_HOLD'),
    want: 'compatible',
    says: /enumeration element added: "ON_HOLD"/,
  },
  {
    given: 'an enumeration element removed from a response',
    base: accounts,
    mutate: (d) => schema(d, 'CaasOrder').properties.status['x-known-values'].pop(),
    want: 'breaking',
    says: /enumeration element removed/,
  },
  {
    given: 'a new enumeration element in a request',
    base: accounts,
    mutate: (d) => schema(d, 'CaasNetwork').enum.push('SOL'),
    want: 'compatible',
    says: /enumeration element added: "SOL"/,
  },
  {
    given: 'an enumeration element removed from a request',
    base: accounts,
    mutate: (d) => (schema(d, 'CaasNetwork').enum = ['BTC', 'ETH']),
    want: 'breaking',
    says: /enumeration element removed: "TRX"/,
  },
  {
    given: 'a request type narrowed (number to integer)',
    base: core,
    mutate: (d) => (schema(d, 'FeeRuleCreateRequest').properties.percent.type = 'integer'),
    want: 'breaking',
    says: /type no longer accepts number/,
  },
  {
    given: 'a request pattern added',
    base: core,
    mutate: (d) => (schema(d, 'FeeRuleCreateRequest').properties.name.pattern = '^[A-Z]'),
    want: 'breaking',
    says: /pattern added/,
  },
  {
    given: 'a request maximum length lowered',
    base: accounts,
    mutate: (d) => (schema(d, 'CaasWalletCreateRequest').properties.alias.maxLength = 50),
    want: 'breaking',
    says: /maxLength 100 → 50/,
  },
  {
    given: 'a request maximum length raised',
    base: accounts,
    mutate: (d) => (schema(d, 'CaasWalletCreateRequest').properties.alias.maxLength = 200),
    want: 'compatible',
    says: /maxLength 100 → 200/,
  },
  {
    given: 'a request range narrowed (minimum raised)',
    base: core,
    mutate: (d) =>
      op(d, '/fee-rules', 'get').parameters.find((p: Json) => p.$ref?.endsWith('CorePerPage'))
        ? (d.components.parameters.CorePerPage.schema.minimum = 5)
        : undefined,
    want: 'breaking',
    says: /minimum 1 → 5/,
  },
  {
    given: 'a request format added',
    base: core,
    mutate: (d) => (schema(d, 'FeeRuleCreateRequest').properties.name.format = 'email'),
    want: 'breaking',
    says: /format added/,
  },
  {
    given: 'the path of a documented operation changed',
    base: core,
    mutate: (d) => ((d.paths['/fee-rules-v2'] = d.paths['/fee-rules']), delete d.paths['/fee-rules']),
    want: 'breaking',
    says: /method or path changed from GET \/fee-rules/,
  },
  {
    given: 'the route of a provisional operation changed',
    base: accounts,
    mutate: (d) => ((d.paths['/transfers/ted'] = d.paths['/ted']), delete d.paths['/ted']),
    want: 'compatible',
    says: /provisional route/,
  },
  {
    given: 'a status code removed',
    base: core,
    mutate: (d) => delete op(d, '/fee-rules/{id}', 'get').responses['404'],
    want: 'breaking',
    says: /status 404 removed/,
  },
  {
    given: 'an error status newly documented (404 on GET /fee-rules)',
    base: core,
    mutate: (d) => (op(d, '/fee-rules', 'get').responses['404'] = { $ref: '#/components/responses/NotFound' }),
    want: 'compatible',
    says: /status 404 added \(an error answer newly documented; clients already handle problems\)/,
  },
  {
    given: 'a success status added (202 on POST /fee-rules)',
    base: core,
    mutate: (d) => (op(d, '/fee-rules', 'post').responses['202'] = { description: 'Accepted.' }),
    want: 'breaking',
    says: /status 202 added \(changed status codes\)/,
  },
  {
    given: 'a redirect status added (303 on GET /fee-rules)',
    base: core,
    mutate: (d) => (op(d, '/fee-rules', 'get').responses['303'] = { description: 'See other.' }),
    want: 'breaking',
    says: /status 303 added \(changed status codes\)/,
  },
  {
    given: 'a status code changed (201 to 200)',
    base: core,
    mutate: (d) => (
      (op(d, '/fee-rules', 'post').responses['200'] = op(d, '/fee-rules', 'post').responses['201']),
      delete op(d, '/fee-rules', 'post').responses['201']
    ),
    want: 'breaking',
    says: /status 201 removed/,
  },
  {
    given: 'a new event type',
    base: accounts,
    mutate: (d) => (d.webhooks['pix.automatic.created'] = d.webhooks.TRANSFER),
    want: 'compatible',
    says: /new event type/,
  },
  {
    given: 'an event type removed',
    base: accounts,
    mutate: (d) => delete d.webhooks['invoice.overdue'],
    want: 'breaking',
    says: /event type removed/,
  },
  {
    given: 'a new field in an event payload',
    base: accounts,
    mutate: (d) => (schema(d, 'InvoiceEventData').properties.paidAt = { type: 'string' }),
    want: 'compatible',
    says: /webhook invoice\.\w+ payload\/data\/paidAt: new response field/,
  },
];

describe('contrato diff classifies each change under section 9.3', () => {
  it.each(mutations.map((m) => [m.given, m] as const))('%s', (_given, mutation) => {
    const after = structuredClone(mutation.base);
    mutation.mutate(after);
    const result = diffSpecs(mutation.base, after);
    if (mutation.want === 'none') {
      expect(result.changes).toEqual([]);
      return;
    }
    const lines = result.changes.map((change) => `${change.classification} ${change.where}: ${change.change}`).join('\n');
    expect(result.changes.length, lines).toBeGreaterThan(0);
    if (mutation.says) expect(lines).toMatch(mutation.says);
    expect(result.breaking, lines).toBe(mutation.want === 'breaking');
  });

  it('allows breaking changes when the major version is raised', () => {
    const after = structuredClone(core);
    delete after.paths['/baas'];
    expect(diffSpecs(core, after)).toMatchObject({ breaking: true, majorRaised: false });
    after.info.version = '1.0.0';
    expect(diffSpecs(core, after)).toMatchObject({ breaking: true, majorRaised: true });
  });
});

describe('contrato diff on the command line', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'contrato-diff-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const write = (name: string, doc: Json) => {
    const path = join(scratch, name);
    writeFileSync(path, JSON.stringify(doc));
    return path;
  };
  const contrato = (args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'src/cli/main.ts'), 'diff', ...args], {
      cwd: projectRoot,
      encoding: 'utf8',
    });

  it('exits 0 with compatible changes, 1 with a breaking one, 0 again once the major is raised, 2 without two files', () => {
    const compatible = structuredClone(core);
    schema(compatible, 'FeeRule').properties.channel = { type: 'string' };
    const breaking = structuredClone(core);
    delete breaking.paths['/baas'];
    const major = structuredClone(breaking);
    major.info.version = '1.0.0';
    const base = write('old.json', core);
    expect(contrato([base, write('compatible.json', compatible)])).toMatchObject({
      status: 0,
      stdout: expect.stringMatching(/compatible .*channel: new response field\nno breaking change/),
    });
    expect(contrato([base, write('breaking.json', breaking)])).toMatchObject({
      status: 1,
      stdout: expect.stringMatching(/BREAKING .*operation removed[\s\S]*without a new major version \(0\.40\.0 → 0\.40\.0\)/),
    });
    expect(contrato([base, write('major.json', major)])).toMatchObject({
      status: 0,
      stdout: expect.stringMatching(/allowed: the major version went from 0\.40\.0 to 1\.0\.0/),
    });
    expect(contrato([base]).status).toBe(2);
  });
});

describe('the working specs against their latest release', () => {
  // The release and its corrections as `contrato changelog` finds them (the highest version of specs/releases/<name>/).
  it.each(interfaces.map((info) => info.name))('%s breaks nothing of its latest release, or raises the major version', async (name) => {
    const [entry] = await collectChanges(projectRoot, [name]);
    const { release, result } = entry!;
    if (release === null || result === null) {
      // Not released yet: nothing to break, and the changelog says so.
      expect(
        existsSync(join(projectRoot, 'specs/releases', name))
          ? latestVersion(readdirSync(join(projectRoot, 'specs/releases', name)))
          : null,
      ).toBeNull();
      expect(renderInterface(entry!)).toContain('Not released yet');
      return;
    }
    const breaking = result.changes
      .filter((change) => change.classification === 'breaking')
      .map((change) => `${change.where}: ${change.change}`);
    if (!result.majorRaised) expect(breaking).toEqual([]);
    // A listed correction the diff no longer reports must leave the corrections file.
    expect(result.staleCorrections).toEqual([]);
    expect(entry!.workingVersion >= release.version || result.majorRaised).toBe(true);
  });
});

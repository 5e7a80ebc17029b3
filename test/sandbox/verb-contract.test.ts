/**
 * The contract of the control verbs: every verb of every sandbox module declares what it takes, every place
 * it names exists in the bundled spec, and a value is judged at its place by the spec's own schema (strict:
 * known values closed), never by a limit typed again.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bundledSpecPath } from '../../src/checks/registry.js';
import { strictValidator } from '../../src/checks/strict-response.js';
import { check } from '../../src/runtime/validation.js';
import { sandboxModules } from '../../src/sandbox/modules.js';
import { contractOf, resolvePlace, type SchemaSource, VerbChecker } from '../../src/sandbox/verb-contract.js';

const bundles = new Map<string, Record<string, unknown>>();
const bundleOf = (document: string): Record<string, unknown> => {
  if (!bundles.has(document)) bundles.set(document, JSON.parse(readFileSync(bundledSpecPath(document), 'utf8')));
  return bundles.get(document)!;
};
const source: SchemaSource = {
  bundle: bundleOf,
  strictValidator,
  check: (validator, value, pointer) => check(validator, value, pointer),
};
const checker = new VerbChecker(source);

const verbs = sandboxModules.flatMap((module) =>
  Object.entries(module.controls ?? {}).map(([name, verb]) => ({ label: `${module.document}/${name}`, module, verb })),
);

describe('every control verb declares its contract', () => {
  it.each(verbs)('$label declares what it takes, in its own document, at places the spec has', ({ module, verb }) => {
    const contract = contractOf(verb);
    expect(contract).toBeDefined();
    expect(contract!.document).toBe(module.document);
    const places = [...Object.values(contract!.lands ?? {}), ...Object.values(contract!.answers ?? {})]
      .filter((place) => typeof place !== 'function')
      .flat() as string[];
    for (const place of places) expect(() => resolvePlace(bundleOf(module.document), module.document, place)).not.toThrow();
  });
});

describe('a place is found in the bundle', () => {
  it.each([
    { given: 'a member of a component', place: 'Pix/valor', want: { type: 'string', format: 'brl-amount' } },
    { given: 'a nested member', place: 'RecEncerramento/rejeicao/codigo', want: { maxLength: 4 } },
    { given: 'a member inside the items of an array', place: 'CobRTentativas/rejeicao/codigo', want: { maxLength: 4 } },
    { given: 'a component alone', place: 'Chave', want: { format: 'pix-key', maxLength: 77 } },
  ])('$given: $place', ({ place, want }) => {
    expect(resolvePlace(bundleOf('pix'), 'pix', place).schema).toMatchObject(want);
  });

  it.each([
    { given: 'an unknown component', place: 'Nada/valor', want: /pix#Nada\/valor: pix has no schema Nada/ },
    { given: 'an unknown member', place: 'Pix/nada', want: /pix#Pix\/nada: no member nada there/ },
  ])('$given is an error naming it', ({ place, want }) => {
    expect(() => resolvePlace(bundleOf('pix'), 'pix', place)).toThrow(want);
  });
});

describe('a value is judged where it lands', () => {
  it.each([
    { given: 'the amount of the reproduction', place: 'Pix/valor', value: '12345678901.00', want: ['format'] },
    { given: 'an amount with 10 digits', place: 'Pix/valor', value: '1234567890.00', want: [] },
    { given: 'a number for a text amount', place: 'Pix/valor', value: 10.5, want: ['type'] },
    { given: '141 characters of infoPagador', place: 'Pix/infoPagador', value: 'x'.repeat(141), want: ['maxLength'] },
    { given: '140 characters of infoPagador', place: 'Pix/infoPagador', value: 'x'.repeat(140), want: [] },
    {
      given: 'a code the standard does not list (known values closed)',
      place: 'RecEncerramento/rejeicao/codigo',
      value: 'ZZ99',
      want: ['enum'],
    },
    { given: 'a listed attempt rejection code', place: 'CobRTentativas/rejeicao/codigo', value: 'AM02', want: [] },
    { given: 'a key of 78 characters', place: 'Chave', value: `${'a'.repeat(66)}@example.com`, want: ['format', 'maxLength'] },
  ])('$given: $want', ({ place, value, want }) => {
    const issues = checker.issuesAt('pix', place, value, '/member');
    expect([...new Set(issues.map((issue) => issue.rule))].sort()).toEqual(want);
    for (const issue of issues) expect(issue).toMatchObject({ pointer: '/member', place: `pix#${place}` });
  });

  it('a member the verb does not take is refused, naming what it takes', () => {
    const contract = { document: 'pix', selects: { txid: 'the charge' }, lands: { valor: 'Pix/valor' } };
    expect(checker.inputViolations(contract, { txid: 'a', infoPagadr: 'x' })).toEqual([
      { pointer: '/infoPagadr', rule: 'known inputs', message: 'is not an input of this verb; it takes txid, valor' },
    ]);
  });

  it('a landing chosen from the body is checked at the place chosen', () => {
    const contract = {
      document: 'pix',
      selects: { status: 'the move' },
      lands: {
        codigo: (body: Record<string, unknown>) =>
          body.status === 'CANCELADA' ? 'RecEncerramento/cancelamento/codigo' : 'RecEncerramento/rejeicao/codigo',
      },
    };
    expect(checker.inputViolations(contract, { status: 'CANCELADA', codigo: 'SLDB' })).toEqual([]);
    expect(checker.inputViolations(contract, { status: 'REJEITADA', codigo: 'SLDB' }).map((issue) => issue.place)).toEqual([
      'pix#RecEncerramento/rejeicao/codigo',
    ]);
  });

  it('a declared answer is checked at its component; an undeclared member is not', () => {
    const contract = { document: 'pix', answers: { '/pix': 'Pix' } };
    const pix = { endToEndId: 'E99999020202601011200abcdefghijk', valor: '12345678901.00', horario: '2026-01-01T12:00:00Z' };
    expect(checker.answerViolations(contract, { pix, other: { anything: 1 } }, {}).map((issue) => issue.pointer)).toEqual(['/pix/valor']);
  });
});

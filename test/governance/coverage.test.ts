/**
 * `npm run coverage` as CI runs it: every item of the interface specification accounted for in
 * specs/traceability.yaml with pointers that resolve and tests that exist, docs/coverage.md current; and
 * the check failing on copies of the traceability broken on purpose.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { computeCoverage } from '../../scripts/coverage.js';
import { projectRoot } from '../../scripts/lib.js';
import { definitions } from '../helpers/interfaces.js';

const inventory = JSON.parse(readFileSync(join(projectRoot, 'specs/inventory.json'), 'utf8')) as Record<string, unknown[]>;
const trace = parse(readFileSync(join(projectRoot, 'specs/traceability.yaml'), 'utf8')) as Record<string, any>;
const broken = (edit: (copy: Record<string, any>) => void) => {
  const copy = structuredClone(trace);
  edit(copy);
  return computeCoverage({ trace: copy }).problems;
};

describe('coverage of the interface specification', () => {
  it('accounts for every item, and docs/coverage.md is current (npm run coverage writes it)', () => {
    const { problems, markdown } = computeCoverage();
    expect(problems).toEqual([]);
    expect(readFileSync(join(projectRoot, 'docs/coverage.md'), 'utf8')).toBe(markdown);
    expect(markdown).toContain(`All ${inventory.operations!.length} operations, ${inventory.rules!.length} rules`);
  });

  it('gives every interface of the definitions its section, in their order', () => {
    const headings = computeCoverage()
      .markdown.split('\n')
      .filter((line) => / — `contrato\//.test(line));
    expect(headings).toEqual(
      definitions.map((definition) => `## ${definition.title} (${definition.letter}) — \`contrato/${definition.name}\``),
    );
  });

  it('gives an interface the inventory does not name a section listing its operations, and asks nothing of it', () => {
    // A new interface G whose one document is an existing bundle (pix-location, three operations).
    const location = definitions.flatMap((definition) => definition.documents).find((document) => document.name === 'pix-location')!;
    const gadgets = { name: 'gadgets', letter: 'G', title: 'Gadgets API', documents: [location] as const };
    const { problems, markdown } = computeCoverage({ definitions: [...definitions, gadgets] });
    expect(problems).toEqual([]);
    const section = markdown.slice(markdown.indexOf('## Gadgets API (G) — `contrato/gadgets`'));
    expect(section.split('\n')[2]).toMatch(
      /^Not described by the interface specification: its inventory names no item of interface G\. Its 3 operations, from its specs: `cobPayload\.get`, /,
    );
  });

  it.each([
    ['an operation left out', (t: Record<string, any>) => delete t.operations['A.keys.list'], /operation A\.keys\.list: not accounted for/],
    [
      'a pointer to nothing',
      (t: Record<string, any>) => (t.operations['D.feeRules.create'].spec = ['core-banking#/paths/~1nowhere/post']),
      /does not resolve/,
    ],
    [
      'a test that does not exist',
      (t: Record<string, any>) => (t.events['invoice.paid'].tests = ['test/events/nothing.test.ts']),
      /test test\/events\/nothing\.test\.ts does not exist/,
    ],
    [
      'a rule whose tests do not name it',
      (t: Record<string, any>) => (t.rules['R-A-caas-pairs'].tests = ['test/events/parse.test.ts']),
      /rule R-A-caas-pairs: no listed test names it/,
    ],
    [
      'a rule not checkable without a reason',
      (t: Record<string, any>) => ((t.rules['R-A-caas-pairs'].enforced = 'not-checkable'), delete t.rules['R-A-caas-pairs'].reason),
      /no reason given/,
    ],
    [
      'a rule the inventory does not have',
      (t: Record<string, any>) => (t.rules['R-X-invented'] = { enforced: 'schema', tests: [] }),
      /R-X-invented: in the traceability but not in the inventory/,
    ],
    [
      'an operation of D pointing into the accounts bundle',
      (t: Record<string, any>) => (t.operations['D.auth.token'].spec = ['accounts#/paths/~1auth~1token/post']),
      /operation D\.auth\.token: spec pointer accounts#\/paths\/~1auth~1token\/post is in accounts, not in a document of its interface \(core-banking\)/,
    ],
    [
      'a shape of B pointing into the core-banking bundle',
      (t: Record<string, any>) => (t.shapes[Object.keys(t.shapes).find((id) => id.startsWith('B.'))!].spec = ['core-banking#/paths']),
      /shape B\.\S+: spec pointer core-banking#\/paths is in core-banking, not in a document of its interface \(pix, pix-location\)/,
    ],
    [
      'an exact operation called provisional',
      (t: Record<string, any>) => (t.operations['D.invoices.create'].status = 'provisional'),
      /operation D\.invoices\.create: status provisional in the traceability, exact in core-banking#/,
    ],
    [
      'a provisional route called exact',
      (t: Record<string, any>) => (t.operations['D.invoices.cancel'].status = 'exact'),
      /operation D\.invoices\.cancel: status exact in the traceability, provisional in/,
    ],
    [
      'an exact operation pointing at another route',
      (t: Record<string, any>) => (t.operations['D.feeRules.create'].spec = ['core-banking#/paths/~1fee-rules/get']),
      /operation D\.feeRules\.create: exact, but core-banking#\/paths\/~1fee-rules\/get is not POST \/fee-rules/,
    ],
    [
      'a rule of the standard without its source',
      (t: Record<string, any>) => delete t.standardRules['R-B-std-rec-dates'].source,
      /standard rule R-B-std-rec-dates: no source in the standard given/,
    ],
    [
      'a rule of the standard whose tests do not name it',
      (t: Record<string, any>) => (t.standardRules['R-B-std-rec-dates'].tests = ['test/specs/pix/error-catalogue.test.ts']),
      /rule R-B-std-rec-dates: no listed test names it/,
    ],
    [
      'a rule of the standard under another name',
      (t: Record<string, any>) => (t.standardRules['R-B-loc-tipocob'] = { ...t.standardRules['R-B-std-loc-tipocob'] }),
      /standard rule R-B-loc-tipocob: ids of standard rules are R-B-std-<name>/,
    ],
    ['a not-shown item without handling', (t: Record<string, any>) => delete t.notShown[0].handling, /no handling given/],
  ])('fails on %s', (_given, edit, want) => {
    expect(broken(edit).join('\n')).toMatch(want);
  });
});

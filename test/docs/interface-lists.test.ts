/**
 * The hand-written docs never hold a list of the interfaces that could go stale: the README's table agrees
 * with the definitions (each row's subpath, spec folder and mock port are its document's, and every document
 * of an interface the interface specification describes has its row), and no guide line lists every
 * document by name — the guides point at the derived lists instead (`npx contrato mock --help`,
 * src/interfaces.ts). test/readme.test.ts runs the README's examples.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { definitions, describedDefinitions } from '../helpers/interfaces.js';

const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');

/** The rows of the README's interface table that name a spec folder: `[subpath cell, spec folder, mock port]`. */
function tableRows(text: string): { subpath: string; document: string; mockPort: string }[] {
  const start = text.indexOf('| interface | subpath | spec | mock port |');
  const table = text.slice(start, text.indexOf('\n\n', start)).split('\n').slice(2);
  return table.flatMap((row) => {
    const [, , subpath = '', spec = '', mockPort = ''] = row.split('|').map((cell) => cell.trim());
    const document = /^`specs\/([a-z-]+)\/`$/.exec(spec)?.[1];
    return document ? [{ subpath, document, mockPort }] : [];
  });
}

describe('the README table of the interfaces', () => {
  const rows = tableRows(readme);
  const documents = definitions.flatMap((definition) => definition.documents.map((document) => ({ definition, document })));

  it('has a row for every document of each interface the interface specification describes, once', () => {
    const described = describedDefinitions().flatMap((definition) => definition.documents.map((document) => document.name));
    expect(described.length).toBeGreaterThan(0);
    expect(rows.map((row) => row.document).filter((document) => described.includes(document))).toEqual(described);
  });

  it.each(rows.map((row) => [row.document, row] as const))('the row of specs/%s/ says what its definition says', (name, row) => {
    const found = documents.find(({ document }) => document.name === name);
    expect(found, `${name} is no document of src/interfaces.ts`).toBeDefined();
    expect(row.subpath).toMatch(new RegExp(`^\`contrato/${found!.definition.name}\``));
    expect(row.mockPort).toBe(String(found!.document.mockPort));
  });

  it('reads every row of the table (the check itself works)', () => {
    expect(
      tableRows(
        '| interface | subpath | spec | mock port |\n|---|---|---|---|\n| X | `contrato/x` | `specs/x/` | 4099 |\n| Y | `contrato/y` | — | — |\n\n',
      ),
    ).toEqual([{ subpath: '`contrato/x`', document: 'x', mockPort: '4099' }]);
  });
});

describe('the guides', () => {
  const guides = readdirSync(join(projectRoot, 'docs/guides')).filter((file) => file.endsWith('.md'));
  const names = definitions.flatMap((definition) => definition.documents.map((document) => document.name));

  it.each(guides)('%s lists the interfaces nowhere by hand (a line naming every document would go stale)', (guide) => {
    const text = readFileSync(join(projectRoot, 'docs/guides', guide), 'utf8');
    const listing = text.split('\n').filter((line) => names.every((name) => line.includes(`\`${name}\``)));
    expect(listing).toEqual([]);
  });
});

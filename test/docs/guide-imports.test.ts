/**
 * The code in the guides and the README imports only what the package exports: each name imported from
 * `contrato/<subpath>` in a fenced block is a value the subpath's module exports (type-only imports, which
 * the runtime cannot see, are left to the compiler). A guide that names a removed export fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';

const documents = [
  'README.md',
  ...readdirSync(join(projectRoot, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
  ...readdirSync(join(projectRoot, 'docs/guides'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/guides/${file}`),
];

/** `import { a, type B, c as d } from 'contrato/x'` in the fenced blocks of a markdown text: [subpath, value names]. */
function importsOf(markdown: string): { subpath: string; names: string[] }[] {
  const found: { subpath: string; names: string[] }[] = [];
  for (const block of markdown.split('```').filter((_, index) => index % 2 === 1)) {
    for (const statement of block.split(/;|\n(?=import)/)) {
      const open = statement.indexOf('import {');
      const close = statement.indexOf('}', open);
      const from = statement.indexOf("from 'contrato", close);
      if (open < 0 || close < 0 || from < 0 || statement.trimStart().startsWith('import type')) continue;
      const subpath = statement.slice(from + "from '".length, statement.indexOf("'", from + "from '".length));
      const names = statement
        .slice(open + 'import {'.length, close)
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== '' && !name.startsWith('type '))
        .map((name) => name.split(' as ')[0]!.trim());
      found.push({ subpath, names });
    }
  }
  return found;
}

/** The source module of a package subpath: `contrato/pix` -> src/pix/index.ts. */
function moduleOf(subpath: string): string {
  const name = subpath === 'contrato' ? '' : subpath.slice('contrato/'.length);
  return join(projectRoot, 'src', name, 'index.ts');
}

describe('importsOf', () => {
  it.each([
    { given: "```js\nimport { a, type B, c as d } from 'contrato/pix';\n```", want: [{ subpath: 'contrato/pix', names: ['a', 'c'] }] },
    { given: "```ts\nimport type { A } from 'contrato/pix';\n```", want: [] },
    { given: "import { outside } from 'contrato/pix';", want: [] },
    {
      given: "```js\nimport {\n  first,\n  second,\n} from 'contrato';\n```",
      want: [{ subpath: 'contrato', names: ['first', 'second'] }],
    },
  ])('$given', ({ given, want }) => {
    expect(importsOf(given)).toEqual(want);
  });
});

describe('imports in the guides and the README', () => {
  it.each(documents)('%s imports only what the package exports', async (document) => {
    const problems: string[] = [];
    for (const { subpath, names } of importsOf(readFileSync(join(projectRoot, document), 'utf8'))) {
      const exported = (await import(moduleOf(subpath))) as Record<string, unknown>;
      for (const name of names) if (!(name in exported)) problems.push(`${subpath} exports no ${name}`);
    }
    expect(problems).toEqual([]);
  });
});

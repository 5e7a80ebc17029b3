/**
 * The files and folders of src/ import each other in one direction only: no cycle between files, no cycle
 * between folders, and the runtime (the engine) depends on nothing of the interfaces, the rules or the CLI
 * — only on formats.
 *
 * Every relative import counts: static (`import … from`, `export … from`, a bare `import '…'`), dynamic
 * (`import('…')`) and type-only (`import type`, `import('…').T`). A type-only cycle is erased at run time and
 * cannot break the order modules load in, but it still ties two files so that neither can be read, moved or
 * tested without the other — the knot this rule is about — so it is refused too. The imports are read with
 * TypeScript's parser: one in a comment or a string is not an import.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../scripts/lib.js';
import { definitions } from '../src/interfaces.js';

const source = join(projectRoot, 'src');
const filesBelow = (dir: string): string[] =>
  readdirSync(dir).flatMap((entry) =>
    statSync(join(dir, entry)).isDirectory() ? filesBelow(join(dir, entry)) : entry.endsWith('.ts') ? [join(dir, entry)] : [],
  );

/** The relative module specifiers a TypeScript text imports, static, dynamic or type-only, in order. */
function relativeImports(text: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const specifier =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier
        ? node.moduleSpecifier
        : ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword
          ? node.arguments[0]
          : ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)
            ? node.argument.literal
            : undefined;
    if (specifier && ts.isStringLiteralLike(specifier) && specifier.text.startsWith('.')) found.push(specifier.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('imports.ts', text, ts.ScriptTarget.Latest));
  return found;
}

/** The file of src/ an import names (`./x.js` is x.ts, a folder its index.ts), or null outside src/. */
function importedFile(from: string, specifier: string): string | null {
  const target = resolve(dirname(from), specifier).replace(/\.js$/, '');
  if (!target.startsWith(`${source}/`)) return null;
  return target.endsWith('.ts')
    ? target
    : statSync(target, { throwIfNoEntry: false })?.isDirectory()
      ? join(target, 'index.ts')
      : `${target}.ts`;
}

let files: Map<string, Set<string>> | undefined;
/** File of src/ (its path below src/) → the files of src/ it imports; read once for all the tests. */
function fileGraph(): Map<string, Set<string>> {
  if (files) return files;
  const graph = new Map<string, Set<string>>();
  for (const file of filesBelow(source)) {
    const targets = new Set<string>();
    for (const specifier of relativeImports(readFileSync(file, 'utf8'))) {
      const target = importedFile(file, specifier);
      if (target) targets.add(relative(source, target));
    }
    graph.set(relative(source, file), targets);
  }
  files = graph;
  return graph;
}

const folderOf = (path: string): string => (path.includes('/') ? path.split('/')[0]! : '(src)');

/** Folder → the other folders of src/ it imports from. */
function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const [file, targets] of fileGraph()) {
    const from = folderOf(file);
    const folders = graph.get(from) ?? new Set<string>();
    graph.set(from, folders);
    for (const target of targets) if (folderOf(target) !== from) folders.add(folderOf(target));
  }
  return graph;
}

/** A cycle of the graph, as a path that starts and ends at the same node, or null. */
function findCycle(graph: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string, path: string[]): string[] | null => {
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node];
    if (state.get(node) === 'done') return null;
    state.set(node, 'open');
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next, [...path, node]);
      if (cycle) return cycle;
    }
    state.set(node, 'done');
    return null;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node, []);
    if (cycle) return cycle;
  }
  return null;
}

describe('architecture of src/', () => {
  it('has no import cycle between files', () => {
    expect(findCycle(fileGraph())).toBeNull();
  });

  it('has no import cycle between folders', () => {
    expect(findCycle(folderGraph())).toBeNull();
  });

  it('finds a cycle when there is one (the check itself works)', () => {
    expect(
      findCycle(
        new Map([
          ['runtime', new Set(['rules'])],
          ['rules', new Set(['runtime'])],
        ]),
      ),
    ).toEqual(['runtime', 'rules', 'runtime']);
    expect(
      findCycle(
        new Map([
          ['sandbox/pix/index.ts', new Set(['sandbox/pix/charges.ts'])],
          ['sandbox/pix/charges.ts', new Set(['sandbox/pix/state.ts', 'sandbox/pix/batches.ts'])],
          ['sandbox/pix/batches.ts', new Set(['sandbox/pix/charges.ts'])],
        ]),
      ),
    ).toEqual(['sandbox/pix/charges.ts', 'sandbox/pix/batches.ts', 'sandbox/pix/charges.ts']);
  });

  it.each([
    { given: 'a named import', text: "import { a } from './a.js';", want: ['./a.js'] },
    { given: 'an import over several lines', text: "import {\n  a,\n  b,\n} from '../b.js';", want: ['../b.js'] },
    { given: 'a type-only import', text: "import type { T } from './t.js';", want: ['./t.js'] },
    { given: 'a type imported inline', text: "let value: import('./type.js').T;", want: ['./type.js'] },
    { given: 'a bare import', text: "import './effect.js';", want: ['./effect.js'] },
    { given: 're-exports', text: "export { b } from './b.js';\nexport * from './c.js';", want: ['./b.js', './c.js'] },
    { given: 'a dynamic import', text: "const { run } = await import('./lazy.js');", want: ['./lazy.js'] },
    { given: 'a package, not a file of src/', text: "import { join } from 'node:path';", want: [] },
    { given: 'an import in a comment', text: "// import { x } from './comment.js';", want: [] },
    { given: 'an import in a string', text: 'const text = "import { x } from \'./string.js\'";', want: [] },
  ])('reads $given as $want', ({ text, want }) => {
    expect(relativeImports(text)).toEqual(want);
  });

  it('keeps the runtime free of interfaces, rules and the CLI', () => {
    expect([...(folderGraph().get('runtime') ?? [])].sort()).toEqual(['formats']);
  });

  it('names no interface inside src/runtime: what differs comes from the tables and the definitions', () => {
    const names = definitions.flatMap((definition) => [
      definition.name,
      ...definition.documents.flatMap((document) => [document.name, document.identifier]),
    ]);
    const pattern = new RegExp(`(?<![\\w-])(${[...new Set(names)].map((name) => name.replace(/[-]/g, '\\-')).join('|')})(?![\\w-])`, 'i');
    // The check itself works: it sees a name in running text, and not inside another word.
    expect([pattern.test('the core-banking limits'), pattern.test('the API Pix'), pattern.test('pixels')]).toEqual([true, true, false]);
    const runtime = join(source, 'runtime');
    const mentions = [...filesBelow(runtime), join(runtime, 'README.md')].flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) => (pattern.test(line) ? [`${relative(projectRoot, file)}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(mentions).toEqual([]);
  });
});

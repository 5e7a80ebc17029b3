/**
 * The folders of src/ import each other in one direction only: no cycle between folders, and the runtime
 * (the engine) depends on nothing of the interfaces, the rules or the CLI — only on formats.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../scripts/lib.js';
import { definitions } from '../src/interfaces.js';

const source = join(projectRoot, 'src');
const filesBelow = (dir: string): string[] =>
  readdirSync(dir).flatMap((entry) =>
    statSync(join(dir, entry)).isDirectory() ? filesBelow(join(dir, entry)) : entry.endsWith('.ts') ? [join(dir, entry)] : [],
  );
const folderOf = (file: string): string => {
  const path = relative(source, file);
  return path.includes('/') ? path.split('/')[0]! : '(src)';
};

/** Folder → the other folders of src/ it imports from (static and dynamic imports). */
function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of filesBelow(source)) {
    const from = folderOf(file);
    const targets = graph.get(from) ?? new Set<string>();
    graph.set(from, targets);
    for (const match of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
      const target = resolve(dirname(file), match[1]!);
      if (target.startsWith(`${source}/`) && folderOf(target) !== from) targets.add(folderOf(target));
    }
  }
  return graph;
}

/** A cycle of folders, as a path, or null. */
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

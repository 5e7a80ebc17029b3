/**
 * ReDoS audit with redos-detector: every `pattern` of every spec and every regular expression literal
 * in src/ (the format checks run them on user input) must be free of catastrophic backtracking.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isSafePattern } from 'redos-detector';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { listFiles, projectRoot } from '../../scripts/lib.js';
import { isObject, type Json } from '../../scripts/openapi-model.js';
import { bundledSpecPath } from '../../src/checks/registry.js';
import { interfaces } from '../../src/interfaces.js';

function specPatterns(): { where: string; pattern: string }[] {
  const found: { where: string; pattern: string }[] = [];
  const visit = (value: Json, where: string): void => {
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) visit(item, `${where}/${index}`);
    } else if (isObject(value)) {
      for (const [key, child] of Object.entries(value)) {
        if (key === 'pattern' && typeof child === 'string') found.push({ where, pattern: child });
        else visit(child, `${where}/${key}`);
      }
    }
  };
  for (const info of interfaces) visit(JSON.parse(readFileSync(bundledSpecPath(info.name), 'utf8')) as Json, info.name);
  return found;
}

/** Regular expression literals of src/, found with TypeScript's own scanner. */
function sourcePatterns(): { where: string; pattern: string; flags: string }[] {
  const found: { where: string; pattern: string; flags: string }[] = [];
  for (const file of listFiles('src').filter((name) => name.endsWith('.ts'))) {
    const text = readFileSync(join(projectRoot, file), 'utf8');
    const visit = (node: ts.Node): void => {
      if (ts.isRegularExpressionLiteral(node)) {
        const literal = node.text;
        const end = literal.lastIndexOf('/');
        found.push({ where: file, pattern: literal.slice(1, end), flags: literal.slice(end + 1) });
      }
      ts.forEachChild(node, visit);
    };
    visit(ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true));
  }
  return found;
}

const patterns = [...specPatterns().map((entry) => ({ ...entry, flags: '' })), ...sourcePatterns()];

describe('ReDoS audit', () => {
  it('finds the regular expressions of src/formats', () => {
    expect(patterns.filter((entry) => entry.where.startsWith('src/formats/')).length).toBeGreaterThan(20);
  });

  it.each(patterns.map((entry) => [`${entry.where}: /${entry.pattern}/${entry.flags}`, entry] as const))('%s is safe', (_label, entry) => {
    const result = isSafePattern(entry.pattern, {
      caseInsensitive: entry.flags.includes('i'),
      unicode: entry.flags.includes('u'),
      multiLine: entry.flags.includes('m'),
      dotAll: entry.flags.includes('s'),
      timeout: 5_000,
    });
    expect({ safe: result.safe, error: result.error }).toEqual({ safe: true, error: null });
  });
});

/**
 * The operations whose method and path come nearest to ones no operation has, for the line that refuses
 * them ("no operation POST /fee-rule in core-banking; nearest: POST /fee-rules").
 */
import type { OperationInfo } from '../runtime/contract.js';
import type { InterfaceModules } from './registry.js';

/** Edits (insert, delete, replace a character) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * How far a concrete path is from a path template, segment by segment: a `{parameter}` takes any value (or
 * none) for 1, so a literal that matches wins; a literal costs its edits, a segment one side lacks its length.
 */
function pathDistance(target: string, template: string): number {
  const given = target.split('/').filter(Boolean);
  const wanted = template.split('/').filter(Boolean);
  let total = 0;
  for (let index = 0; index < Math.max(given.length, wanted.length); index++) {
    const sent = given[index];
    const expected = wanted[index];
    const parameter = expected !== undefined && /^\{.+\}$/.test(expected);
    if (parameter) total += 1;
    else if (sent === undefined || expected === undefined) total += Math.max(1, (sent ?? expected ?? '').length);
    else total += editDistance(sent.toLowerCase(), expected.toLowerCase());
  }
  return total;
}

/** The `limit` operations nearest to `method` `target` (its query left out), nearest first; the same method counts a little. */
export function nearestOperations(modules: InterfaceModules, method: string, target: string, limit = 3): OperationInfo[] {
  const path = target.split('?')[0]!;
  const scored = Object.values(modules.operationTable).map((info) => ({
    info,
    score: pathDistance(path, info.path) * 2 + (info.method.toUpperCase() === method.toUpperCase() ? 0 : 1),
  }));
  scored.sort((a, b) => a.score - b.score || a.info.path.localeCompare(b.info.path));
  const best = scored[0]?.score ?? 0;
  // The nearest and those about as near: a suggestion far off helps nobody.
  return scored
    .filter((entry) => entry.score <= best + 2)
    .slice(0, limit)
    .map((entry) => entry.info);
}

/**
 * Corrections: breaking changes (by the rules of diff.ts) that correct a defect of the released contract,
 * so that the API did not change, only its description did. They are listed next to the release they
 * correct, `specs/releases/<interface>/<version>.corrections.yaml`, one entry per change as `contrato diff`
 * reports it:
 *
 *   - where: GET /webhook (webhook.list) response 200/webhooks[]/chave
 *     change: no longer required
 *     reason: the API Pix standard's webhook answer may lack chave (issue 17)
 *
 * A listed change is reported as a `correction` and no longer fails the diff; a listed change the diff no
 * longer reports is stale and fails it, so the list cannot outlive what it excuses. `contrato diff
 * --corrections <file>` and the release test both go through `applyCorrections`.
 */
import { readFileSync } from 'node:fs';
import type { Correction, DiffResult } from './diff.js';

/** A corrections file that cannot be read as a list of corrections; the message is one line. */
export class CorrectionsError extends Error {}

const members = ['where', 'change', 'reason'] as const;

/** Checks a parsed corrections file (`source` names it in messages): a list of `{ where, change, reason }`. */
export function parseCorrections(value: unknown, source: string): Correction[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value))
    throw new CorrectionsError(`${source}: expected a list of { where, change, reason }, got ${value === null ? 'null' : typeof value}`);
  const seen = new Set<string>();
  return value.map((entry: unknown, index) => {
    const at = `${source}: entry ${index + 1}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      throw new CorrectionsError(`${at} is not an object { where, change, reason }`);
    const record = entry as Record<string, unknown>;
    const unknown = Object.keys(record).find((key) => !(members as readonly string[]).includes(key));
    if (unknown !== undefined)
      throw new CorrectionsError(`${at} has an unknown member ${JSON.stringify(unknown)} (known: where, change, reason)`);
    for (const member of members) {
      const text = record[member];
      if (typeof text !== 'string' || text.trim() === '') throw new CorrectionsError(`${at} needs ${member}: a non-empty string`);
      if (/[\r\n]/.test(text)) throw new CorrectionsError(`${at}: ${member} must be one line`);
    }
    const correction = { where: record.where as string, change: record.change as string, reason: record.reason as string };
    const key = `${correction.where}\n${correction.change}`;
    if (seen.has(key)) throw new CorrectionsError(`${at} repeats ${correction.where}: ${correction.change}`);
    seen.add(key);
    return correction;
  });
}

/** The first line of a parser's message (yaml's carry a multi-line excerpt of the file). */
const firstLine = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim().replace(/:$/, '');

/**
 * Reads a corrections file: YAML (with the `yaml` package, a development dependency, loaded only here) or
 * JSON. Throws a CorrectionsError with one line when it cannot be read or is not a list of corrections.
 */
export async function readCorrections(file: string): Promise<Correction[]> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CorrectionsError(`cannot read the corrections file ${file}: ${firstLine(error)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    let parse: (source: string) => unknown;
    try {
      ({ parse } = await import('yaml'));
    } catch {
      throw new CorrectionsError(`${file} is not JSON, and reading YAML needs the yaml package (npm install yaml)`);
    }
    try {
      value = parse(text);
    } catch (error) {
      throw new CorrectionsError(`${file} is neither JSON nor YAML: ${firstLine(error)}`);
    }
  }
  return parseCorrections(value, file);
}

/**
 * The diff with every breaking change a correction lists (same `where`, same `change`) turned into a
 * `correction` carrying its reason, `breaking` recomputed, and the corrections that matched no breaking
 * change in `staleCorrections`.
 */
export function applyCorrections(result: DiffResult, corrections: readonly Correction[]): DiffResult {
  const used = new Set<Correction>();
  const changes = result.changes.map((change) => {
    if (change.classification !== 'breaking') return change;
    const correction = corrections.find((candidate) => candidate.where === change.where && candidate.change === change.change);
    if (!correction) return change;
    used.add(correction);
    return { ...change, classification: 'correction' as const, reason: correction.reason };
  });
  return {
    ...result,
    changes,
    breaking: changes.some((change) => change.classification === 'breaking'),
    staleCorrections: [...result.staleCorrections, ...corrections.filter((correction) => !used.has(correction))],
  };
}

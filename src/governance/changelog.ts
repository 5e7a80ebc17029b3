/**
 * `contrato changelog`: the region of the root CHANGELOG.md between `<!-- contract-changes:begin -->` and
 * `<!-- contract-changes:end -->`, written from the release snapshots and the diff. Per interface of
 * src/interfaces.ts: its latest release (`specs/releases/<name>/<version>.json`, highest version), its
 * working version (`info.version` of `generated/<name>/openapi.json`) and what `contrato diff` reports from
 * the one to the other, with the release's corrections applied. The region carries no date and sorts every
 * list, so the same checkout always writes the same bytes and `npm test` can compare them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { interfaces } from '../interfaces.js';
import { applyCorrections, readCorrections } from './corrections.js';
import { type Change, type Classification, type Correction, type DiffResult, diffSpecs } from './diff.js';

export const beginMarker = '<!-- contract-changes:begin -->';
export const endMarker = '<!-- contract-changes:end -->';
/** How many changes an interface lists before pointing at `contrato diff` for the rest. */
export const listedChanges = 25;

/** CHANGELOG.md lacks its markers, or has them twice or in the wrong order; the message is one line. */
export class ChangelogMarkersError extends Error {}

/** What the region says of one spec document. */
export interface InterfaceChanges {
  readonly name: string;
  /** Letter of the interface in the interface specification. */
  readonly letter: string;
  /** `info.version` of the working bundle. */
  readonly workingVersion: string;
  /** The latest release, or null when the interface has none yet. */
  readonly release: {
    readonly version: string;
    /** Paths relative to the checkout, as a user types them. */
    readonly file: string;
    readonly correctionsFile?: string;
  } | null;
  /** The diff from the release to the working bundle, corrections applied; null without a release. */
  readonly result: DiffResult | null;
}

/** What a checkout the changelog is written in holds: the release snapshots and the root CHANGELOG.md. */
export const changelogCheckoutMarkers: readonly string[] = ['specs/releases', 'CHANGELOG.md'];

const releaseFile = /^(\d+)\.(\d+)\.(\d+)\.json$/;

/** The highest `<major>.<minor>.<patch>` among the release files of a folder, compared as numbers. */
export function latestVersion(files: readonly string[]): string | null {
  let best: { version: string; parts: number[] } | null = null;
  for (const file of files) {
    const match = releaseFile.exec(file);
    if (!match) continue;
    const parts = match.slice(1, 4).map(Number);
    const higher = best === null || compareParts(parts, best.parts) > 0;
    if (higher) best = { version: parts.join('.'), parts };
  }
  return best?.version ?? null;
}

function compareParts(a: readonly number[], b: readonly number[]): number {
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return a[index]! - b[index]!;
  return 0;
}

function readJson(root: string, path: string, hint: string): Record<string, unknown> {
  const absolute = join(root, path);
  if (!existsSync(absolute)) throw new Error(`${path} is missing: ${hint}`);
  try {
    return JSON.parse(readFileSync(absolute, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`${path} is not JSON: ${(error as Error).message}`);
  }
}

/** Every interface's release, working version and diff, read from the checkout at `root`. */
export async function collectChanges(
  root: string,
  names: readonly string[] = interfaces.map((info) => info.name),
): Promise<InterfaceChanges[]> {
  const collected: InterfaceChanges[] = [];
  for (const name of names) {
    const letter = interfaces.find((info) => info.name === name)?.letter ?? '?';
    const working = readJson(root, `generated/${name}/openapi.json`, 'run npm run regenerate');
    const workingVersion = String((working.info as Record<string, unknown> | undefined)?.version ?? '');
    const folder = `specs/releases/${name}`;
    const version = existsSync(join(root, folder)) ? latestVersion(readdirSync(join(root, folder))) : null;
    if (version === null) {
      collected.push({ name, letter, workingVersion, release: null, result: null });
      continue;
    }
    const file = `${folder}/${version}.json`;
    const corrections = `${folder}/${version}.corrections.yaml`;
    const correctionsFile = existsSync(join(root, corrections)) ? corrections : undefined;
    const released = readJson(root, file, 'a release is a bundle copied there');
    const listed: Correction[] = correctionsFile ? await readCorrections(join(root, correctionsFile)) : [];
    collected.push({
      name,
      letter,
      workingVersion,
      release: { version, file, ...(correctionsFile ? { correctionsFile } : {}) },
      result: applyCorrections(diffSpecs(released, working), listed),
    });
  }
  return collected;
}

/** Breaking first, then what fails the diff, then accepted corrections, then compatible changes. */
const rank: Record<Classification, number> = { breaking: 0, correction: 2, compatible: 3 };
const staleRank = 1;

/** Code-point order: the same on every machine and locale. */
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Inline markdown characters of a change's text escaped, so a pattern's `*` or `_` is not emphasis. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<~]/g, (character) => `\\${character}`);
}

/** A code span that holds `text` whatever backticks it contains (CommonMark: a longer fence). */
export function codeSpan(text: string): string {
  let longest = 0;
  let run = 0;
  for (const character of text) {
    run = character === '`' ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  const fence = '`'.repeat(longest + 1);
  const padding = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${padding}${text}${padding}${fence}`;
}

const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;

/** `2 breaking, 1 stale correction, 4 corrections accepted, 83 compatible`: only the counts that are not zero. */
function counts(result: DiffResult): string {
  const of = (classification: Classification): number => result.changes.filter((change) => change.classification === classification).length;
  return [
    of('breaking') > 0 ? `${of('breaking')} breaking` : '',
    result.staleCorrections.length > 0 ? plural(result.staleCorrections.length, 'stale correction', 'stale corrections') : '',
    of('correction') > 0 ? `${plural(of('correction'), 'correction', 'corrections')} accepted` : '',
    of('compatible') > 0 ? `${of('compatible')} compatible` : '',
  ]
    .filter((part) => part !== '')
    .join(', ');
}

interface Entry {
  readonly rank: number;
  readonly where: string;
  readonly change: string;
  readonly line: string;
}

function changeEntry(change: Change): Entry {
  const where = codeSpan(change.where);
  const text = escapeMarkdown(change.change);
  const line =
    change.classification === 'breaking'
      ? `- **BREAKING** ${where}: ${text}`
      : change.classification === 'correction'
        ? `- **CORRECTION** ${where}: ${text} (accepted: ${escapeMarkdown(change.reason ?? '')})`
        : `- compatible ${where}: ${text}`;
  return { rank: rank[change.classification], where: change.where, change: change.change, line };
}

function staleEntry(correction: Correction, file: string): Entry {
  const line = `- **STALE CORRECTION** ${codeSpan(correction.where)}: ${escapeMarkdown(correction.change)} (listed in ${codeSpan(file)}, no longer reported: remove it)`;
  return { rank: staleRank, where: correction.where, change: correction.change, line };
}

/** The `contrato diff` command that shows everything the region leaves out. */
function diffCommandFor(entry: InterfaceChanges): string {
  const release = entry.release!;
  const corrections = release.correctionsFile ? ` --corrections ${release.correctionsFile}` : '';
  return `contrato diff ${release.file} generated/${entry.name}/openapi.json${corrections}`;
}

/** The markdown of one interface: a heading, its versions and counts, its changes. */
export function renderInterface(entry: InterfaceChanges): string {
  const heading = `### ${entry.name} (interface ${entry.letter})`;
  const { release, result } = entry;
  if (release === null || result === null)
    return `${heading}\n\nNot released yet (no ${codeSpan(`specs/releases/${entry.name}/<version>.json`)}); working version ${entry.workingVersion}.`;
  const source = `${codeSpan(release.file)}${release.correctionsFile ? `, corrections in ${codeSpan(release.correctionsFile)}` : ''}`;
  const versions = `Released ${release.version} (${source}); working version ${entry.workingVersion}.`;
  const entries = [
    ...result.changes.map(changeEntry),
    ...result.staleCorrections.map((correction) => staleEntry(correction, release.correctionsFile ?? '')),
  ].sort((a, b) => a.rank - b.rank || byText(a.where, b.where) || byText(a.change, b.change));
  if (entries.length === 0) return `${heading}\n\n${versions} No change since ${release.version}.`;
  const summary = `${plural(entries.length, 'change', 'changes')} since ${release.version}: ${counts(result)}.`;
  const verdict =
    result.breaking && !result.majorRaised
      ? ` Breaking without a new major version: \`npm test\` fails until the change is undone, listed as a correction, or the major raised.`
      : result.breaking
        ? ` Breaking changes allowed: the major version went from ${result.oldVersion} to ${result.newVersion}.`
        : '';
  const stale = result.staleCorrections.length > 0 ? ' A stale correction fails `npm test` until it leaves the corrections file.' : '';
  const lines = entries.slice(0, listedChanges).map((item) => item.line);
  const more = entries.length - listedChanges;
  if (more > 0) lines.push(`- … and ${more} more: run ${codeSpan(diffCommandFor(entry))}`);
  return `${heading}\n\n${versions} ${summary}${verdict}${stale}\n\n${lines.join('\n')}`;
}

/** The whole region between the markers, markers excluded: a blank line either side keeps each marker on a line of its own. */
export function renderRegion(entries: readonly InterfaceChanges[]): string {
  return `\n\n${entries.map(renderInterface).join('\n\n')}\n\n`;
}

/** Where the region's text starts and ends in `text` (just after the begin marker, at the end marker). */
function regionBounds(text: string, file: string): { start: number; end: number } {
  const begin = text.indexOf(beginMarker);
  const end = text.indexOf(endMarker);
  const missing = [begin < 0 ? beginMarker : '', end < 0 ? endMarker : ''].filter((marker) => marker !== '');
  if (missing.length > 0)
    throw new ChangelogMarkersError(
      `${file} lacks ${missing.join(' and ')}: put ${beginMarker} and ${endMarker} on their own lines where the contract changes go`,
    );
  if (text.indexOf(beginMarker, begin + 1) >= 0 || text.indexOf(endMarker, end + 1) >= 0)
    throw new ChangelogMarkersError(`${file} has ${beginMarker} or ${endMarker} more than once: keep one of each`);
  if (end < begin) throw new ChangelogMarkersError(`${file} has ${endMarker} before ${beginMarker}: swap them`);
  return { start: begin + beginMarker.length, end };
}

/** `text` with its region replaced by `region`; throws a ChangelogMarkersError when the markers are not right. */
export function replaceRegion(text: string, region: string, file = 'CHANGELOG.md'): string {
  const { start, end } = regionBounds(text, file);
  return `${text.slice(0, start)}${region}${text.slice(end)}`;
}

export interface ChangelogState {
  /** Absolute path of the CHANGELOG.md. */
  readonly path: string;
  readonly current: string;
  /** The file with its region as the checkout's releases and bundles make it. */
  readonly next: string;
  readonly stale: boolean;
}

/** The root CHANGELOG.md of the checkout at `root`, as it is and as it should be. */
export async function changelogState(root: string): Promise<ChangelogState> {
  const path = join(root, 'CHANGELOG.md');
  const current = readFileSync(path, 'utf8');
  // Markers first: a file without them fails in one line before any bundle is read.
  regionBounds(current, 'CHANGELOG.md');
  const next = replaceRegion(current, renderRegion(await collectChanges(root)));
  return { path, current, next, stale: next !== current };
}

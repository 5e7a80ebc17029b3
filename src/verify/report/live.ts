/**
 * The terminal view of `contrato verify` while it runs. On a TTY, one status line rewritten in place, and
 * each failure printed above it as it comes; in a CI log (no TTY), no carriage return: a line per failure and
 * a line per operation once it is done. Every line is bounded (one line, reasons of at most 300 characters),
 * so a target answering megabytes cannot flood the log. It prints what the engine stored, already masked.
 */
import { type CheckResult, countsOf, type ProgressEvent, type Verdict } from '../model.js';
import { durationText, exitCodeOf, oneLine } from './summary.js';

export interface LiveViewOptions {
  /** Output is a terminal: the status line is rewritten in place. */
  readonly tty: boolean;
  /** ANSI colours for the marks. */
  readonly color: boolean;
  /** The interface judged, for the status line before the end (the `start` event does not carry it). */
  readonly interface?: string;
}

const clearLine = '\r\x1b[2K';
const reasonLimit = 300;

type Paint = (text: string) => string;
const ansi =
  (code: number): Paint =>
  (text) =>
    `\x1b[${code}m${text}\x1b[0m`;
const plain: Paint = (text) => text;

/** `✗ cob.create [invalid] maxLength /body/chave: expected 400, got 201`, on one bounded line. */
function failureLine(result: CheckResult, red: Paint): string {
  const head = `${red('✗')} ${oneLine(result.operationId, 120)} [${result.kind}] ${oneLine(result.rule, 200)}`;
  return `${head}: ${oneLine(result.reason, reasonLimit)}`;
}

/** `✓ cob.create  6 checks`, `✗ cob.create  1 of 6 failed`, `- cob.list  2 skipped`. */
function operationLine(operationId: string, results: readonly CheckResult[], paint: Record<'green' | 'red' | 'dim', Paint>): string {
  const counts = countsOf(results);
  const name = oneLine(operationId, 120);
  const notRun = [
    counts.skipped > 0 ? `${counts.skipped} skipped` : '',
    counts['needs-platform'] > 0 ? `${counts['needs-platform']} need the platform` : '',
  ].filter((part) => part !== '');
  if (counts.fail > 0) return `${paint.red('✗')} ${name}  ${counts.fail} of ${results.length} failed`;
  if (counts.pass > 0)
    return `${paint.green('✓')} ${name}  ${results.length} ${results.length === 1 ? 'check' : 'checks'}${notRun.length > 0 ? ` (${notRun.join(', ')})` : ''}`;
  return `${paint.dim('-')} ${name}  ${notRun.length > 0 ? notRun.join(', ') : 'no checks'}`;
}

function countsText(counts: Record<Verdict, number>): string {
  return `${counts.pass} passed · ${counts.fail} failed · ${counts.skipped} skipped · ${counts['needs-platform']} need the platform`;
}

/**
 * A listener for the engine's progress events that writes the live view through `write` (stdout or
 * stderr, as the caller chooses). The `end` event prints the final counts and the verdict.
 */
export function liveView(write: (text: string) => void, options: LiveViewOptions): (event: ProgressEvent) => void {
  const paint = options.color ? { green: ansi(32), red: ansi(31), dim: ansi(2) } : { green: plain, red: plain, dim: plain };
  const interfaceName = options.interface ?? '';
  let total = 0;
  let done = 0;
  let current: string | undefined;
  // Kept as they come: the status line is redrawn on every event and must not recount the whole run.
  const counts: Record<Verdict, number> = { pass: 0, fail: 0, skipped: 0, 'needs-platform': 0 };
  const byOperation = new Map<string, CheckResult[]>();

  const statusLine = (): string => {
    const head = `verify${interfaceName === '' ? '' : ` ${oneLine(interfaceName, 60)}`}: ${done}/${total} operations`;
    const tail = current === undefined ? '' : ` · ${oneLine(current, 120)}`;
    return `${head} · ${countsText(counts)}${tail}`;
  };
  // On a TTY every write ends with the status line, redrawn; the lines before it are printed above.
  const print = (lines: readonly string[]): void => {
    if (options.tty) write(`${clearLine}${lines.map((line) => `${line}\n`).join('')}${statusLine()}`);
    else if (lines.length > 0) write(lines.map((line) => `${line}\n`).join(''));
  };
  const finishCurrent = (): string[] => {
    if (current === undefined) return [];
    const finished = current;
    current = undefined;
    done += 1;
    return options.tty ? [] : [operationLine(finished, byOperation.get(finished) ?? [], paint)];
  };

  return (event) => {
    switch (event.kind) {
      case 'start':
        total = event.operations.length;
        print([]);
        return;
      case 'operation': {
        const lines = finishCurrent();
        current = event.operationId;
        print(lines);
        return;
      }
      case 'result': {
        counts[event.result.verdict] += 1;
        const group = byOperation.get(event.result.operationId) ?? [];
        group.push(event.result);
        byOperation.set(event.result.operationId, group);
        print(event.result.verdict === 'fail' ? [failureLine(event.result, paint.red)] : []);
        return;
      }
      case 'end': {
        const lines = finishCurrent();
        const { report } = event;
        const verdict = exitCodeOf(report) === 1 ? paint.red('FAILED') : paint.green('passed');
        const final = `verify ${oneLine(report.interface, 60)} at ${oneLine(report.baseUrl)}: ${report.results.length} checks · ${countsText(countsOf(report.results))} in ${durationText(report.durationMs)} — ${verdict}`;
        write(`${options.tty ? clearLine : ''}${[...lines, final].map((line) => `${line}\n`).join('')}`);
        return;
      }
    }
  };
}

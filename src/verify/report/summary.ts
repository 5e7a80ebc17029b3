/**
 * The summary printed at the end of `contrato verify`, its exit status, and the plain-text pieces every
 * report shares (results by operation, a body or an exchange as text, a line cut to size). What it renders
 * was masked by the engine when stored (see ../mask.ts): nothing here masks again.
 */
import { type CheckKind, type CheckResult, countsOf, type Exchange, type Verdict, type VerifyReport } from '../model.js';

/** The kinds in the order the reports list them. */
export const checkKinds: readonly CheckKind[] = ['valid', 'invalid', 'token', 'idempotency', 'paging', 'flow'];

export interface OperationResults {
  readonly operationId: string;
  readonly results: readonly CheckResult[];
}

/**
 * Results grouped by operation, in the interface's table order; an operation with no result has an empty
 * list. A result naming an operation outside the table (a flow's step) follows, so that none is lost.
 */
export function resultsByOperation(report: VerifyReport): OperationResults[] {
  const groups = new Map<string, CheckResult[]>();
  for (const operationId of report.operations) groups.set(operationId, []);
  for (const result of report.results) {
    const group = groups.get(result.operationId) ?? [];
    group.push(result);
    groups.set(result.operationId, group);
  }
  return [...groups].map(([operationId, results]) => ({ operationId, results }));
}

/** Results grouped by kind (in `checkKinds` order), then by rule in the order first met. */
export function resultsByRule(report: VerifyReport): { kind: CheckKind; rules: { rule: string; results: CheckResult[] }[] }[] {
  return checkKinds.flatMap((kind) => {
    const rules = new Map<string, CheckResult[]>();
    for (const result of report.results.filter((each) => each.kind === kind)) {
      rules.set(result.rule, [...(rules.get(result.rule) ?? []), result]);
    }
    return rules.size === 0 ? [] : [{ kind, rules: [...rules].map(([rule, results]) => ({ rule, results })) }];
  });
}

// C0 and C1 controls, DEL, and the line and paragraph separators: a server's text could move the cursor,
// recolour the terminal or break a line of the log.
const controlCharacters = /[\p{Cc}\u2028\u2029]+/gu;

/** Text on one line of at most `max` characters (code points, so no emoji is cut in half): blanks collapsed. */
export function oneLine(text: string, max = 300): string {
  const flat = text.replace(controlCharacters, ' ').replace(/\s+/g, ' ').trim();
  const characters = Array.from(flat);
  return characters.length <= max ? flat : `${characters.slice(0, max - 1).join('')}…`;
}

/** A body larger than this is cut in the reports: an echoed upload must not make a report of megabytes. */
const bodyLimit = 20_000;

/** A string body that holds JSON, indented; `undefined` when it does not parse. */
function indentedJson(text: string): string | undefined {
  if (!/^\s*[[{]/.test(text)) return undefined;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return undefined;
  }
}

/** A body as text: JSON indented (parsed or held in a string), other text as it is; cut to `bodyLimit` characters. */
export function bodyText(body: unknown): string {
  let text: string;
  if (typeof body === 'string') text = indentedJson(body) ?? body;
  else {
    try {
      text = JSON.stringify(body, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value), 2) ?? String(body);
    } catch {
      text = String(body);
    }
  }
  return text.length <= bodyLimit ? text : `${text.slice(0, bodyLimit)}\n… (${text.length - bodyLimit} more characters)`;
}

function headerLines(headers: Readonly<Record<string, string>>): string[] {
  return Object.entries(headers).map(([name, value]) => `  ${oneLine(name, 200)}: ${oneLine(value, 2000)}`);
}

function indented(text: string): string[] {
  return text.split('\n').map((line) => `  ${line}`);
}

/** An exchange as plain text: the request (`>`) then the answer (`<`), headers and bodies. */
export function exchangeText(exchange: Exchange): string {
  const { request, received } = exchange;
  const lines = [`> ${oneLine(request.method, 20)} ${oneLine(request.url, 4000)}`, ...headerLines(request.headers)];
  if ('body' in request && request.body !== undefined) lines.push('', ...indented(bodyText(request.body)));
  if (received.kind === 'no-answer') {
    lines.push(`< no answer (${received.reason}) after ${durationText(exchange.durationMs)}: ${oneLine(received.message, 2000)}`);
    return lines.join('\n');
  }
  lines.push(`< ${received.status} after ${durationText(exchange.durationMs)}`, ...headerLines(received.headers));
  if ('body' in received && received.body !== undefined) lines.push('', ...indented(bodyText(received.body)));
  if (received.unparsable !== undefined) lines.push('', '  (not JSON) first bytes:', ...indented(bodyText(received.unparsable)));
  return lines.join('\n');
}

/** `350 ms`, `4.2 s`, `3 min 5 s`. */
export function durationText(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** 1 when any check failed (a skipped check, or one that needs the platform, fails nothing). */
export function exitCodeOf(report: VerifyReport): 0 | 1 {
  return report.results.some((result) => result.verdict === 'fail') ? 1 : 0;
}

/** `verify pix at http://…: 42 checks, 1 failed — FAILED` (or `— passed`). */
export function verdictLine(report: VerifyReport): string {
  const failed = countsOf(report.results).fail;
  const verdict = exitCodeOf(report) === 1 ? 'FAILED' : 'passed';
  return `verify ${oneLine(report.interface)} at ${oneLine(report.baseUrl)}: ${report.results.length} checks, ${failed} failed — ${verdict}`;
}

const countColumns: readonly Verdict[] = ['pass', 'fail', 'skipped', 'needs-platform'];

function countCells(results: readonly CheckResult[]): string[] {
  const counts = countsOf(results);
  return countColumns.map((verdict) => String(counts[verdict]));
}

type Row = readonly string[] | 'separator';

/** Rows laid out in columns as wide as their widest cell: the first column left-aligned, counts right-aligned. */
function layout(rows: readonly Row[]): string {
  const widths: number[] = [];
  for (const row of rows) {
    if (row === 'separator') continue;
    row.forEach((cell, column) => {
      widths[column] = Math.max(widths[column] ?? 0, Array.from(cell).length);
    });
  }
  const total = widths.reduce((sum, width) => sum + width, 0) + 2 * Math.max(0, widths.length - 1);
  return rows
    .map((row) => {
      if (row === 'separator') return '-'.repeat(total);
      return row
        .map((cell, column) => {
          const padding = ' '.repeat((widths[column] ?? 0) - Array.from(cell).length);
          // A row that was not run says so in its first count column, as text.
          return column === 0 || !/^\d+$/.test(cell) ? cell + padding : padding + cell;
        })
        .join('  ')
        .trimEnd();
    })
    .join('\n');
}

/**
 * The plain-text summary: a row per operation (`not run` when it has no result), a row per kind of check,
 * the totals, then the verdict line.
 */
export function summaryTable(report: VerifyReport): string {
  const countHeaders = ['passed', 'failed', 'skipped', 'needs platform'];
  const operationRows = resultsByOperation(report).map(({ operationId, results }) =>
    results.length === 0 ? [oneLine(operationId, 120), 'not run'] : [oneLine(operationId, 120), ...countCells(results)],
  );
  const kindRows = checkKinds.flatMap((kind) => {
    const results = report.results.filter((result) => result.kind === kind);
    return results.length === 0 ? [] : [[`[${kind}]`, ...countCells(results)]];
  });
  const rows: Row[] = [
    ['operation', ...countHeaders],
    'separator',
    ...operationRows,
    'separator',
    ['check kind', ...countHeaders],
    'separator',
    ...kindRows,
    'separator',
    ['total', ...countCells(report.results)],
  ];
  return `${layout(rows)}\n\n${verdictLine(report)}\n`;
}

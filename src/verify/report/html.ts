/**
 * The HTML report of `contrato verify` (`--report verify.html`): one self-contained page, readable offline
 * and safe to open. Its style is inline, it loads nothing (a Content-Security-Policy forbids it) and runs
 * no script: the two views and the "failures only" filter are CSS over radio buttons and a checkbox. Every
 * text from the run is escaped, since bodies and reasons come from the target. The exchanges were masked by
 * the engine when stored (see ../mask.ts).
 */
import { type CheckResult, countsOf, type Exchange, type Verdict, type VerifyReport } from '../model.js';
import { bodyText, durationText, exitCodeOf, resultsByOperation, resultsByRule } from './summary.js';

// Controls other than tab and line breaks show as nothing useful and may confuse a copy and paste.
const invisibleControls = /[^\P{Cc}\t\n\r]/gu;

/** Text escaped for HTML content and attribute values alike. */
export function escapeHtml(text: string): string {
  return text
    .replace(invisibleControls, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const verdictLabels: Record<Verdict, string> = {
  pass: 'passed',
  fail: 'failed',
  skipped: 'skipped',
  'needs-platform': 'needs the platform',
};
const verdictMarks: Record<Verdict, string> = { pass: '✓', fail: '✗', skipped: '–', 'needs-platform': '⏸' };

const style = `
:root { color-scheme: light dark; --pass: #1a7f37; --fail: #cf222e; --skip: #9a6700; --line: #8884; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 72rem; padding: 1rem 1.5rem 3rem; }
code, pre { font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #8881; padding: .5rem .75rem; margin: .25rem 0 .75rem; }
h1 { font-size: 1.4rem; margin-bottom: .25rem; }
dl.run { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; margin: .5rem 0 1rem; }
dl.run dt { font-weight: 600; }
dl.run dd { margin: 0; overflow-wrap: anywhere; }
span.pass { color: var(--pass); } span.fail { color: var(--fail); } span.skipped, span.needs-platform { color: var(--skip); }
.verdict-failed { color: var(--fail); } .verdict-passed { color: var(--pass); }
.controls { display: flex; gap: 1.25rem; align-items: center; margin: 1rem 0; border-bottom: 1px solid var(--line); padding-bottom: .5rem; }
input.toggle { position: absolute; opacity: 0; pointer-events: none; }
.controls label { cursor: pointer; padding: .2rem .5rem; border-radius: .3rem; }
#view-operations:checked ~ .controls label[for=view-operations], #view-rules:checked ~ .controls label[for=view-rules],
#failures-only:checked ~ .controls label[for=failures-only] { background: #8883; font-weight: 600; }
#view-operations:checked ~ main .by-rule, #view-rules:checked ~ main .by-operation { display: none; }
#failures-only:checked ~ main .all-passed, #failures-only:checked ~ main tr.check:not(.fail), #failures-only:checked ~ main li:not(.fail) { display: none; }
details { border: 1px solid var(--line); border-radius: .4rem; margin: .4rem 0; padding: .2rem .75rem; }
summary { cursor: pointer; padding: .2rem 0; }
table { border-collapse: collapse; width: 100%; }
table.checks { table-layout: fixed; }
table.checks col.kind { width: 8rem; } table.checks col.rule { width: 16rem; } table.checks col.verdict { width: 11rem; }
td, th { text-align: left; vertical-align: top; padding: .2rem .5rem .2rem 0; border-top: 1px solid var(--line); overflow-wrap: anywhere; }
td.verdict { white-space: nowrap; }
.exchange h4 { margin: .5rem 0 0; font-size: .9rem; }
table.headers { width: auto; }
table.headers td { border: 0; padding: 0 1rem 0 0; }
ul.rule-results { margin: .25rem 0 .5rem; padding-left: 1.25rem; overflow-wrap: anywhere; }
`;

function countsText(results: readonly CheckResult[]): string {
  const counts = countsOf(results);
  return `${results.length} ${results.length === 1 ? 'check' : 'checks'} · ${counts.pass} passed · ${counts.fail} failed · ${counts.skipped} skipped · ${counts['needs-platform']} need the platform`;
}

function verdictSpan(verdict: Verdict): string {
  return `<span class="${verdict}">${verdictMarks[verdict]} ${verdictLabels[verdict]}</span>`;
}

function headersTable(headers: Readonly<Record<string, string>>): string {
  const rows = Object.entries(headers).map(
    ([name, value]) => `<tr><td><code>${escapeHtml(name)}</code></td><td><code>${escapeHtml(value)}</code></td></tr>`,
  );
  return rows.length === 0 ? '' : `<table class="headers">${rows.join('')}</table>`;
}

function bodyBlock(body: unknown): string {
  return body === undefined ? '' : `<pre class="body">${escapeHtml(bodyText(body))}</pre>`;
}

/** An exchange: the request as sent, then the answer or why none came. */
function exchangeBlock(exchange: Exchange, index: number, count: number): string {
  const { request, received } = exchange;
  const title = count > 1 ? ` ${index + 1} of ${count}` : '';
  const requestPart = [
    `<h4>Request${title}</h4>`,
    `<pre>${escapeHtml(`${request.method} ${request.url}`)}</pre>`,
    headersTable(request.headers),
    bodyBlock(request.body),
  ];
  const answerPart =
    received.kind === 'no-answer'
      ? [
          `<h4>No answer</h4>`,
          `<pre>${escapeHtml(`${received.reason} after ${durationText(exchange.durationMs)}: ${received.message}`)}</pre>`,
        ]
      : [
          `<h4>Answer</h4>`,
          `<pre>${escapeHtml(`${received.status} after ${durationText(exchange.durationMs)}`)}</pre>`,
          headersTable(received.headers),
          bodyBlock(received.body),
          received.unparsable === undefined ? '' : `<p>Not JSON; its first bytes:</p><pre>${escapeHtml(received.unparsable)}</pre>`,
        ];
  return `<div class="exchange">${[...requestPart, ...answerPart].join('\n')}</div>`;
}

/** A check's row; a failure is followed by a row with the exchanges that show it. */
function checkRows(result: CheckResult): string {
  const row = [
    `<tr class="check ${result.verdict}">`,
    `<td><code>[${escapeHtml(result.kind)}]</code></td>`,
    `<td>${escapeHtml(result.rule)}</td>`,
    `<td class="verdict">${verdictSpan(result.verdict)}</td>`,
    `<td>${escapeHtml(result.reason)}</td>`,
    '</tr>',
  ].join('');
  if (result.verdict !== 'fail' || result.exchanges.length === 0) return row;
  const exchanges = result.exchanges.map((exchange, index) => exchangeBlock(exchange, index, result.exchanges.length));
  return `${row}\n<tr class="check fail exchanges"><td colspan="4">${exchanges.join('\n')}</td></tr>`;
}

function operationSection(operationId: string, results: readonly CheckResult[]): string {
  const counts = countsOf(results);
  const failed = counts.fail > 0;
  const state = failed ? 'some-failed' : 'all-passed';
  // ✓ only when something passed: an operation whose checks were all skipped proved nothing.
  const [mark, markClass] = failed ? ['✗', 'fail'] : counts.pass > 0 ? ['✓', 'pass'] : ['–', 'skipped'];
  const line = results.length === 0 ? 'not run' : countsText(results);
  const head = `<summary><span class="${markClass}">${mark}</span> <code>${escapeHtml(operationId)}</code> — ${line}</summary>`;
  const table =
    results.length === 0
      ? ''
      : `<table class="checks"><colgroup><col class="kind"><col class="rule"><col class="verdict"><col></colgroup><thead><tr><th>kind</th><th>rule</th><th>verdict</th><th>why</th></tr></thead><tbody>\n${results.map(checkRows).join('\n')}\n</tbody></table>`;
  // Open when something failed: what needs reading is in view; an operation that passed stays folded.
  return `<details class="operation ${state}"${failed ? ' open' : ''}>${head}\n${table}</details>`;
}

function ruleSection(rule: string, results: readonly CheckResult[]): string {
  const failed = countsOf(results).fail > 0;
  const items = results.map(
    (result) =>
      `<li class="${result.verdict}"><code>${escapeHtml(result.operationId)}</code>: ${verdictSpan(result.verdict)}${result.verdict === 'pass' ? '' : ` — ${escapeHtml(result.reason)}`}</li>`,
  );
  return [
    `<details class="rule ${failed ? 'some-failed' : 'all-passed'}"${failed ? ' open' : ''}>`,
    `<summary>${escapeHtml(rule)} — ${countsText(results)}</summary>`,
    `<ul class="rule-results">${items.join('\n')}</ul>`,
    '</details>',
  ].join('\n');
}

function runFacts(report: VerifyReport): string {
  const facts: [string, string][] = [
    ['base URL', report.baseUrl],
    ['seed', report.seed],
    ['requests', report.allowWrites ? 'writes allowed' : 'read-only'],
    ['control plane', report.controlPlane ? 'yes: the flows could make the platform act' : 'no: steps that need the platform are not run'],
    ['started', report.startedAt],
    ['duration', durationText(report.durationMs)],
  ];
  return `<dl class="run">${facts.map(([name, value]) => `<dt>${name}</dt><dd><code>${escapeHtml(value)}</code></dd>`).join('')}</dl>`;
}

/** The whole report as one HTML page that needs nothing else to be read. */
export function htmlReport(report: VerifyReport): string {
  const verdict = exitCodeOf(report) === 1 ? 'failed' : 'passed';
  const title = `contrato verify ${report.interface} — ${verdict}`;
  const byOperation = resultsByOperation(report).map(({ operationId, results }) => operationSection(operationId, results));
  const byRule = resultsByRule(report).map(
    ({ kind, rules }) =>
      `<h3><code>[${escapeHtml(kind)}]</code></h3>\n${rules.map(({ rule, results }) => ruleSection(rule, results)).join('\n')}`,
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
<header>
<h1>contrato verify <code>${escapeHtml(report.interface)}</code> — <span class="verdict-${verdict}">${verdict}</span></h1>
${runFacts(report)}
<p class="counts">${countsText(report.results)}</p>
</header>
<input class="toggle" type="radio" name="view" id="view-operations" checked>
<input class="toggle" type="radio" name="view" id="view-rules">
<input class="toggle" type="checkbox" id="failures-only">
<nav class="controls">
<label for="view-operations">Per operation</label>
<label for="view-rules">Per rule</label>
<label for="failures-only">Failures only</label>
</nav>
<main>
<section class="by-operation">
<h2>Per operation</h2>
${byOperation.join('\n')}
</section>
<section class="by-rule">
<h2>Per rule</h2>
${byRule.length === 0 ? '<p>No checks ran.</p>' : byRule.join('\n')}
</section>
</main>
</body>
</html>
`;
}

/**
 * The JUnit XML report of `contrato verify` (`--report verify.xml`), for CI: a test suite per operation, a
 * test case per check. A failure carries the exchanges that show it as text; the engine masked them when it
 * stored them (see ../mask.ts).
 */
import { type CheckResult, countsOf, type VerifyReport } from '../model.js';
import { exchangeText, oneLine, resultsByOperation } from './summary.js';

const messageLimit = 500;

// XML 1.0 allows tab, newline, carriage return, U+0020–U+D7FF, U+E000–U+FFFD and the astral planes; anything
// else (NUL and the other C0 controls, a lone surrogate, U+FFFE/U+FFFF) makes the file unreadable: dropped.
const forbiddenInXml = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text content: forbidden characters dropped, markup escaped (`]]>` included, as `>` is). */
export function xmlText(text: string): string {
  return text
    .replace(forbiddenInXml, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** An attribute value: as text, and its tabs and line breaks written as references so a parser keeps them. */
export function xmlAttribute(text: string): string {
  return xmlText(text).replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

function attributes(values: Readonly<Record<string, string | number>>): string {
  return Object.entries(values)
    .map(([name, value]) => ` ${name}="${xmlAttribute(String(value))}"`)
    .join('');
}

/** Seconds with millisecond precision, as JUnit readers expect. */
function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

/** The time of a check: the time its exchanges took. */
function resultMs(result: CheckResult): number {
  return result.exchanges.reduce((sum, exchange) => sum + exchange.durationMs, 0);
}

function testCase(result: CheckResult, classname: string): string {
  const head = `    <testcase${attributes({ classname, name: `[${result.kind}] ${result.rule}`, time: seconds(resultMs(result)) })}`;
  switch (result.verdict) {
    case 'pass':
      return `${head}/>`;
    case 'fail': {
      // CI tools show the message as a title: one bounded line; a reason cut there is given whole in the text.
      const message = oneLine(result.reason, messageLimit);
      const text = [...(message === result.reason ? [] : [result.reason]), ...result.exchanges.map(exchangeText)].join('\n\n');
      return `${head}>\n      <failure${attributes({ message, type: result.kind })}>${xmlText(text)}</failure>\n    </testcase>`;
    }
    case 'skipped':
      return `${head}>\n      <skipped${attributes({ message: oneLine(result.reason, messageLimit) })}/>\n    </testcase>`;
    case 'needs-platform':
      // JUnit has no such verdict: a skip, said to need the platform so a CI reader can tell it from --skip.
      return `${head}>\n      <skipped${attributes({ message: oneLine(`needs the platform: ${result.reason}`, messageLimit) })}/>\n    </testcase>`;
  }
}

/**
 * The JUnit XML of a run. Counts are in the attributes (`tests`, `failures`, `errors`, `skipped`, `time`);
 * a suite's time is the sum of its checks', the whole run's time is its wall-clock duration. An operation
 * not run is an empty suite.
 */
export function junitXml(report: VerifyReport): string {
  const suites = resultsByOperation(report).map(({ operationId, results }) => {
    const classname = `${report.interface}.${operationId}`;
    const counts = countsOf(results);
    const suiteAttributes = attributes({
      name: classname,
      tests: results.length,
      failures: counts.fail,
      errors: 0,
      skipped: counts.skipped + counts['needs-platform'],
      time: seconds(results.reduce((sum, result) => sum + resultMs(result), 0)),
      timestamp: report.startedAt,
    });
    const properties = [
      `    <properties>`,
      ...Object.entries({
        baseUrl: report.baseUrl,
        seed: report.seed,
        writes: report.allowWrites ? 'allowed' : 'read-only',
        controlPlane: report.controlPlane ? 'yes' : 'no',
      }).map(([name, value]) => `      <property${attributes({ name, value })}/>`),
      `    </properties>`,
    ];
    return [
      `  <testsuite${suiteAttributes}>`,
      ...properties,
      ...results.map((result) => testCase(result, classname)),
      '  </testsuite>',
    ].join('\n');
  });
  const counts = countsOf(report.results);
  const rootAttributes = attributes({
    name: `contrato verify ${report.interface}`,
    tests: report.results.length,
    failures: counts.fail,
    errors: 0,
    skipped: counts.skipped + counts['needs-platform'],
    time: seconds(report.durationMs),
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${rootAttributes}>\n${suites.join('\n')}\n</testsuites>\n`;
}

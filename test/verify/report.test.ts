/**
 * The reports of `contrato verify` over a hand-made run: every verdict, a failure whose exchange carried a
 * bearer token, a client secret, a CPF, a CNPJ and a hostile body. The run is masked as the engine masks it
 * (maskResult, once, before storing); then no report may show a secret, and each must count right.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { maskResult } from '../../src/verify/mask.js';
import type { CheckResult, ProgressEvent, VerifyReport } from '../../src/verify/model.js';
import { htmlReport } from '../../src/verify/report/html.js';
import { writeReport } from '../../src/verify/report/index.js';
import { junitXml } from '../../src/verify/report/junit.js';
import { liveView } from '../../src/verify/report/live.js';
import { exitCodeOf, summaryTable } from '../../src/verify/report/summary.js';

const baseUrl = 'http://127.0.0.1:4010';
const token = 'abc.def.ghi';
const clientSecret = 's3cr3t';
const hostile = '</script><script>alert(1)</script> ]]> & "q" \'a\' \u0000\u0007end';
/** What must appear nowhere in a report: the secrets, and the documents in any writing. */
const forbidden = [token, clientSecret, '123.456.789-09', '12345678909', '11.222.333/0001-81', '11222333000181', '0001-81'];
const longReason = `expected 401, got 200\nwith a body of ${'x'.repeat(1000)}`;

const rawResults: CheckResult[] = [
  { operationId: 'cob.create', kind: 'valid', rule: 'example accepted', verdict: 'pass', reason: 'answered 201', exchanges: [] },
  {
    operationId: 'cob.create',
    kind: 'invalid',
    rule: 'maxLength /body/chave',
    verdict: 'fail',
    reason: 'expected 400, got 201',
    exchanges: [
      {
        request: {
          method: 'POST',
          url: `${baseUrl}/cob?access_token=${token}&txid=t1`,
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: `grant_type=client_credentials&client_secret=${clientSecret}&chave=${'k'.repeat(80)}`,
        },
        received: {
          kind: 'answer',
          status: 201,
          headers: { 'content-type': 'application/json', 'Set-Cookie': `session=${token}` },
          body: {
            devedor: { cpf: '123.456.789-09', cnpj: '11.222.333/0001-81' },
            pagador: { cpf: '12345678909', cnpj: '11222333000181' },
            solicitacao: hostile,
            echo: `Bearer ${token}`,
          },
        },
        durationMs: 87,
      },
    ],
  },
  {
    operationId: 'cob.create',
    kind: 'token',
    rule: 'token of pix',
    verdict: 'fail',
    reason: longReason,
    exchanges: [
      {
        request: { method: 'GET', url: `${baseUrl}/cob/t1`, headers: { authorization: 'Bearer other.interface.token' } },
        received: { kind: 'answer', status: 200, headers: { 'content-type': 'text/html' }, body: hostile },
        durationMs: 13,
      },
      {
        request: { method: 'GET', url: `${baseUrl}/cob/t1`, headers: { authorization: `Bearer ${token}` } },
        received: { kind: 'no-answer', reason: 'timeout', message: 'no answer within 5000 ms' },
        durationMs: 5000,
      },
    ],
  },
  { operationId: 'cob.get', kind: 'idempotency', rule: 'same key replays', verdict: 'skipped', reason: 'read-only run', exchanges: [] },
  { operationId: 'cob.list', kind: 'paging', rule: 'pages agree', verdict: 'pass', reason: 'ok', exchanges: [] },
  {
    operationId: 'pix.devolucao',
    kind: 'flow',
    rule: 'cob: paid',
    verdict: 'needs-platform',
    reason: 'a payer must pay; no control plane',
    exchanges: [],
  },
];

const report: VerifyReport = {
  interface: 'pix',
  baseUrl,
  seed: 'seed-42',
  allowWrites: true,
  controlPlane: false,
  startedAt: '2026-03-02T10:00:00.000Z',
  durationMs: 4321,
  operations: ['cob.create', 'cob.get', 'cob.list', 'pix.devolucao', 'webhook.config'],
  // As the engine stores them: masked once.
  results: rawResults.map((result) => maskResult(result, [token, clientSecret])),
};

function secretsIn(text: string): string[] {
  return forbidden.filter((secret) => text.includes(secret));
}

/** The live view's output for the run, event by event as the engine would send them. */
function liveOutput(tty: boolean, color = false): string {
  let output = '';
  const listen = liveView((text) => (output += text), { tty, color, interface: 'pix' });
  const events: ProgressEvent[] = [{ kind: 'start', operations: report.operations }];
  for (const operationId of report.operations.slice(0, 4)) {
    events.push({ kind: 'operation', operationId });
    for (const result of report.results.filter((each) => each.operationId === operationId)) events.push({ kind: 'result', result });
  }
  events.push({ kind: 'end', report });
  for (const event of events) listen(event);
  return output;
}

interface XmlElement {
  readonly name: string;
  readonly attributes: Record<string, string>;
  readonly children: XmlElement[];
  text: string;
}

/** Code points below U+0020 other than tab, newline and carriage return: XML 1.0 forbids them. */
const controlsIn = (text: string): number[] =>
  Array.from(text, (character) => character.codePointAt(0)!).filter((code) => code < 0x20 && ![0x9, 0xa, 0xd].includes(code));

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (text: string): string =>
  text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (_match, name: string) =>
    name.startsWith('#x')
      ? String.fromCodePoint(Number.parseInt(name.slice(2), 16))
      : name.startsWith('#')
        ? String.fromCodePoint(Number(name.slice(1)))
        : (entities[name] ?? '\u{fffd}'),
  );

/** A strict little XML reader: tags must balance, text holds no `<`, every `&` starts a known reference. */
function parseXml(xml: string): XmlElement {
  expect(controlsIn(xml)).toEqual([]);
  const token = /<\?xml[^?]*\?>|<(\/?)([A-Za-z][\w.-]*)((?:\s+[A-Za-z][\w.-]*="[^"<]*")*)\s*(\/?)>|([^<]+)/y;
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const open: XmlElement[] = [root];
  while (token.lastIndex < xml.length) {
    const at = token.lastIndex;
    const match = token.exec(xml);
    if (match === null) throw new Error(`not XML at ${at}: ${xml.slice(at, at + 40)}`);
    const [, closing, name, attributeText, selfClosing, text] = match;
    const parent = open[open.length - 1]!;
    if (text !== undefined) {
      expect(text.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi, '')).not.toContain('&');
      parent.text += decode(text);
    } else if (closing === '/') {
      expect(parent.name).toBe(name);
      open.pop();
    } else if (name !== undefined) {
      const attributes: Record<string, string> = {};
      for (const [, key, value] of (attributeText ?? '').matchAll(/([A-Za-z][\w.-]*)="([^"]*)"/g)) {
        expect(value!).not.toMatch(/[<]|&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)/i);
        attributes[key!] = decode(value!);
      }
      const element: XmlElement = { name, attributes, children: [], text: '' };
      parent.children.push(element);
      if (selfClosing !== '/') open.push(element);
    }
  }
  expect(open).toHaveLength(1);
  expect(root.children).toHaveLength(1);
  return root.children[0]!;
}

const all = (element: XmlElement, name: string): XmlElement[] => [
  ...element.children.filter((child) => child.name === name),
  ...element.children.flatMap((child) => all(child, name)),
];

describe('no secret in any report', () => {
  it('the fixture does carry every secret before the mask (so the scans below mean something)', () => {
    expect(secretsIn(JSON.stringify(rawResults))).toEqual(forbidden);
  });

  it.each([
    { given: 'the JUnit XML', render: () => junitXml(report) },
    { given: 'the HTML page', render: () => htmlReport(report) },
    { given: 'the live view on a TTY', render: () => liveOutput(true, true) },
    { given: 'the live view in a CI log', render: () => liveOutput(false) },
    { given: 'the summary', render: () => summaryTable(report) },
  ])('$given shows none of them', ({ render }) => {
    const text = render();
    expect(secretsIn(text)).toEqual([]);
    expect(secretsIn(decode(text))).toEqual([]);
  });
});

describe('junitXml', () => {
  const xml = junitXml(report);
  const root = parseXml(xml);
  const suites = all(root, 'testsuite');

  it('parses, with the run counts on testsuites', () => {
    expect(root.name).toBe('testsuites');
    expect(root.attributes).toMatchObject({ tests: '6', failures: '2', errors: '0', skipped: '2', time: '4.321' });
  });

  it.each([
    { operationId: 'cob.create', want: { tests: '3', failures: '2', skipped: '0', time: '5.100' } },
    { operationId: 'cob.get', want: { tests: '1', failures: '0', skipped: '1', time: '0.000' } },
    { operationId: 'cob.list', want: { tests: '1', failures: '0', skipped: '0', time: '0.000' } },
    { operationId: 'pix.devolucao', want: { tests: '1', failures: '0', skipped: '1', time: '0.000' } },
    { operationId: 'webhook.config', want: { tests: '0', failures: '0', skipped: '0', time: '0.000' } },
  ])('suite $operationId counts $want, equal to its test cases', ({ operationId, want }) => {
    const suite = suites.find((each) => each.attributes.name === `pix.${operationId}`);
    expect(suite?.attributes).toMatchObject(want);
    const cases = all(suite!, 'testcase');
    expect(String(cases.length)).toBe(suite?.attributes.tests);
    expect(String(all(suite!, 'failure').length)).toBe(suite?.attributes.failures);
    expect(String(all(suite!, 'skipped').length)).toBe(suite?.attributes.skipped);
    expect(cases.every((each) => each.attributes.classname === `pix.${operationId}`)).toBe(true);
  });

  it('has a suite per operation, in table order', () => {
    expect(suites.map((suite) => suite.attributes.name)).toEqual(report.operations.map((operationId) => `pix.${operationId}`));
  });

  it('names a case [kind] rule, times it by its exchanges, and gives a failure its reason and masked exchanges', () => {
    const failing = all(root, 'testcase').find((each) => each.attributes.name === '[invalid] maxLength /body/chave');
    expect(failing?.attributes.time).toBe('0.087');
    const failure = failing?.children[0];
    expect(failure?.attributes.message).toBe('expected 400, got 201');
    expect(failure?.text).toContain(`> POST ${baseUrl}/cob?access_token=[masked]&txid=t1`);
    expect(failure?.text).toContain('Authorization: [masked]');
    expect(failure?.text).toContain('client_secret=[masked]');
    expect(failure?.text).toContain('"cpf": "***.456.789-**"');
    expect(failure?.text).toContain('</script><script>alert(1)</script> ]]>');
    expect(xml).not.toContain(']]>');
    const tokenFailure = all(root, 'testcase').find((each) => each.attributes.name === '[token] token of pix')?.children[0];
    expect(tokenFailure?.text).toContain(
      `< 200 after 13 ms\n  content-type: text/html\n\n  </script><script>alert(1)</script> ]]> & "q" 'a' end`,
    );
    expect(tokenFailure?.text).toContain('< no answer (timeout) after 5.0 s: no answer within 5000 ms');
    // The long reason: a one-line message of 500 characters; whole at the head of the text.
    expect(tokenFailure?.attributes.message).toMatch(/^expected 401, got 200 with a body of x+…$/);
    expect(Array.from(tokenFailure?.attributes.message ?? '')).toHaveLength(500);
    expect(tokenFailure?.text.startsWith(`${longReason}\n\n> GET`)).toBe(true);
    expect(xml).toContain('&lt;/script&gt;');
  });

  it('says a check that needs the platform is skipped for that reason', () => {
    const skipped = all(root, 'skipped').map((each) => each.attributes.message);
    expect(skipped).toEqual(['read-only run', 'needs the platform: a payer must pay; no control plane']);
  });
});

describe('htmlReport', () => {
  const html = htmlReport(report);

  it('loads nothing and runs nothing', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\s(src|href)\s*=/i);
    expect(html).not.toMatch(/url\(|@import|<link/i);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
  });

  it('shows no address but the base URL, and that as text', () => {
    const addresses = html.match(/https?:\/\/[^\s"'<&]*/g) ?? [];
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.filter((address) => !address.startsWith(baseUrl))).toEqual([]);
  });

  it('escapes the hostile body', () => {
    // As a text body (control characters dropped) and as a string of a JSON body (escaped by JSON, then HTML).
    expect(html).toContain(
      '<pre class="body">&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; ]]&gt; &amp; &quot;q&quot; &#39;a&#39; end</pre>',
    );
    expect(html).toContain(
      '&quot;solicitacao&quot;: &quot;&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; ]]&gt; &amp; \\&quot;q\\&quot;',
    );
    expect(controlsIn(html)).toEqual([]);
  });

  it.each([
    { given: 'the interface', want: '<code>pix</code> — <span class="verdict-failed">failed</span>' },
    { given: 'the base URL', want: `<dt>base URL</dt><dd><code>${baseUrl}</code></dd>` },
    { given: 'the seed', want: '<dt>seed</dt><dd><code>seed-42</code></dd>' },
    { given: 'writes', want: '<code>writes allowed</code>' },
    { given: 'no control plane', want: '<code>no: steps that need the platform are not run</code>' },
    { given: 'the duration', want: '<code>4.3 s</code>' },
    { given: 'the counts', want: '6 checks · 2 passed · 2 failed · 1 skipped · 1 need the platform' },
    { given: 'a failed operation, open', want: '<details class="operation some-failed" open>' },
    {
      given: 'a passed operation, folded',
      want: '<details class="operation all-passed"><summary><span class="pass">✓</span> <code>cob.list</code>',
    },
    { given: 'an operation not run', want: '<code>webhook.config</code> — not run' },
    { given: 'an operation only skipped, neither passed nor failed', want: '<span class="skipped">–</span> <code>cob.get</code>' },
    { given: 'the request of a failure', want: `<pre>POST ${baseUrl}/cob?access_token=[masked]&amp;txid=t1</pre>` },
    { given: 'its masked header', want: '<td><code>Authorization</code></td><td><code>[masked]</code></td>' },
    { given: 'the answer status', want: '<pre>201 after 87 ms</pre>' },
    { given: 'the masked document, pretty-printed', want: '&quot;cpf&quot;: &quot;***.456.789-**&quot;' },
    { given: 'a timeout', want: '<h4>No answer</h4>' },
    { given: 'the per-rule view, by kind', want: '<h3><code>[idempotency]</code></h3>' },
    { given: 'a rule across operations', want: '<summary>pages agree — 1 check · 1 passed' },
  ])('shows $given', ({ want }) => {
    expect(html).toContain(want);
  });
});

describe('live view', () => {
  const failureLines = [
    '✗ cob.create [invalid] maxLength /body/chave: expected 400, got 201',
    `✗ cob.create [token] token of pix: expected 401, got 200 with a body of ${'x'.repeat(300 - 'expected 401, got 200 with a body of '.length - 1)}…`,
  ];
  const finalLine =
    'verify pix at http://127.0.0.1:4010: 6 checks · 2 passed · 2 failed · 1 skipped · 1 need the platform in 4.3 s — FAILED\n';

  it('on a TTY, rewrites one status line and prints failures above it', () => {
    const output = liveOutput(true);
    for (const line of failureLines) expect(output).toContain(`\r\x1b[2K${line}\n`);
    expect(output).toContain('verify pix: 1/5 operations · 1 passed · 2 failed · 0 skipped · 0 need the platform · cob.get');
    expect(output.endsWith(`\r\x1b[2K${finalLine}`)).toBe(true);
  });

  it('in a CI log, prints a line per failure and per operation, and no carriage return', () => {
    const output = liveOutput(false);
    expect(output).not.toContain('\r');
    expect(output).not.toContain('\x1b');
    expect(output.split('\n')).toEqual([
      ...failureLines,
      '✗ cob.create  2 of 3 failed',
      '- cob.get  1 skipped',
      '✓ cob.list  1 check',
      '- pix.devolucao  1 need the platform',
      finalLine.trimEnd(),
      '',
    ]);
  });

  it('cuts reasons to one line of 300 characters', () => {
    const reasonOf = (line: string): string => line.slice(line.indexOf(': ') + 2);
    for (const line of liveOutput(false).split('\n')) expect(Array.from(reasonOf(line)).length).toBeLessThanOrEqual(300);
    expect(Array.from(reasonOf(failureLines[1]!))).toHaveLength(300);
  });

  it('colours the marks only when asked', () => {
    expect(liveOutput(false, true)).toContain('\x1b[31m✗\x1b[0m cob.create [invalid]');
  });
});

describe('summaryTable and exitCodeOf', () => {
  const summary = summaryTable(report);
  const rows = summary.split('\n');
  const cellsOf = (first: string): string[] | undefined =>
    rows
      .find((row) => row.startsWith(`${first} `))
      ?.trim()
      .split(/\s+/);

  it.each([
    { row: 'cob.create', want: ['cob.create', '1', '2', '0', '0'] },
    { row: 'cob.get', want: ['cob.get', '0', '0', '1', '0'] },
    { row: 'pix.devolucao', want: ['pix.devolucao', '0', '0', '0', '1'] },
    { row: 'webhook.config', want: ['webhook.config', 'not', 'run'] },
    { row: '[invalid]', want: ['[invalid]', '0', '1', '0', '0'] },
    { row: '[flow]', want: ['[flow]', '0', '0', '0', '1'] },
    { row: 'total', want: ['total', '2', '2', '1', '1'] },
  ])('row $row has $want', ({ row, want }) => {
    expect(cellsOf(row)).toEqual(want);
  });

  it('aligns the counts under their headings and ends with the verdict', () => {
    const heading = rows[0]!;
    expect(heading.trim().split(/\s{2,}/)).toEqual(['operation', 'passed', 'failed', 'skipped', 'needs platform']);
    for (const row of rows.filter((each) => /\d$/.test(each))) expect(row).toHaveLength(heading.length);
    expect(rows.filter((row) => row !== '').at(-1)).toBe('verify pix at http://127.0.0.1:4010: 6 checks, 2 failed — FAILED');
  });

  const only = (verdicts: CheckResult['verdict'][]): VerifyReport => ({
    ...report,
    results: verdicts.map((verdict) => ({ operationId: 'cob.get', kind: 'valid', rule: 'r', verdict, reason: '', exchanges: [] })),
  });
  it.each([
    { given: 'no result', verdicts: [], want: 0, verdict: '0 checks, 0 failed — passed' },
    { given: 'all passed', verdicts: ['pass', 'pass'], want: 0, verdict: '2 checks, 0 failed — passed' },
    { given: 'skipped and needing the platform', verdicts: ['skipped', 'needs-platform'], want: 0, verdict: '2 checks, 0 failed — passed' },
    { given: 'one failure', verdicts: ['pass', 'fail', 'skipped'], want: 1, verdict: '3 checks, 1 failed — FAILED' },
  ] as const)('$given: exit $want, "$verdict"', ({ verdicts, want, verdict }) => {
    expect(exitCodeOf(only([...verdicts]))).toBe(want);
    expect(summaryTable(only([...verdicts]))).toContain(`verify pix at ${baseUrl}: ${verdict}\n`);
  });
});

describe('writeReport', () => {
  const folders: string[] = [];
  afterAll(async () => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

  it.each([
    { file: 'nested/deeper/verify.xml', starts: '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites' },
    { file: 'verify.HTML', starts: '<!doctype html>' },
    { file: 'out/verify.htm', starts: '<!doctype html>' },
  ])('writes $file, creating its folder', async ({ file, starts }) => {
    const folder = await mkdtemp(join(tmpdir(), 'verify-report-'));
    folders.push(folder);
    await writeReport(report, join(folder, file));
    expect((await readFile(join(folder, file), 'utf8')).startsWith(starts)).toBe(true);
  });

  it.each(['verify.json', 'verify', 'report.xml.txt'])('refuses %s with a one-line message, writing nothing', async (name) => {
    const folder = await mkdtemp(join(tmpdir(), 'verify-report-'));
    folders.push(folder);
    const file = join(folder, 'sub', name);
    await expect(writeReport(report, file)).rejects.toThrow(new Error(`--report ${file}: give a .xml (JUnit) or .html file`));
    await expect(stat(join(folder, 'sub'))).rejects.toThrow(/ENOENT/);
  });
});

/**
 * The reports of `contrato verify`: `--report <file>` writes JUnit XML or an HTML page, chosen by the file's
 * extension; the live view and the summary are for the terminal.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, extname } from 'node:path';
import type { VerifyReport } from '../model.js';
import { htmlReport } from './html.js';
import { junitXml } from './junit.js';

export { htmlReport } from './html.js';
export { junitXml } from './junit.js';
export { type LiveViewOptions, liveView } from './live.js';
export { exitCodeOf, summaryTable } from './summary.js';

const formats: Readonly<Record<string, (report: VerifyReport) => string>> = { '.xml': junitXml, '.html': htmlReport, '.htm': htmlReport };

/**
 * Writes the report to `file` as JUnit XML (`.xml`) or HTML (`.html`, `.htm`), creating its folder. Any
 * other extension is a usage error, thrown before anything is written.
 */
export async function writeReport(report: VerifyReport, file: string): Promise<void> {
  const render = formats[extname(file).toLowerCase()];
  if (render === undefined) {
    // One line whatever the name holds: the message is printed as the command's error.
    throw new Error(`--report ${file.replace(/[\p{Cc}\u2028\u2029]/gu, '?')}: give a .xml (JUnit) or .html file`);
  }
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, render(report), 'utf8');
}

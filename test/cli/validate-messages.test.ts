/**
 * `contrato validate messages <message> <file>` as a user runs it, for every message name of the issue:
 * its example files exit 0; a copy missing a required member exits 1 with the member named; an unknown
 * message exits 2. The shell's operation form (`validate messages POST /messages/pacs.008 request`) keeps working.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';

const scratch = mkdtempSync(join(tmpdir(), 'contrato-cli-messages-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const names = [
  'pacs.002',
  'pacs.004',
  'pacs.008',
  'pain.009',
  'pain.011',
  'pain.012-authorization',
  'pain.012-confirmation',
  'pain.013',
  'pain.014',
  'camt.060',
  'camt.055',
  'camt.029',
  'reda.022',
  'dict.create-key',
  'dict.update-key',
  'dict.list-keys',
  'dict.check-keys',
  'dict.qrcode-lookup',
  'dict.fraud-marker',
];
const schemaOf = (message: string) =>
  JSON.parse(readFileSync(join(projectRoot, 'specs/messages/schemas', message.split('.')[0]!, `${message}.schema.json`), 'utf8')) as {
    required?: string[];
  };
const exampleOf = (message: string) =>
  (
    parse(
      readFileSync(
        join(
          projectRoot,
          'specs/messages/examples',
          message,
          readdirSync(join(projectRoot, 'specs/messages/examples', message)).sort()[0]!,
        ),
        'utf8',
      ),
    ) as { value: Record<string, unknown> }
  ).value;

function contrato(args: string[]) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'src/cli/main.ts'), 'validate', ...args], {
    cwd: projectRoot,
    encoding: 'utf8',
    input: '',
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}
function file(name: string, content: unknown): string {
  const path = join(scratch, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
}

describe('contrato validate messages', () => {
  it.each(names)('%s: a valid file exits 0, one without a required member exits 1 naming it', (message) => {
    const valid = exampleOf(message);
    expect(contrato(['messages', message, file(`${message}-valid.json`, valid)])).toMatchObject({ code: 0, stdout: 'valid\n' });
    const required = schemaOf(message).required?.[0];
    const broken = required ? { ...valid, [required]: undefined } : { ...valid, campoDesconhecido: true };
    const run = contrato(['messages', message, file(`${message}-invalid.json`, broken)]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(required ?? 'campoDesconhecido'));
  });

  it('exits 2 for an unknown message, listing the known ones', () => {
    const run = contrato(['messages', 'pacs.009', file('x.json', {})]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown message "pacs.009"; known: pacs.002, pacs.004, pacs.008/);
  });

  it('keeps the operation form of the messages interface', () => {
    const run = contrato(['messages', 'POST', '/messages/pacs.002', 'request', file('pacs002.json', exampleOf('pacs.002'))]);
    expect(run).toMatchObject({ code: 0, stdout: 'valid\n' });
  });
});

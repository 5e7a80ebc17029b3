/**
 * `contrato validate pix-notification <pix|rec|cobr> [file|-]`: the spec's own examples are valid, a broken
 * body prints one `pointer: message` line per problem (exit 1), and a wrong kind or argument is a usage
 * error (exit 2) raised before any input is read.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';

function contrato(args: string[], input?: unknown) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'src/cli/main.ts'), ...args], {
    cwd: projectRoot,
    encoding: 'utf8',
    input: input === undefined ? '' : typeof input === 'string' ? input : JSON.stringify(input),
    timeout: 30_000,
  });
  return { code: run.status, stdout: run.stdout.trim(), stderr: run.stderr, lines: run.stderr.trimEnd().split('\n').filter(Boolean) };
}

type Examples = Record<string, { value: unknown }>;
const bundle = JSON.parse(readFileSync(join(projectRoot, 'generated/pix/openapi.json'), 'utf8')) as {
  webhooks: Record<string, { post: { requestBody: { content: { 'application/json': { examples: Examples } } } } }>;
};
/** The first named example of each notification in the pix spec. */
const example = (kind: string) => Object.values(bundle.webhooks[kind]!.post.requestBody.content['application/json'].examples)[0]!.value;
const paid = { pix: [{ endToEndId: 'E18236120202611241432kR7mQ2xT9Lp', valor: '89.90', horario: '2026-11-24T14:32:08.214Z' }] };

const folder = mkdtempSync(join(tmpdir(), 'contrato-pix-notification-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('contrato validate pix-notification', () => {
  it.each([
    { given: 'the spec’s Pix notification on stdin', args: ['pix', '-'], body: example('pix'), want: 0, lines: [] },
    { given: 'the spec’s recurrence notification', args: ['rec'], body: example('rec'), want: 0, lines: [] },
    { given: 'the spec’s recurring-charge notification', args: ['cobr', '-'], body: example('cobr'), want: 0, lines: [] },
    {
      given: 'a Pix without its amount',
      args: ['pix', '-'],
      body: { pix: [{ ...paid.pix[0], valor: undefined }] },
      want: 1,
      lines: ['/pix/0/valor: is required'],
    },
    { given: 'a notification with no Pix', args: ['pix', '-'], body: { pix: [] }, want: 1, lines: [/^\/pix: /] },
    { given: 'a Pix body checked as a recurring charge', args: ['cobr', '-'], body: paid, want: 1, lines: ['/cobsr: is required'] },
    {
      given: 'a recurrence whose idRec is too short',
      args: ['rec', '-'],
      body: { recs: [{ idRec: 'RR13140088', status: 'APROVADA', atualizacao: [] }] },
      want: 1,
      lines: [/^\/recs\/0\/idRec: must have at least 29 characters/, /^\/recs\/0\/idRec: must be an idRec/],
    },
  ])('$given -> exit $want', ({ args, body, want, lines }) => {
    const run = contrato(['validate', 'pix-notification', ...args], body);
    expect(run.code, run.stderr).toBe(want);
    expect(run.stdout).toBe(want === 0 ? 'valid' : '');
    expect(run.lines).toHaveLength(lines.length);
    for (const [index, line] of lines.entries()) expect(run.lines[index]).toMatch(line);
  });

  it('reads the body from a file', () => {
    const file = join(folder, 'paid.json');
    writeFileSync(file, JSON.stringify(paid));
    expect(contrato(['validate', 'pix-notification', 'pix', file])).toMatchObject({ code: 0, stdout: 'valid' });
  });

  it.each([
    { given: 'an unknown kind', args: ['cob'], input: paid, want: /unknown notification "cob"; known: pix, rec, cobr/ },
    { given: 'no kind', args: [], input: paid, want: /unknown notification ""; known: pix, rec, cobr/ },
    { given: 'a second file', args: ['pix', 'a.json', 'b.json'], input: paid, want: /takes a kind and one file, not "b.json"/ },
    { given: 'a body that is not JSON', args: ['pix', '-'], input: '{"pix": [', want: /- is not JSON/ },
  ])('$given is a usage error (exit 2)', ({ args, input, want }) => {
    const run = contrato(['validate', 'pix-notification', ...args], input);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(want);
  });

  it('is in the help of validate', () => {
    expect(contrato(['validate', '--help']).stdout).toMatch(/validate pix-notification <pix\|rec\|cobr> \[file\|-\]/);
  });
});

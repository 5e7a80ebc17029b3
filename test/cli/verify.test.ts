/**
 * `contrato verify` as a user runs it: the command in a child process against a sandbox, its summary, exit
 * status and reports, the credential from the environment never shown anywhere, and one line for each misuse.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';

let sandbox: Sandbox;
const folder = mkdtempSync(join(tmpdir(), 'contrato-verify-'));

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** The CLI in a child process (the sandbox answers from this one, so the child must not block it). */
function contrato(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'src/cli/main.ts'), ...args], {
      cwd: projectRoot,
      env: { ...process.env, CONTRATO_CLIENT_ID: '', CONTRATO_CLIENT_SECRET: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('contrato verify', () => {
  it('judges core-banking read-only, writes both reports and shows the secret nowhere', { timeout: 120_000 }, async () => {
    const junit = join(folder, 'junit.xml');
    const html = join(folder, 'report.html');
    const run = await contrato(
      [
        'verify',
        'core-banking',
        '--base-url',
        sandbox.urlOf('core-banking'),
        '--report',
        junit,
        '--report',
        html,
        '--seed',
        'cli',
        // Only an account caller may list bankarization applications; sandbox-core is a BaaS one.
        '--skip',
        'bankarizationApplications.list',
      ],
      { CONTRATO_CLIENT_ID: 'sandbox-core', CONTRATO_CLIENT_SECRET: 'sandbox-secret' },
    );
    expect(run.stderr).toMatch(/read-only/);
    expect(run.stdout).toMatch(/verify core-banking at .*: \d+ checks, 0 failed — passed/);
    expect(run.status).toBe(0);
    expect(existsSync(junit) && existsSync(html)).toBe(true);
    for (const text of [run.stdout, run.stderr, readFileSync(junit, 'utf8'), readFileSync(html, 'utf8')])
      expect(text).not.toContain('sandbox-secret');
    expect(readFileSync(junit, 'utf8')).toMatch(/<testsuites[^>]*failures="0"/);
  });

  it('exits 1 with the token failure when the secret is wrong', { timeout: 60_000 }, async () => {
    const run = await contrato([
      'verify',
      'pix',
      '--base-url',
      sandbox.urlOf('pix'),
      '--client-id',
      'sandbox-pix',
      '--client-secret',
      'not-the-secret-123',
    ]);
    expect(run.status).toBe(1);
    expect(`${run.stdout}${run.stderr}`).toMatch(/no token could be had/);
    expect(`${run.stdout}${run.stderr}`).not.toContain('not-the-secret-123');
  });

  it.each([
    { given: ['verify'], want: /verify needs an interface: accounts, pix, messages, core-banking/ },
    { given: ['verify', 'nope', '--base-url', 'http://127.0.0.1:1'], want: /unknown interface nope/ },
    { given: ['verify', 'pix'], want: /needs --base-url/ },
    {
      given: ['verify', 'pix', '--base-url', 'http://bank.example/pix', '--client-id', 'a', '--client-secret', 'b'],
      want: /must be https/,
    },
    { given: ['verify', 'pix', '--base-url', 'http://127.0.0.1:1/pix'], want: /needs a credential/ },
    {
      given: ['verify', 'pix', '--base-url', 'http://127.0.0.1:1/pix', '--client-id', 'a', '--client-secret', 'b', '--report', 'out.pdf'],
      want: /give a \.xml \(JUnit\) or \.html file/,
    },
    {
      given: ['verify', 'pix', '--base-url', 'http://127.0.0.1:1/pix', '--client-id', 'a', '--client-secret', 'b', '--rate', 'fast'],
      want: /--rate takes requests per second/,
    },
    {
      given: ['verify', 'pix', '--base-url', 'http://127.0.0.1:1/pix', '--client-id', 'a', '--client-secret', 'b', '--tls', '/nowhere'],
      want: /--tls \/nowhere: no such folder/,
    },
  ])('$want: one line, no stack', { timeout: 60_000 }, async ({ given, want }) => {
    const run = await contrato(given);
    expect(run.status).not.toBe(0);
    expect(run.stderr.trim()).toMatch(want);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it("the guide's command runs as printed against the sandbox it names", { timeout: 120_000 }, async () => {
    const guide = readFileSync(join(projectRoot, 'docs/guides/verifying-an-implementation.md'), 'utf8');
    const line = guide
      .split('```')
      .filter((_, index) => index % 2 === 1)
      .filter((block) => block.startsWith('sh\n'))
      .flatMap((block) => block.split('\n'))
      .find((each) => each.includes('contrato verify'));
    expect(line).toBeDefined();
    // The sandbox it names is the default one (127.0.0.1:4010); this test's listens elsewhere.
    const command = line!
      .replace('http://127.0.0.1:4010', sandbox.url)
      .replace('npx contrato', `${JSON.stringify(process.execPath)} ${JSON.stringify(join(projectRoot, 'bin/contrato.js'))}`);
    const run = await new Promise<{ status: number | null; stdout: string }>((resolve) => {
      const child = spawn('sh', ['-c', command], { cwd: folder, env: { ...process.env, NODE_OPTIONS: '' } });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.resume();
      child.on('close', (status) => resolve({ status, stdout }));
    });
    expect(run.stdout).toMatch(/0 failed — passed/);
    expect(run.status).toBe(0);
    expect(existsSync(join(folder, 'verify.xml')) && existsSync(join(folder, 'verify.html'))).toBe(true);
  });

  it('--help documents every option', async () => {
    const run = await contrato(['verify', '--help']);
    for (const option of [
      'base-url',
      'client-id',
      'client-secret',
      'allow-writes',
      'only',
      'skip',
      'seed',
      'rate',
      'timeout',
      'tls',
      'account-id',
      'report',
    ])
      expect(run.stdout).toContain(`--${option}`);
  });
});

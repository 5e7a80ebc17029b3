/**
 * The `contrato` bin as a user runs it, from a fresh empty folder: the overview, the version and every
 * command's help answer with exit 0 and do nothing else (no site, no certificates, no servers); every
 * usage error is one line on stderr with exit 2; `dev-certs` writes its files, refuses to overwrite
 * them without --force and never prints the passphrase.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { commands } from '../../src/cli/commands.js';

const scratch = mkdtempSync(join(tmpdir(), 'contrato-help-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** `--import tsx` resolves from the cwd, which is a folder without node_modules: name tsx's loader by its URL. */
const tsxLoader = pathToFileURL(createRequire(join(projectRoot, 'package.json')).resolve('tsx')).href;
const packageVersion = (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;

/** A new empty folder inside the scratch folder. */
const freshFolder = (): string => mkdtempSync(join(scratch, 'cwd-'));

/** Runs `contrato <args>` in `cwd` (a new empty folder unless given); 20 s bounds anything that would serve. */
function contrato(args: readonly string[], cwd = freshFolder()) {
  const run = spawnSync(process.execPath, ['--import', tsxLoader, join(projectRoot, 'src/cli/main.ts'), ...args], {
    cwd,
    encoding: 'utf8',
    input: '',
    timeout: 20_000,
  });
  return { code: run.status, signal: run.signal, stdout: run.stdout, stderr: run.stderr, cwd };
}

const commandNames = commands.map((command) => command.name);

describe('contrato --help, -h, help: the overview', () => {
  it.each([{ args: ['--help'] }, { args: ['-h'] }, { args: ['help'] }])('$args -> exit 0, every command and option', ({ args }) => {
    const run = contrato(args);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const lines = run.stdout.split('\n');
    for (const name of commandNames) expect(lines.some((line) => line.startsWith(`  ${name} `))).toBe(true);
    for (const option of ['--dynamic', '--port', '--host', '--site', '--passphrase', '--force']) expect(run.stdout).toContain(option);
    expect(lines.some((line) => line.startsWith('  contrato diff '))).toBe(true);
    expect(lines.find((line) => line.startsWith('  contrato mock '))).toContain('--dynamic');
    expect(readdirSync(run.cwd)).toEqual([]);
  });
});

describe('contrato --version, -v', () => {
  it.each([{ args: ['--version'] }, { args: ['-v'] }])('$args -> exit 0 and the version of package.json', ({ args }) => {
    expect(contrato(args)).toMatchObject({ code: 0, stdout: `${packageVersion}\n`, stderr: '' });
  });
});

describe('the help of every command does nothing else', () => {
  const cases = commandNames.flatMap((name) => [
    { given: `${name} --help`, name, args: [name, '--help'] },
    { given: `${name} -h`, name, args: [name, '-h'] },
    { given: `help ${name}`, name, args: ['help', name] },
  ]);
  it.each(cases)('$given -> exit 0, its help, an empty folder', ({ name, args }) => {
    const run = contrato(args);
    expect(run.signal).toBeNull();
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout.startsWith(`contrato ${name}:`)).toBe(true);
    expect(readdirSync(run.cwd)).toEqual([]);
  });

  it('validate --help prints the validate usage, not an error about the interface', () => {
    const run = contrato(['validate', '--help']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain('  contrato validate <interface> <METHOD> <path[?query]> request [file|-] [--header name:value]...');
    expect(run.stdout).not.toMatch(/unknown interface/);
  });
});

describe('usage errors: exit 2, one line on stderr, nothing else', () => {
  it('no arguments -> exit 2 and the overview on stderr', () => {
    const run = contrato([]);
    expect(run).toMatchObject({ code: 2, stdout: '' });
    for (const name of commandNames) expect(run.stderr).toContain(`  ${name} `);
    expect(run.stderr).toContain('contrato -h | --help');
  });

  it.each([
    { given: 'an unknown command', args: ['valdate'], want: /did you mean validate\?/ },
    { given: 'an unknown command far off', args: ['frobnicate'], want: /unknown command "frobnicate"; known: validate, / },
    {
      given: 'an unknown option of a command',
      args: ['mock', '--prot', '5000'],
      want: /unknown option --prot for mock; did you mean --port\?/,
    },
    { given: 'an unknown option before any command', args: ['--verbose'], want: /unknown option --verbose/ },
    { given: 'an unexpected positional', args: ['docs', 'extra'], want: /docs takes no argument "extra"/ },
    { given: 'a port out of range', args: ['mock', '--port', '70000'], want: /--port .*"70000"/ },
    { given: 'zero days', args: ['dev-certs', '--days', '0'], want: /--days .*"0"/ },
    { given: 'an option without its value', args: ['docs', '--site'], want: /--site needs a value/ },
    { given: 'a flag given a value', args: ['dev-certs', '--force=yes'], want: /--force takes no value/ },
    { given: 'help of an unknown command', args: ['help', 'mok'], want: /did you mean mock\?/ },
  ])('$given: $args', ({ args, want }) => {
    const run = contrato(args);
    expect(run.signal).toBeNull();
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(want);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(readdirSync(run.cwd)).toEqual([]);
  });
});

describe('contrato dev-certs', () => {
  const passphrase = 'hunter2-never-printed';
  const folder = freshFolder();
  const certs = join(folder, 'certs');
  const files = [
    'dev-ca.pem',
    'dev-ca-key.pem',
    'participant.pem',
    'participant-key.pem',
    'participant.pfx',
    'server.pem',
    'server-key.pem',
  ];

  it('writes the seven files', () => {
    const run = contrato(['dev-certs', '--dir', certs, '--passphrase', passphrase], folder);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    for (const file of files) expect(existsSync(join(certs, file)), file).toBe(true);
    expect(`${run.stdout}${run.stderr}`).not.toContain(passphrase);
  });

  it('run again -> exit 1, one line naming the existing file and --force', () => {
    const run = contrato(['dev-certs', '--dir', certs, '--passphrase', passphrase], folder);
    expect(run).toMatchObject({ code: 1, stdout: '' });
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`${join(certs, 'dev-ca.pem').replace(/[.\\]/g, '\\$&')}.*--force`));
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(`${run.stdout}${run.stderr}`).not.toContain(passphrase);
  });

  it('with --force -> exit 0, the files rewritten', () => {
    const before = readFileSync(join(certs, 'dev-ca.pem'), 'utf8');
    const run = contrato(['dev-certs', '--dir', certs, '--passphrase', passphrase, '--force'], folder);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    for (const file of files) expect(existsSync(join(certs, file)), file).toBe(true);
    expect(readFileSync(join(certs, 'dev-ca.pem'), 'utf8')).not.toBe(before);
    expect(`${run.stdout}${run.stderr}`).not.toContain(passphrase);
  });

  it('a usage error does not echo the passphrase either', () => {
    const run = contrato(['dev-certs', '--passphrase', passphrase, '--days', '0']);
    expect(run.code).toBe(2);
    expect(`${run.stdout}${run.stderr}`).not.toContain(passphrase);
  });
});

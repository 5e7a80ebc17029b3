/** `contrato format` and `contrato brcode` as a user runs them: exit codes, output, errors. */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { brcodeCommand, readUpTo } from '../../src/cli/format-commands.js';
import { buildBrCode } from '../../src/formats/brcode.js';
import type { formats } from '../../src/formats/registry.js';
import { codeOfLength, emvMaximum, garbledCode } from '../formats/brcode-samples.js';

/** A run that floods or hangs is cut at 10 s (status null) rather than stalling the suite. */
function contrato(args: string[], input = '') {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'src/cli/main.ts'), ...args], {
    cwd: projectRoot,
    encoding: 'utf8',
    input,
    timeout: 10_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The lines a run wrote to stderr. */
const errorLines = (stderr: string): string[] => stderr.replace(/\n$/, '').split('\n');

const staticCode = buildBrCode({
  key: '52998224725',
  merchantName: 'MARIA SILVA',
  merchantCity: 'CURITIBA',
  amount: '35.00',
  txid: 'FATURA42',
});

/** One valid and one invalid value for every format the issue names (and brcode). */
const samples: Record<keyof typeof formats, [valid: string, invalid: string]> = {
  cpf: ['52998224725', '52998224724'],
  cnpj: ['12ABC34501DE35', '12ABC34501DE36'],
  'cpf-cnpj': ['11222333000181', '1122233300018'],
  'cpf-cnpj-digits': ['360305000104', '360305000105'],
  ispb: ['60746948', '6074694'],
  txid: ['7d9f0335c8a14b5e9f1e2a3b4c5d6e7f', 'curto'],
  e2eid: ['E60746948202611211030a1B2c3D4e5F', 'E60746948202602301030a1B2c3D4e5F'],
  idrec: ['RR1234567820261121a1B2c3D4e5F', 'RX1234567820261121a1B2c3D4e5F'],
  evp: ['123e4567-e89b-42d3-a456-426614174000', '123E4567-E89B-42D3-A456-426614174000'],
  'pix-key': ['+5511987654321', 'not-a-key'],
  phone: ['+5511987654321', '11987654321'],
  'brl-amount': ['1520.00', '1520,00'],
  decimal: ['0.015', '0'],
  ibge: ['3550308', '9950308'],
  cidr: ['200.160.0.0/16', '200.160.0.0/33'],
  // Built from their parts (see test/formats/boleto.test.ts); the invalid ones change one digit.
  'boleto-line': ['00190000090282063200400001234566810000000015000', '00190000090282063200400001234566810000000015001'],
  'boleto-barcode': ['00198100000000150000000002820632000000123456', '00197100000000150000000002820632000000123456'],
  'convenio-line': ['826900000009123456789015234567890129345678901231', '826900000009123456789015234567890129345678901232'],
  brcode: [staticCode, `${staticCode.slice(0, -1)}${staticCode.endsWith('0') ? '1' : '0'}`],
};

describe('contrato format', () => {
  it.each(Object.entries(samples).map(([name, [good]]) => [name, good] as const))('%s %s -> exit 0', (name, value) => {
    const run = contrato(['format', name, value]);
    expect(run).toMatchObject({ code: 0, stdout: 'valid\n', stderr: '' });
  });

  it.each(Object.entries(samples).map(([name, [, bad]]) => [name, bad] as const))('%s %s -> exit 1 with the reason', (name, value) => {
    const run = contrato(['format', name, value]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^${name}: \\S`));
  });

  it.each([
    { args: ['format', 'nope', '1'], want: /unknown format "nope"/ },
    { args: ['format', 'cpf'], want: /needs a value/ },
  ])('$args -> exit 2', ({ args, want }) => {
    const run = contrato(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(want);
  });
});

describe('contrato brcode', () => {
  it('decode prints the fields as JSON', () => {
    const run = contrato(['brcode', 'decode', staticCode]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      kind: 'static',
      key: '52998224725',
      amount: '35.00',
      txid: 'FATURA42',
      merchantCity: 'CURITIBA',
    });
  });

  it('decode reads stdin with -', () => {
    expect(contrato(['brcode', 'decode', '-'], `${staticCode}\n`).code).toBe(0);
  });

  it('decode of a broken code prints each problem with its field and exits 1', () => {
    const run = contrato(['brcode', 'decode', samples.brcode[1]]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^field 63: the CRC does not match the content/);
  });

  it('encode prints a code that decodes to what was asked', () => {
    const run = contrato([
      'brcode',
      'encode',
      '--key',
      'financeiro@padaria.com.br',
      '--amount',
      '10.50',
      '--name',
      'PADARIA PAO QUENTE',
      '--city',
      'SAO PAULO',
      '--txid',
      'PEDIDO123',
    ]);
    expect(run.code).toBe(0);
    const decoded = contrato(['brcode', 'decode', run.stdout.trim()]);
    expect(JSON.parse(decoded.stdout)).toMatchObject({
      key: 'financeiro@padaria.com.br',
      amount: '10.50',
      merchantName: 'PADARIA PAO QUENTE',
      txid: 'PEDIDO123',
    });
  });

  it.each([
    { args: ['brcode', 'encode', '--key', '+5511987654321', '--city', 'RECIFE'], code: 2, want: /needs --name, --city/ },
    { args: ['brcode', 'encode', '--key', '+5511987654321', '--url', 'x', '--name', 'A', '--city', 'B'], code: 2, want: /either --key/ },
    {
      args: ['brcode', 'encode', '--key', '+5511987654321', '--name', 'A', '--city', 'B', '--colour', 'x'],
      code: 2,
      want: /unknown option --colour/,
    },
    { args: ['brcode', 'encode', '--key', '+5511987654321', '--name', 'A', '--city', 'B', '--amount', '10,5'], code: 1, want: /amount/ },
    { args: ['brcode', 'scan'], code: 2, want: /decode <code> or encode/ },
  ])('$args -> exit $code', ({ args, code, want }) => {
    const run = contrato(args);
    expect(run.code).toBe(code);
    expect(run.stderr).toMatch(want);
  });
});

describe('contrato brcode decode bounds', () => {
  const tooLongForStdin = 'the input is longer than 65536 bytes; a BR Code has at most 512 characters';
  const tooLong = (length: number): string => `the text has ${length} characters; a BR Code has at most ${emvMaximum} (EMV QR Code limit)`;
  const empty = 'empty input: paste the BR Code (copia e cola) text';

  it.each([
    { given: '20 MB', size: 20 * 1024 * 1024 },
    { given: '2 MB', size: 2 * 1024 * 1024 },
  ])('refuses $given of empty fields on stdin with one line', ({ size }) => {
    // Empty fields 00 over and over: one problem per 4 characters to a parser without bounds.
    const run = contrato(['brcode', 'decode', '-'], '0000'.repeat(size / 4));
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(errorLines(run.stderr)).toEqual([tooLongForStdin]);
  });

  it('refuses the longest argument the OS passes (Linux: 128 KiB) with one line', () => {
    const run = contrato(['brcode', 'decode', '0000'.repeat(30_000)]);
    expect(run.code).toBe(1);
    expect(errorLines(run.stderr)).toEqual([tooLong(120_000)]);
  });

  it.each([
    { given: '20 MB', size: 20 * 1024 * 1024 },
    { given: '2 MB', size: 2 * 1024 * 1024 },
  ])('refuses a $given argument (too long for the OS, so in-process) with one line', ({ size }) => {
    const lines: string[] = [];
    const code = staticCode + 'X'.repeat(size - staticCode.length);
    const exit = brcodeCommand(
      { positionals: ['decode', code] },
      { out: (line) => lines.push(`out ${line}`), err: (line) => lines.push(line) },
      () => '',
    );
    expect(exit).toBe(1);
    expect(lines).toEqual([tooLong(size)]);
  });

  it('asks its stdin reader for at most 64 KiB and refuses more with one line', () => {
    const asked: number[] = [];
    const lines: string[] = [];
    const exit = brcodeCommand(
      { positionals: ['decode'] },
      { out: (line) => lines.push(`out ${line}`), err: (line) => lines.push(line) },
      (maxBytes) => {
        asked.push(maxBytes);
        return staticCode + 'X'.repeat(20 * 1024 * 1024);
      },
    );
    expect(asked).toEqual([64 * 1024]);
    expect(exit).toBe(1);
    expect(lines).toEqual([tooLongForStdin]);
  });

  it('reads stdin itself, bounded, when not given a reader: 20 MB piped in answers with one line', () => {
    const script = `import { brcodeCommand } from './src/cli/format-commands.ts';
process.exitCode = brcodeCommand({ positionals: ['decode', '-'] }, { out: (line) => console.log(line), err: (line) => console.error(line) });`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: projectRoot,
      encoding: 'utf8',
      input: '0000'.repeat(5 * 1024 * 1024),
      timeout: 10_000,
    });
    expect(run.status).toBe(1);
    expect(errorLines(run.stderr)).toEqual([tooLongForStdin]);
  });

  it.each([
    { given: 'an empty argument', args: ['brcode', 'decode', ''], input: '' },
    { given: 'a blank argument', args: ['brcode', 'decode', '  '], input: '' },
    { given: 'empty stdin', args: ['brcode', 'decode', '-'], input: '' },
    { given: 'blank stdin', args: ['brcode', 'decode'], input: ' \n\n' },
  ])('$given -> one line saying the input is empty', ({ args, input }) => {
    const run = contrato(args, input);
    expect(run.code).toBe(1);
    expect(errorLines(run.stderr)).toEqual([empty]);
  });

  it('decodes a valid code of exactly the maximum length, from the argument and from stdin', () => {
    const code = codeOfLength(emvMaximum);
    for (const run of [contrato(['brcode', 'decode', code]), contrato(['brcode', 'decode', '-'], `${code}\n`)]) {
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(run.stdout)).toMatchObject({ kind: 'static', key: 'financeiro@padaria.com.br', txid: 'PEDIDO123' });
    }
  });

  it('refuses a code one character over the maximum with one line', () => {
    const run = contrato(['brcode', 'decode', codeOfLength(emvMaximum + 1)]);
    expect(run.code).toBe(1);
    expect(errorLines(run.stderr)).toEqual([tooLong(emvMaximum + 1)]);
  });

  it('prints at most 20 problems, then how many more there are', () => {
    const run = contrato(['brcode', 'decode', garbledCode]);
    expect(run.code).toBe(1);
    const lines = errorLines(run.stderr);
    expect(lines).toHaveLength(21);
    expect(lines[0]).toBe('field 00: a field cannot be empty (length 00)');
    expect(lines[20]).toMatch(/^… and \d{3} more problems$/);
  });
});

describe('readUpTo', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'contrato-read-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it.each([
    { given: 'a file over the bound: one byte more than the bound, so the caller can tell', size: 200_000, bound: 100_000, want: 100_001 },
    { given: 'a file at the bound: all of it', size: 100_000, bound: 100_000, want: 100_000 },
    { given: 'a small file: all of it', size: 10, bound: 100_000, want: 10 },
    { given: 'an empty file: nothing', size: 0, bound: 100_000, want: 0 },
  ])('reads $given', ({ size, bound, want }) => {
    const path = join(scratch, `${size}-${bound}`);
    writeFileSync(path, 'a'.repeat(size));
    const fd = openSync(path, 'r');
    try {
      expect(readUpTo(fd, bound)).toHaveLength(want);
    } finally {
      closeSync(fd);
    }
  });
});

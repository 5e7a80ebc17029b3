/** `contrato format` and `contrato brcode` as a user runs them: exit codes, output, errors. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { buildBrCode } from '../../src/formats/brcode.js';
import { formats } from '../../src/formats/registry.js';

function contrato(args: string[], input = '') {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'src/cli/main.ts'), ...args], { cwd: projectRoot, encoding: 'utf8', input });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const staticCode = buildBrCode({ key: '52998224725', merchantName: 'MARIA SILVA', merchantCity: 'CURITIBA', amount: '35.00', txid: 'FATURA42' });

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
    expect(JSON.parse(run.stdout)).toMatchObject({ kind: 'static', key: '52998224725', amount: '35.00', txid: 'FATURA42', merchantCity: 'CURITIBA' });
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
    const run = contrato(['brcode', 'encode', '--key', 'financeiro@padaria.com.br', '--amount', '10.50', '--name', 'PADARIA PAO QUENTE', '--city', 'SAO PAULO', '--txid', 'PEDIDO123']);
    expect(run.code).toBe(0);
    const decoded = contrato(['brcode', 'decode', run.stdout.trim()]);
    expect(JSON.parse(decoded.stdout)).toMatchObject({ key: 'financeiro@padaria.com.br', amount: '10.50', merchantName: 'PADARIA PAO QUENTE', txid: 'PEDIDO123' });
  });

  it.each([
    { args: ['brcode', 'encode', '--key', '+5511987654321', '--city', 'RECIFE'], code: 2, want: /needs --name, --city/ },
    { args: ['brcode', 'encode', '--key', '+5511987654321', '--url', 'x', '--name', 'A', '--city', 'B'], code: 2, want: /either --key/ },
    { args: ['brcode', 'encode', '--key', '+5511987654321', '--name', 'A', '--city', 'B', '--colour', 'x'], code: 2, want: /unknown option --colour/ },
    { args: ['brcode', 'encode', '--key', '+5511987654321', '--name', 'A', '--city', 'B', '--amount', '10,5'], code: 1, want: /amount/ },
    { args: ['brcode', 'scan'], code: 2, want: /decode <code> or encode/ },
  ])('$args -> exit $code', ({ args, code, want }) => {
    const run = contrato(args);
    expect(run.code).toBe(code);
    expect(run.stderr).toMatch(want);
  });
});

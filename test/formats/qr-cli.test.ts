/**
 * `contrato brcode encode … --qr` and `brcode decode … --qr` as a user runs them: the QR drawn in the terminal
 * above the usual output reads back (jsQR) as the very code printed under it; a code that is not a BR Code
 * draws nothing and is refused in one line.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { brcodeCommand } from '../../src/cli/format-commands.js';
import { buildBrCode } from '../../src/formats/brcode.js';
import { gridOfTerminal, readGrid, terminalQrLine } from './qr-reader.js';

function contrato(args: string[]) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'src/cli/main.ts'), ...args], {
    cwd: projectRoot,
    encoding: 'utf8',
    input: '',
    timeout: 10_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Runs brcodeCommand in process, as program.ts does after parsing. */
function brcode(positionals: string[], options: Record<string, string | true>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = brcodeCommand(
    { positionals, options: new Map(Object.entries(options)) },
    { out: (line) => out.push(line), err: (line) => err.push(line) },
  );
  return { code, stdout: out.join('\n').split('\n'), stderr: err };
}

const staticCode = buildBrCode({
  key: '52998224725',
  merchantName: 'MARIA SILVA',
  merchantCity: 'CURITIBA',
  amount: '35.00',
  txid: 'FATURA42',
});

describe('contrato brcode … --qr', () => {
  it('encode --qr prints a terminal QR, then the code; the QR reads back as that code', () => {
    const run = contrato([
      'brcode',
      'encode',
      '--key',
      '+5511987654321',
      '--amount',
      '10.50',
      '--name',
      'PADARIA',
      '--city',
      'RECIFE',
      '--qr',
    ]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const lines = run.stdout.replace(/\n$/, '').split('\n');
    const code = lines.pop()!;
    expect(code).toMatch(/^000201.*6304[0-9A-F]{4}$/);
    for (const line of lines) expect(line).toMatch(terminalQrLine);
    expect(readGrid(gridOfTerminal(lines))).toBe(code);
  });

  it('encode without --qr prints the code alone, as before', () => {
    const run = contrato(['brcode', 'encode', '--key', '+5511987654321', '--name', 'PADARIA', '--city', 'RECIFE']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^000201\S+\n$/);
  });

  it('encode --qr of a dynamic code', () => {
    const run = brcode(['encode'], { url: 'pix.example.com/qr/v2/cobv/9d36b84f', name: 'LOJA', city: 'SAO PAULO', qr: true });
    expect(run.code).toBe(0);
    const code = run.stdout.pop()!;
    expect(readGrid(gridOfTerminal(run.stdout))).toBe(code);
  });

  it('decode --qr draws the code above its fields', () => {
    const run = brcode(['decode', staticCode], { qr: true });
    expect(run.code).toBe(0);
    const qrLines = run.stdout.filter((line) => terminalQrLine.test(line));
    expect(run.stdout.slice(0, qrLines.length)).toEqual(qrLines);
    expect(readGrid(gridOfTerminal(qrLines))).toBe(staticCode);
    expect(JSON.parse(run.stdout.slice(qrLines.length).join('\n'))).toMatchObject({ kind: 'static', txid: 'FATURA42' });
  });

  it('decode --qr of a malformed code draws nothing and says why in one line', () => {
    const run = contrato(['brcode', 'decode', `${staticCode.slice(0, -1)}${staticCode.endsWith('0') ? '1' : '0'}`, '--qr']);
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toMatch(/^field 63: the CRC does not match the content[^\n]*\n$/);
  });

  it('encode --qr with a bad amount draws nothing', () => {
    const run = brcode(['encode'], { key: '+5511987654321', name: 'A', city: 'B', amount: '10,5', qr: true });
    expect(run).toMatchObject({ code: 1, stdout: [''] });
    expect(run.stderr).toHaveLength(1);
  });
});

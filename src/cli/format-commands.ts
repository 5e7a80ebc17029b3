/** `contrato format` and `contrato brcode`: the domain checks of contrato/formats from the shell. */
import { readSync } from 'node:fs';
import { buildBrCode, describeBrCodeIssue, maxBrCodeLength, omittedBrCodeIssues, parseBrCode } from '../formats/brcode.js';
import { renderBrCodeTerminal } from '../formats/qr.js';
import { checkFormat, formats, isFormatName } from '../formats/registry.js';
import { UsageError } from './arguments.js';

export interface Output {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/** `contrato format <name> <value>`: 0 valid, 1 invalid, 2 unknown format or missing value. */
export function formatCommand(args: readonly string[], output: Output): number {
  const [name, value] = args;
  if (!name || !isFormatName(name)) {
    throw new UsageError(`unknown format ${JSON.stringify(name ?? '')}; known: ${Object.keys(formats).join(', ')}`);
  }
  if (value === undefined) throw new UsageError(`format ${name} needs a value`);
  const result = checkFormat(name, value);
  if (result.valid) {
    output.out('valid');
    return 0;
  }
  output.err(`${name}: ${result.reason}`);
  return 1;
}

/**
 * The most `brcode decode` reads from stdin: far above a BR Code (512 characters, at most 3 bytes each in
 * UTF-8) with a trailing newline or pasted blank lines, and small enough that a wrong file is refused at once.
 */
export const maxBrCodeStdinBytes = 64 * 1024;

/**
 * Reads a file descriptor to its end, but stops after maxBytes + 1 bytes: what it returns is longer than
 * maxBytes exactly when the input was, so a huge input is refused without being read whole.
 */
export function readUpTo(fd: number, maxBytes: number): string {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total <= maxBytes) {
    const chunk = Buffer.alloc(Math.min(64 * 1024, maxBytes + 1 - total));
    let count: number;
    try {
      count = readSync(fd, chunk, 0, chunk.length, null);
    } catch (error) {
      // A non-blocking stdin (a terminal or pipe some shells hand over) has no data yet: wait briefly.
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
      continue;
    }
    if (count === 0) break;
    chunks.push(chunk.subarray(0, count));
    total += count;
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Stdin of `brcode decode`, bounded by maxBrCodeStdinBytes (see readUpTo). */
export function readBrCodeStdin(maxBytes: number = maxBrCodeStdinBytes): string {
  return readUpTo(0, maxBytes);
}

/** A valid BR Code's QR as terminal lines (`--qr`), printed before the usual output. */
function printQr(code: string, output: Output): void {
  output.out(renderBrCodeTerminal(code).replace(/\n$/, ''));
}

/**
 * `contrato brcode decode <code>` and `contrato brcode encode --key … --name … --city …`, each with `--qr` to
 * draw the code in the terminal too. readStdin may stop after maxBytes + 1 bytes (readBrCodeStdin does); one
 * that reads everything is refused the same way.
 */
export function brcodeCommand(
  args: { readonly positionals: readonly string[]; readonly options?: ReadonlyMap<string, string | true> },
  output: Output,
  readStdin: (maxBytes: number) => string = readBrCodeStdin,
): number {
  const [action, ...rest] = args.positionals;
  const qr = args.options?.get('qr') === true;
  if (action === 'decode') {
    let code = rest[0];
    if (code === undefined || code === '-') {
      const text = readStdin(maxBrCodeStdinBytes);
      if (Buffer.byteLength(text, 'utf8') > maxBrCodeStdinBytes) {
        output.err(`the input is longer than ${maxBrCodeStdinBytes} bytes; a BR Code has at most ${maxBrCodeLength} characters`);
        return 1;
      }
      code = text.trim();
    }
    const result = parseBrCode(code);
    if (result.valid) {
      if (qr) printQr(code, output);
      output.out(JSON.stringify(result.value, null, 2));
      return 0;
    }
    for (const issue of result.issues) output.err(describeBrCodeIssue(issue));
    if (result.omittedIssues > 0) output.err(omittedBrCodeIssues(result.omittedIssues));
    return 1;
  }
  if (action === 'encode') {
    // The options were checked against the command table by the parser (arguments.ts): only values are read here.
    const given = new Map(
      [...(args.options ?? new Map<string, string | true>())].filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
    if (rest.length > 0) throw new UsageError(`brcode encode takes options only, not ${JSON.stringify(rest[0])}`);
    const name = given.get('name');
    const city = given.get('city');
    const key = given.get('key');
    const url = given.get('url');
    if (!name || !city || (key === undefined) === (url === undefined)) {
      throw new UsageError('brcode encode needs --name, --city and either --key (static) or --url (dynamic)');
    }
    const common = {
      merchantName: name,
      merchantCity: city,
      ...(given.has('amount') ? { amount: given.get('amount')! } : {}),
      ...(given.has('postal-code') ? { postalCode: given.get('postal-code')! } : {}),
    };
    try {
      const code =
        key !== undefined
          ? buildBrCode({
              ...common,
              key,
              ...(given.has('txid') ? { txid: given.get('txid')! } : {}),
              ...(given.has('description') ? { description: given.get('description')! } : {}),
            })
          : buildBrCode({ ...common, url: url! });
      if (qr) printQr(code, output);
      output.out(code);
      return 0;
    } catch (error) {
      if (error instanceof RangeError) {
        output.err(error.message);
        return 1;
      }
      throw error;
    }
  }
  throw new UsageError('brcode takes decode <code> or encode --key|--url … --name … --city …');
}

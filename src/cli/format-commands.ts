/** `contrato format` and `contrato brcode`: the domain checks of contrato/formats from the shell. */
import { buildBrCode, parseBrCode } from '../formats/brcode.js';
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

function options(args: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (let index = 0; index < args.length; index += 2) {
    const flag = args[index]!;
    const value = args[index + 1];
    if (!flag.startsWith('--') || value === undefined) throw new UsageError(`expected --option value pairs, got ${JSON.stringify(flag)}`);
    found.set(flag.slice(2), value);
  }
  return found;
}

const encodeOptions = new Set(['key', 'url', 'amount', 'name', 'city', 'txid', 'description', 'postal-code']);

/** `contrato brcode decode <code>` and `contrato brcode encode --key … --name … --city …`. */
export function brcodeCommand(args: readonly string[], output: Output, readStdin: () => string): number {
  const [action, ...rest] = args;
  if (action === 'decode') {
    const code = rest[0] === undefined || rest[0] === '-' ? readStdin().trim() : rest[0];
    const result = parseBrCode(code);
    if (result.valid) {
      output.out(JSON.stringify(result.value, null, 2));
      return 0;
    }
    for (const issue of result.issues) output.err(`field ${issue.tag}: ${issue.message}`);
    return 1;
  }
  if (action === 'encode') {
    const given = options(rest);
    for (const name of given.keys()) if (!encodeOptions.has(name)) throw new UsageError(`unknown option --${name}`);
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
          ? buildBrCode({ ...common, key, ...(given.has('txid') ? { txid: given.get('txid')! } : {}), ...(given.has('description') ? { description: given.get('description')! } : {}) })
          : buildBrCode({ ...common, url: url! });
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

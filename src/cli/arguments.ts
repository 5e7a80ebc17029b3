/**
 * The command line's grammar: every command with its usage lines and options, one parser that refuses an
 * unknown option with the nearest known one, and the help texts made from the same table, so the help
 * can never name an option the parser does not take or miss one it does.
 */

export { UsageError } from '../checks/usage-error.js';
import { UsageError } from '../checks/usage-error.js';

export interface OptionSpec {
  /** Long name without the dashes. */
  readonly name: string;
  /** Placeholder of the value it takes (`<n>`); a flag without one takes none. */
  readonly value?: string;
  readonly description: string;
  /** May be given several times; every value is kept, in order, in `ParsedArguments.lists`. */
  readonly repeatable?: boolean;
}

export interface CommandSpec {
  readonly name: string;
  readonly summary: string;
  /** Usage lines, each after `contrato `. */
  readonly usage: readonly string[];
  readonly options: readonly OptionSpec[];
  /** Lines shown after the options in the command's help. */
  readonly notes?: readonly string[];
}

export interface ParsedArguments {
  readonly positionals: readonly string[];
  readonly options: ReadonlyMap<string, string | true>;
  /** Every value of each repeatable option, in the order given. */
  readonly lists: ReadonlyMap<string, readonly string[]>;
  /** `-h` or `--help` was given: show the command's help and do nothing else. */
  readonly help: boolean;
}

export const helpOption: OptionSpec = { name: 'help', description: 'show this help and do nothing else' };

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_value, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/** The candidate closest to `word`, when it is close enough to be what was meant. */
export function nearest(written: string, candidates: readonly string[]): string | undefined {
  const word = written.toLowerCase();
  if (word === '') return undefined;
  let best: { candidate: string; score: number } | undefined;
  for (const candidate of candidates) {
    const score = candidate.startsWith(word) || word.startsWith(candidate) ? 0.5 : distance(word, candidate);
    if (!best || score < best.score) best = { candidate, score };
  }
  return best && best.score <= Math.max(2, Math.floor(word.length / 3)) ? best.candidate : undefined;
}

function suggestion(word: string, candidates: readonly string[], prefix: string): string {
  const close = nearest(word, candidates);
  return close ? `did you mean ${prefix}${close}?` : `known: ${candidates.map((candidate) => prefix + candidate).join(', ')}`;
}

/** A lone `-`, or a negative number, is a value, not an option. */
const looksLikeOption = (arg: string): boolean => arg.startsWith('-') && arg !== '-' && !/^-\d/.test(arg);

/** Splits `args` into positionals and the options `spec` declares; anything else is a UsageError. */
export function parseArguments(spec: CommandSpec, args: readonly string[]): ParsedArguments {
  const positionals: string[] = [];
  const options = new Map<string, string | true>();
  const lists = new Map<string, string[]>();
  let help = false;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '--') {
      positionals.push(...args.slice(index + 1));
      break;
    }
    if (arg === '-h' || arg === '--help') {
      help = true;
      continue;
    }
    if (!looksLikeOption(arg)) {
      positionals.push(arg);
      continue;
    }
    const [written, inline] = arg.startsWith('--')
      ? (arg.slice(2).split(/=(.*)/s) as [string, string | undefined])
      : [arg.slice(1), undefined];
    const known = [...spec.options, helpOption];
    const option = known.find((candidate) => candidate.name === written);
    if (!option) {
      throw new UsageError(
        `unknown option ${arg.split('=')[0]} for ${spec.name}; ${suggestion(
          written,
          known.map((candidate) => candidate.name),
          '--',
        )}`,
      );
    }
    if (option.value === undefined) {
      if (inline !== undefined) throw new UsageError(`--${option.name} takes no value`);
      if (option === helpOption) help = true;
      else options.set(option.name, true);
      continue;
    }
    const value = inline ?? args[index + 1];
    if (value === undefined || (inline === undefined && looksLikeOption(value)))
      throw new UsageError(`--${option.name} needs a value: --${option.name} ${option.value}`);
    if (inline === undefined) index += 1;
    options.set(option.name, value);
    if (option.repeatable) lists.set(option.name, [...(lists.get(option.name) ?? []), value]);
  }
  return { positionals, options, lists, help };
}

/** The named command, or a UsageError naming the nearest one. */
export function findCommand<Spec extends CommandSpec>(commands: readonly Spec[], name: string): Spec {
  const found = commands.find((command) => command.name === name);
  if (found) return found;
  throw new UsageError(
    `unknown command ${JSON.stringify(name)}; ${suggestion(
      name.replace(/^-+/, ''),
      commands.map((command) => command.name),
      '',
    )}`,
  );
}

function optionLines(options: readonly OptionSpec[]): string[] {
  const heads = options.map((option) => `${option.name === 'help' ? '-h, ' : ''}--${option.name}${option.value ? ` ${option.value}` : ''}`);
  const width = Math.max(...heads.map((head) => head.length));
  return options.map((option, index) => `  ${heads[index]!.padEnd(width)}  ${option.description}`);
}

export const exitCodes = 'exit codes: 0 valid or done, 1 invalid input or a failure (a taken port, a file that exists), 2 usage error';

/** `contrato <command> --help`. */
export function commandHelp(spec: CommandSpec): string {
  return [
    `contrato ${spec.name}: ${spec.summary}`,
    '',
    'usage:',
    ...spec.usage.map((line) => `  contrato ${line}`),
    '',
    'options:',
    ...optionLines([...spec.options, helpOption]),
    ...(spec.notes && spec.notes.length > 0 ? ['', ...spec.notes] : []),
    '',
    exitCodes,
  ].join('\n');
}

/** `contrato --help`: every command with its usage, every option. */
export function overview(commands: readonly CommandSpec[], version: string): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    `contrato ${version}: contract-first toolkit of the banking platform`,
    '',
    'commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    'usage:',
    ...commands.flatMap((command) => command.usage.map((line) => `  contrato ${line}`)),
    '  contrato -h | --help          this overview; contrato <command> --help for one command',
    '  contrato -v | --version       the version',
    '',
    exitCodes,
  ].join('\n');
}

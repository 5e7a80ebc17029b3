/**
 * The grammar of src/cli/arguments.ts on its own: how parseArguments splits positionals, options and
 * flags and refuses what the spec does not declare (with the nearest option), how nearest() and
 * findCommand() suggest, and that every command's help and the overview name every usage line and option.
 */
import { describe, expect, it } from 'vitest';
import {
  commandHelp,
  exitCodes,
  findCommand,
  nearest,
  overview,
  parseArguments,
  UsageError,
  type CommandSpec,
} from '../../src/cli/arguments.js';
import { commands } from '../../src/cli/commands.js';

/** A small spec with a value option, a flag and a second value option sharing a prefix with the first. */
const spec: CommandSpec = {
  name: 'serve',
  summary: 'a command for the tests',
  usage: ['serve [thing...] [--port <n>] [--passphrase <text>] [--force]'],
  options: [
    { name: 'port', value: '<n>', description: 'a port' },
    { name: 'passphrase', value: '<text>', description: 'a secret' },
    { name: 'force', description: 'a flag' },
  ],
};

/** What a parse gives, as plain data for toEqual. */
function parse(args: readonly string[]) {
  const parsed = parseArguments(spec, args);
  return { positionals: [...parsed.positionals], options: Object.fromEntries(parsed.options), help: parsed.help };
}

describe('parseArguments', () => {
  it.each([
    { given: 'nothing', args: [], want: { positionals: [], options: {}, help: false } },
    { given: 'positionals only', args: ['a', 'b'], want: { positionals: ['a', 'b'], options: {}, help: false } },
    { given: '--opt value', args: ['--port', '5000'], want: { positionals: [], options: { port: '5000' }, help: false } },
    { given: '--opt=value', args: ['--port=5000'], want: { positionals: [], options: { port: '5000' }, help: false } },
    {
      given: '--opt=value whose value holds =',
      args: ['--passphrase=a=b'],
      want: { positionals: [], options: { passphrase: 'a=b' }, help: false },
    },
    { given: 'a flag', args: ['--force'], want: { positionals: [], options: { force: true }, help: false } },
    {
      given: 'options and positionals mixed',
      args: ['a', '--force', 'b', '--port', '1', 'c'],
      want: { positionals: ['a', 'b', 'c'], options: { force: true, port: '1' }, help: false },
    },
    {
      given: '-- ending options',
      args: ['a', '--', '--force', '-h', '--nope'],
      want: { positionals: ['a', '--force', '-h', '--nope'], options: {}, help: false },
    },
    { given: 'a lone - as a positional', args: ['-'], want: { positionals: ['-'], options: {}, help: false } },
    { given: 'a negative number as a positional', args: ['-5', '-1.5'], want: { positionals: ['-5', '-1.5'], options: {}, help: false } },
    { given: 'a negative number as a value', args: ['--port', '-1'], want: { positionals: [], options: { port: '-1' }, help: false } },
    { given: 'a lone - as a value', args: ['--passphrase', '-'], want: { positionals: [], options: { passphrase: '-' }, help: false } },
    { given: '-h', args: ['-h'], want: { positionals: [], options: {}, help: true } },
    {
      given: '--help among other arguments',
      args: ['a', '--help', '--force'],
      want: { positionals: ['a'], options: { force: true }, help: true },
    },
  ])('$given: $args', ({ args, want }) => {
    expect(parse(args)).toEqual(want);
  });

  it.each([
    { given: 'a value option at the end', args: ['--port'], want: '--port needs a value: --port <n>' },
    { given: 'a value option followed by an option', args: ['--port', '--force'], want: '--port needs a value: --port <n>' },
    { given: 'a value option followed by --', args: ['--passphrase', '--'], want: '--passphrase needs a value: --passphrase <text>' },
    { given: 'a flag given a value with =', args: ['--force=yes'], want: '--force takes no value' },
    { given: 'a typo of an option', args: ['--prot', '5000'], want: 'unknown option --prot for serve; did you mean --port?' },
    { given: 'a typo of an option with =', args: ['--froce=1'], want: 'unknown option --froce for serve; did you mean --force?' },
    { given: 'a prefix of an option', args: ['--pass', 'x'], want: 'unknown option --pass for serve; did you mean --passphrase?' },
    { given: 'a single-dash option', args: ['-f'], want: 'unknown option -f for serve; did you mean --force?' },
    {
      given: 'a far-off option',
      args: ['--verbose'],
      want: 'unknown option --verbose for serve; known: --port, --passphrase, --force, --help',
    },
  ])('$given: $args -> UsageError', ({ args, want }) => {
    expect(() => parseArguments(spec, args)).toThrow(UsageError);
    expect(() => parseArguments(spec, args)).toThrow(want);
  });

  // Like any other flag given a value (it once was refused as an unknown option, suggesting itself).
  it('--help given a value with = -> "--help takes no value"', () => {
    expect(() => parseArguments(spec, ['--help=yes'])).toThrow('--help takes no value');
  });
});

describe('nearest', () => {
  const names = ['port', 'host', 'dynamic', 'passphrase', 'help'];
  it.each([
    { given: 'a transposition', word: 'prot', want: 'port' },
    { given: 'one letter off', word: 'hots', want: 'host' },
    { given: 'one letter missing', word: 'dynmic', want: 'dynamic' },
    { given: 'a prefix of a candidate', word: 'pass', want: 'passphrase' },
    { given: 'a candidate as its prefix', word: 'ports', want: 'port' },
    { given: 'the exact name', word: 'help', want: 'help' },
    { given: 'nothing close', word: 'verbose', want: undefined },
    { given: 'a long word far off', word: 'completely-different', want: undefined },
    { given: 'no candidates', word: 'port', candidates: [], want: undefined },
  ])('$given: $word -> $want', ({ word, candidates, want }) => {
    expect(nearest(word, candidates ?? names)).toBe(want);
  });
});

describe('findCommand', () => {
  it.each([
    { given: 'a known command', name: 'validate', want: 'validate' },
    { given: 'a known command with a dash', name: 'dev-certs', want: 'dev-certs' },
  ])('$given: $name', ({ name, want }) => {
    expect(findCommand(commands, name).name).toBe(want);
  });

  it.each([
    { given: 'a typo', name: 'valdate', want: 'unknown command "valdate"; did you mean validate?' },
    { given: 'a typo of a dashed name', name: 'dev-cert', want: 'unknown command "dev-cert"; did you mean dev-certs?' },
    {
      given: 'nothing close',
      name: 'frobnicate',
      want: `unknown command "frobnicate"; known: ${commands.map((command) => command.name).join(', ')}`,
    },
  ])('$given: $name -> UsageError', ({ name, want }) => {
    expect(() => findCommand(commands, name)).toThrow(UsageError);
    expect(() => findCommand(commands, name)).toThrow(want);
  });
});

describe('commandHelp', () => {
  it.each(commands.map((command) => ({ name: command.name, command: command as CommandSpec })))(
    '$name: every usage line and option, -h, --help and the exit codes',
    ({ command }) => {
      const help = commandHelp(command);
      const lines = help.split('\n');
      expect(lines[0]).toBe(`contrato ${command.name}: ${command.summary}`);
      for (const usage of command.usage) expect(lines).toContain(`  contrato ${usage}`);
      for (const option of command.options) {
        const head = `--${option.name}${option.value ? ` ${option.value}` : ''}`;
        const line = lines.find((candidate) => candidate.trimStart().startsWith(`${head} `));
        expect(line, head).toBeDefined();
        expect(line).toContain(option.description);
      }
      expect(lines.some((line) => line.trimStart().startsWith('-h, --help '))).toBe(true);
      for (const note of command.notes ?? []) expect(lines).toContain(note);
      expect(lines.at(-1)).toBe(exitCodes);
    },
  );
});

describe('overview', () => {
  const text = overview(commands, '9.9.9');
  const lines = text.split('\n');

  it('names the version and ends with the exit codes', () => {
    expect(lines[0]).toMatch(/^contrato 9\.9\.9: /);
    expect(lines.at(-1)).toBe(exitCodes);
  });

  it.each(commands.map((command) => ({ name: command.name, command: command as CommandSpec })))(
    '$name: its summary and every usage line',
    ({ command }) => {
      expect(lines.some((line) => line.trim().startsWith(`${command.name} `) && line.endsWith(command.summary))).toBe(true);
      for (const usage of command.usage) expect(lines).toContain(`  contrato ${usage}`);
    },
  );

  it('names -h, --help, -v and --version', () => {
    expect(text).toContain('contrato -h | --help');
    expect(text).toContain('contrato -v | --version');
  });
});

/**
 * `contrato` as a function: parses the arguments against the command table, shows help without doing
 * anything else, runs the command and turns every failure into one line and an exit code (0 done,
 * 1 invalid input or a failure, 2 usage error). Commands load their modules only when they run, so
 * `--help` and `--version` answer at once.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { interfaces, type InterfaceName } from '../interfaces.js';
import { commandHelp, findCommand, overview, parseArguments, UsageError, type CommandSpec, type ParsedArguments } from './arguments.js';
import { commands, type CommandName } from './commands.js';
import { untilSignal } from './signals.js';
import type { Output } from './format-commands.js';
import { assertPackagesInstalled, contratoManifest, docsPackages, mockPackages } from './optional-packages.js';
import { defaultBasePort, PortInUseError } from './ports.js';
import type { SandboxSettings } from './servers.js';

export interface RunContext {
  /** How the user started this command, for the hints of error lines ("contrato mock", "npm start --"). */
  readonly invokedAs?: string;
  /** The folder the docs site goes to when --site is not given. */
  readonly defaultSite?: string;
  readonly output?: Output;
}

const consoleOutput: Output = { out: (line) => console.log(line), err: (line) => console.error(line) };

/** contrato's version, from the package.json above this file (src/cli or dist/src/cli). */
export function version(): string {
  return contratoManifest()?.version ?? 'unknown';
}

function portValue(parsed: ParsedArguments): number {
  const given = parsed.options.get('port');
  if (given === undefined) return defaultBasePort;
  const port = Number(given);
  // The highest offset (the last mock's, from the definitions) must stay a valid port.
  const highest = 65_535 - Math.max(...interfaces.map((info) => info.mockPort - defaultBasePort));
  if (given === true || !/^\d+$/.test(given) || port > highest)
    throw new UsageError(`--port takes a base port from 0 to ${highest}, got ${JSON.stringify(given)}`);
  return port;
}

function stringOption(parsed: ParsedArguments, name: string): string | undefined {
  const value = parsed.options.get(name);
  return typeof value === 'string' ? value : undefined;
}

/** The sandbox's own options of `start` and `sandbox`. */
function sandboxSettings(parsed: ParsedArguments): SandboxSettings {
  const seed = stringOption(parsed, 'seed');
  const speedText = stringOption(parsed, 'speed');
  const speed = speedText === undefined ? undefined : Number(speedText);
  if (speed !== undefined && !(speed > 0 && speed <= 100_000))
    throw new UsageError(`--speed takes a number above 0 and at most 100000, got ${JSON.stringify(speedText)}`);
  const snapshotFile = stringOption(parsed, 'snapshot');
  const tlsDir = stringOption(parsed, 'tls');
  let tls: SandboxSettings['tls'];
  if (tlsDir !== undefined) {
    const files = { cert: 'server.pem', key: 'server-key.pem', ca: 'dev-ca.pem' } as const;
    const missing = Object.values(files).filter((file) => !existsSync(join(tlsDir, file)));
    if (missing.length > 0)
      throw new UsageError(`--tls ${tlsDir} lacks ${missing.join(', ')}; write them with contrato dev-certs --dir ${tlsDir}`);
    tls = {
      cert: readFileSync(join(tlsDir, files.cert)),
      key: readFileSync(join(tlsDir, files.key)),
      ca: readFileSync(join(tlsDir, files.ca)),
    };
  }
  return { ...(seed ? { seed } : {}), ...(speed ? { speed } : {}), ...(snapshotFile ? { snapshotFile } : {}), ...(tls ? { tls } : {}) };
}

/** The string options among `names` (option -> key) that were given. */
function optionalStrings<Key extends string>(parsed: ParsedArguments, names: Record<Key, string>): Partial<Record<Key, string>> {
  const found: Partial<Record<Key, string>> = {};
  for (const [key, option] of Object.entries(names) as [Key, string][]) {
    const value = stringOption(parsed, option);
    if (value !== undefined) found[key] = value;
  }
  return found;
}

function noPositionals(spec: CommandSpec, parsed: ParsedArguments): void {
  if (parsed.positionals.length > 0)
    throw new UsageError(`${spec.name} takes no argument ${JSON.stringify(parsed.positionals[0])}; contrato ${spec.usage[0]}`);
}

/**
 * Starts the servers and serves until SIGINT, SIGTERM or SIGHUP (or npm, which started it, asks: signals.ts),
 * then stops every server. Signals are heard from the start: one that comes while the servers start ends the
 * process at once, as it would have without a handler (the mocks end with it: servers.ts ties them to this
 * process); a second one while stopping (Ctrl-C pressed twice) too. The optional packages the mocks or the
 * docs site need are checked first: `invokedAs` names the command in the line that says what to install.
 */
async function serve(
  names: readonly InterfaceName[],
  siteDir: string | null,
  parsed: ParsedArguments,
  output: Output,
  invokedAs: string,
  withSandbox = false,
): Promise<number> {
  assertPackagesInstalled([...(names.length > 0 ? mockPackages : []), ...(siteDir ? docsPackages : [])], invokedAs);
  const stopRequested = untilSignal(output);
  const { startAll } = await import('./servers.js');
  const host = stringOption(parsed, 'host');
  const servers = await Promise.race([
    startAll(names, siteDir, {
      port: portValue(parsed),
      ...(host ? { host } : {}),
      dynamic: parsed.options.has('dynamic'),
      log: output.out,
      ...(withSandbox ? { sandbox: sandboxSettings(parsed) } : {}),
    }),
    stopRequested.then(() => null),
  ]);
  if (servers === null) {
    output.err('contrato: stopped while starting');
    process.exit(130);
  }
  await stopRequested;
  output.out('stopping…');
  await Promise.all(servers.map((server) => server.stop()));
  return 0;
}

async function runCommand(name: CommandName, parsed: ParsedArguments, context: RunContext, output: Output): Promise<number> {
  const spec = findCommand(commands, name);
  const invokedAs = context.invokedAs ?? `contrato ${name}`;
  const site = (): string => stringOption(parsed, 'site') ?? context.defaultSite ?? 'site';
  switch (name) {
    case 'validate':
      return (await import('./document-commands.js')).validateCommand([...parsed.positionals], {
        headers: parsed.lists.get('header') ?? [],
        strict: parsed.options.has('strict'),
        ...(stringOption(parsed, 'base-url') === undefined ? {} : { baseUrl: stringOption(parsed, 'base-url')! }),
      });
    case 'diff':
      return (await import('./document-commands.js')).diffCommand([...parsed.positionals], stringOption(parsed, 'corrections'));
    case 'changelog':
      noPositionals(spec, parsed);
      return (await import('./changelog-command.js')).changelogCommand({ check: parsed.options.has('check') }, output);
    case 'db':
      return (await import('./db-command.js')).dbCommand(parsed.positionals, stringOption(parsed, 'schema'), output);
    case 'format':
      return (await import('./format-commands.js')).formatCommand(parsed.positionals, output);
    case 'brcode': {
      const { brcodeCommand } = await import('./format-commands.js');
      return brcodeCommand(parsed, output);
    }
    case 'mock': {
      const { interfaceArgument } = await import('./document-commands.js');
      const names = parsed.positionals.length > 0 ? parsed.positionals.map(interfaceArgument) : interfaces.map((info) => info.name);
      return serve(names, null, parsed, output, invokedAs);
    }
    case 'regenerate': {
      noPositionals(spec, parsed);
      const args = {
        check: parsed.options.has('check'),
        force: parsed.options.has('force'),
        noDocs: parsed.options.has('no-docs'),
        ...optionalStrings(parsed, { out: 'out', specs: 'specs', site: 'site' }),
      };
      const { regenerateOnce, watchRegenerate } = await import('./watch.js');
      if (!parsed.options.has('watch')) {
        for (const name of ['no-serve', 'port', 'host']) if (parsed.options.has(name)) throw new UsageError(`--${name} goes with --watch`);
        return regenerateOnce(args);
      }
      if (args.check) throw new UsageError('--check changes nothing, so there is nothing to watch: one or the other');
      const host = stringOption(parsed, 'host');
      if (!parsed.options.has('no-serve') && !args.noDocs) assertPackagesInstalled(docsPackages, 'contrato regenerate --watch');
      return watchRegenerate(
        { ...args, serve: !parsed.options.has('no-serve'), port: portValue(parsed), ...(host ? { host } : {}) },
        output,
      );
    }
    case 'docs':
      noPositionals(spec, parsed);
      return serve([], site(), parsed, output, invokedAs);
    case 'start':
      noPositionals(spec, parsed);
      return serve([], site(), parsed, output, invokedAs, true);
    case 'sandbox': {
      if (parsed.positionals.length === 0) return serve([], null, parsed, output, invokedAs, true);
      const { sandboxVerb } = await import('./sandbox-command.js');
      return sandboxVerb(parsed.positionals, { url: stringOption(parsed, 'url'), count: stringOption(parsed, 'count') }, output);
    }
    case 'verify':
      return (await import('./verify-command.js')).verifyCommand(parsed, output);
    case 'dev-certs': {
      noPositionals(spec, parsed);
      const days = stringOption(parsed, 'days');
      if (days !== undefined && !/^[1-9]\d{0,4}$/.test(days))
        throw new UsageError(`--days takes a whole number of days from 1 to 99999, got ${JSON.stringify(days)}`);
      const passphrase = stringOption(parsed, 'passphrase');
      const { writeDevCertificates } = await import('./dev-certs.js');
      const written = writeDevCertificates(stringOption(parsed, 'dir') ?? '.', {
        force: parsed.options.has('force'),
        ...(days ? { days: Number(days) } : {}),
        ...(passphrase ? { passphrase } : {}),
      });
      output.out(`wrote a development CA and certificates into ${written.directory} (for development only):`);
      for (const file of written.files) output.out(`  ${file}`);
      return 0;
    }
    case 'help': {
      const [topic] = parsed.positionals;
      output.out(topic ? commandHelp(findCommand(commands, topic)) : overview(commands, version()));
      return 0;
    }
  }
}

/** Runs `contrato <argv>` and answers its exit code; never throws. */
export async function runCli(argv: readonly string[], context: RunContext = {}): Promise<number> {
  const output = context.output ?? consoleOutput;
  const [first, ...rest] = argv;
  let invokedAs = context.invokedAs ?? 'contrato';
  try {
    if (first === undefined) {
      output.err(overview(commands, version()));
      return 2;
    }
    if (first === '-h' || first === '--help') {
      output.out(overview(commands, version()));
      return 0;
    }
    if (first === '-v' || first === '--version') {
      output.out(version());
      return 0;
    }
    if (first.startsWith('-'))
      throw new UsageError(
        `unknown option ${first}; ${first.startsWith('--') ? 'the options are --help and --version' : 'the options are -h and -v'}, commands come first`,
      );
    const spec = findCommand(commands, first);
    if (!context.invokedAs) invokedAs = `contrato ${spec.name}`;
    const parsed = parseArguments(spec, rest);
    if (parsed.help) {
      output.out(commandHelp(spec));
      return 0;
    }
    return await runCommand(spec.name, parsed, context, output);
  } catch (error) {
    if (error instanceof UsageError) {
      const command = commands.find((spec) => spec.name === first);
      output.err(`contrato: ${error.message} (${command ? `contrato ${command.name} --help` : 'contrato --help'} shows the usage)`);
      return 2;
    }
    if (error instanceof PortInUseError) {
      output.err(`contrato: ${error.message}; start on other ports with --port <base>, e.g. ${invokedAs} --port ${nextBase(error)}`);
      return 1;
    }
    output.err(`contrato: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

/** A base port a thousand above the taken one, as an example in the hint. */
function nextBase(error: PortInUseError): number {
  const lowest = Math.min(...error.taken.map((entry) => entry.port));
  const base = lowest - (lowest % 1000) + 1000;
  return base > 65_000 ? 5000 : base;
}

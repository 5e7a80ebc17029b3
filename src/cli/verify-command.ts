/**
 * `contrato verify <interface> --base-url <url>`: the options read and checked (one line each when wrong), the
 * credential from the options or the environment (never echoed), the client certificate from --tls, then the
 * run with its live view on stderr, the summary on stdout and the reports written. Exit 1 on any failure.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { definitions, findDefinition } from '../interfaces.js';
import type { TlsOptions } from '../runtime/transport.js';
import { type ParsedArguments, UsageError } from './arguments.js';
import type { Output } from './format-commands.js';

const one = (parsed: ParsedArguments, name: string): string | undefined => {
  const value = parsed.options.get(name);
  return typeof value === 'string' ? value : undefined;
};

const listOf = (parsed: ParsedArguments, name: string): string[] =>
  (parsed.lists.get(name) ?? [])
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(Boolean);

/** The client certificate and trust in `dir`: a PFX, or a PEM pair, and a CA when one is there. */
export function tlsFrom(dir: string, passphrase: string | undefined): TlsOptions {
  if (!existsSync(dir)) throw new UsageError(`--tls ${dir}: no such folder; write one with contrato dev-certs --dir ${dir}`);
  const files = readdirSync(dir);
  const read = (name: string): Buffer => readFileSync(join(dir, name));
  const ca = ['dev-ca.pem', 'ca.pem'].find((name) => files.includes(name));
  const pfx = files.includes('participant.pfx')
    ? 'participant.pfx'
    : files.filter((name) => name.endsWith('.pfx') || name.endsWith('.p12'))[0];
  const extra = { ...(ca ? { ca: read(ca) } : {}), ...(passphrase ? { passphrase } : {}) };
  if (pfx) return { pfx: read(pfx), ...extra };
  const pair = [
    ['participant.pem', 'participant-key.pem'],
    ['client.pem', 'client-key.pem'],
    ['cert.pem', 'key.pem'],
  ].find(([cert, key]) => files.includes(cert!) && files.includes(key!));
  if (!pair)
    throw new UsageError(
      `--tls ${dir} holds no client certificate: put participant.pfx, or participant.pem and participant-key.pem, there`,
    );
  return { cert: read(pair[0]!), key: read(pair[1]!), ...extra };
}

export async function verifyCommand(parsed: ParsedArguments, output: Output, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const names = definitions.map((definition) => definition.name).join(', ');
  const [name, ...rest] = parsed.positionals;
  if (!name) throw new UsageError(`verify needs an interface: ${names}`);
  if (rest.length > 0) throw new UsageError(`verify judges one interface at a time, got ${JSON.stringify(rest[0])} too`);
  const definition = findDefinition(name);
  if (!definition) throw new UsageError(`verify: unknown interface ${name}; one of ${names}`);
  const baseUrl = one(parsed, 'base-url');
  if (!baseUrl) throw new UsageError(`verify ${name} needs --base-url <url>: the address its client takes`);
  try {
    const url = new URL(baseUrl);
    const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
      throw new UsageError(`--base-url must be https (http only on loopback), got ${url.protocol}//${url.host}`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`--base-url is not a URL: ${JSON.stringify(baseUrl)}`);
  }
  const clientId = one(parsed, 'client-id') ?? env.CONTRATO_CLIENT_ID;
  const clientSecret = one(parsed, 'client-secret') ?? env.CONTRATO_CLIENT_SECRET;
  if (!clientId || !clientSecret)
    throw new UsageError('verify needs a credential: --client-id and --client-secret, or CONTRATO_CLIENT_ID and CONTRATO_CLIENT_SECRET');
  const number = (option: string, pattern: RegExp, what: string): number | undefined => {
    const text = one(parsed, option);
    if (text === undefined) return undefined;
    if (!pattern.test(text)) throw new UsageError(`--${option} takes ${what}, got ${JSON.stringify(text)}`);
    return Number(text);
  };
  const ratePerSecond = number('rate', /^\d{1,5}(\.\d+)?$/, 'requests per second (0: no limit)');
  const timeoutMs = number('timeout', /^[1-9]\d{1,6}$/, 'milliseconds, from 10');
  const reports = parsed.lists.get('report') ?? [];
  for (const file of reports)
    if (!/\.(xml|html?)$/i.test(file)) throw new UsageError(`--report ${file}: give a .xml (JUnit) or .html file`);
  const tlsDir = one(parsed, 'tls');
  const tls = tlsDir ? tlsFrom(tlsDir, env.CONTRATO_TLS_PASSPHRASE) : undefined;
  const seed = one(parsed, 'seed') ?? Math.random().toString(36).slice(2, 10);
  const allowWrites = parsed.options.has('allow-writes');

  const [{ verify }, { liveView, summaryTable, exitCodeOf, writeReport }] = await Promise.all([
    import('../verify/run.js'),
    import('../verify/report/index.js'),
  ]);
  const stderr = process.stderr;
  const live = liveView((text) => stderr.write(text), {
    tty: Boolean(stderr.isTTY),
    color: Boolean(stderr.isTTY) && !env.NO_COLOR,
    interface: name,
  });
  output.err(
    `verify ${name} at ${new URL(baseUrl).origin}: ${allowWrites ? 'reads and writes' : 'read-only (--allow-writes runs the rest)'}, seed ${seed}`,
  );
  const report = await verify({
    interfaceName: definition.name,
    baseUrl,
    credential: { clientId, clientSecret },
    tls,
    allowWrites,
    only: listOf(parsed, 'only'),
    skip: listOf(parsed, 'skip'),
    seed,
    ratePerSecond,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    accountId: one(parsed, 'account-id'),
    onProgress: live,
  });
  output.out(summaryTable(report));
  for (const file of reports) {
    await writeReport(report, file);
    output.err(`report written: ${file}`);
  }
  return exitCodeOf(report);
}

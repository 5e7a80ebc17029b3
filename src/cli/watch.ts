/**
 * `contrato regenerate`, in a checkout of contrato: scripts/regenerate.ts (the generators and their dev
 * dependencies are not part of the package). With `--watch`, the contract author's loop: every save under
 * specs/ regenerates what it changed — a file of one interface regenerates that interface and its page
 * only — and prints one line with its time; the docs are served with a reload script, so an open page
 * reloads itself once its page was rebuilt; the sandbox is restarted on the regenerated modules (its state
 * kept in a snapshot file across restarts). Ctrl-C stops it all.
 *
 * The generators run in a child process that stays warm between saves (they take about 1.5 s to load);
 * a change of the generator itself (scripts/, the files regenerate hashes as its own) starts a new one.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, type FSWatcher, mkdtempSync, rmSync, watch } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { docsPort } from '../interfaces.js';
import type { Output } from './format-commands.js';
import { assertPortsFree, defaultBasePort, defaultHost, freeLoopbackPort, type PlannedPort, portFor, urlOf } from './ports.js';
import { untilSignal } from './signals.js';

/** The checkout this CLI runs from (its scripts/regenerate.ts), or null in an installed package. */
export function checkoutRoot(): string | null {
  for (const relativePath of ['../../', '../../../']) {
    const root = fileURLToPath(new URL(relativePath, import.meta.url));
    if (existsSync(join(root, 'scripts/regenerate.ts')) && existsSync(join(root, 'node_modules/tsx'))) return resolve(root);
  }
  return null;
}

function requireCheckout(): string {
  const root = checkoutRoot();
  if (!root)
    throw new Error(
      'contrato regenerate runs in a checkout of contrato (it needs scripts/ and the dev dependencies): clone it, npm ci, then npx contrato regenerate',
    );
  return root;
}

/** The options of `contrato regenerate` that scripts/regenerate.ts takes as they are. */
export interface RegenerateArguments {
  readonly check?: boolean;
  readonly force?: boolean;
  readonly noDocs?: boolean;
  readonly out?: string;
  readonly specs?: string;
  readonly site?: string;
}

function scriptArguments(args: RegenerateArguments): string[] {
  const absolute = (path: string): string => resolve(process.cwd(), path);
  return [
    ...(args.check ? ['--check'] : []),
    ...(args.noDocs ? ['--no-docs'] : []),
    ...(args.out ? ['--out', absolute(args.out), '--manifest'] : []),
    ...(args.specs ? ['--specs', absolute(args.specs)] : []),
    ...(args.site ? ['--site', absolute(args.site)] : []),
  ];
}

/** One run of scripts/regenerate.ts, its output on this terminal; answers its exit code. */
export function regenerateOnce(args: RegenerateArguments): Promise<number> {
  const root = requireCheckout();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'scripts/regenerate.ts'), ...scriptArguments(args), ...(args.force ? ['--force'] : [])],
    { cwd: root, stdio: 'inherit' },
  );
  return new Promise((done) => child.once('exit', (code) => done(code ?? 1)));
}

export interface WatchOptions extends RegenerateArguments {
  /** Serve the docs (with reloading) and the sandbox (restarted after each regeneration); default true. */
  readonly serve?: boolean;
  /** Base port as for `contrato start` (docs on it, the sandbox at +10); 0 gives each a free port. */
  readonly port?: number;
  readonly host?: string;
  /** Quiet time after the last change before regenerating. */
  readonly debounceMs?: number;
  /** Resolves when the watch must stop (default: SIGINT, SIGTERM or SIGHUP). */
  readonly until?: Promise<void>;
}

interface Result {
  readonly documents: readonly string[];
  readonly manifestWritten: boolean;
  readonly pages: readonly string[];
  readonly milliseconds: number;
}
type Answer =
  | { type: 'ready'; specsDir: string; generatorInputs: string[] }
  | { type: 'done'; result: Result; lines: string[] }
  | { type: 'failed'; message: string; lines: string[] };

/** The warm regenerator: scripts/regenerate.ts --ipc, asked one regeneration at a time. */
class Regenerator {
  private child: ChildProcess | null = null;
  private waiting: ((answer: Answer) => void) | null = null;
  private exited: Promise<void> = Promise.resolve();

  constructor(
    private readonly root: string,
    private readonly args: readonly string[],
  ) {}

  /** Starts a new child (ending the old one) and answers what it watches. */
  async start(): Promise<Extract<Answer, { type: 'ready' }>> {
    await this.stop();
    const child = spawn(process.execPath, ['--import', 'tsx', join(this.root, 'scripts/regenerate.ts'), '--ipc', ...this.args], {
      cwd: this.root,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child = child;
    this.exited = new Promise((done) => child.once('exit', () => done()));
    child.on('message', (answer: Answer) => {
      const waiting = this.waiting;
      this.waiting = null;
      waiting?.(answer);
    });
    child.once('exit', (code) => {
      const waiting = this.waiting;
      this.waiting = null;
      waiting?.({ type: 'failed', message: `the regenerator ended (exit ${code})`, lines: [] });
    });
    const answer = await this.next();
    if (answer.type !== 'ready')
      throw new Error(`the regenerator did not start: ${answer.type === 'failed' ? answer.message : answer.type}`);
    return answer;
  }

  private next(): Promise<Answer> {
    return new Promise((done) => {
      this.waiting = done;
    });
  }

  async regenerate(force: boolean): Promise<Exclude<Answer, { type: 'ready' }>> {
    // A child that ended (or never started: a generator that does not load) is started again first.
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) await this.start();
    const answer = this.next();
    this.child?.send({ type: 'regenerate', force });
    return (await answer) as Exclude<Answer, { type: 'ready' }>;
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (child && child.exitCode === null && child.signalCode === null) {
      child.disconnect?.();
      child.kill('SIGTERM');
    }
    await this.exited;
  }
}

/** The sandbox in a process of its own, so that a restart loads the regenerated modules; ends with this process. */
export class SandboxProcess {
  private child: ChildProcess | null = null;
  url = '';

  constructor(
    private readonly root: string,
    private readonly host: string,
    private readonly port: number,
    private readonly snapshotFile: string,
  ) {}

  async start(): Promise<void> {
    // `contrato sandbox --port` takes the base port, the sandbox listening at its offset: the base that puts it on `port`.
    const { sandboxPort } = await import('../sandbox/modules.js');
    const base = this.port - (sandboxPort - defaultBasePort);
    const program = pathToFileURL(join(this.root, 'src/cli/program.ts')).href;
    // Stdin is a pipe from this process: when it closes, however this process ended, the sandbox stops too.
    const code = [
      "process.stdin.on('close', () => process.kill(process.pid, 'SIGTERM'));",
      'process.stdin.resume();',
      `const { runCli } = await import(${JSON.stringify(program)});`,
      `process.exit(await runCli(${JSON.stringify(['sandbox', '--host', this.host, '--port', String(base), '--snapshot', this.snapshotFile])}));`,
    ].join(' ');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      cwd: this.root,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child = child;
    let output = '';
    await new Promise<void>((done, fail) => {
      const collect = (chunk: Buffer): void => {
        output += chunk.toString();
        const ready = /^sandbox \(stateful\)\s+(\S+)/m.exec(output);
        if (ready && /all ready in/.test(output)) {
          this.url = ready[1]!;
          done();
        }
      };
      child.stdout!.on('data', collect);
      child.stderr!.on('data', collect);
      child.once('exit', (exitCode) => fail(new Error(`the sandbox ended (exit ${exitCode}):\n${output.slice(-2000)}`)));
    });
    child.removeAllListeners('exit');
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((done) => {
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  }
}

export const reloadPath = '/_contrato/reload';

/** The script every HTML page gets from the watch's docs server: reload when the site was rebuilt. */
const reloadScript = `(() => {
  const events = new EventSource(${JSON.stringify(reloadPath)});
  events.addEventListener('rebuilt', () => location.reload());
})();
`;

/**
 * The docs site with reloading: a front on `host`:`port` that serves the reload script and its event
 * stream, and hands everything else to contrato's static server of the site (servers.ts), adding the
 * script to each HTML page. `reload(pages)` tells every open page.
 */
async function serveDocsWithReload(
  siteDir: string,
  port: number,
  host: string,
): Promise<{ url: string; reload(pages: readonly string[]): void; stop(): Promise<void> }> {
  const { serveStatic } = await import('./servers.js');
  const site = await serveStatic(siteDir, 0, '127.0.0.1');
  const target = new URL(site.url);
  const listeners = new Set<ServerResponse>();
  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (path === reloadPath) {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      response.write('retry: 500\n\n');
      listeners.add(response);
      request.once('close', () => listeners.delete(response));
      return;
    }
    if (path === `${reloadPath}.js`) {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' }).end(reloadScript);
      return;
    }
    // Plain bytes from the site's server, so the script can be added to a page.
    const { 'accept-encoding': _encoding, ...headers } = request.headers;
    const forward = httpRequest(
      { host: target.hostname, port: target.port, method: request.method, path: request.url, headers },
      (answer: IncomingMessage) => {
        const html = /^text\/html/.test(String(answer.headers['content-type'] ?? ''));
        const { 'content-length': length, etag, ...rest } = answer.headers;
        response.writeHead(
          answer.statusCode ?? 502,
          html ? rest : { ...rest, ...(length ? { 'content-length': length } : {}), ...(etag ? { etag } : {}) },
        );
        answer.on('data', (chunk: Buffer) => response.write(chunk));
        answer.once('end', () =>
          response.end(html && request.method !== 'HEAD' ? `<script src="${reloadPath}.js"></script>\n` : undefined),
        );
      },
    );
    forward.once('error', () => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end('the docs server did not answer');
    });
    request.pipe(forward);
  };
  const front: Server = createServer(handle);
  await new Promise<void>((done, fail) => {
    front.once('error', fail);
    front.listen(port, host, () => done());
  });
  return {
    url: urlOf(host, (front.address() as AddressInfo).port),
    reload: (pages) => {
      for (const listener of listeners) listener.write(`event: rebuilt\ndata: ${JSON.stringify(pages)}\n\n`);
    },
    stop: async () => {
      for (const listener of listeners) listener.end();
      front.closeAllConnections();
      await new Promise<void>((done) => front.close(() => done()));
      await site.stop();
    },
  };
}

const clock = (): string => new Date().toTimeString().slice(0, 8);
const seconds = (milliseconds: number): string => `${(milliseconds / 1000).toFixed(2)} s`;

/** What one regeneration did, in a few words. */
function describe(result: Result): string {
  const parts = [
    result.documents.length > 0
      ? `regenerated ${result.documents.join(', ')}`
      : result.manifestWritten
        ? 'manifest updated'
        : 'nothing changed',
  ];
  const pages = result.pages.filter((page) => page.endsWith('.html'));
  if (pages.length > 4) parts.push(`site built (${pages.length} pages)`);
  else if (pages.length > 0) parts.push(`pages ${pages.join(', ')}`);
  return parts.join('; ');
}

/** A spec source, as regenerate hashes them (not an editor's swap file). */
const isSpecFile = (name: string): boolean => /\.(ya?ml|json)$/.test(name);

/**
 * Watches specs/ (or `--specs`) and the generator, regenerating on each save, until `options.until`
 * resolves or a signal comes. Answers the exit code.
 */
export async function watchRegenerate(options: WatchOptions, output: Output): Promise<number> {
  const root = requireCheckout();
  const host = options.host ?? defaultHost;
  const base = options.port ?? defaultBasePort;
  const serve = options.serve !== false;
  const siteDir = options.noDocs ? null : options.site ? resolve(process.cwd(), options.site) : options.out ? null : join(root, 'site');
  const withSandbox = serve;
  const planned: PlannedPort[] = [
    ...(serve && siteDir ? [{ port: portFor(base, docsPort), label: 'docs site' }] : []),
    ...(withSandbox ? [{ port: portFor(base, (await import('../sandbox/modules.js')).sandboxPort), label: 'sandbox' }] : []),
  ];
  await assertPortsFree(host, planned);

  // Listening for Ctrl-C from the start: one during the first regeneration stops the watch as cleanly as later.
  const until = options.until ?? untilSignal(output);
  let interrupted = false;
  void until.then(() => {
    interrupted = true;
  });
  const regenerator = new Regenerator(root, scriptArguments(options));
  // A Ctrl-C reaches the regenerator too (one process group): its end may be seen before the signal is.
  const settle = (): Promise<void> => new Promise((done) => setTimeout(done, 100));
  let ready: Extract<Answer, { type: 'ready' }>;
  try {
    ready = await regenerator.start();
  } catch (error) {
    await settle();
    if (interrupted) return 0;
    throw error;
  }
  const stateDir = mkdtempSync(join(tmpdir(), 'contrato-watch-'));
  let docs: Awaited<ReturnType<typeof serveDocsWithReload>> | null = null;
  let sandbox: SandboxProcess | null = null;
  const watchers: FSWatcher[] = [];
  let stopping = false;
  try {
    const report = (answer: Exclude<Answer, { type: 'ready' }>, started: number, extra = ''): void => {
      if (answer.type === 'failed') {
        output.err(`${clock()}  regeneration failed after ${seconds(performance.now() - started)}: ${answer.message}`);
        return;
      }
      output.out(`${clock()}  ${describe(answer.result)}${extra} in ${seconds(performance.now() - started)}`);
    };
    const started = performance.now();
    const first = await regenerator.regenerate(options.force === true);
    if (first.type === 'failed') await settle();
    if (interrupted) return 0;
    report(first, started);

    if (serve && siteDir) {
      docs = await serveDocsWithReload(siteDir, portFor(base, docsPort), host);
      output.out(`docs     ${docs.url}/ (an open page reloads itself when it is rebuilt)`);
    }
    if (withSandbox) {
      const port = base === 0 ? await freeLoopbackPort() : portFor(base, (await import('../sandbox/modules.js')).sandboxPort);
      sandbox = new SandboxProcess(root, host, port, join(stateDir, 'sandbox-state.json'));
      await sandbox.start();
      // The sandbox loads generated/ of the checkout: with --out it is restarted all the same, on what it loads.
      output.out(
        `sandbox  ${sandbox.url} (restarted on the regenerated modules, its state kept${options.out ? '; it serves generated/, not --out' : ''})`,
      );
    }

    // Saves come in bursts (an editor writes, renames, touches): one regeneration after a quiet moment.
    let timer: NodeJS.Timeout | null = null;
    let generatorChanged = false;
    let failed = first.type === 'failed';
    let running: Promise<void> = Promise.resolve();
    const run = async (): Promise<void> => {
      const restart = generatorChanged;
      generatorChanged = false;
      const began = performance.now();
      try {
        if (restart) await regenerator.start();
        const answer = await regenerator.regenerate(false);
        let extra = restart ? ' (generator reloaded)' : '';
        if (answer.type === 'done' && answer.result.documents.length > 0 && sandbox) {
          await sandbox.stop();
          await sandbox.start();
          extra += '; sandbox restarted';
        }
        if (answer.type === 'done' && answer.result.pages.length > 0) docs?.reload(answer.result.pages);
        // A save that changed nothing regenerate reads (a comment in a file no document reads…) prints nothing,
        // unless the last one failed: the line then says the specs are back to what was last regenerated.
        if (answer.type === 'failed' || answer.result.documents.length > 0 || answer.result.pages.length > 0 || restart || failed)
          report(answer, began, extra);
        failed = answer.type === 'failed';
      } catch (error) {
        report({ type: 'failed', message: error instanceof Error ? error.message : String(error), lines: [] }, began);
        failed = true;
      }
    };
    const schedule = (generator: boolean): void => {
      if (stopping) return;
      generatorChanged ||= generator;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        running = running.then(run, run);
      }, options.debounceMs ?? 150);
    };
    watchers.push(
      watch(ready.specsDir, { recursive: true }, (_event, name) => {
        if (name && isSpecFile(String(name))) schedule(false);
      }),
    );
    const generatorFiles = new Set(ready.generatorInputs.map((file) => join(root, file)));
    for (const dir of new Set([...generatorFiles].map((file) => dirname(file))))
      watchers.push(
        watch(dir, (_event, name) => {
          if (name && (generatorFiles.has(join(dir, String(name))) || relative(root, dir) === join('scripts', 'steps'))) schedule(true);
        }),
      );
    const shown = relative(process.cwd(), ready.specsDir);
    output.out(`watching ${shown === '' ? '.' : shown.startsWith('..') ? ready.specsDir : shown}/ and the generator — Ctrl-C to stop`);

    await until;
    stopping = true;
    if (timer) clearTimeout(timer);
    await running;
    output.out('stopping…');
  } finally {
    stopping = true;
    for (const watcher of watchers) watcher.close();
    await Promise.all([regenerator.stop(), sandbox?.stop(), docs?.stop()]);
    rmSync(stateDir, { recursive: true, force: true });
  }
  return 0;
}

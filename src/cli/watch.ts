/**
 * `contrato regenerate`, in a checkout of contrato: once (watch-regenerator.ts), or with `--watch` the
 * contract author's loop: every save under specs/ regenerates what it changed — a file of one interface
 * regenerates that interface and its page only — and prints one line with its time (watch-report.ts); the
 * docs are served with a reload script, so an open page reloads itself once its page was rebuilt
 * (watch-docs.ts); the sandbox is restarted on the regenerated modules, its state kept in a snapshot file
 * across restarts (watch-sandbox.ts). Ctrl-C stops it all.
 *
 * The generators run in a child process that stays warm between saves; a change of the generator itself
 * (scripts/, the files regenerate hashes as its own) starts a new one.
 */
import { type FSWatcher, mkdtempSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { docsPort } from '../interfaces.js';
import type { Output } from './format-commands.js';
import { assertPortsFree, defaultBasePort, defaultHost, freeLoopbackPort, type PlannedPort, portFor } from './ports.js';
import { untilSignal } from './signals.js';
import { type DocsWithReload, serveDocsWithReload } from './watch-docs.js';
import { type RegenerateArguments, type RegeneratorAnswer, Regenerator, requireCheckout, scriptArguments } from './watch-regenerator.js';
import { reportRegeneration } from './watch-report.js';
import { SandboxProcess } from './watch-sandbox.js';

// `contrato regenerate` without --watch: the command's entry loads this module for both.
export { regenerateOnce } from './watch-regenerator.js';

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
  let ready: Extract<RegeneratorAnswer, { type: 'ready' }>;
  try {
    ready = await regenerator.start();
  } catch (error) {
    await settle();
    if (interrupted) return 0;
    throw error;
  }
  const stateDir = mkdtempSync(join(tmpdir(), 'contrato-watch-'));
  let docs: DocsWithReload | null = null;
  let sandbox: SandboxProcess | null = null;
  const watchers: FSWatcher[] = [];
  let stopping = false;
  try {
    const started = performance.now();
    const first = await regenerator.regenerate(options.force === true);
    if (first.type === 'failed') await settle();
    if (interrupted) return 0;
    reportRegeneration(output, first, started);

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
          reportRegeneration(output, answer, began, extra);
        failed = answer.type === 'failed';
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        reportRegeneration(output, { type: 'failed', message, lines: [] }, began);
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

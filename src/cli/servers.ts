/** Long-running servers of the CLI: Prism mocks of the interfaces and the static docs site, on loopback. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { bundleOperations } from '../bundle-operations.js';
import { docsPort, findInterface, type InterfaceName } from '../interfaces.js';
import { assertPortsFree, defaultBasePort, defaultHost, freeLoopbackPort, portFor, urlOf, type PlannedPort } from './ports.js';
import { startMockFront } from './mock-front.js';
import { assertPackagesInstalled, mockPackages } from './optional-packages.js';
import { bundledSpecPath, loadInterface, type InterfaceModules } from '../checks/registry.js';
import { addressOf, serveStatic } from './site-server.js';

export interface RunningServer {
  readonly url: string;
  stop(): Promise<void>;
}

function prismBin(): string {
  assertPackagesInstalled(mockPackages, 'contrato mock');
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve('@stoplight/prism-cli/package.json');
  const manifest = require(manifestPath) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin.prism;
  return join(dirname(manifestPath), bin ?? 'dist/index.js');
}

/**
 * Prism's CLI run inside a process that ends when its stdin closes. This process holds the other end of
 * that pipe, and the kernel closes it however this process ends — a second Ctrl-C, SIGKILL, a crash —
 * so a mock is never left running without its parent (an 'exit' handler alone covers only a clean exit).
 */
const endsWithParent = [
  "process.stdin.on('close', () => process.exit(0));",
  'process.stdin.resume();',
  'const [entry, ...rest] = process.argv.slice(1);',
  'process.argv = [process.argv[0], entry, ...rest];',
  'require(entry);',
].join(' ');

/** How long a Prism process may take to listen before the start is given up (bounded on a loaded machine). */
const prismStartLimitMs = 60_000;

/** Prism on 127.0.0.1:`port` serving the bundled spec of `name`; resolves once it listens. */
function startPrism(name: InterfaceName, port: number, options: { dynamic?: boolean }): Promise<RunningServer> {
  const args = [prismBin(), 'mock', '--host', '127.0.0.1', '--port', String(port), bundledSpecPath(name)];
  // Dynamic answers are generated from the schemas with a fixed seed, so they repeat run after run.
  if (options.dynamic) args.push('--dynamic', '--seed', 'contrato');
  const child: ChildProcess = spawn(process.execPath, ['-e', endsWithParent, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  // Never leave a mock behind: if this process ends without stopping it, take it along.
  const killChild = (): void => {
    child.kill('SIGTERM');
  };
  process.once('exit', killChild);
  child.once('exit', () => process.removeListener('exit', killChild));
  const stop = (): Promise<void> =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`the Prism mock of ${name} did not start within ${prismStartLimitMs / 1000} s`));
    }, prismStartLimitMs);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (/Prism is listening on/.test(output)) {
        clearTimeout(timer);
        resolve({ url: `http://127.0.0.1:${port}`, stop });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the Prism mock of ${name} exited with ${code}:\n${output.slice(-2000)}`));
    });
  });
}

/** The CLI modules of one bundled document only (the pix name also loads the payload locations). */
async function modulesOfDocument(name: InterfaceName): Promise<InterfaceModules> {
  const modules = await loadInterface(name);
  const document = JSON.parse(readFileSync(bundledSpecPath(name), 'utf8')) as Record<string, unknown>;
  const ids = new Set(bundleOperations(document).map(({ operation }) => operation.operationId as unknown));
  return { ...modules, operationTable: Object.fromEntries(Object.entries(modules.operationTable).filter(([id]) => ids.has(id))) };
}

export interface MockOptions {
  /** Answers generated from the schemas (seeded) instead of the examples. */
  readonly dynamic?: boolean;
  /** Address the mock listens on; 127.0.0.1 unless given. */
  readonly host?: string;
}

/**
 * The mock of `name` on `host`:`port` (0: a free port): a front that answers an invalid request with a
 * 422 problem naming each violation (the clients' own validators and rules), and Prism behind it for the rest.
 */
export async function startMock(name: InterfaceName, port: number, options: MockOptions = {}): Promise<RunningServer> {
  const [prism, modules] = await Promise.all([
    freeLoopbackPort().then((internal) => startPrism(name, internal, options)),
    modulesOfDocument(name),
  ]);
  try {
    const front = await startMockFront(modules, prism.url, port, options.host ?? defaultHost, `mock ${name}`);
    return {
      url: front.url,
      stop: async () => {
        await front.stop();
        await prism.stop();
      },
    };
  } catch (error) {
    await prism.stop();
    throw error;
  }
}

export { type Fallback, referenceFallback, serveStatic, type StaticOptions } from './site-server.js';

/** The settings `contrato start` and `contrato sandbox` take for the sandbox. */
export interface SandboxSettings {
  readonly seed?: string;
  readonly speed?: number;
  readonly snapshotFile?: string;
  readonly tls?: { readonly cert: Buffer; readonly key: Buffer; readonly ca: Buffer };
}

export interface StartOptions extends MockOptions {
  /** Base port: the docs site on it, each mock at its offset (4011 - 4000 for accounts, ...); 0 gives every server a free port. */
  readonly port?: number;
  /** Also start the sandbox of every interface (at base + 10), with these settings. */
  readonly sandbox?: SandboxSettings;
  /** Where progress goes, one line per event. */
  readonly log?: (line: string) => void;
  /**
   * When the user's wait began (ms since the epoch), which the "ready in" figures count from: by default the
   * start of this process, so `npm start`'s figure includes its regenerate check and the loading of the code.
   */
  readonly since?: number;
}

/** How often a start that is still waiting says what for (a loaded machine takes tens of seconds). */
const waitingNoticeMs = 5_000;

/** Prism processes started at once: one per core (each is busy while it loads its spec), so the first are ready early. */
const prismStartsAtOnce = (): number => Math.max(1, availableParallelism());

/** `work` run at most `limit` at a time, in the order asked. */
function limitedTo(limit: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (running >= limit) await new Promise<void>((resume) => waiting.push(resume));
    running += 1;
    try {
      return await work();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
}

/**
 * The mocks of `names`, the sandbox and, given a site folder, the docs site, started side by side on
 * `host`, ports from the base port. Every port is checked before anything starts; a line is logged as each
 * step begins and as each server is ready, and every few seconds what is still awaited. The sandbox is
 * announced before the docs site, whose pages name it, and which gives them the addresses in use. On any
 * failure the servers already running are stopped again.
 */
export async function startAll(
  names: readonly InterfaceName[],
  siteDir: string | null,
  options: StartOptions = {},
): Promise<RunningServer[]> {
  const log = options.log ?? ((line: string) => console.log(line));
  const host = options.host ?? defaultHost;
  const base = options.port ?? defaultBasePort;
  const started = options.since ?? performance.timeOrigin;
  const seconds = (): string => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  const mocks = names.map((name) => ({ name, port: portFor(base, findInterface(name)!.mockPort) }));
  const defaultSandboxPort = options.sandbox ? (await import('../sandbox/modules.js')).sandboxPort : null;
  const sandboxPort = defaultSandboxPort === null ? null : portFor(base, defaultSandboxPort);
  const planned: PlannedPort[] = [
    ...(sandboxPort === null ? [] : [{ port: sandboxPort, label: 'sandbox' }]),
    ...mocks.map(({ name, port }) => ({ port, label: `mock ${name}` })),
    ...(siteDir ? [{ port: portFor(base, docsPort), label: 'docs site' }] : []),
  ];
  await assertPortsFree(host, planned);
  const waitingFor = [
    sandboxPort === null ? '' : 'the sandbox',
    mocks.length > 0 ? `${mocks.length} Prism ${mocks.length === 1 ? 'mock' : 'mocks'} (${mocks.map((mock) => mock.name).join(', ')})` : '',
    siteDir ? 'the docs site' : '',
  ].filter(Boolean);
  log(`starting ${waitingFor.join(' and ')} on ${host}…`);
  const pending = new Set<string>();
  const notice = setInterval(() => {
    if (pending.size > 0) log(`  … still starting: ${[...pending].join(', ')} (${seconds()})`);
  }, waitingNoticeMs);
  notice.unref();
  const step = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
    pending.add(label);
    try {
      return await work();
    } finally {
      pending.delete(label);
    }
  };
  const prismSlot = limitedTo(prismStartsAtOnce());
  const tasks: Promise<RunningServer>[] = mocks.map(({ name, port }, index) =>
    step(`mock ${name}`, () =>
      prismSlot(async () => {
        log(`mock  ${name.padEnd(14)} starting Prism (${index + 1} of ${mocks.length})…`);
        const server = await startMock(name, port, options);
        log(`mock  ${name.padEnd(14)} ${server.url.padEnd(24)} ready in ${seconds()}`);
        return server;
      }),
    ),
  );
  let sandboxUrl: Promise<string | null> = Promise.resolve(null);
  if (sandboxPort !== null) {
    const sandboxTask = step('the sandbox', async () => {
      const { startSandbox } = await import('../sandbox/server.js');
      const { sandboxModules } = await import('../sandbox/modules.js');
      const sandbox = await startSandbox({ ...options.sandbox, modules: sandboxModules, host, port: sandboxPort, log });
      log(`sandbox ${'(stateful)'.padEnd(12)} ${sandbox.url.padEnd(24)} ready in ${seconds()}`);
      for (const module of sandboxModules) log(`        ${module.document.padEnd(14)} ${sandbox.urlOf(module.document)}`);
      // Recorded while it runs, so contrato sandbox <verb> finds it on whatever port it took.
      const { recordSandboxAddress } = await import('./sandbox-address.js');
      const forget = recordSandboxAddress(sandbox.url);
      return {
        url: sandbox.url,
        stop: () => {
          forget();
          return sandbox.stop();
        },
      };
    });
    tasks.push(sandboxTask);
    sandboxUrl = sandboxTask.then(
      (server) => server.url,
      () => null,
    );
  }
  if (siteDir) {
    tasks.push(
      step('the docs site', async () => {
        const { buildSite } = await import('./site.js');
        const built = await buildSite(siteDir, {
          log: (line) => log(`  ${line.trim()}`),
          // Redoc's pages keep every core busy for seconds: they begin once the sandbox is up, which is what the
          // user needs first and which then starts as fast as on a warm start.
          onBuildStart: async () => {
            log('docs  building the site (its first start, or the specs changed)…');
            await sandboxUrl;
          },
        });
        // The pages name the sandbox at its default address: they are served with the one in use.
        const sandbox = await sandboxUrl;
        const moved = new Map(
          sandbox === null || defaultSandboxPort === null ? [] : [[addressOf(urlOf(defaultHost, defaultSandboxPort)), addressOf(sandbox)]],
        );
        const server = await serveStatic(siteDir, portFor(base, docsPort), host, {
          movedAddresses: () => moved,
          ownDefaultAddress: addressOf(urlOf(defaultHost, docsPort)),
        });
        log(`docs  ${'site'.padEnd(14)} ${`${server.url}/`.padEnd(24)} ready in ${seconds()}${built ? ' (site built)' : ''}`);
        return server;
      }),
    );
  }
  const results = await Promise.allSettled(tasks);
  clearInterval(notice);
  const servers = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) {
    await Promise.all(servers.map((server) => server.stop()));
    throw failure.reason;
  }
  log(`all ready in ${seconds()} — Ctrl-C to stop`);
  return servers;
}

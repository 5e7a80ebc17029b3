/** Long-running servers of the CLI: Prism mocks of the interfaces and the static docs site, on loopback. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { gzip } from 'node:zlib';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { bundleOperations } from '../bundle-operations.js';
import { docsPort, findInterface, type InterfaceName } from '../interfaces.js';
import {
  assertPortsFree,
  defaultBasePort,
  defaultHost,
  freeLoopbackPort,
  PortInUseError,
  portFor,
  urlOf,
  type PlannedPort,
} from './ports.js';
import { startMockFront } from './mock-front.js';
import { assertPackagesInstalled, mockPackages } from './optional-packages.js';
import { bundledSpecPath, loadInterface, type InterfaceModules } from '../checks/registry.js';
import { referenceRoutesFile } from './site.js';

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

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

/** What is sent gzipped to a browser that accepts it (the pages and Redoc's script: text, about a quarter of the bytes). */
const compressible = new Set(['.html', '.js', '.css', '.json', '.svg']);

/** Where a path that is no file of the site goes instead. */
export type Fallback = { readonly redirect: string } | { readonly choices: readonly string[] } | null;

/**
 * A path-style link to a section of a reference page, sent to the page with the hash route Redoc reads
 * (the pages use hash routing; see referencePage in site-redoc.ts): `/pix/cob/cob.create` →
 * `/pix.html#/cob/cob.create`, and — the links of sites built before hash routing, which may be
 * bookmarked — `/fee-rules` → `/core-banking.html#/fee-rules` when one page alone has that section.
 * A section several pages have (`/authentication`) gets their list; a path no page owns, null (404).
 * `pathname` is as sent, percent-encoded; `routes` is the site's routes.json: each reference page's sections.
 */
export function referenceFallback(pathname: string, routes: Readonly<Record<string, readonly string[]>>): Fallback {
  const route = pathname.replace(/^\/+/, '');
  const [first = '', second = ''] = route.split('/');
  if (routes[first]?.includes(second.toLowerCase())) return { redirect: `/${first}.html#/${route.slice(first.length + 1)}` };
  const pages = Object.keys(routes).filter((page) => routes[page]!.includes(first.toLowerCase()));
  if (pages.length === 1) return { redirect: `/${pages[0]}.html#/${route}` };
  if (pages.length > 1) return { choices: pages.map((page) => `/${page}.html#/${route}`) };
  return null;
}

/** The reference pages' sections, from the site's routes.json (read when needed: the site may be rebuilt while served). */
function siteRoutes(root: string): Record<string, string[]> {
  try {
    return JSON.parse(readFileSync(join(root, referenceRoutesFile), 'utf8')) as Record<string, string[]>;
  } catch {
    return {};
  }
}

/**
 * Serves the files of `siteDir` on `host`:`port` (0 picks a free port), with a validator on each file
 * (`ETag`, `Cache-Control: no-cache`: the browser keeps Redoc's script, which every reference page loads,
 * and asks again only whether it changed) and gzip when the browser accepts it. A path that is no file
 * may be a path-style link to a section of a reference page (referenceFallback); otherwise 404.
 */
export function serveStatic(siteDir: string, port: number, host: string = defaultHost): Promise<RunningServer> {
  const root = normalize(siteDir);
  /** Gzipped files by path, kept while their ETag holds. */
  const gzipped = new Map<string, { etag: string; body: Buffer }>();
  const server: Server = createServer((request, response) => {
    // As sent (percent-encoded: no quote, angle bracket or line break, so it goes into a header or the page as it is), and decoded.
    const sent = new URL(request.url ?? '/', 'http://localhost').pathname;
    let pathname: string;
    try {
      pathname = decodeURIComponent(sent);
    } catch {
      response.writeHead(400, { 'content-type': 'text/plain' }).end('bad request');
      return;
    }
    const file = normalize(join(root, pathname.endsWith('/') ? `${pathname}index.html` : pathname));
    const inside = file.startsWith(root + sep);
    const stats = inside && existsSync(file) ? statSync(file) : null;
    if (!stats?.isFile()) {
      const fallback = inside ? referenceFallback(sent, siteRoutes(root)) : null;
      if (fallback && 'redirect' in fallback) response.writeHead(302, { location: fallback.redirect, 'content-type': 'text/plain' }).end();
      else if (fallback) {
        const links = fallback.choices.map((choice) => `<li><a href="${choice}">${choice}</a></li>`).join('');
        response
          .writeHead(300, { 'content-type': 'text/html; charset=utf-8' })
          .end(`<!doctype html><title>Several pages</title><p>This section is on several reference pages:</p><ul>${links}</ul>`);
      } else response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const etag = `"${stats.size.toString(36)}-${Math.trunc(stats.mtimeMs).toString(36)}"`;
    const headers: Record<string, string> = {
      'content-type': contentTypes[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
      etag,
    };
    const zip = compressible.has(extname(file)) && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    if (zip) headers.vary = 'accept-encoding';
    if (request.headers['if-none-match'] === etag) {
      response.writeHead(304, headers).end();
      return;
    }
    if (!zip) {
      response.writeHead(200, { ...headers, 'content-length': String(stats.size) });
      if (request.method === 'HEAD') response.end();
      else createReadStream(file).pipe(response);
      return;
    }
    const cached = gzipped.get(file);
    const send = (body: Buffer): void => {
      response.writeHead(200, { ...headers, 'content-encoding': 'gzip', 'content-length': String(body.length) });
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    if (cached?.etag === etag) return send(cached.body);
    gzip(readFileSync(file), (error, body) => {
      if (error) {
        response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
        return;
      }
      gzipped.set(file, { etag, body });
      send(body);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(host, [{ port, label: 'docs site' }]) : error),
    );
    server.listen(port, host, () => {
      const { port: actual } = server.address() as AddressInfo;
      resolve({
        url: urlOf(host, actual),
        stop: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

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
}

const seconds = (since: number): string => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/**
 * The mocks of `names` and, given a site folder, the docs site, started side by side on `host`, ports
 * from the base port. Every port is checked before anything starts; a line is logged as each server is
 * ready. On any failure the servers already running are stopped again.
 */
export async function startAll(
  names: readonly InterfaceName[],
  siteDir: string | null,
  options: StartOptions = {},
): Promise<RunningServer[]> {
  const log = options.log ?? ((line: string) => console.log(line));
  const host = options.host ?? defaultHost;
  const base = options.port ?? defaultBasePort;
  const mocks = names.map((name) => ({ name, port: portFor(base, findInterface(name)!.mockPort) }));
  const sandboxPort = options.sandbox ? portFor(base, (await import('../sandbox/modules.js')).sandboxPort) : null;
  const planned: PlannedPort[] = [
    ...(sandboxPort === null ? [] : [{ port: sandboxPort, label: 'sandbox' }]),
    ...mocks.map(({ name, port }) => ({ port, label: `mock ${name}` })),
    ...(siteDir ? [{ port: portFor(base, docsPort), label: 'docs site' }] : []),
  ];
  await assertPortsFree(host, planned);
  const started = Date.now();
  const waitingFor = [
    sandboxPort === null ? '' : 'the sandbox',
    mocks.length > 0 ? `${mocks.length} Prism ${mocks.length === 1 ? 'mock' : 'mocks'} (${mocks.map((mock) => mock.name).join(', ')})` : '',
    siteDir ? 'the docs site' : '',
  ].filter(Boolean);
  log(`starting ${waitingFor.join(' and ')} on ${host}…`);
  const tasks: Promise<RunningServer>[] = mocks.map(async ({ name, port }) => {
    const server = await startMock(name, port, options);
    log(`mock  ${name.padEnd(14)} ${server.url.padEnd(24)} ready in ${seconds(started)}`);
    return server;
  });
  if (sandboxPort !== null) {
    tasks.push(
      (async () => {
        const { startSandbox } = await import('../sandbox/server.js');
        const { sandboxModules } = await import('../sandbox/modules.js');
        const sandbox = await startSandbox({ ...options.sandbox, modules: sandboxModules, host, port: sandboxPort, log });
        log(`sandbox ${'(stateful)'.padEnd(12)} ${sandbox.url.padEnd(24)} ready in ${seconds(started)}`);
        for (const module of sandboxModules) log(`        ${module.document.padEnd(14)} ${sandbox.urlOf(module.document)}`);
        return { url: sandbox.url, stop: () => sandbox.stop() };
      })(),
    );
  }
  if (siteDir) {
    tasks.push(
      (async () => {
        const { buildSite } = await import('./site.js');
        const built = await buildSite(siteDir, {
          log: (line) => log(`  ${line.trim()}`),
          onBuildStart: () => log('docs  building the site (Redoc, one page per interface)…'),
        });
        const server = await serveStatic(siteDir, portFor(base, docsPort), host);
        log(`docs  ${'site'.padEnd(14)} ${`${server.url}/`.padEnd(24)} ready in ${seconds(started)}${built ? ' (site built)' : ''}`);
        return server;
      })(),
    );
  }
  const results = await Promise.allSettled(tasks);
  const servers = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) {
    await Promise.all(servers.map((server) => server.stop()));
    throw failure.reason;
  }
  log(`all ready in ${seconds(started)} — Ctrl-C to stop`);
  return servers;
}

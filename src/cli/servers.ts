/** Long-running servers of the CLI: Prism mocks of the interfaces and the static docs site, on loopback. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { bundleOperations } from '../bundle-operations.js';
import { docsPort, findInterface, type InterfaceName } from '../interfaces.js';
import { startMockFront } from './mock-front.js';
import { bundledSpecPath, loadInterface, type InterfaceModules } from './registry.js';

export interface RunningServer {
  readonly url: string;
  stop(): Promise<void>;
}

function prismBin(): string {
  const require = createRequire(import.meta.url);
  try {
    const manifestPath = require.resolve('@stoplight/prism-cli/package.json');
    const manifest = require(manifestPath) as { bin: string | Record<string, string> };
    const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin.prism;
    return join(dirname(manifestPath), bin ?? 'dist/index.js');
  } catch {
    throw new Error('mocks need @stoplight/prism-cli: npm install --save-dev @stoplight/prism-cli@5.14.2');
  }
}

/** A port nobody listens on now, for a process of ours to take (Prism takes no port 0). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Prism on 127.0.0.1:`port` serving the bundled spec of `name`; resolves once it listens. */
function startPrism(name: InterfaceName, port: number, options: { dynamic?: boolean }): Promise<RunningServer> {
  const args = [prismBin(), 'mock', '--host', '127.0.0.1', '--port', String(port), bundledSpecPath(name)];
  // Dynamic answers are generated from the schemas with a fixed seed, so they repeat run after run.
  if (options.dynamic) args.push('--dynamic', '--seed', 'contrato');
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // Never leave a mock behind: if this process ends without stopping it, take it along.
  const killChild = (): void => {
    child.kill('SIGTERM');
  };
  process.once('exit', killChild);
  child.once('exit', () => process.removeListener('exit', killChild));
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (/Prism is listening on/.test(output)) {
        resolve({
          url,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`prism for ${name} exited with ${code}:\n${output.slice(-2000)}`)));
  });
}

/** The CLI modules of one bundled document only (the pix name also loads the payload locations). */
async function modulesOfDocument(name: InterfaceName): Promise<InterfaceModules> {
  const modules = await loadInterface(name);
  const document = JSON.parse(readFileSync(bundledSpecPath(name), 'utf8')) as Record<string, unknown>;
  const ids = new Set(bundleOperations(document).map(({ operation }) => operation.operationId as unknown));
  return { ...modules, operationTable: Object.fromEntries(Object.entries(modules.operationTable).filter(([id]) => ids.has(id))) };
}

/**
 * The mock of `name` on 127.0.0.1:`port`: a front that answers an invalid request with a 422 problem
 * naming each violation (the clients' own validators and rules), and Prism behind it for the rest.
 */
export async function startMock(name: InterfaceName, port: number, options: { dynamic?: boolean } = {}): Promise<RunningServer> {
  const prism = await startPrism(name, await freePort(), options);
  try {
    const front = await startMockFront(await modulesOfDocument(name), prism.url, port);
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
};

/** Serves the files of `siteDir` on 127.0.0.1:`port` (0 picks a free port). */
export function serveStatic(siteDir: string, port: number): Promise<RunningServer> {
  const root = normalize(siteDir);
  const server: Server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    const file = normalize(join(root, pathname.endsWith('/') ? `${pathname}index.html` : pathname));
    if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': contentTypes[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(response);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: actual } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${actual}`,
        stop: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

/** Mocks of `names` on their fixed ports and, given a site folder, the docs site; prints their URLs. */
export async function startAll(names: readonly InterfaceName[], siteDir: string | null, options: { dynamic?: boolean } = {}): Promise<RunningServer[]> {
  const servers: RunningServer[] = [];
  for (const name of names) {
    const info = findInterface(name)!;
    const server = await startMock(name, info.mockPort, options);
    servers.push(server);
    console.log(`mock  ${name.padEnd(14)} ${server.url}`);
  }
  if (siteDir) {
    const { buildSite } = await import('./site.js');
    await buildSite(siteDir, { log: console.log });
    const server = await serveStatic(siteDir, docsPort);
    servers.push(server);
    console.log(`docs  ${'site'.padEnd(14)} ${server.url}/`);
  }
  return servers;
}


/**
 * `npm start` as a user runs it (scripts/start.ts, a real process): it says what it waits for, prints a
 * line per server as each is ready and then "all ready", counted from the start of the process; the sandbox
 * is announced before the docs site, whose pages show the sandbox's address in use; the servers answer;
 * SIGTERM stops them all, and no mock outlives it even when it is killed outright; `contrato mock` says as
 * each Prism starts. A taken port ends the start before anything runs, in one line that names the port and `--port`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { startAll } from '../../src/cli/servers.js';
import { buildSite } from '../../src/cli/site.js';
import { sandboxModules } from '../../src/sandbox/modules.js';
import { interfaces } from '../../src/interfaces.js';

const scratch = mkdtempSync(join(tmpdir(), 'contrato-start-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

/** Starts `args` and collects its output until a line matches `ready` (or it exits, or `limitMs` passes). */
function startUntil(args: string[], ready: RegExp, limitMs: number): Promise<{ child: ChildProcess; output: string }> {
  const child = spawn(process.execPath, args, { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready within ${limitMs} ms:\n${output}`)), limitMs);
    const collect = (chunk: Buffer): void => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve({ child, output });
      }
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before it was ready:\n${output}`));
    });
  });
}

/** A server on a free loopback port, standing for whoever already uses it. */
async function occupyPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

describe('npm start', () => {
  it('prints what it starts, a line per server as each is ready, serves the sandbox and the docs, and stops on SIGTERM', async () => {
    const { child, output } = await startUntil(['--import', 'tsx', 'scripts/start.ts', '--port', '0'], /all ready in [\d.]+ s/, 150_000);
    expect(output).toMatch(/^checking generated\/ against specs\//m);
    expect(output).toMatch(/^starting the sandbox and the docs site on 127\.0\.0\.1/m);
    const site = /^docs {2}site\s+(http:\/\/127\.0\.0\.1:\d+)\/?\s+ready in [\d.]+ s/m.exec(output)?.[1];
    const sandbox = /^sandbox \(stateful\)\s+(http:\/\/127\.0\.0\.1:\d+)\s+ready in [\d.]+ s/m.exec(output)?.[1];
    expect(site).toBeDefined();
    expect(sandbox).toBeDefined();
    // --port 0: each server on a port of its own.
    expect(site).not.toBe(sandbox);
    for (const module of sandboxModules) expect(output).toContain(`${module.document.padEnd(14)} ${sandbox}${module.prefix}`);

    expect((await fetch(`${site}/`)).status).toBe(200);
    // The sandbox is ready, and says so, before the docs site, whose pages name it where it listens (a free port).
    expect(output.indexOf('sandbox (stateful)')).toBeLessThan(output.indexOf('docs  site'));
    const samples = await (await fetch(`${site}/pix.html`)).text();
    expect(samples).toContain(`${sandbox}/pix`);
    expect(samples).not.toMatch(/127\.0\.0\.1:4010(?!\d)/);
    const status = (await (await fetch(`${sandbox}/_sandbox`)).json()) as { interfaces: Record<string, { url: string }> };
    expect(Object.keys(status.interfaces).sort()).toEqual(sandboxModules.map((module) => module.document).sort());
    const token = await fetch(`${sandbox}/pix/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from('sandbox-pix:sandbox-secret').toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    expect(token.status).toBe(200);

    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect(fetch(`${sandbox}/_sandbox`)).rejects.toThrow();
  }, 180_000);

  it('contrato mock still serves the Prism mocks of every interface', async () => {
    const { child, output } = await startUntil(
      ['--import', 'tsx', 'src/cli/main.ts', 'mock', '--port', '0'],
      /all ready in [\d.]+ s/,
      150_000,
    );
    const names = interfaces.map((info) => info.name);
    expect(output).toMatch(new RegExp(`^starting ${names.length} Prism mocks \\(${names.join(', ')}\\) on 127\\.0\\.0\\.1`, 'm'));
    const urls = new Map<string, string>();
    for (const match of output.matchAll(/^mock {2}(\S+)\s+(http:\/\/127\.0\.0\.1:\d+)\/?\s+ready in [\d.]+ s/gm))
      urls.set(match[1]!, match[2]!);
    expect([...urls.keys()].sort()).toEqual(interfaces.map((info) => info.name).sort());
    // A line as each Prism starts, before its ready line: no silent wait.
    for (const name of names)
      expect(output.indexOf(`mock  ${name.padEnd(14)} starting Prism (`), name).toBeLessThan(
        output.indexOf(`mock  ${name.padEnd(14)} ${urls.get(name)}`),
      );
    const authorised = await fetch(`${urls.get('core-banking')}/fee-rules`, { headers: { authorization: 'Bearer any' } });
    expect(authorised.status).toBe(200);
    // The spec's mutualTLS scheme, which Prism cannot check over plain HTTP, is no violation of the request.
    expect(authorised.headers.get('sl-violations')).toBeNull();
    const anonymous = await fetch(`${urls.get('core-banking')}/fee-rules`);
    expect(anonymous.headers.get('sl-violations')).toMatch(/Invalid security scheme used/);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 180_000);

  it.each([
    { given: 'SIGKILL', signals: ['SIGKILL'] as const },
    { given: 'a second SIGTERM while stopping (Ctrl-C twice)', signals: ['SIGTERM', 'SIGTERM'] as const },
  ])(
    'contrato mock leaves no Prism running after $given',
    async ({ signals }) => {
      const { child } = await startUntil(['--import', 'tsx', 'src/cli/main.ts', 'mock', '--port', '0'], /all ready in [\d.]+ s/, 150_000);
      const mockProcesses = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(child.pid)], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter((line) => line.includes('prism-cli'))
        .map((line) => Number(line.trim().split(/\s+/)[0]));
      expect(mockProcesses).toHaveLength(interfaces.length);
      for (const signal of signals) child.kill(signal);
      const alive = (pid: number): boolean => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      // Bounded: the mocks notice their parent is gone as soon as the kernel closes its end of their stdin.
      for (let waited = 0; waited < 15_000 && mockProcesses.some(alive); waited += 100)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(mockProcesses.filter(alive)).toEqual([]);
    },
    180_000,
  );

  it('builds the stale pages of the docs site once the sandbox is up, a line per step, and serves them naming the sandbox in use', async () => {
    // The checkout's site, current, copied; one reference page made stale in the copy's stamp.
    await buildSite(join(projectRoot, 'site'));
    const site = join(scratch, 'site-one-stale');
    cpSync(join(projectRoot, 'site'), site, { recursive: true });
    const stamp = JSON.parse(readFileSync(join(site, '.stamp'), 'utf8')) as { site: string; references: Record<string, string> };
    writeFileSync(
      join(site, '.stamp'),
      JSON.stringify({ site: 'stale', references: { ...stamp.references, 'pix-location.html': 'stale' } }),
    );
    const lines: string[] = [];
    const servers = await startAll([], site, { port: 0, sandbox: {}, log: (line) => lines.push(line) });
    try {
      const at = (pattern: RegExp): number => lines.findIndex((line) => pattern.test(line));
      const sandboxReady = at(/^sandbox \(stateful\)\s+\S+\s+ready in/);
      expect(sandboxReady).toBeGreaterThanOrEqual(0);
      expect(at(/^docs {2}building the site/)).toBeGreaterThanOrEqual(0);
      // Redoc's pages began only once the sandbox was up, and each says when it begins and ends.
      expect(at(/^ {2}building 1 reference page with Redoc, 1 at a time \(pix-location\)$/)).toBeGreaterThan(sandboxReady);
      expect(at(/^ {2}… pix-location: reference page \(redoc\)$/)).toBeGreaterThan(sandboxReady);
      expect(at(/^ {2}✓ pix-location: reference page \(redoc\)\s+\d+ ms$/)).toBeGreaterThan(sandboxReady);
      const docs = /^docs {2}site\s+(\S+?)\/?\s+ready in [\d.]+ s \(site built\)$/.exec(
        lines.find((line) => line.startsWith('docs  site')) ?? '',
      );
      expect(docs).not.toBeNull();
      const sandbox = /(http:\/\/\S+)/.exec(lines[sandboxReady]!)![1]!;
      const page = await (await fetch(`${docs![1]}/pix-location.html`)).text();
      expect(page).toContain(new URL(sandbox).host);
      expect(page).not.toMatch(/127\.0\.0\.1:4010(?!\d)/);
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  }, 240_000);

  it('README gives the start-up figures bench/results.json recorded (npm run bench, section startup)', () => {
    const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    const { startup } = JSON.parse(readFileSync(join(projectRoot, 'bench/results.json'), 'utf8')) as {
      startup: { startWarmSeconds: number; startColdSeconds: number; startColdSandboxReadySeconds: number };
    };
    const figures =
      /all ready ([\d.]+) s after `npm start` once the docs site is built, ([\d.]+) s the first time, the sandbox ready after ([\d.]+) s/.exec(
        readme,
      );
    expect(figures?.slice(1)).toEqual(
      [startup.startWarmSeconds, startup.startColdSeconds, startup.startColdSandboxReadySeconds].map((value) => value.toFixed(1)),
    );
  });

  it.each([
    { given: 'from the start of the process (the default)', since: undefined, atLeastSeconds: (): number => performance.now() / 1000 },
    { given: 'from a moment given', since: Date.now() - 30_000, atLeastSeconds: (): number => 30 },
  ])(
    'counts "ready in" $given, so the figure includes what ran before the servers',
    async ({ since, atLeastSeconds }) => {
      const lines: string[] = [];
      const before = atLeastSeconds();
      const servers = await startAll([], null, { port: 0, sandbox: {}, log: (line) => lines.push(line), ...(since ? { since } : {}) });
      try {
        const figures = lines.flatMap((line) => /ready in ([\d.]+) s/.exec(line)?.slice(1) ?? []).map(Number);
        expect(figures.length).toBe(2);
        // Rounded to a tenth.
        for (const figure of figures) expect(figure).toBeGreaterThanOrEqual(Math.floor(before * 10) / 10);
      } finally {
        await Promise.all(servers.map((server) => server.stop()));
      }
    },
    60_000,
  );

  it.each([
    { given: 'npm start', args: ['--import', 'tsx', 'scripts/start.ts'], hint: /e\.g\. npm start -- --port \d+/ },
    { given: 'contrato docs', args: ['--import', 'tsx', 'src/cli/main.ts', 'docs'], hint: /e\.g\. contrato docs --port \d+/ },
  ])(
    '$given on a taken port ends at once in one line naming the port and --port',
    async ({ args, hint }) => {
      const { port, server } = await occupyPort();
      try {
        const site = join(scratch, `site-${port}`);
        // The docs site listens on the base port itself.
        const run = spawnSync(process.execPath, [...args, '--port', String(port), '--site', site], {
          cwd: projectRoot,
          encoding: 'utf8',
          timeout: 60_000,
        });
        expect(run.status).toBe(1);
        const lines = run.stderr.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('npm warn'));
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(
          new RegExp(
            `^contrato: port ${port} \\(docs site\\) on 127\\.0\\.0\\.1 is already in use; start on other ports with --port <base>`,
          ),
        );
        expect(lines[0]).toMatch(hint);
        expect(run.stderr).not.toMatch(/^\s+at /m);
        // Refused before anything ran: no site was built, no server is left.
        expect(existsSync(site)).toBe(false);
      } finally {
        server.close();
      }
    },
    90_000,
  );
});

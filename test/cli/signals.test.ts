/**
 * The long-running commands stop on SIGTERM and SIGINT sent to the one process the user started — npx,
 * npm start or the bin itself — and leave nothing behind: every port they printed refuses connections
 * within 2 s and no process of their tree is left. npx and npm start put npm and a `sh -c` between the
 * signal and contrato (launcher.ts says why that needs a watch); the bin gets the signal itself.
 *
 * Cost: npm start regenerates (a no-op when current) and serves the docs site, so it runs both signals
 * once each; `contrato mock` (five Prism children) runs the signal that used to reach nothing, SIGINT to npx.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';

/** The environment of a user's shell: none of npm's variables of the run that started these tests. */
const userEnvironment = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
const started: ChildProcess[] = [];
const leftovers: number[] = [];

afterAll(() => {
  // Cleanup only: a case that left something has failed already; this keeps it from outliving the run.
  for (const child of started)
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {}
  for (const pid of leftovers)
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
});

/** Every process below `root`, from one reading of the process table. */
function descendantsOf(root: number): number[] {
  const rows = spawnSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .stdout.trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  let frontier = [root];
  for (let depth = 0; depth < 20 && frontier.length > 0; depth++) {
    frontier = rows.filter(([, parent]) => frontier.includes(parent)).map(([pid]) => pid);
    found.push(...frontier);
  }
  return found;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    // A zombie is dead: it only waits for its parent to read its status.
    return !/^Z/.test(spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).stdout.trim());
  } catch {
    return false;
  }
};

const refuses = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

/** Waits, polling every 100 ms up to `limitMs`, until `done` holds; answers whether it did. */
async function within(limitMs: number, done: () => boolean | Promise<boolean>): Promise<boolean> {
  for (const deadline = Date.now() + limitMs; Date.now() < deadline; ) {
    if (await done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return done();
}

/** Starts `command` in a process group of its own (for the cleanup) and waits for "all ready"; answers the ports it printed. */
function startUntilReady(
  command: string,
  args: readonly string[],
  limitMs: number,
  ready = /all ready in [\d.]+ s/,
): Promise<{ child: ChildProcess; ports: number[] }> {
  const child = spawn(command, args, { cwd: projectRoot, env: userEnvironment, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready within ${limitMs} ms:\n${output}`)), limitMs);
    const collect = (chunk: Buffer): void => {
      output += chunk.toString();
      if (!ready.test(output)) return;
      clearTimeout(timer);
      const ports = [...output.matchAll(/ http:\/\/127\.0\.0\.1:(\d+)\/? +ready in/g)].map((match) => Number(match[1]));
      resolve({ child, ports });
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before it was ready:\n${output}`));
    });
  });
}

const bin = join(projectRoot, 'bin/contrato.js');
/** `servers`: the ready lines it prints; `below`: how many processes at least run below the outermost one. */
const entries = [
  {
    given: 'npx contrato sandbox',
    signal: 'SIGTERM',
    command: 'npx',
    args: ['--no-install', 'contrato', 'sandbox', '--port', '0'],
    servers: 1,
    below: 2,
  },
  {
    given: 'npx contrato sandbox',
    signal: 'SIGINT',
    command: 'npx',
    args: ['--no-install', 'contrato', 'sandbox', '--port', '0'],
    servers: 1,
    below: 2,
  },
  { given: 'the bin, contrato sandbox', signal: 'SIGTERM', command: bin, args: ['sandbox', '--port', '0'], servers: 1, below: 0 },
  { given: 'the bin, contrato sandbox', signal: 'SIGINT', command: bin, args: ['sandbox', '--port', '0'], servers: 1, below: 0 },
  { given: 'npm start', signal: 'SIGTERM', command: 'npm', args: ['start', '--', '--port', '0'], servers: 2, below: 2 },
  { given: 'npm start', signal: 'SIGINT', command: 'npm', args: ['start', '--', '--port', '0'], servers: 2, below: 2 },
  {
    given: 'npx contrato mock',
    signal: 'SIGINT',
    command: 'npx',
    args: ['--no-install', 'contrato', 'mock', '--port', '0'],
    servers: 5,
    below: 7,
  },
] as const;

describe('signals to the process the user started', () => {
  it.each(entries)(
    '$given stops on $signal to the outermost process: its ports refuse within 2 s, no process of its tree is left',
    async ({ signal, command, args, servers, below }) => {
      const { child, ports } = await startUntilReady(command, args, 170_000);
      expect(ports).toHaveLength(servers);
      const tree = descendantsOf(child.pid!);
      // npx and npm start: a shell and contrato; the mocks add a Prism process each.
      expect(tree.length).toBeGreaterThanOrEqual(below);
      process.kill(child.pid!, signal);
      const closed = await within(2_000, async () => (await Promise.all(ports.map(refuses))).every(Boolean));
      const ended = await within(5_000, () => ![child.pid!, ...tree].some(alive));
      const left = [child.pid!, ...tree].filter(alive);
      leftovers.push(...left);
      expect(closed).toBe(true);
      expect(ended, `left running: ${left.join(', ')}`).toBe(true);
    },
    200_000,
  );

  it('npx contrato sandbox stops on SIGINT to npx that came while it was starting', async () => {
    const { child } = await startUntilReady('npx', ['--no-install', 'contrato', 'sandbox', '--port', '0'], 170_000, /^starting /m);
    const tree = descendantsOf(child.pid!);
    process.kill(child.pid!, 'SIGINT');
    const ended = await within(10_000, () => ![child.pid!, ...tree].some(alive));
    const left = [child.pid!, ...tree].filter(alive);
    leftovers.push(...left);
    expect(ended, `left running: ${left.join(', ')}`).toBe(true);
  }, 200_000);
});

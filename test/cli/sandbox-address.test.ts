/**
 * Where `contrato sandbox <verb>` looks for the sandbox: --url, else CONTRATO_SANDBOX_URL, else the address a
 * running `contrato sandbox` / `start` recorded for this user (only while its process lives), else 4010 on
 * loopback. Each source is followed by a real verb; the record is made and removed by a real sandbox process.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { runCli } from '../../src/cli/program.js';
import { recordSandboxAddress, sandboxAddress, sandboxAddressFile, sandboxUrlVariable } from '../../src/cli/sandbox-address.js';
import { sandboxModules, sandboxPort } from '../../src/sandbox/modules.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';

const work = mkdtempSync(join(tmpdir(), 'contrato-address-'));
const file = join(work, 'runtime', 'sandbox.json');
/** A pid no process has any more: a child that ran and ended. */
const endedPid = spawnSync(process.execPath, ['-e', '0']).pid;
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ modules: sandboxModules, seed: 'address' });
});
afterAll(async () => {
  await sandbox.stop();
  rmSync(work, { recursive: true, force: true });
});

const record = (url: string, pid: number): void => {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify({ url, pid }));
};

describe('sandboxAddress', () => {
  it.each([
    {
      given: '--url first',
      flag: 'http://a:1/',
      variable: 'http://b:2',
      recordedPid: process.pid,
      want: ['http://a:1', 'given with --url'],
    },
    {
      given: 'then CONTRATO_SANDBOX_URL',
      flag: undefined,
      variable: 'http://b:2',
      recordedPid: process.pid,
      want: ['http://b:2', `from ${sandboxUrlVariable}`],
    },
    {
      given: 'then the running sandbox',
      flag: undefined,
      variable: undefined,
      recordedPid: process.pid,
      want: ['http://c:3', /running here/],
    },
    {
      given: 'a record whose process ended is ignored',
      flag: undefined,
      variable: undefined,
      recordedPid: endedPid,
      want: ['http://127.0.0.1:4010', 'by default'],
    },
  ])('$given', ({ flag, variable, recordedPid, want }) => {
    record('http://c:3', recordedPid);
    const address = sandboxAddress(flag, variable ? { [sandboxUrlVariable]: variable } : {}, file);
    expect(address.url).toBe(want[0]);
    expect(address.source).toMatch(want[1]!);
  });

  it('the default is the sandbox port of the definitions', () => {
    expect(sandboxAddress(undefined, {}, join(work, 'none.json')).url).toBe(`http://127.0.0.1:${sandboxPort}`);
  });

  it('forgets only its own record', () => {
    const forget = recordSandboxAddress('http://d:4', file);
    expect(sandboxAddress(undefined, {}, file).url).toBe('http://d:4');
    record('http://e:5', process.pid + 1);
    forget();
    expect(existsSync(file)).toBe(true);
    record('http://d:4', process.pid);
    forget();
    expect(existsSync(file)).toBe(false);
  });

  it('lives under $XDG_RUNTIME_DIR when the system gives one, else in the temp folder, per user', () => {
    expect(sandboxAddressFile({ XDG_RUNTIME_DIR: '/run/user/7' })).toBe('/run/user/7/contrato/sandbox.json');
    expect(sandboxAddressFile({})).toMatch(new RegExp(`^${tmpdir().replace(/[/\\]/g, '.')}.contrato-[^/\\\\]+.sandbox\\.json$`));
  });
});

async function status(env: Record<string, string | undefined>): Promise<{ code: number; out: string; err: string[] }> {
  const saved = { [sandboxUrlVariable]: process.env[sandboxUrlVariable], XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR };
  Object.assign(process.env, env);
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete process.env[name];
  const out: string[] = [];
  const err: string[] = [];
  try {
    const code = await runCli(['sandbox', 'status'], { output: { out: (line) => out.push(line), err: (line) => err.push(line) } });
    return { code, out: out.join('\n'), err };
  } finally {
    for (const [name, value] of Object.entries(saved))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  }
}

describe('contrato sandbox status without --url', () => {
  it(`follows ${sandboxUrlVariable}`, async () => {
    const run = await status({ [sandboxUrlVariable]: sandbox.url, XDG_RUNTIME_DIR: join(work, 'nobody') });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out).interfaces.pix.url).toBe(sandbox.urlOf('pix'));
  });

  it('finds the sandbox contrato sandbox --port 0 runs, and not after it stopped', async () => {
    const runtime = join(work, 'xdg');
    const child = spawn(process.execPath, [join(projectRoot, 'bin/contrato.js'), 'sandbox', '--port', '0'], {
      cwd: projectRoot,
      env: { ...process.env, XDG_RUNTIME_DIR: runtime },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`not ready within 90 s:\n${output}`)), 90_000);
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const found = /^sandbox \(stateful\)\s+(http:\/\/127\.0\.0\.1:\d+)/m.exec(output)?.[1];
          if (found && /all ready/.test(output)) {
            clearTimeout(timer);
            resolve(found);
          }
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
      });
      const run = await status({ [sandboxUrlVariable]: undefined, XDG_RUNTIME_DIR: runtime });
      expect(run.err).toEqual([]);
      expect(JSON.parse(run.out).interfaces.pix.url).toBe(`${url}/pix`);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      expect(existsSync(join(runtime, 'contrato', 'sandbox.json'))).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);
});

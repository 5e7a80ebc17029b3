/**
 * Where `contrato sandbox <verb>` finds the sandbox: --url, else CONTRATO_SANDBOX_URL, else the sandbox
 * that `npm start`, `contrato start` or `contrato sandbox` runs for this user on this machine (each records
 * its address in a per-user runtime file while it runs), else the default port on loopback.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { sandboxPort } from '../sandbox/modules.js';
import { withoutTrailingSlashes } from '../runtime/text.js';

/** The variable that names the sandbox to drive when --url is not given. */
export const sandboxUrlVariable = 'CONTRATO_SANDBOX_URL';

/** The runtime file of this user: under $XDG_RUNTIME_DIR when the system gives one, else the temp folder. */
export function sandboxAddressFile(environment: NodeJS.ProcessEnv = process.env): string {
  const user = (() => {
    try {
      return userInfo().username;
    } catch {
      return 'user';
    }
  })();
  const folder = environment.XDG_RUNTIME_DIR ? join(environment.XDG_RUNTIME_DIR, 'contrato') : join(tmpdir(), `contrato-${user}`);
  return join(folder, 'sandbox.json');
}

interface Recorded {
  readonly url: string;
  readonly pid: number;
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    // Gone, or (EPERM) the number now belongs to another user's process: not this user's sandbox.
    return false;
  }
};

/**
 * Records that the sandbox at `url` runs in this process; answers the function that forgets it again
 * (called when it stops, and on exit). The file keeps the most recently started sandbox of this user.
 */
export function recordSandboxAddress(url: string, file: string = sandboxAddressFile()): () => void {
  try {
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    const written = `${file}.${process.pid}`;
    writeFileSync(written, JSON.stringify({ url, pid: process.pid } satisfies Recorded), { mode: 0o600 });
    renameSync(written, file);
  } catch {
    // Only a convenience for the verbs: a sandbox that cannot record its address still serves.
    return () => {};
  }
  const forget = (): void => {
    process.removeListener('exit', forget);
    if (recorded(file)?.pid === process.pid) rmSync(file, { force: true });
  };
  process.once('exit', forget);
  return forget;
}

function recorded(file: string): Recorded | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<Recorded>;
    return typeof value.url === 'string' && Number.isInteger(value.pid) ? (value as Recorded) : undefined;
  } catch {
    return undefined;
  }
}

/** The address of the sandbox a process of this user runs now, when the one recorded is still running. */
export function runningSandboxAddress(file: string = sandboxAddressFile()): string | undefined {
  const entry = recorded(file);
  return entry && isAlive(entry.pid) ? entry.url : undefined;
}

export interface SandboxAddress {
  readonly url: string;
  /** Where it came from, for the line that says nobody answers there. */
  readonly source: string;
}

/** The sandbox a verb drives, and where its address came from. */
export function sandboxAddress(
  flag: string | undefined,
  environment: NodeJS.ProcessEnv = process.env,
  file: string = sandboxAddressFile(environment),
): SandboxAddress {
  const pick = (url: string, source: string): SandboxAddress => ({ url: withoutTrailingSlashes(url), source });
  if (flag) return pick(flag, 'given with --url');
  const variable = environment[sandboxUrlVariable];
  if (variable) return pick(variable, `from ${sandboxUrlVariable}`);
  const running = runningSandboxAddress(file);
  if (running) return pick(running, `recorded by the sandbox running here (${file})`);
  return pick(`http://127.0.0.1:${sandboxPort}`, 'by default');
}

/**
 * Whether the process that started this one on the user's behalf asked it to stop or went away.
 *
 * `npx contrato …` and `npm start` run the command through `sh -c`. npm forwards SIGINT and SIGTERM to
 * that shell only, and a non-interactive dash (Debian's /bin/sh) neither execs its one command nor passes
 * a signal on: on SIGTERM it dies and leaves this process an orphan; on SIGINT it waits for this process
 * to end first, so nothing ends. This watch closes both gaps: it notices when the parent (or npm above an
 * npm shell) is gone, and, on Linux, when that shell was woken while it waits for this process — which
 * only a signal does — and reports it as a stop request.
 */
import { readFileSync } from 'node:fs';

/** How often the launcher is looked at: the stop comes within this much of the signal. */
export const launcherCheckIntervalMs = 200;

/** What the watch reads of a process (Linux's /proc), replaceable in tests. */
export interface ProcessTable {
  /** The process's parent, or undefined when it is gone or cannot be read. */
  parentOf(pid: number): number | undefined;
  /** Its command line, arguments apart; undefined when unreadable. */
  commandLineOf(pid: number): readonly string[] | undefined;
  /** How many times it went to sleep and was woken up (voluntary context switches); undefined when unreadable. */
  wakeUpsOf(pid: number): number | undefined;
}

const readOrUndefined = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

export const procTable: ProcessTable = {
  parentOf(pid) {
    const stat = readOrUndefined(`/proc/${pid}/stat`);
    // The command name (field 2) is in parentheses and may hold spaces: the fields after its last ')' are fixed.
    const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
    const parent = Number(fields?.[1]);
    return Number.isInteger(parent) && parent > 0 ? parent : undefined;
  },
  commandLineOf(pid) {
    return readOrUndefined(`/proc/${pid}/cmdline`)?.split('\0').slice(0, -1);
  },
  wakeUpsOf(pid) {
    const match = /^voluntary_ctxt_switches:\s*(\d+)$/m.exec(readOrUndefined(`/proc/${pid}/status`) ?? '');
    return match ? Number(match[1]) : undefined;
  },
};

export interface LauncherSnapshot {
  /** This process's parent when the watch began. */
  readonly parent: number;
  /** When the parent is npm's `sh -c` for this command: npm's pid and the shell's wake-up count. */
  readonly npmShell?: { readonly npm: number; readonly wakeUps: number };
}

/** Whether `parent` is the shell npm ran this command's script in (`sh -c <npm_lifecycle_script> …`). */
function isNpmShell(parent: number, environment: NodeJS.ProcessEnv, table: ProcessTable): boolean {
  const script = environment.npm_lifecycle_script;
  const commandLine = table.commandLineOf(parent);
  return script !== undefined && commandLine?.[1] === '-c' && (commandLine[2] ?? '').startsWith(script);
}

/** The launcher as it is now: the parent and, under an npm shell, npm and the shell's wake-ups. */
export function snapshotLauncher(parent: number, environment: NodeJS.ProcessEnv, table: ProcessTable = procTable): LauncherSnapshot {
  if (!isNpmShell(parent, environment, table)) return { parent };
  const npm = table.parentOf(parent);
  const wakeUps = table.wakeUpsOf(parent);
  return npm === undefined || wakeUps === undefined ? { parent } : { parent, npmShell: { npm, wakeUps } };
}

/** Why the launcher wants this process stopped now, or null while all is as it was. */
export function launcherStopReason(
  before: LauncherSnapshot,
  currentParent: number,
  underNpm: boolean,
  table: ProcessTable = procTable,
): string | null {
  // A parent that changed died. Only under npm: a user who ran the bin with nohup wants it to outlive the shell.
  if (underNpm && currentParent !== before.parent) return 'the process that started it ended';
  if (!before.npmShell) return null;
  if (table.parentOf(before.parent) !== before.npmShell.npm) return 'npm, which started it, ended';
  // The shell sleeps in wait() until this process ends; anything else that wakes it is a signal npm forwarded.
  if (table.wakeUpsOf(before.parent) !== before.npmShell.wakeUps) return 'npm passed on a signal to stop';
  return null;
}

/**
 * The launcher as it was when this module loaded, early in the process: a signal npm passed on while the
 * command was still getting ready (npm start's regenerate check, the site build) is noticed once the watch begins.
 */
const launcherAtLoad = snapshotLauncher(process.ppid, process.env);

/**
 * Calls `onStop` once, with the reason, when the launcher asks this process to stop or goes away; checks
 * every launcherCheckIntervalMs on a timer that keeps no process alive. Answers the function that ends the watch.
 */
export function watchLauncher(onStop: (reason: string) => void, environment: NodeJS.ProcessEnv = process.env): () => void {
  const underNpm = environment.npm_lifecycle_event !== undefined;
  const before = environment === process.env ? launcherAtLoad : snapshotLauncher(process.ppid, environment);
  if (!underNpm && !before.npmShell) return () => {};
  const timer = setInterval(() => {
    const reason = launcherStopReason(before, process.ppid, underNpm);
    if (reason === null) return;
    clearInterval(timer);
    onStop(reason);
  }, launcherCheckIntervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

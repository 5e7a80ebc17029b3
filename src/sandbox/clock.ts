/**
 * The sandbox's clock: real time, shifted by `advance` and optionally faster than real time, so a webhook
 * resend schedule of hours (section 6.1) plays in seconds, or in one `advance` call in a test.
 *
 * Tasks are scheduled on sandbox time. One real timer waits for the earliest of them; it is unref'd, so a
 * sandbox clock never keeps a process alive, and `stop()` clears it.
 */
import type { SandboxClock } from './contract.js';

export interface SandboxClockOptions {
  /** Sandbox time at creation, in milliseconds since the epoch; default the real time. */
  readonly startMs?: number;
  /** Sandbox milliseconds per real millisecond; default 1. 0 freezes the clock: only `advance` moves it. */
  readonly speed?: number;
  /** The real time source; tests give their own. */
  readonly realNow?: () => number;
  /** Told of a task that threw; the other tasks run all the same. Default: one line on the console. */
  readonly onTaskError?: (error: unknown) => void;
}

/** The clock the engine and the control plane hold: the handlers see only its `SandboxClock` face. */
export interface ControlledSandboxClock extends SandboxClock {
  /** Moves sandbox time forward by `ms` and runs, in time order and synchronously, every task that became due. */
  advance(ms: number): void;
  /** Changes how fast sandbox time runs from now on (the time already passed is kept). */
  setSpeed(speed: number): void;
  /** How many tasks wait. */
  pending(): number;
  /** Clears the real timer: from now on tasks run only through `advance`. */
  stop(): void;
}

/**
 * At most this many tasks run in one `advance` or one timer turn: a task that keeps scheduling itself at a
 * time already due would otherwise never let `advance` return. The rest run on the next turns.
 */
export const maxTasksPerRun = 100_000;

/** setTimeout's longest delay; a task further away re-arms the timer when it fires. */
const maxTimerDelayMs = 2 ** 31 - 1;

interface ScheduledTask {
  readonly atMs: number;
  readonly run: () => void;
}

export function createSandboxClock(options: SandboxClockOptions = {}): ControlledSandboxClock {
  const realNow = options.realNow ?? Date.now;
  const reportError = options.onTaskError ?? ((error: unknown) => console.error(`sandbox clock: a task failed: ${oneLine(error)}`));
  let speed = checkedSpeed(options.speed ?? 1);
  // Sandbox time = anchorSandboxMs + (real time since anchorRealMs) × speed; re-anchored when the speed changes.
  let anchorRealMs = realNow();
  let anchorSandboxMs = options.startMs ?? anchorRealMs;
  if (!Number.isFinite(anchorSandboxMs)) throw new RangeError(`startMs must be a finite number, got ${anchorSandboxMs}`);
  // Sorted by time; tasks of the same time keep the order they were scheduled in.
  const tasks: ScheduledTask[] = [];
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let stopped = false;

  const preciseNow = (): number => anchorSandboxMs + (realNow() - anchorRealMs) * speed;

  /** Runs the due tasks; with `untilMs`, also those up to it, stepping sandbox time to each task's time. */
  function runDue(untilMs?: number): void {
    // A task that advances the clock only moves time: the loop already running picks the newly due tasks up.
    if (running) return;
    running = true;
    let ran = 0;
    try {
      for (;;) {
        const next = tasks[0];
        if (!next || next.atMs > Math.max(untilMs ?? Number.NEGATIVE_INFINITY, preciseNow())) break;
        if (ran === maxTasksPerRun) {
          reportError(new Error(`more than ${maxTasksPerRun} tasks were due at once (a task rescheduling itself?); the rest run later`));
          break;
        }
        tasks.shift();
        // A task sees the time it was scheduled for, as if the clock had ticked up to it.
        const late = preciseNow();
        if (next.atMs > late) anchorSandboxMs += next.atMs - late;
        ran += 1;
        try {
          next.run();
        } catch (error) {
          reportError(error);
        }
      }
    } finally {
      running = false;
    }
  }

  /** One real timer for the earliest task, recomputed whenever the earliest task or the speed changes. */
  function arm(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const earliest = tasks[0];
    if (stopped || !earliest) return;
    const aheadMs = earliest.atMs - preciseNow();
    if (aheadMs > 0 && speed === 0) return; // a frozen clock reaches it only through advance
    const delayMs = aheadMs <= 0 ? 0 : Math.min(Math.ceil(aheadMs / speed), maxTimerDelayMs);
    timer = setTimeout(() => {
      timer = undefined;
      runDue();
      arm();
    }, delayMs);
    timer.unref();
  }

  return {
    now: () => new Date(Math.floor(preciseNow())),
    nowMs: () => Math.floor(preciseNow()),
    at(atMs: number, task: () => void): () => void {
      if (!Number.isFinite(atMs)) throw new RangeError(`a task needs a finite time, got ${atMs}`);
      const entry: ScheduledTask = { atMs, run: task };
      const index = insertionIndex(tasks, atMs);
      tasks.splice(index, 0, entry);
      // A task already due runs on the timer's next turn, never inside `at`: the caller finishes its own step first.
      if (index === 0) arm();
      return () => {
        const found = tasks.indexOf(entry);
        if (found < 0) return;
        tasks.splice(found, 1);
        if (found === 0) arm();
      };
    },
    advance(ms: number): void {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance needs a finite number of milliseconds >= 0, got ${ms}`);
      const targetMs = preciseNow() + ms;
      runDue(targetMs);
      const reached = preciseNow();
      if (reached < targetMs) anchorSandboxMs += targetMs - reached;
      arm();
    },
    setSpeed(newSpeed: number): void {
      const checked = checkedSpeed(newSpeed);
      anchorSandboxMs = preciseNow();
      anchorRealMs = realNow();
      speed = checked;
      arm();
    },
    pending: () => tasks.length,
    stop(): void {
      stopped = true;
      arm();
    },
  };
}

/** The index after every task due at or before `atMs` (binary search: tasks of equal time stay in order). */
function insertionIndex(tasks: readonly ScheduledTask[], atMs: number): number {
  let low = 0;
  let high = tasks.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (tasks[middle]!.atMs <= atMs) low = middle + 1;
    else high = middle;
  }
  return low;
}

function checkedSpeed(speed: number): number {
  if (!Number.isFinite(speed) || speed < 0) throw new RangeError(`the clock speed must be a finite number >= 0, got ${speed}`);
  return speed;
}

function oneLine(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.split('\n')[0]!;
}

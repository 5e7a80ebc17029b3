/**
 * The sandbox's scheduled work, held as data: each task is a module, a kind, a time and its arguments
 * (contract.ts, DueTask), armed on the sandbox clock. Data rather than closures, so the snapshot file keeps
 * what was pending — a refund settling, a payment liquidating, a registry confirming — and a restart arms
 * it again: a task past due by then runs at once.
 */
import type { DueTask, SandboxClock } from './contract.js';

export interface Agenda {
  schedule(task: DueTask): void;
  /** The tasks not run yet, in time order (what a snapshot keeps). */
  pending(): DueTask[];
  /** Cancels every task (a reset: what was pending belongs to the state thrown away). */
  clear(): void;
}

/** An agenda on `clock` that hands each task to `run` when it is due. */
export function createAgenda(clock: SandboxClock, run: (task: DueTask) => void): Agenda {
  const armed = new Map<DueTask, () => void>();
  return {
    schedule(task: DueTask): void {
      if (!Number.isFinite(task.atMs))
        throw new RangeError(`task ${task.document}/${task.kind}: atMs must be a finite time, got ${task.atMs}`);
      // A copy: the caller may reuse its arguments object, and the snapshot must see them as they were scheduled.
      const kept: DueTask = { document: task.document, kind: task.kind, atMs: task.atMs, args: structuredClone(task.args) };
      const cancel = clock.at(kept.atMs, () => {
        armed.delete(kept);
        run(kept);
      });
      armed.set(kept, cancel);
    },
    pending: () => [...armed.keys()].sort((a, b) => a.atMs - b.atMs),
    clear(): void {
      for (const cancel of armed.values()) cancel();
      armed.clear();
    },
  };
}

/** The tasks of a snapshot file, checked: a malformed entry is named with the rule it breaks. */
export function tasksOf(saved: unknown, file: string): DueTask[] {
  if (saved === undefined) return [];
  if (!Array.isArray(saved)) throw new Error(`${file}: agenda must be a list of tasks; remove the member or the file to start afresh`);
  return saved.map((entry: unknown, index) => {
    const task = entry as Partial<DueTask> | null;
    const wrong =
      typeof task !== 'object' || task === null
        ? 'must be an object'
        : typeof task.document !== 'string' || typeof task.kind !== 'string'
          ? 'needs a document and a kind (text)'
          : typeof task.atMs !== 'number' || !Number.isFinite(task.atMs)
            ? 'needs atMs, a finite number'
            : typeof task.args !== 'object' || task.args === null || Array.isArray(task.args)
              ? 'needs args, an object'
              : undefined;
    if (wrong) throw new Error(`${file}: agenda/${index} ${wrong}; remove it or the file to start afresh`);
    return task as DueTask;
  });
}

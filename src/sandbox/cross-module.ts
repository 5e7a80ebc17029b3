/**
 * How the server hands the modules' scheduled tasks and platform events to the modules they are for: a
 * task to the runner its module declares (`tasks`), an event to every module that listens for its kind
 * (`listens`), each with that module's own state and environment. What fails is logged and, as an internal
 * error, reported as a drift (the strict sandbox fails the test that caused it); the other listeners still run.
 */
import type { DueTask, PlatformEvent, SandboxEnvironment } from './contract.js';
import type { MountedModule } from './engine.js';

interface Reporting {
  readonly mounted: ReadonlyMap<string, MountedModule>;
  readonly onDrift: (drift: string) => void;
  readonly log: (line: string) => void;
}

/** Runs a due task with the state its module holds now; `after` is told once it ran (the snapshot is saved). */
export function taskRunner({ mounted, onDrift, log }: Reporting, after: () => void): (task: DueTask) => void {
  return (task) => {
    const entry = mounted.get(task.document);
    const runner = entry?.module.tasks?.[task.kind];
    if (!entry || !runner) {
      onDrift(`internal error: a scheduled task ${task.document}/${task.kind} has no module to run it`);
      log(`sandbox: a scheduled task ${task.document}/${task.kind} has no module to run it; dropped`);
      return;
    }
    runner(task.args, entry.state, entry.env);
    after();
  };
}

/** Tells every listening module of `event`; one module's failure does not undo what the announcing module did. */
export function announcer({ mounted, onDrift, log }: Reporting): (event: PlatformEvent) => void {
  return (event) => {
    for (const [document, entry] of mounted) {
      const listener = entry.module.listens?.[event.kind] as
        | ((event: PlatformEvent, state: unknown, env: SandboxEnvironment) => void)
        | undefined;
      if (!listener) continue;
      try {
        listener(event, entry.state, entry.env);
      } catch (error) {
        onDrift(`internal error: ${document} on ${event.kind}: ${(error as Error).message}`);
        log(`sandbox error: ${document} on ${event.kind}: ${(error as Error).stack ?? String(error)}`);
      }
    }
  };
}

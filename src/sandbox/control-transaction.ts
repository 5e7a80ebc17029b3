/**
 * A control verb runs as a transaction: what it changes in the modules' state is undone, and what it would
 * send or schedule is dropped, when it is refused — by its own checks (a throw) or by the check of what it
 * produced. Undone in place, object by object, so the tasks already on the clock keep the very objects they
 * hold (replacing the state with a copy would leave a pending refund settling an orphan). The seeded random
 * is not rewound: a refused call may move the ids later calls get, never what is stored.
 */
import type { Delivery, SandboxClock, SandboxEnvironment, WebhookDispatcher } from './contract.js';

type Snapshot = Map<object, unknown[] | Record<string, unknown>>;

const isPlain = (value: unknown): value is object =>
  typeof value === 'object' &&
  value !== null &&
  (Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null);

/** The own members of every plain object and array reachable from `roots`, by identity. */
function snapshotOf(roots: readonly unknown[]): Snapshot {
  const snapshot: Snapshot = new Map();
  const pending = roots.filter(isPlain);
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (snapshot.has(node)) continue;
    const members = Array.isArray(node) ? [...node] : { ...(node as Record<string, unknown>) };
    snapshot.set(node, members);
    for (const value of Object.values(members)) if (isPlain(value) && !snapshot.has(value)) pending.push(value);
  }
  return snapshot;
}

/** Puts every recorded object back as it was; an object left as it was is not written (it may be frozen). */
function restore(snapshot: Snapshot): void {
  for (const [node, members] of snapshot) {
    if (Array.isArray(node)) {
      const saved = members as unknown[];
      if (node.length === saved.length && node.every((value, index) => value === saved[index])) continue;
      node.length = 0;
      node.push(...saved);
      continue;
    }
    const target = node as Record<string, unknown>;
    const saved = members as Record<string, unknown>;
    for (const key of Object.keys(target)) if (!(key in saved)) delete target[key];
    for (const [key, value] of Object.entries(saved)) if (target[key] !== value) target[key] = value;
  }
}

/**
 * An environment whose sends and scheduled tasks wait for the verb's outcome: kept, they happen as the verb
 * asked (a task never runs inside `at` anyway); dropped, they never happen. After the outcome it passes
 * every call through, for the tasks it scheduled that call it later.
 */
function deferringEnvironment(env: SandboxEnvironment): { env: SandboxEnvironment; keep(): void; drop(): void } {
  let open = true;
  const deferred: (() => void)[] = [];
  const later = (run: () => void): void => {
    deferred.push(run);
  };
  const webhooks: WebhookDispatcher = {
    send: (delivery: Delivery) => {
      if (!open) return env.webhooks.send(delivery);
      later(() => env.webhooks.send(delivery));
      return `pending-${deferred.length}`;
    },
    disabled: (subscription) => env.webhooks.disabled(subscription),
    enable: (subscription) => (open ? later(() => env.webhooks.enable(subscription)) : env.webhooks.enable(subscription)),
    resend: (id) => env.webhooks.resend(id),
    log: () => env.webhooks.log(),
  };
  const clock: SandboxClock = {
    now: () => env.clock.now(),
    nowMs: () => env.clock.nowMs(),
    at: (atMs, task) => {
      if (!open) return env.clock.at(atMs, task);
      let cancel: (() => void) | undefined;
      let cancelled = false;
      later(() => {
        if (!cancelled) cancel = env.clock.at(atMs, task);
      });
      return () => {
        cancelled = true;
        cancel?.();
      };
    },
  };
  return {
    env: {
      clock,
      webhooks,
      get random() {
        return env.random;
      },
      get tokens() {
        return env.tokens;
      },
      stateOf: (document) => env.stateOf(document),
      // A task or an announcement of a refused verb never happens: the other modules never see what is undone.
      schedule: (task) => (open ? later(() => env.schedule(task)) : env.schedule(task)),
      announce: (event) => (open ? later(() => env.announce(event)) : env.announce(event)),
    },
    keep() {
      open = false;
      for (const run of deferred.splice(0)) run();
    },
    drop() {
      open = false;
      deferred.splice(0);
    },
  };
}

/** What a transaction's body decides: keep its changes and answer, or refuse with nothing kept. */
export type Outcome<Answer, Refusal> = { readonly kept: Answer } | { readonly refused: Refusal };

/**
 * Runs `body` on the states `roots` with an environment that defers its effects; `judge` sees the answer
 * and returns a refusal or undefined. A refusal, or a throw, undoes every change and drops every effect.
 */
export async function inTransaction<Answer, Refusal>(
  roots: readonly unknown[],
  env: SandboxEnvironment,
  body: (env: SandboxEnvironment) => Answer | Promise<Answer>,
  judge: (answer: Answer) => Refusal | undefined,
): Promise<Outcome<Answer, Refusal>> {
  const snapshot = snapshotOf(roots);
  const deferring = deferringEnvironment(env);
  try {
    // A synchronous verb is judged before anything else runs: no poll woken by it reads what may be undone.
    const result = body(deferring.env);
    const answer = result instanceof Promise ? await result : result;
    const refusal = judge(answer);
    if (refusal === undefined) {
      deferring.keep();
      return { kept: answer };
    }
    restore(snapshot);
    deferring.drop();
    return { refused: refusal };
  } catch (error) {
    restore(snapshot);
    deferring.drop();
    throw error;
  }
}

/**
 * Webhook deliveries of the sandbox, really sent over HTTP to the user's receiver (issue 18, point 3), with
 * the registered method and headers and a JSON body, resent on the schedule of section 6.1 while they fail.
 *
 * Failures are counted per subscription, as consecutive failures: a success resets the count. Deliveries
 * of one subscription go out one after another (the platform's "queued messages"): a later one waits while
 * an earlier one is pending, so a receiver sees them in the order they happened. Resends are scheduled on
 * the sandbox clock, so an accelerated or advanced clock plays a schedule of hours in seconds.
 *
 * The deliveries and each subscription's count and pending resend are data (`snapshot()`): a sandbox started
 * on a snapshot file hands them back (`restored`), and a resend that was waiting is sent at its time.
 */
import type { Agent, Dispatcher } from 'undici';
import type { Delivery, DeliveryRecord, SandboxClock, SeededRandom, WebhookDispatcher } from './contract.js';

export interface WebhookDispatcherOptions {
  readonly clock: SandboxClock & { advance?: unknown };
  readonly random: SeededRandom;
  /** Real milliseconds a receiver has to answer; later counts as a failure. Default 5000. */
  readonly timeoutMs?: number;
  /** Told once when a subscription is disabled after more than 15 consecutive failures. */
  readonly onDisabled?: (subscription: string) => void;
  /** Deliveries always go through undici's `request`: there is no fetch to inject. */
  readonly fetchImpl?: never;
  /** What a snapshot kept: the log, and the deliveries still pending, resent at their time (or now, when none was set). */
  readonly restored?: WebhookSnapshot;
  /** Told after every change a snapshot should keep (a delivery queued, an attempt's outcome). */
  readonly onChange?: () => void;
}

/** A delivery as the snapshot keeps it: everything needed to send it again (the log shows less). */
export interface SavedDelivery {
  readonly id: string;
  readonly subscription: string;
  readonly label: string;
  readonly url: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | null;
  readonly attempts: readonly Attempt[];
  readonly state: DeliveryRecord['state'];
}

export interface SavedSubscription {
  readonly name: string;
  readonly consecutiveFailures: number;
  readonly disabled: boolean;
  /** Ids of its pending deliveries, in order. */
  readonly queue: readonly string[];
  /** When the first of them is resent (sandbox time); null when none is waiting for a resend. */
  readonly resendAtMs: number | null;
}

/** The dispatcher's state as plain data, for the snapshot file. */
export interface WebhookSnapshot {
  readonly deliveries: readonly SavedDelivery[];
  readonly subscriptions: readonly SavedSubscription[];
}

export interface SandboxWebhookDispatcher extends WebhookDispatcher {
  /** Resolves when no HTTP attempt is in flight (tests await it after `advance`). */
  idle(): Promise<void>;
  /** Cancels the scheduled resends, waits for the attempts in flight and closes the connections. */
  stop(): Promise<void>;
  /** The deliveries and subscriptions as data (see WebhookSnapshot). */
  snapshot(): WebhookSnapshot;
}

const minuteMs = 60_000;

/**
 * Section 6.1: after 1 to 5 consecutive failures the delivery is resent 2 minutes later, after 6 to 10 at
 * 15-minute intervals, after 11 to 15 at 60-minute intervals; null after more than 15: disable the subscription.
 */
export function resendDelayMs(consecutiveFailures: number): number | null {
  if (consecutiveFailures <= 5) return 2 * minuteMs;
  if (consecutiveFailures <= 10) return 15 * minuteMs;
  if (consecutiveFailures <= 15) return 60 * minuteMs;
  return null;
}

type Attempt = DeliveryRecord['attempts'][number];

interface Entry {
  readonly id: string;
  readonly subscription: string;
  readonly label: string;
  readonly url: URL;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON text sent; kept out of the log, which never shows a body or a header (they may carry secrets). */
  readonly body: string | undefined;
  readonly attempts: Attempt[];
  state: DeliveryRecord['state'];
}

interface Subscription {
  consecutiveFailures: number;
  disabled: boolean;
  /** Its pending deliveries in order; the first is the one being sent or waiting for its resend. */
  readonly queue: Entry[];
  /** An attempt is in flight or a resend is scheduled: the queue waits. */
  busy: boolean;
  /** When the first queued delivery is resent; kept even after a stop, so the snapshot has it. */
  resendAtMs: number | null;
  cancelResend: (() => void) | undefined;
}

export function createWebhookDispatcher(options: WebhookDispatcherOptions): SandboxWebhookDispatcher {
  const { clock } = options;
  const timeoutMs = options.timeoutMs ?? 5000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError(`timeoutMs must be > 0, got ${timeoutMs}`);
  const entries: Entry[] = [];
  const byId = new Map<string, Entry>();
  const subscriptions = new Map<string, Subscription>();
  const inFlight = new Set<Promise<void>>();
  // undici is loaded with the first delivery: a sandbox that sends none starts without it.
  let agent: Promise<{ agent: Agent; request: typeof import('undici').request }> | undefined;
  let stopped = false;

  const subscriptionOf = (name: string): Subscription =>
    subscriptions.get(name) ??
    subscriptions
      .set(name, { consecutiveFailures: 0, disabled: false, queue: [], busy: false, resendAtMs: null, cancelResend: undefined })
      .get(name)!;
  const changed = (): void => {
    try {
      options.onChange?.();
    } catch (error) {
      console.error(`sandbox webhooks: onChange failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  /** Sends the first queued delivery of the subscription, unless one is already on its way. */
  function pump(subscription: Subscription): void {
    const first = subscription.queue[0];
    if (stopped || subscription.busy || subscription.disabled || !first) return;
    attempt(subscription, first);
  }

  function attempt(subscription: Subscription, entry: Entry): void {
    subscription.busy = true;
    const atMs = clock.nowMs();
    const flight = exchange(entry).then((outcome) => settle(subscription, entry, { atMs, ...outcome }));
    inFlight.add(flight);
    void flight.finally(() => inFlight.delete(flight));
  }

  function settle(subscription: Subscription, entry: Entry, result: Attempt): void {
    entry.attempts.push(result);
    subscription.busy = false;
    if (result.status !== null && result.status >= 200 && result.status < 300) {
      entry.state = 'delivered';
      subscription.consecutiveFailures = 0;
      subscription.queue.shift();
      pump(subscription);
      changed();
      return;
    }
    subscription.consecutiveFailures += 1;
    const delayMs = resendDelayMs(subscription.consecutiveFailures);
    if (delayMs === null) {
      disable(subscription, entry);
      changed();
      return;
    }
    subscription.resendAtMs = clock.nowMs() + delayMs;
    // Stopped, the delivery stays pending with its resend time: a sandbox restarted on the snapshot sends it then.
    if (!stopped) armResend(subscription, entry);
    changed();
  }

  function armResend(subscription: Subscription, entry: Entry): void {
    subscription.busy = true;
    subscription.cancelResend = clock.at(subscription.resendAtMs ?? clock.nowMs(), () => {
      subscription.cancelResend = undefined;
      subscription.resendAtMs = null;
      attempt(subscription, entry);
    });
  }

  function disable(subscription: Subscription, failed: Entry): void {
    subscription.disabled = true;
    failed.state = 'failed';
    for (const queued of subscription.queue.splice(0)) if (queued !== failed) queued.state = 'dropped';
    try {
      options.onDisabled?.(failed.subscription);
    } catch (error) {
      console.error(`sandbox webhooks: onDisabled failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** One HTTP exchange; never rejects: a failure is an outcome with a one-line reason. */
  async function exchange(entry: Entry): Promise<{ status: number | null; error?: string }> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      agent ??= import('undici').then(({ Agent, request }) => ({ agent: new Agent({ connect: { timeout: timeoutMs } }), request }));
      const { agent: dispatcher, request } = await agent;
      const answer = await request(entry.url, {
        dispatcher,
        method: entry.method as Dispatcher.HttpMethod,
        headers: entry.headers,
        ...(entry.body === undefined ? {} : { body: entry.body }),
        signal: controller.signal,
      });
      // The body is read and discarded so the connection can be reused; its content does not matter.
      await answer.body.dump({ limit: 64 * 1024, signal: controller.signal });
      return { status: answer.statusCode };
    } catch (error) {
      if (controller.signal.aborted)
        return { status: null, error: `timeout: no answer within ${timeoutMs} ms from ${hostAndPort(entry.url)}` };
      return { status: null, error: `${errorCode(error)} ${hostAndPort(entry.url)}` };
    } finally {
      clearTimeout(timer);
    }
  }

  for (const saved of options.restored?.deliveries ?? []) {
    const entry: Entry = { ...saved, url: new URL(saved.url), body: saved.body ?? undefined, attempts: [...saved.attempts] };
    entries.push(entry);
    byId.set(entry.id, entry);
  }
  for (const saved of options.restored?.subscriptions ?? []) {
    const subscription = subscriptionOf(saved.name);
    subscription.consecutiveFailures = saved.consecutiveFailures;
    subscription.disabled = saved.disabled;
    subscription.queue.push(...saved.queue.map((id) => byId.get(id)).filter((entry) => entry !== undefined));
    subscription.resendAtMs = saved.resendAtMs;
    const first = subscription.queue[0];
    // A resend waiting at the snapshot is sent at its time; an attempt cut off by the stop is sent again now.
    if (first && saved.resendAtMs !== null && !subscription.disabled) armResend(subscription, first);
    else pump(subscription);
  }

  const idle = async (): Promise<void> => {
    // An attempt that settles may start the next one of its subscription: wait until none is left.
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  };

  return {
    send(delivery: Delivery): string {
      if (stopped) throw new Error('the webhook dispatcher was stopped');
      const url = new URL(delivery.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new TypeError(`a webhook is delivered over http or https, not ${url.protocol} (${delivery.label})`);
      const entry: Entry = {
        // Read at each send: an engine that reseeds on reset may hand a getter that answers the new stream.
        id: options.random.uuid(),
        subscription: delivery.subscription,
        label: delivery.label,
        url,
        method: delivery.method.toUpperCase(),
        headers: withJsonContentType(delivery.headers),
        body: delivery.body === undefined ? undefined : JSON.stringify(delivery.body),
        attempts: [],
        state: 'pending',
      };
      entries.push(entry);
      byId.set(entry.id, entry);
      const subscription = subscriptionOf(delivery.subscription);
      if (subscription.disabled) entry.state = 'dropped';
      else {
        subscription.queue.push(entry);
        pump(subscription);
      }
      changed();
      return entry.id;
    },
    disabled: (subscription: string) => subscriptions.get(subscription)?.disabled ?? false,
    enable(name: string): void {
      const subscription = subscriptionOf(name);
      if (!subscription.disabled) return;
      subscription.disabled = false;
      subscription.consecutiveFailures = 0;
      changed();
    },
    resend(id: string): boolean {
      const entry = byId.get(id);
      if (stopped || !entry || entry.state !== 'delivered') return false;
      const subscription = subscriptionOf(entry.subscription);
      if (subscription.disabled) return false;
      // Queued behind the pending deliveries of its subscription, and resent on failure like any delivery.
      entry.state = 'pending';
      subscription.queue.push(entry);
      pump(subscription);
      changed();
      return true;
    },
    log: () =>
      entries.map(({ id, subscription, label, url, attempts, state }) => ({
        id,
        subscription,
        label,
        url: withoutCredentials(url),
        attempts: attempts.map((attempt) => ({ ...attempt })),
        state,
      })),
    idle,
    async stop(): Promise<void> {
      stopped = true;
      for (const subscription of subscriptions.values()) {
        subscription.cancelResend?.();
        subscription.cancelResend = undefined;
      }
      await idle();
      const opened = agent;
      agent = undefined;
      if (opened) await (await opened).agent.close();
    },
    snapshot: () => ({
      deliveries: entries.map((entry) => ({
        id: entry.id,
        subscription: entry.subscription,
        label: entry.label,
        url: entry.url.href,
        method: entry.method,
        headers: entry.headers,
        body: entry.body ?? null,
        attempts: entry.attempts.map((attempt) => ({ ...attempt })),
        state: entry.state,
      })),
      subscriptions: [...subscriptions].map(([name, subscription]) => ({
        name,
        consecutiveFailures: subscription.consecutiveFailures,
        disabled: subscription.disabled,
        queue: subscription.queue.map((entry) => entry.id),
        resendAtMs: subscription.resendAtMs,
      })),
    }),
  };
}

function withJsonContentType(headers: Readonly<Record<string, string>>): Record<string, string> {
  const named = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
  return named ? { ...headers } : { ...headers, 'content-type': 'application/json' };
}

/** `host:port` of the receiver, the port spelled out even when it is the scheme's default. */
function hostAndPort(url: URL): string {
  return `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

/** The receiver's address for the log, without a user name or password written into it. */
function withoutCredentials(url: URL): string {
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy.href;
}

/** The system error code (ECONNREFUSED, ENOTFOUND) of a failed exchange, else undici's, else the error's name. */
function errorCode(error: unknown): string {
  const codes: string[] = [];
  // undici wraps the socket's error (cause), and a host of several addresses fails with an AggregateError.
  const visit = (current: unknown, depth: number): void => {
    if (!(current instanceof Error) || depth > 5) return;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    if (current instanceof AggregateError) for (const inner of current.errors) visit(inner, depth + 1);
    visit(current.cause, depth + 1);
  };
  visit(error, 0);
  return codes.find((code) => /^E[A-Z]+$/.test(code)) ?? codes[0] ?? (error instanceof Error ? error.name : 'Error');
}

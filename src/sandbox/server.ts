/**
 * `contrato sandbox`: one HTTP server on loopback holding the sandbox of every interface, each under its
 * prefix (`/accounts/api/v2`, `/pix`, `/messages`, `/core-banking`), and the control plane under
 * `/_sandbox`. One process and one port, so it is ready in well under a second. Each request is served in an
 * OpenTelemetry server span (request-span.ts).
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { formPartsIssue, formPartsOver, parseHttpBody } from '../checks/http-check.js';
import { bundledSpecPath } from '../checks/registry.js';
import { readBody, readCheckedBody } from '../events/body.js';
import { findInterface } from '../interfaces.js';
import type { OperationInfo } from '../runtime/contract.js';
import { createAgenda } from './agenda.js';
import { createSandboxClock } from './clock.js';
import type { DueTask, Principal, SandboxEnvironment, SandboxModule } from './contract.js';
import { controlPlane, controlPrefix, isControlTarget } from './control.js';
import { announcer, taskRunner } from './cross-module.js';
import { type CallBody, type MountedModule, moduleEnvironment, SandboxEngine } from './engine.js';
import { nameByOperation, type ServeInSpan, servedInSpans } from './request-span.js';
import { eventJudge, judgedDispatcher } from './event-judge.js';
import { FaultPlan } from './faults.js';
import { createSeededRandom } from './random.js';
import { generationSeed, readSnapshot, writeSnapshot } from './snapshot.js';
import { createTokenIssuer, defaultSandboxCredentials } from './tokens.js';
import { createWebhookDispatcher, type SandboxWebhookDispatcher, type WebhookSnapshot } from './webhooks.js';

export interface SandboxOptions {
  readonly host?: string;
  /** 0 (the default in tests) picks a free port. */
  readonly port?: number;
  /** Seed of every id the sandbox makes; the same seed repeats a run. */
  readonly seed?: string;
  readonly modules: readonly SandboxModule<unknown>[];
  readonly credentials?: readonly { clientId: string; clientSecret: string; scopes: readonly string[] }[];
  /** Sandbox seconds per real second (default 1): 60 plays a 2-minute resend in 2 s. */
  readonly speed?: number;
  /** Check every answer against the contract, strictly (the test suite's mode). */
  readonly strict?: boolean;
  /** Where state is kept between runs (JSON): the modules' state, scheduled work, pending webhook resends; none by default. */
  readonly snapshotFile?: string;
  /**
   * Mutual TLS, as the platform demands it (section 5.1): HTTPS with this certificate, and a client certificate
   * issued by `ca` required of every caller (`contrato dev-certs` writes all three).
   */
  readonly tls?: { readonly cert: string | Buffer; readonly key: string | Buffer; readonly ca: string | Buffer };
  readonly log?: (line: string) => void;
  /** The whole body must arrive within this time from the headers, or 408 and the connection is dropped (default 30 s). */
  readonly bodyTimeoutMs?: number;
}

export interface RunningSandbox {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Base URL of a module's interface: `urlOf('pix')` is `http://127.0.0.1:<port>/pix`. */
  urlOf(document: string): string;
  /** Drifts from the contract found in strict mode, one line each. */
  drifts(): readonly string[];
  readonly env: SandboxEnvironment;
  stateOf<State>(document: string): State;
  stop(): Promise<void>;
}

/**
 * The largest bodies the sandbox reads. A form carries the largest request of the contract, an onboarding image
 * of at most 10 MB (accounts, section 8), read as 10 MiB with 64 KiB for the form around it. A JSON body gets
 * 1 MiB: the largest example of the specs is under 1 KB, and a batch of a thousand due-date charges fits. A longer
 * body is refused with 413 as soon as its content-length says so, or as soon as that many bytes came, and is
 * never buffered whole.
 */
export const bodyLimits = { form: 10 * 1024 * 1024 + 64 * 1024, json: 1024 * 1024 } as const;

/** The limit of an operation's body: a form's when it takes one, else a JSON body's (the control plane's too). */
export function bodyLimitOf(info: OperationInfo | null): number {
  return info?.requestBody?.mediaType === 'multipart/form-data' ? bodyLimits.form : bodyLimits.json;
}

/** What the sandbox answers when a body is longer than `limit`. */
function tooLarge(limit: number): { status: 413; detail: string } {
  const what = limit === bodyLimits.form ? 'a form (a 10 MB image and its fields)' : 'a JSON body';
  return { status: 413, detail: `the body exceeds ${limit} bytes, the most the sandbox reads for ${what}: send a smaller body` };
}

const defaultBodyTimeoutMs = 30_000;

function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** Sends an answer; `close` tells the client this connection takes no further request. */
function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  contentType?: string,
  close = false,
): void {
  const text = body === undefined ? '' : typeof body === 'string' && contentType && !/json/.test(contentType) ? body : JSON.stringify(body);
  response.writeHead(status, {
    ...(body === undefined ? {} : { 'content-type': contentType ?? 'application/json' }),
    'content-length': Buffer.byteLength(text),
    ...headers,
    ...(close ? { connection: 'close' } : {}),
  });
  response.end(text);
}

/** Whether a body is still arriving that nobody read: none was asked for, or it was refused. */
function unreadBody(request: IncomingMessage): boolean {
  if (request.complete) return false;
  return request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
}

/** How long a dropped connection stays open after its answer, for the client to read it. */
const lingerMs = 2000;

/**
 * Answers; when a body is still arriving unread, the answer says `connection: close` and the connection is
 * dropped after it: the rest of that body (it may be 50 MB) is never buffered, nor read as the next request.
 */
function answerAndDrop(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  contentType?: string,
): void {
  const drop = unreadBody(request);
  if (drop) lingerOnClose(request);
  send(response, status, body, headers, contentType, drop);
}

/**
 * Makes the close after a `connection: close` answer a lingering one: the write side is ended at once, nothing
 * more is read (the rest of the body waits in the kernel, which stops the client), and the socket is destroyed
 * lingerMs later. Destroying it at once with bytes unread resets the connection, and a reset can discard the
 * answer before the client reads it; reading the rest to discard it would cost memory until the next collection.
 */
function lingerOnClose(request: IncomingMessage): void {
  const socket = request.socket;
  // Node closes after such an answer with socket.destroySoon(), after resuming an unread body to discard it:
  // this socket's destroySoon is replaced (no other's), and stops that reading again.
  socket.destroySoon = () => {
    socket.pause();
    socket.end();
    const timer = setTimeout(() => socket.destroy(), lingerMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
}

export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const log = options.log ?? (() => {});
  const snapshot = options.snapshotFile;
  const saved = snapshot ? readSnapshot(snapshot, options.seed ?? 'contrato') : undefined;
  const seed = saved?.seed ?? options.seed ?? 'contrato';
  // A restored sandbox keeps the time it had moved to, and draws ids from a stream of its own per restart.
  const generation = saved ? saved.generation + 1 : 0;
  const clock = createSandboxClock({ speed: options.speed ?? 1, ...(saved ? { startMs: Date.now() + saved.clockLeadMs } : {}) });
  const seeded = (text: string, round: number) => ({ ...createSeededRandom(generationSeed(text, round)), seed: text });
  let random = seeded(seed, generation);
  let currentSeed = seed;
  let currentGeneration = generation;
  const credentials = options.credentials ?? defaultSandboxCredentials();
  let tokens = createTokenIssuer({ clock, random, credentials });
  const mounted = new Map<string, MountedModule>();
  const drifts: string[] = [];
  const strict = options.strict ?? false;
  let saveSoon = (): void => {};
  const newDispatcher = (restored?: WebhookSnapshot): SandboxWebhookDispatcher => {
    const dispatcher = createWebhookDispatcher({
      clock,
      get random() {
        return random;
      },
      onDisabled: (subscription) => log(`webhook ${subscription} disabled after more than 15 consecutive failures`),
      onChange: () => saveSoon(),
      ...(restored ? { restored } : {}),
    });
    const accounts = mounted.get('accounts');
    // Strict, every event sent is judged against its schema as every answer is.
    return strict && accounts ? judgedDispatcher(dispatcher, eventJudge(accounts.bundle), (drift) => drifts.push(drift)) : dispatcher;
  };
  const reporting = { mounted, onDrift: (drift: string) => drifts.push(drift), log };
  const agenda = createAgenda(
    clock,
    taskRunner(reporting, () => saveSoon()),
  );
  let webhooks: SandboxWebhookDispatcher;
  const env: SandboxEnvironment = {
    clock,
    get random() {
      return random;
    },
    get webhooks() {
      return webhooks;
    },
    get tokens() {
      return tokens;
    },
    stateOf: <State>(document: string) => mounted.get(document)?.state as State | undefined,
    schedule(task: DueTask): void {
      if (!mounted.get(task.document)?.module.tasks?.[task.kind])
        throw new Error(`no module ${task.document} with a task ${task.kind} to schedule: declare it in the module's tasks`);
      agenda.schedule(task);
    },
    announce: announcer(reporting),
  };
  const faults = new FaultPlan();
  const engine = new SandboxEngine({ env, faults, strict: options.strict ?? false, onDrift: (drift) => drifts.push(drift) });

  for (const module of options.modules) {
    const info = findInterface(module.document);
    if (!info) throw new Error(`the sandbox module ${module.document} names no spec document`);
    const bundle = JSON.parse(readFileSync(bundledSpecPath(module.document), 'utf8')) as Record<string, unknown>;
    const generated = await info.load();
    mounted.set(module.document, {
      module,
      generated,
      bundle,
      state: undefined,
      env: moduleEnvironment(env, module.document),
    });
  }
  webhooks = newDispatcher(saved?.webhooks);
  const reset = (newSeed: string = seed): void => {
    currentSeed = newSeed;
    currentGeneration = 0;
    random = seeded(newSeed, 0);
    // A new dispatcher and an empty agenda: the old scheduled work and disabled subscriptions belong to the state reset.
    agenda.clear();
    const old = webhooks;
    webhooks = newDispatcher();
    void old.stop();
    tokens = createTokenIssuer({ clock, random, credentials, carried: tokens.issued() });
    faults.clear();
    for (const entry of mounted.values()) entry.state = entry.module.createState(entry.env);
  };
  if (saved) {
    // The modules' states as saved (a module the file does not name starts fresh), then their work re-armed.
    for (const entry of mounted.values()) entry.state = saved.states[entry.module.document] ?? entry.module.createState(entry.env);
    for (const task of saved.agenda) {
      if (mounted.get(task.document)?.module.tasks?.[task.kind]) agenda.schedule(task);
      else log(`sandbox: ${snapshot}: the scheduled task ${task.document}/${task.kind} has no module here; dropped`);
    }
    log(
      `state read from ${snapshot}: ${saved.agenda.length} scheduled tasks, ${saved.webhooks?.deliveries.length ?? 0} webhook deliveries`,
    );
  } else reset();
  let closed = false;
  let pendingSave: NodeJS.Immediate | undefined;
  const save = (): void => {
    if (!snapshot || closed) return;
    if (pendingSave) clearImmediate(pendingSave);
    pendingSave = undefined;
    writeSnapshot(snapshot, {
      seed: currentSeed,
      generation: currentGeneration,
      clockLeadMs: clock.nowMs() - Date.now(),
      states: Object.fromEntries([...mounted].map(([document, entry]) => [document, entry.state])),
      agenda: agenda.pending(),
      webhooks: webhooks.snapshot(),
    });
  };
  // What the clock and the dispatcher change between requests is saved once the current turn is over.
  saveSoon = () => {
    if (!snapshot || closed || pendingSave) return;
    pendingSave = setImmediate(save);
    pendingSave.unref();
  };

  const prefixes = [...mounted.values()].sort((a, b) => b.module.prefix.length - a.module.prefix.length);
  let address = '';
  const control = controlPlane({
    env,
    faults,
    mounted,
    reset,
    advance: (ms) => clock.advance(ms),
    setSpeed: (speed) => clock.setSpeed(speed),
    urlOf: (document) => `${address}${mounted.get(document)?.module.prefix ?? ''}`,
    credentials,
    statusesOf: (operationId) =>
      [...mounted.values()].find((entry) => operationId in entry.generated.operationTable)?.generated.operationTable[operationId]
        ?.responseStatuses,
  });

  const bodyDeadlineMs = options.bodyTimeoutMs ?? defaultBodyTimeoutMs;
  // What the sandbox answers when a body is too slow to arrive.
  const tooSlow = {
    status: 408,
    detail: `the body did not arrive within ${bodyDeadlineMs / 1000} s: send it whole, without pauses`,
  } as const;
  const moduleServing = (target: string): MountedModule | undefined =>
    prefixes.find(
      ({ module }) => target === module.prefix || target.startsWith(`${module.prefix}/`) || target.startsWith(`${module.prefix}?`),
    );
  const serve: ServeInSpan = async (request, response, span) => {
    try {
      const target = request.url ?? '/';
      if (isControlTarget(target)) {
        const read = await readBody(request, bodyLimits.json, bodyDeadlineMs, { overflow: 'stop' });
        if (read.outcome === 'aborted') return;
        if (read.outcome !== 'body') {
          const refusal = read.outcome === 'too-large' ? tooLarge(bodyLimits.json) : tooSlow;
          return answerAndDrop(request, response, refusal.status, { detail: refusal.detail });
        }
        // The control plane speaks JSON whatever the content type says (fetch marks a string body text/plain).
        const parsed = await parseHttpBody(read.bytes, 'application/json');
        if ('issue' in parsed) return send(response, 400, { detail: `${parsed.issue.pointer}: ${parsed.issue.message}` });
        const answer = await control(request.method ?? 'GET', target, parsed.body);
        if (request.method !== 'GET') save();
        return send(response, answer.status, answer.body);
      }
      const headers = headersOf(request);
      const entry = moduleServing(target);
      if (!entry)
        return answerAndDrop(request, response, 404, {
          detail: `no interface of the sandbox is served under ${target.split('?')[0]}; see GET ${controlPrefix}`,
        });
      const readCallBody = async (operation: OperationInfo): Promise<CallBody> => {
        const limit = bodyLimitOf(operation);
        // A form of too many parts is refused at the part past the bound, not read to its end and parsed.
        const partsOver = formPartsOver(headers['content-type']);
        const read = await readCheckedBody(request, limit, bodyDeadlineMs, {
          overflow: 'stop',
          ...(partsOver ? { refuse: partsOver } : {}),
        });
        if (read.outcome === 'refused') return { issue: formPartsIssue() };
        if (read.outcome === 'aborted') return { refused: 'aborted' };
        if (read.outcome === 'too-large') return { refused: 'too-large', detail: tooLarge(limit).detail };
        if (read.outcome === 'timed-out') return { refused: 'timed-out', detail: tooSlow.detail };
        return parseHttpBody(read.bytes, headers['content-type']);
      };
      const call = {
        method: request.method ?? 'GET',
        target: target.slice(entry.module.prefix.length) || '/',
        headers,
        baseUrl: `${address}${entry.module.prefix}`,
        readBody: readCallBody,
      };
      const answer = await engine.answer(entry, call);
      nameByOperation(span, entry, answer.operationId);
      if (answer.failure) log(`sandbox error: ${answer.failure.stack ?? answer.failure.message}`);
      if (answer.abandoned) return;
      if (answer.delayMs) await new Promise((done) => setTimeout(done, answer.delayMs));
      if (request.method !== 'GET') save();
      if (answer.resetConnection) {
        log(`${answer.operationId}: processed, connection reset (planned fault)`);
        request.socket.destroy();
        return;
      }
      answerAndDrop(request, response, answer.status, answer.body, { ...answer.headers }, answer.contentType);
    } catch (error) {
      log(`sandbox error: ${(error as Error).stack ?? String(error)}`);
      drifts.push(`internal error: ${(error as Error).message}`);
      if (!response.headersSent) answerAndDrop(request, response, 500, { detail: 'the sandbox failed on this request; its log says why' });
    }
  };
  const handle = servedInSpans(serve, moduleServing);
  const tls = options.tls;
  // A client without a certificate of the CA is refused in the handshake, as the platform refuses it.
  const server = tls
    ? createTlsServer({ cert: tls.cert, key: tls.key, ca: tls.ca, requestCert: true, rejectUnauthorized: true }, handle)
    : createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  address = `${tls ? 'https' : 'http'}://${options.host ?? '127.0.0.1'}:${port}`;

  return {
    url: address,
    urlOf: (document) => `${address}${mounted.get(document)?.module.prefix ?? ''}`,
    drifts: () => [...drifts],
    env,
    stateOf: <State>(document: string) => mounted.get(document)?.state as State,
    async stop() {
      clock.stop();
      await webhooks.stop();
      // Saved after the attempts in flight settled: a resend they scheduled is in the file.
      save();
      closed = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type { Principal };

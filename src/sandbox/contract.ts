/**
 * The contract between the sandbox engine (src/sandbox/engine.ts) and the module of each interface
 * (src/sandbox/<interface>/): the engine matches a request to its operation, validates it with the
 * generated validators, checks the token, applies injected faults, and hands a checked request to the
 * module's handler for that operationId; the handler reads and changes the module's state and answers,
 * or throws a SandboxProblem that the module's problem format renders.
 *
 * Module state is plain JSON data (records, arrays, strings, numbers): the snapshot file is its JSON, and
 * a reset is `createState()` again. Time comes only from `env.clock`, randomness only from `env.random`,
 * so a seeded run repeats.
 */
import type { OperationInfo } from '../runtime/contract.js';
import type { ValidationIssue } from '../runtime/errors.js';
import type { PlatformEvent, PlatformEventKind } from './platform-events.js';

export type { PlatformEvent };

/** A module's reaction to each kind of event it listens for. */
export type PlatformListeners<State> = {
  readonly [Kind in PlatformEventKind]?: (event: Extract<PlatformEvent, { kind: Kind }>, state: State, env: SandboxEnvironment) => void;
};

/** Whom a token was issued to. */
export interface Principal {
  readonly clientId: string;
  readonly scopes: readonly string[];
  /** The document whose token endpoint issued it: a token of one interface is refused by another. Set by the engine. */
  readonly audience?: string;
}

/** A request the engine matched and validated. */
export interface SandboxRequest {
  readonly operationId: string;
  readonly info: OperationInfo;
  /** Path parameters as text (decoded). */
  readonly path: Readonly<Record<string, string>>;
  /** Query parameters, turned into their declared types. */
  readonly query: Readonly<Record<string, unknown>>;
  /** Request headers, names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body (a multipart body: its fields, files as `{ filename, contentType, size }`), undefined when none. */
  readonly body: unknown;
  /** Whom the token was issued to; undefined on unsecured operations (token requests). */
  readonly principal: Principal | undefined;
  /** The sandbox's own address of this module (`http://127.0.0.1:4010/pix`), for links and locations. */
  readonly baseUrl: string;
}

/** What a handler answers; `body` is sent as JSON unless `contentType` says otherwise (a JWS is text). */
export interface SandboxAnswer {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly contentType?: string;
}

/**
 * A refusal in the interface's own terms: `errorType` is the last segment of the problem type
 * (`CobNaoEncontrado`, `not-found`), `violations` the offending members (interface B's `violacoes`).
 */
export class SandboxProblem extends Error {
  constructor(
    readonly status: number,
    readonly errorType: string,
    readonly detail: string,
    readonly violations: readonly { readonly pointer: string; readonly message: string; readonly value?: unknown }[] = [],
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(detail);
    this.name = 'SandboxProblem';
  }
}

/** The sandbox's clock: real time shifted by `advance`, optionally faster than real time. */
export interface SandboxClock {
  now(): Date;
  /** Milliseconds since the epoch of `now()`. */
  nowMs(): number;
  /** Runs `task` when the sandbox time reaches `atMs` (at once when it is past); returns a cancel function. */
  at(atMs: number, task: () => void): () => void;
}

/** Seeded randomness: the same seed gives the same ids, run after run. */
export interface SeededRandom {
  readonly seed: string;
  /** A number in [0, 1). */
  next(): number;
  /** `length` characters of `alphabet` (default letters and digits). */
  text(length: number, alphabet?: string): string;
  /** A version 4 UUID from the seeded stream. */
  uuid(): string;
  /** An integer in [min, max]. */
  integer(min: number, max: number): number;
}

/** A webhook request the sandbox sends to a user's receiver. */
export interface Delivery {
  /** The subscription it belongs to: consecutive failures are counted per subscription (section 6.1). */
  readonly subscription: string;
  readonly url: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  /** What the delivery carries, for the control plane's delivery log (`invoice.paid`, `pix`). */
  readonly label: string;
}

/** A delivery as the log shows it. */
export interface DeliveryRecord {
  readonly id: string;
  readonly subscription: string;
  readonly label: string;
  readonly url: string;
  readonly attempts: readonly { readonly atMs: number; readonly status: number | null; readonly error?: string }[];
  readonly state: 'pending' | 'delivered' | 'failed' | 'dropped';
}

export interface WebhookDispatcher {
  /** Sends now, and resends on the schedule of section 6.1 while it fails. */
  send(delivery: Delivery): string;
  /** Whether the subscription was disabled after more than 15 consecutive failures. */
  disabled(subscription: string): boolean;
  /** Enables a subscription again (a new registration). */
  enable(subscription: string): void;
  /** Sends the delivery `id` once more, as a resend of the platform would (a duplicate for the receiver). */
  resend(id: string): boolean;
  log(): readonly DeliveryRecord[];
}

export interface TokenIssuer {
  /** A bearer token for `principal`, valid for `ttlSeconds` of sandbox time. */
  issue(principal: Principal, ttlSeconds: number): string;
  /** Whom the token was issued to, `expired`, or `unknown`. */
  verify(token: string): Principal | 'expired' | 'unknown';
  /** Whether the credential is one the sandbox knows (seeded credentials, section 5.2). */
  checkCredential(clientId: string, clientSecret: string): boolean;
  /** The scopes a known credential holds (section 5.9: declared per credential). */
  scopesOf(clientId: string): readonly string[] | undefined;
}

/**
 * Work a module asks to be done later, as data rather than a closure: the snapshot keeps it, and a restart
 * arms it again. At `atMs` of sandbox time the task `kind` of the module of `document` runs with `args`
 * on that module's state as it is then.
 */
export interface DueTask {
  readonly document: string;
  readonly kind: string;
  readonly atMs: number;
  readonly args: Readonly<Record<string, unknown>>;
}

/** A module's task: finds what `args` name in the state and moves it on (it may be gone, or moved already). */
export type TaskRunner<State> = (args: Readonly<Record<string, unknown>>, state: State, env: SandboxEnvironment) => void;

/** What the engine lends every handler. */
export interface SandboxEnvironment {
  readonly clock: SandboxClock;
  readonly random: SeededRandom;
  readonly webhooks: WebhookDispatcher;
  readonly tokens: TokenIssuer;
  /** Another module's state, by document name, for reading (the Pix locations show the Pix module's charges). */
  stateOf<State>(document: string): State | undefined;
  /** Schedules a task of a module (its `tasks`); kept in the snapshot, so a restart does not lose it. */
  schedule(task: DueTask): void;
  /** Tells every module that listens (its `listens`) of something that happened on the platform. */
  announce(event: PlatformEvent): void;
}

export type Handler<State> = (request: SandboxRequest, state: State, env: SandboxEnvironment) => SandboxAnswer | Promise<SandboxAnswer>;

/** A control-plane verb (`POST /_sandbox/<document>/<verb>`): its JSON body in, its JSON answer out. */
export type ControlVerb<State> = (body: Record<string, unknown>, state: State, env: SandboxEnvironment) => unknown;

/** Where a refusal happened: the operation (when one matched), the module's address, and an id for the logs. */
export interface ProblemContext {
  readonly operationId?: string;
  readonly baseUrl: string;
  /** A uuid from the seeded random, for the `correlationId` of interfaces A and D. */
  readonly correlationId: string;
}

/** How an interface words its refusals. */
export interface ProblemFormat {
  /** A problem a handler threw, or one the engine raises (`not-found` of a route, 401, 429, 503). */
  problem(problem: SandboxProblem, context: ProblemContext): SandboxAnswer;
  /** A request the validators refused: the interface's 400 (A and D: RFC 7807; B: the operation's *OperacaoInvalida with violacoes). */
  invalid(issues: readonly ValidationIssue[], context: ProblemContext & { readonly operationId: string }): SandboxAnswer;
  /** Status of a missing or expired token (default 401; interface B declares none, so its module says 403). */
  readonly unauthorizedStatus?: number;
  /** The error type of the engine's own refusals in this interface's vocabulary. */
  readonly types: {
    readonly unauthorized: string;
    readonly forbidden: string;
    readonly notFound: string;
    readonly tooManyRequests: string;
    readonly unavailable: string;
    /** Of the engine's 413, 408 and 500 (a body too large or too slow, a failure of the sandbox) where the operation declares no type for them. */
    readonly tooLarge?: string;
    readonly timedOut?: string;
    readonly internal?: string;
  };
}

/** The sandbox of one spec document. */
export interface SandboxModule<State> {
  /** The spec document it serves (`pix`, `accounts`): its operation table and validators. */
  readonly document: string;
  /** Path prefix on the sandbox server, the client's base URL there (`/pix`, `/accounts/api/v2`). */
  readonly prefix: string;
  readonly createState: (env: SandboxEnvironment) => State;
  /** Handlers by operationId; an operation without one answers 501 naming it (never a canned example). */
  readonly handlers: Readonly<Record<string, Handler<State>>>;
  readonly problems: ProblemFormat;
  readonly controls?: Readonly<Record<string, ControlVerb<State>>>;
  /** The tasks it schedules through `env.schedule`, by kind. */
  readonly tasks?: Readonly<Record<string, TaskRunner<State>>>;
  /** What it does when another module announces a platform event (a Pix received in B credits an account of A). */
  readonly listens?: PlatformListeners<State>;
  /** What a user needs to start with this interface, as `GET /_sandbox` lists it: the ids the state holds now (keys, accounts, customers). */
  readonly world?: (state: State) => Record<string, unknown>;
}

/** A module whose state type is known only to itself: the engine passes its state back to its own handlers. */
export type MountableModule = SandboxModule<unknown>;

/** Declares a module; the engine never mixes one module's state with another's, so its type can be forgotten. */
export function defineSandboxModule<State>(module: SandboxModule<State>): MountableModule {
  return module as unknown as MountableModule;
}

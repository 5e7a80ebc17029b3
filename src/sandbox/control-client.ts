/**
 * A typed client of the sandbox's control plane (`/_sandbox`, control.ts), for a user's own tests: what the
 * platform does on its own (a payer pays, the clock moves, a webhook is resent) and the faults, called as
 * methods. `startSandbox` of `contrato/sandbox` hands one out; `connectSandbox(url)` makes one for a sandbox
 * started elsewhere (`npx contrato sandbox`, `npm start`). A refusal is thrown as a one-line
 * SandboxControlError naming the verb, the status and the sandbox's reason.
 */
import type { Agent } from 'undici';
import type { components } from '../../generated/pix/types.js';
import { withoutTrailingSlashes } from '../runtime/text.js';
import type { DeliveryRecord } from './contract.js';
import type { Fault, FaultKind } from './faults.js';

export type { DeliveryRecord } from './contract.js';
export type { Fault, FaultKind } from './faults.js';

type PixSchemas = components['schemas'];
type Json = Record<string, unknown>;

/** What `GET /_sandbox` tells: every interface with its address, verbs and their inputs; the clock, seed and planned faults. */
export interface SandboxStatus {
  readonly interfaces: Readonly<
    Record<string, { readonly url: string; readonly verbs: readonly string[]; readonly inputs: Readonly<Record<string, unknown>> }>
  >;
  /** The sandbox clock, ISO 8601. */
  readonly clock: string;
  readonly seed: string;
  readonly faults: readonly Fault[];
  /** Whatever else the sandbox reports (its answers may grow). */
  readonly [member: string]: unknown;
}

/** `<interface>/<verb>`, a verb of a module's table (`pix/keys`, `accounts/otp`, `core-banking/payInvoice`). */
export type VerbName = `${string}/${string}`;

/** The members of a planned fault besides its operation and kind. */
export interface FaultOptions {
  /** How many of the next calls it meets (default 1, at most 1000). */
  readonly count?: number;
  /** The Retry-After of an `unavailable` or `rate-limited` answer. */
  readonly retryAfterSeconds?: number;
  /** How long a `slow` answer is held (default 2000 ms). */
  readonly delayMs?: number;
}

/** What `pix/pay` answers: the Pix received and the charge it paid, as GET /pix/{e2eid} and GET /cob(v)/{txid} answer them. */
export interface PixPayment {
  readonly pix: PixSchemas['Pix'];
  readonly cob: PixSchemas['CobCompleta'] | PixSchemas['CobVCompleta'];
}

export interface SandboxControl {
  /** The sandbox's address, `http://127.0.0.1:<port>`. */
  readonly url: string;
  status(): Promise<SandboxStatus>;
  /** Everything back to the seeded start (on `seed` when given): state, faults, deliveries, tokens. */
  reset(seed?: string): Promise<SandboxStatus>;
  /** Moves the sandbox clock forward (scheduled resends, liquidations, expiries happen); `speed` changes its pace. */
  clock(advanceSeconds: number, options?: { readonly speed?: number }): Promise<{ readonly clock: string }>;
  /** Plans a fault on the next calls of `operationId` (`*`: every operation that declares its status). */
  fault(operationId: string, kind: FaultKind, options?: FaultOptions): Promise<Fault>;
  /** Drops every planned fault. */
  clearFaults(): Promise<void>;
  /** Every webhook delivery and its attempts. */
  deliveries(): Promise<readonly DeliveryRecord[]>;
  /** Sends a delivered webhook once more: a duplicate for the receiver. */
  resend(deliveryId: string): Promise<void>;
  /** A payer pays the charge `txid` (verb `pix/pay`): CONCLUIDA, listed by GET /pix, its webhook notified. */
  pay(txid: string, payment?: { readonly valor?: string; readonly infoPagador?: string }): Promise<PixPayment>;
  /**
   * Any verb of any interface's module, by name (`status().interfaces[name].verbs` lists them), with its JSON
   * body; its JSON answer, as the caller says it is shaped. A name the sandbox does not know is refused with
   * the known ones.
   */
  call<Answer = Json>(verb: VerbName, body?: Json): Promise<Answer>;
  /** Releases the connections this client holds (the sandbox keeps running). */
  close(): Promise<void>;
}

/** A call of the control plane the sandbox refused, or could not be made: one line naming the verb, the status and why. */
export class SandboxControlError extends Error {
  override readonly name = 'SandboxControlError';
  /** The verb as called (`pix/pay`, `faults`, `reset`). */
  readonly verb: string;
  /** The HTTP status, or undefined when no answer came. */
  readonly status: number | undefined;
  /** The members the contract refused (`pointer`, `rule`, `message`, `place`), when the refusal lists them. */
  readonly violations: readonly Readonly<Record<string, string>>[];

  constructor(verb: string, status: number | undefined, reason: string, violations: readonly Readonly<Record<string, string>>[] = []) {
    super(
      `sandbox ${verb}: ${status === undefined ? '' : `${status} `}${reason
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean)
        .join(' ')}`,
    );
    this.verb = verb;
    this.status = status;
    this.violations = violations;
  }
}

/** Client certificate for a sandbox started with `tls` (it asks every caller for one issued by its CA). */
export interface ControlTls {
  readonly cert: string | Buffer;
  readonly key: string | Buffer;
  /** The CA that signed the sandbox's certificate. */
  readonly ca: string | Buffer;
}

/** The reason in a refusal's body: its `detail`, else the text itself. */
function reasonOf(text: string): { reason: string; violations: readonly Readonly<Record<string, string>>[] } {
  try {
    const body = JSON.parse(text) as { detail?: unknown; violations?: unknown };
    if (typeof body.detail === 'string')
      return { reason: body.detail, violations: Array.isArray(body.violations) ? (body.violations as Record<string, string>[]) : [] };
  } catch {}
  return { reason: text.trim() || 'no reason given', violations: [] };
}

/** A control client of the sandbox at `url` (its origin, without `/_sandbox`). */
export function connectSandbox(url: string, options: { readonly tls?: ControlTls } = {}): SandboxControl {
  const base = withoutTrailingSlashes(url);
  if (!/^https?:\/\/[^/]+$/.test(base))
    throw new SandboxControlError('connect', undefined, `the address must be the sandbox's origin (http://127.0.0.1:4010), got ${base}`);
  // Loaded with the first call, so importing contrato/sandbox costs nothing of undici.
  let agent: Promise<{ agent: Agent; request: typeof import('undici').request }> | undefined;
  const connection = () =>
    (agent ??= import('undici').then(({ Agent: AgentClass, request }) => ({
      agent: new AgentClass(options.tls ? { connect: { cert: options.tls.cert, key: options.tls.key, ca: options.tls.ca } } : {}),
      request,
    })));

  const send = async <Answer>(verb: string, method: 'GET' | 'POST' | 'DELETE', path: string, body?: Json): Promise<Answer> => {
    const { agent: dispatcher, request } = await connection();
    let status: number;
    let text: string;
    try {
      const answer = await request(`${base}/_sandbox${path}`, {
        method,
        dispatcher,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      });
      status = answer.statusCode;
      text = await answer.body.text();
    } catch (error) {
      const cause = (error as { code?: string }).code ?? (error as Error).message;
      throw new SandboxControlError(verb, undefined, `no sandbox answers at ${base} (${cause}): start one, or give its address`);
    }
    if (status < 200 || status > 299) {
      const { reason, violations } = reasonOf(text);
      throw new SandboxControlError(verb, status, reason, violations);
    }
    return (text === '' ? undefined : JSON.parse(text)) as Answer;
  };

  return {
    url: base,
    status: () => send('status', 'GET', ''),
    reset: (seed) => send('reset', 'POST', '/reset', seed === undefined ? {} : { seed }),
    clock: (advanceSeconds, { speed } = {}) =>
      send('clock', 'POST', '/clock', { advanceSeconds, ...(speed === undefined ? {} : { speed }) }),
    fault: (operationId, kind, faultOptions = {}) => send('fault', 'POST', '/faults', { operationId, kind, ...faultOptions }),
    clearFaults: async () => {
      await send('faults', 'DELETE', '/faults');
    },
    deliveries: async () => (await send<{ deliveries: DeliveryRecord[] }>('deliveries', 'GET', '/deliveries')).deliveries,
    resend: async (deliveryId) => {
      await send('resend', 'POST', `/deliveries/${encodeURIComponent(deliveryId)}/resend`, {});
    },
    pay: (txid, payment = {}) => send('pix/pay', 'POST', '/pix/pay', { txid, ...payment }),
    async call<Answer>(verb: VerbName, body: Json = {}): Promise<Answer> {
      const [document, name, ...rest] = verb.split('/');
      if (!document || !name || rest.length > 0)
        throw new SandboxControlError(verb, undefined, 'a verb is named <interface>/<verb> (pix/keys); status() lists them');
      return send<Answer>(verb, 'POST', `/${encodeURIComponent(document)}/${encodeURIComponent(name)}`, body);
    },
    close: async () => {
      const opened = agent;
      agent = undefined;
      if (opened) await (await opened).agent.close();
    },
  };
}

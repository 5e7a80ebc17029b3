/**
 * The sandbox's control plane, for tests and for a developer at the command line (`contrato sandbox
 * <verb>`): what the platform does on its own (a payer pays, an order settles, the clock moves, a webhook is
 * resent) made to happen on demand, plus faults and a reset. Plain JSON over HTTP under `/_sandbox`.
 *
 *   GET    /_sandbox                      credentials; interfaces, their URLs, what they hold (world), verbs and inputs; the clock, faults
 *   POST   /_sandbox/reset                { seed? }  state back to empty
 *   POST   /_sandbox/clock                { advanceSeconds?, speed? }
 *   POST   /_sandbox/faults               { operationId, kind, count?, retryAfterSeconds?, delayMs? }
 *   DELETE /_sandbox/faults
 *   GET    /_sandbox/deliveries           every webhook delivery and its attempts
 *   POST   /_sandbox/deliveries/<id>/resend
 *   POST   /_sandbox/<document>/<verb>    a verb of that interface's module (pix/pay, accounts/otp, …)
 *
 * It cannot take an answer out of the contract: a verb's members are checked where they land
 * (verb-contract.ts), the verb runs as a transaction whose product is checked before it is kept
 * (control-transaction.ts), and a refusal is a 400 naming the member, the rule and the place, with nothing
 * stored.
 */
import { readFileSync } from 'node:fs';
import { bundledSpecPath } from '../checks/registry.js';
import { strictValidator } from '../checks/strict-response.js';
import { withoutTrailingSlashes } from '../runtime/text.js';
import { check } from '../runtime/validation.js';
import { type SandboxEnvironment, SandboxProblem } from './contract.js';
import { inTransaction } from './control-transaction.js';
import type { MountedModule } from './engine.js';
import type { FaultPlan, FaultRequest } from './faults.js';
import { retryAfterViolations } from './fault-contract.js';
import type { SandboxCredential } from './tokens.js';
import { type ControlViolation, contractOf, placesOf, VerbChecker } from './verb-contract.js';
import { listedCredentials } from './world.js';

export const controlPrefix = '/_sandbox';

/** Whether a request target is the control plane's. */
export const isControlTarget = (target: string): boolean => target === controlPrefix || target.startsWith(`${controlPrefix}/`);

/** The path of a control request below the prefix as the dispatcher reads it: no query, no trailing slash, `/` for the overview. */
const controlPathOf = (target: string): string => withoutTrailingSlashes(target.split('?')[0]!.slice(controlPrefix.length)) || '/';

const fixedControlPaths = new Set(['/reset', '/clock', '/faults', '/deliveries']);

/**
 * The route template of a control request, as the dispatcher of controlPlane routes it (`/_sandbox/{document}/{verb}`),
 * for its span's `http.route`: never the path with its values; undefined for a path it has no route for.
 */
export function controlRouteOf(target: string): string | undefined {
  const path = controlPathOf(target);
  const segments = path.split('/').filter(Boolean);
  if (path === '/') return controlPrefix;
  if (fixedControlPaths.has(path)) return `${controlPrefix}${path}`;
  if (segments.length === 3 && segments[0] === 'deliveries' && segments[2] === 'resend') return `${controlPrefix}/deliveries/{id}/resend`;
  if (segments.length === 2) return `${controlPrefix}/{document}/{verb}`;
  return undefined;
}

export interface ControlDependencies {
  readonly env: SandboxEnvironment;
  readonly faults: FaultPlan;
  readonly mounted: ReadonlyMap<string, MountedModule>;
  readonly reset: (seed?: string) => void;
  readonly advance: (ms: number) => void;
  readonly setSpeed: (speed: number) => void;
  readonly urlOf: (document: string) => string;
  /** The credentials the token endpoints accept, listed by the overview. */
  readonly credentials: readonly SandboxCredential[];
  /** The statuses an operation of the sandbox declares; undefined when none has that id. */
  readonly statusesOf: (operationId: string) => readonly string[] | undefined;
}

export interface ControlAnswer {
  readonly status: number;
  readonly body: unknown;
}

type Json = Record<string, unknown>;

const refuse = (status: number, detail: string, violations?: readonly ControlViolation[]): ControlAnswer => ({
  status,
  body: { status, detail, ...(violations && violations.length > 0 ? { violations } : {}) },
});
const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `/valor` → `valor`, `/body/valor` → `body/valor`: how a member is named in a refusal's words. */
const memberName = (pointer: string): string => pointer.replace(/^\//, '') || 'the body';

/** The 400 of a verb refused by the contract: every violation in one line, then what to do. */
export function contractRefusal(verb: string, violations: readonly ControlViolation[], produced = false): ControlAnswer {
  const reasons = violations.map(
    (violation) => `${memberName(violation.pointer)} ${violation.message}${violation.place ? `, as ${violation.place} says` : ''}`,
  );
  const lead = produced ? `what it would have answered leaves the contract: ` : '';
  const remedy = produced
    ? 'the sandbox cannot make this move from this state'
    : `send values the contract accepts where they land (GET ${controlPrefix} lists the inputs of every verb)`;
  return refuse(400, `${verb} refused, nothing stored: ${lead}${reasons.join('; ')}; ${remedy}`, violations);
}

/** The bundles and pattern words of the mounted documents, any other document read from generated/ once. */
function schemaSource(mounted: ReadonlyMap<string, MountedModule>) {
  const others = new Map<string, Json>();
  return {
    bundle(document: string): Json {
      const entry = mounted.get(document);
      if (entry) return entry.bundle;
      let bundle = others.get(document);
      if (!bundle) {
        bundle = JSON.parse(readFileSync(bundledSpecPath(document), 'utf8')) as Json;
        others.set(document, bundle);
      }
      return bundle;
    },
    strictValidator,
    check: (validator: Parameters<typeof check>[0], value: unknown, pointer: string, document: string) =>
      check(validator, value, pointer, mounted.get(document)?.generated.patternDescriptions ?? {}),
  };
}

/** What each member of each verb is: the place it lands in, or what it picks. */
function inputsOf(entry: MountedModule): Json {
  return Object.fromEntries(
    Object.entries(entry.module.controls ?? {}).map(([verb, run]) => {
      const contract = contractOf(run);
      const lands = Object.entries(contract?.lands ?? {}).map(([member, landing]) => [
        member,
        typeof landing === 'function'
          ? 'checked where it lands, which depends on the body'
          : `lands in ${placesOf(landing, {}).join(', ')}`,
      ]);
      return [verb, Object.fromEntries([...Object.entries(contract?.selects ?? {}), ...lands])];
    }),
  );
}

export function controlPlane(dependencies: ControlDependencies) {
  const { env, faults, mounted } = dependencies;
  const source = schemaSource(mounted);
  const checker = new VerbChecker(source);
  const overview = (): ControlAnswer => ({
    status: 200,
    body: {
      interfaces: Object.fromEntries(
        [...mounted].map(([document, entry]) => [
          document,
          {
            url: dependencies.urlOf(document),
            ...(entry.module.world ? { world: entry.module.world(entry.state) } : {}),
            verbs: Object.keys(entry.module.controls ?? {}),
            inputs: inputsOf(entry),
          },
        ]),
      ),
      credentials: listedCredentials(dependencies.credentials),
      clock: env.clock.now().toISOString(),
      seed: env.random.seed,
      faults: faults.list(),
    },
  });

  /** A module's verb: its inputs checked, then run as a transaction whose declared answers are checked before it is kept. */
  const runVerb = async (document: string, name: string, body: Json): Promise<ControlAnswer> => {
    const entry = mounted.get(document);
    const verb = entry?.module.controls?.[name];
    if (!entry) return refuse(404, `no interface ${document} in the sandbox; known: ${[...mounted.keys()].join(', ')}`);
    if (!verb)
      return refuse(404, `${document} has no verb ${name}; known: ${Object.keys(entry.module.controls ?? {}).join(', ') || 'none'}`);
    const label = `${document}/${name}`;
    const contract = contractOf(verb);
    const wrong = contract ? checker.inputViolations(contract, body) : [];
    if (wrong.length > 0) return contractRefusal(label, wrong);
    const outcome = await inTransaction(
      [...mounted.values()].map((candidate) => candidate.state),
      entry.env,
      (transactional) => verb(body, entry.state, transactional),
      (answer) => {
        const drift = contract ? checker.answerViolations(contract, answer, entry.state) : [];
        return drift.length > 0 ? contractRefusal(label, drift, true) : undefined;
      },
    );
    return 'kept' in outcome ? { status: 200, body: outcome.kept } : outcome.refused;
  };

  // A route added here gets its template in controlRouteOf.
  return async (method: string, target: string, given: unknown): Promise<ControlAnswer> => {
    const path = controlPathOf(target);
    const body = given === undefined ? {} : given;
    if (!isRecord(body)) return refuse(400, 'the body must be a JSON object');
    const segments = path.split('/').filter(Boolean);
    try {
      if (path === '/' && method === 'GET') return overview();
      if (path === '/reset' && method === 'POST') {
        if (body.seed !== undefined && typeof body.seed !== 'string') return refuse(400, 'seed must be text');
        dependencies.reset(body.seed);
        return overview();
      }
      if (path === '/clock' && method === 'POST') {
        const { advanceSeconds, speed } = body;
        if (advanceSeconds !== undefined && (typeof advanceSeconds !== 'number' || !(advanceSeconds >= 0) || advanceSeconds > 366 * 86_400))
          return refuse(400, 'advanceSeconds must be a number of seconds from 0 to a year');
        if (speed !== undefined && (typeof speed !== 'number' || !(speed > 0) || speed > 100_000))
          return refuse(400, 'speed must be a number above 0 and at most 100000');
        if (speed !== undefined) dependencies.setSpeed(speed);
        if (advanceSeconds !== undefined) dependencies.advance(advanceSeconds * 1000);
        return { status: 200, body: { clock: env.clock.now().toISOString() } };
      }
      if (path === '/faults' && method === 'POST') {
        const wrong = retryAfterViolations(body, mounted, checker);
        if (wrong.length > 0) return contractRefusal('faults', wrong);
        const fault = faults.add(body as unknown as FaultRequest, dependencies.statusesOf);
        return { status: 201, body: fault };
      }
      if (path === '/faults' && method === 'DELETE') {
        faults.clear();
        return { status: 200, body: { faults: [] } };
      }
      if (path === '/deliveries' && method === 'GET') return { status: 200, body: { deliveries: env.webhooks.log() } };
      if (segments[0] === 'deliveries' && segments[2] === 'resend' && segments.length === 3 && method === 'POST') {
        return env.webhooks.resend(decodeURIComponent(segments[1]!))
          ? { status: 202, body: { resent: segments[1] } }
          : refuse(404, `no delivered webhook ${segments[1]} to resend`);
      }
      if (segments.length === 2 && method === 'POST') return await runVerb(segments[0]!, segments[1]!, body);
      return refuse(
        404,
        `no control ${method} ${controlPrefix}${path === '/' ? '' : path}; GET ${controlPrefix} lists the interfaces and their verbs`,
      );
    } catch (error) {
      // Verbs and the fault plan throw one-line errors naming the member at fault; a verb's SandboxProblem keeps its status.
      return refuse(error instanceof SandboxProblem ? error.status : 400, (error as Error).message);
    }
  };
}

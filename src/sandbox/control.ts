/**
 * The sandbox's control plane, for tests and for a developer at the command line (`contrato sandbox
 * <verb>`): what the platform does on its own (a payer pays, an order settles, the clock moves, a webhook is
 * resent) made to happen on demand, plus faults and a reset. Plain JSON over HTTP under `/_sandbox`.
 *
 *   GET    /_sandbox                      interfaces and their URLs, the clock, planned faults
 *   POST   /_sandbox/reset                { seed? }  state back to empty
 *   POST   /_sandbox/clock                { advanceSeconds?, speed? }
 *   POST   /_sandbox/faults               { operationId, kind, count?, retryAfterSeconds?, delayMs? }
 *   DELETE /_sandbox/faults
 *   GET    /_sandbox/deliveries           every webhook delivery and its attempts
 *   POST   /_sandbox/deliveries/<id>/resend
 *   POST   /_sandbox/<document>/<verb>    a verb of that interface's module (pix/pay, accounts/otp, …)
 */
import { type SandboxEnvironment, SandboxProblem } from './contract.js';
import type { MountedModule } from './engine.js';
import type { FaultPlan, FaultRequest } from './faults.js';
import { withoutTrailingSlashes } from '../runtime/text.js';

export const controlPrefix = '/_sandbox';

export interface ControlDependencies {
  readonly env: SandboxEnvironment;
  readonly faults: FaultPlan;
  readonly mounted: ReadonlyMap<string, MountedModule>;
  readonly reset: (seed?: string) => void;
  readonly advance: (ms: number) => void;
  readonly setSpeed: (speed: number) => void;
  readonly urlOf: (document: string) => string;
  readonly knownOperation: (operationId: string) => boolean;
}

export interface ControlAnswer {
  readonly status: number;
  readonly body: unknown;
}

const refuse = (status: number, detail: string): ControlAnswer => ({ status, body: { detail } });
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function controlPlane(dependencies: ControlDependencies) {
  const { env, faults, mounted } = dependencies;
  const overview = (): ControlAnswer => ({
    status: 200,
    body: {
      interfaces: Object.fromEntries(
        [...mounted].map(([document, entry]) => [
          document,
          { url: dependencies.urlOf(document), verbs: Object.keys(entry.module.controls ?? {}) },
        ]),
      ),
      clock: env.clock.now().toISOString(),
      seed: env.random.seed,
      faults: faults.list(),
    },
  });

  return async (method: string, target: string, given: unknown): Promise<ControlAnswer> => {
    const path = withoutTrailingSlashes(target.split('?')[0]!.slice(controlPrefix.length)) || '/';
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
        const fault = faults.add(body as unknown as FaultRequest, dependencies.knownOperation);
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
      if (segments.length === 2 && method === 'POST') {
        const entry = mounted.get(segments[0]!);
        const verb = entry?.module.controls?.[segments[1]!];
        if (!entry) return refuse(404, `no interface ${segments[0]} in the sandbox; known: ${[...mounted.keys()].join(', ')}`);
        if (!verb)
          return refuse(
            404,
            `${segments[0]} has no verb ${segments[1]}; known: ${Object.keys(entry.module.controls ?? {}).join(', ') || 'none'}`,
          );
        return { status: 200, body: await verb(body, entry.state, entry.env) };
      }
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

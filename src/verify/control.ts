/**
 * Whether the target has the sandbox's control plane (`/_sandbox` at its origin): then the flows ask it for
 * what only the platform does (a payer pays, the clock passes), and the token checks take another interface's
 * credential from the ones it lists. Any other target answers something else there, and those steps are
 * reported as needing the platform.
 */
import { connectSandbox, type SandboxControl, type SandboxStatus } from '../sandbox/control-client.js';
import type { Send, TlsOptions } from '../runtime/transport.js';

export interface ControlPlane {
  readonly control: SandboxControl;
  readonly status: SandboxStatus;
}

const askedWithin = 3000;

/**
 * The control plane at the origin of `baseUrl`, or null. Asked once through the run's own transport with a time
 * limit (a target that never answers must not stall the run), before any control client is made.
 */
export async function controlPlaneAt(baseUrl: string, send: Send, tls: TlsOptions | undefined): Promise<ControlPlane | null> {
  const origin = new URL(baseUrl).origin;
  let status: SandboxStatus;
  try {
    const answer = await send({
      method: 'GET',
      url: `${origin}/_sandbox`,
      headers: { accept: 'application/json' },
      body: null,
      signal: AbortSignal.timeout(askedWithin),
    });
    if (answer.status !== 200) return null;
    status = JSON.parse(answer.body) as SandboxStatus;
  } catch {
    return null;
  }
  if (typeof status !== 'object' || status === null || typeof status.interfaces !== 'object' || status.interfaces === null) return null;
  const pem = tls && 'cert' in tls && tls.ca ? { cert: tls.cert, key: tls.key, ca: tls.ca } : undefined;
  return { control: connectSandbox(origin, pem ? { tls: pem } : {}), status };
}

/**
 * Whether the target has the sandbox's control plane (`/_sandbox` at its origin): then the flows ask it for
 * what only the platform does (a payer pays, the clock passes), and the token checks take another interface's
 * credential from the ones it lists. Any other target answers something else there, and those steps are
 * reported as needing the platform.
 */
import { connectSandbox, type SandboxControl, type SandboxStatus } from '../sandbox/control-client.js';
import type { TlsOptions } from '../runtime/transport.js';

export interface ControlPlane {
  readonly control: SandboxControl;
  readonly status: SandboxStatus;
}

const askedWithin = 3000;

export async function controlPlaneAt(baseUrl: string, tls: TlsOptions | undefined): Promise<ControlPlane | null> {
  const origin = new URL(baseUrl).origin;
  const pem = tls && 'cert' in tls && tls.ca ? { cert: tls.cert, key: tls.key, ca: tls.ca } : undefined;
  let control: SandboxControl;
  try {
    control = connectSandbox(origin, pem ? { tls: pem } : {});
  } catch {
    return null;
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    const status = await Promise.race([
      control.status(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('no answer')), askedWithin);
      }),
    ]);
    if (typeof status !== 'object' || status === null || typeof status.interfaces !== 'object') throw new Error('not a sandbox');
    return { control, status };
  } catch {
    await control.close().catch(() => undefined);
    return null;
  } finally {
    clearTimeout(timer);
  }
}

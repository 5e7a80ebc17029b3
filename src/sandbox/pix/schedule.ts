/**
 * The scheduled work of the Pix sandbox, by kind (the runners are in tasks.ts): scheduled as data through
 * `env.schedule`, so the snapshot keeps it and a restart runs it when it falls due.
 */
import type { SandboxEnvironment } from '../contract.js';

export type PixTaskKind = 'settleRefund' | 'settleBatches' | 'expireConfirmations' | 'scheduleAttempts';

/** Runs the Pix task `kind` with `args` at `atMs` of sandbox time. */
export function schedulePix(env: SandboxEnvironment, kind: PixTaskKind, atMs: number, args: Record<string, unknown> = {}): void {
  env.schedule({ document: 'pix', kind, atMs, args });
}

/**
 * The snapshot file of `contrato sandbox --snapshot <file>`: everything a restart needs to go on where the
 * sandbox stopped — each module's state, the scheduled work (agenda.ts), the webhook deliveries with their
 * pending resends (webhooks.ts), the clock's lead over real time (time moved with `advance` stays moved),
 * and the seed with a generation count, so ids made after a restart never repeat those made before it.
 *
 * Written to `<file>.tmp` and renamed, so a crash mid-write leaves the previous snapshot whole.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { DueTask } from './contract.js';
import { tasksOf } from './agenda.js';
import type { WebhookSnapshot } from './webhooks.js';

export interface SandboxSnapshot {
  /** The seed the state was made with (a reset may have changed it). */
  readonly seed: string;
  /** How many restarts this state went through: the seeded stream of generation n is that of `<seed>#<n>`. */
  readonly generation: number;
  /** Sandbox time minus real time at the save, in ms. */
  readonly clockLeadMs: number;
  readonly states: Readonly<Record<string, unknown>>;
  readonly agenda: readonly DueTask[];
  readonly webhooks: WebhookSnapshot | undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The snapshot in `file`, undefined when there is none yet; a file that is not one throws, naming the member. */
export function readSnapshot(file: string, defaultSeed: string): SandboxSnapshot | undefined {
  if (!existsSync(file)) return undefined;
  let saved: unknown;
  try {
    saved = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: not JSON (${(error as Error).message}); remove the file to start afresh`);
  }
  if (!isRecord(saved)) throw new Error(`${file}: a snapshot is a JSON object; remove the file to start afresh`);
  const { seed, generation, clockLeadMs, states, agenda, webhooks } = saved;
  const number = (value: unknown, name: string): number => {
    if (value === undefined) return 0;
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw new Error(`${file}: ${name} must be a finite number; remove it or the file to start afresh`);
    return value;
  };
  if (states !== undefined && !isRecord(states))
    throw new Error(`${file}: states must be an object of states by document; remove the file to start afresh`);
  if (webhooks !== undefined && (!isRecord(webhooks) || !Array.isArray(webhooks.deliveries) || !Array.isArray(webhooks.subscriptions)))
    throw new Error(`${file}: webhooks must hold deliveries and subscriptions (lists); remove the member to start afresh`);
  return {
    seed: typeof seed === 'string' ? seed : defaultSeed,
    generation: number(generation, 'generation'),
    clockLeadMs: number(clockLeadMs, 'clockLeadMs'),
    states: states ?? {},
    agenda: tasksOf(agenda, file),
    webhooks: webhooks as unknown as WebhookSnapshot | undefined,
  };
}

export function writeSnapshot(file: string, snapshot: SandboxSnapshot): void {
  writeFileSync(`${file}.tmp`, JSON.stringify(snapshot));
  renameSync(`${file}.tmp`, file);
}

/** The seed of the random stream of a generation: the seed itself first, then a stream of its own per restart. */
export const generationSeed = (seed: string, generation: number): string => (generation === 0 ? seed : `${seed}#${generation}`);

/**
 * The generators of `contrato regenerate` as a child process: scripts/regenerate.ts of this checkout (the
 * generators and their dev dependencies are not part of the package), run once with its output on this
 * terminal, or kept warm for a watch — it takes about 1.5 s to load — and asked one regeneration at a time
 * over its IPC channel.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { checkoutRoot } from '../checkout.js';

/** What a checkout that can regenerate holds: the generators' script and the loader they run under. */
const regeneratorMarkers = ['scripts/regenerate.ts', 'node_modules/tsx'];

export function requireCheckout(): string {
  const root = checkoutRoot(regeneratorMarkers);
  if (!root)
    throw new Error(
      'contrato regenerate runs in a checkout of contrato (it needs scripts/ and the dev dependencies): clone it, npm ci, then npx contrato regenerate',
    );
  return root;
}

/** The options of `contrato regenerate` that scripts/regenerate.ts takes as they are. */
export interface RegenerateArguments {
  readonly check?: boolean;
  readonly force?: boolean;
  readonly noDocs?: boolean;
  readonly out?: string;
  readonly specs?: string;
  readonly site?: string;
}

/** The command-line arguments of scripts/regenerate.ts for these options, paths made absolute (`--force` apart). */
export function scriptArguments(args: RegenerateArguments): string[] {
  const absolute = (path: string): string => resolve(process.cwd(), path);
  return [
    ...(args.check ? ['--check'] : []),
    ...(args.noDocs ? ['--no-docs'] : []),
    ...(args.out ? ['--out', absolute(args.out), '--manifest'] : []),
    ...(args.specs ? ['--specs', absolute(args.specs)] : []),
    ...(args.site ? ['--site', absolute(args.site)] : []),
  ];
}

/** One run of scripts/regenerate.ts, its output on this terminal; answers its exit code. */
export function regenerateOnce(args: RegenerateArguments): Promise<number> {
  const root = requireCheckout();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'scripts/regenerate.ts'), ...scriptArguments(args), ...(args.force ? ['--force'] : [])],
    { cwd: root, stdio: 'inherit' },
  );
  return new Promise((done) => child.once('exit', (code) => done(code ?? 1)));
}

/** What one regeneration did: the documents regenerated, whether the manifest changed, the site's files rewritten. */
export interface RegenerationResult {
  readonly documents: readonly string[];
  readonly manifestWritten: boolean;
  readonly pages: readonly string[];
  readonly milliseconds: number;
}

/** The messages of scripts/regenerate.ts --ipc: ready once loaded, then one answer per regeneration asked. */
export type RegeneratorAnswer =
  | { type: 'ready'; specsDir: string; generatorInputs: string[] }
  | { type: 'done'; result: RegenerationResult; lines: string[] }
  | { type: 'failed'; message: string; lines: string[] };

export type RegenerationAnswer = Exclude<RegeneratorAnswer, { type: 'ready' }>;

/** The warm regenerator: scripts/regenerate.ts --ipc, asked one regeneration at a time. */
export class Regenerator {
  private child: ChildProcess | null = null;
  private waiting: ((answer: RegeneratorAnswer) => void) | null = null;
  private exited: Promise<void> = Promise.resolve();

  constructor(
    private readonly root: string,
    private readonly args: readonly string[],
  ) {}

  /** Starts a new child (ending the old one) and answers what it watches. */
  async start(): Promise<Extract<RegeneratorAnswer, { type: 'ready' }>> {
    await this.stop();
    const child = spawn(process.execPath, ['--import', 'tsx', join(this.root, 'scripts/regenerate.ts'), '--ipc', ...this.args], {
      cwd: this.root,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child = child;
    this.exited = new Promise((done) => child.once('exit', () => done()));
    child.on('message', (answer: RegeneratorAnswer) => {
      const waiting = this.waiting;
      this.waiting = null;
      waiting?.(answer);
    });
    child.once('exit', (code) => {
      const waiting = this.waiting;
      this.waiting = null;
      waiting?.({ type: 'failed', message: `the regenerator ended (exit ${code})`, lines: [] });
    });
    const answer = await this.next();
    if (answer.type !== 'ready')
      throw new Error(`the regenerator did not start: ${answer.type === 'failed' ? answer.message : answer.type}`);
    return answer;
  }

  private next(): Promise<RegeneratorAnswer> {
    return new Promise((done) => {
      this.waiting = done;
    });
  }

  async regenerate(force: boolean): Promise<RegenerationAnswer> {
    // A child that ended (or never started: a generator that does not load) is started again first.
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) await this.start();
    const answer = this.next();
    this.child?.send({ type: 'regenerate', force });
    return (await answer) as RegenerationAnswer;
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (child && child.exitCode === null && child.signalCode === null) {
      child.disconnect?.();
      child.kill('SIGTERM');
    }
    await this.exited;
  }
}

/**
 * The sandbox of a watch, in a process of its own so that a restart loads the regenerated modules; its
 * state is kept in a snapshot file across restarts. The child (watch-sandbox-child.ts) says where it listens
 * in a message over the IPC channel, not in the text it prints: what it prints can change freely.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

/** Where the child's sandbox listens and keeps its state (the child's one argument, as JSON). */
export interface SandboxChildSettings {
  readonly host: string;
  readonly port: number;
  readonly snapshotFile: string;
}

/** The one message the child sends: ready, with the address it listens at, or failed, with the reason. */
export type SandboxChildMessage = { readonly type: 'ready'; readonly url: string } | { readonly type: 'failed'; readonly message: string };

/** `message` as a SandboxChildMessage, or null when it is not one (another sender, another version). */
export function sandboxChildMessage(message: unknown): SandboxChildMessage | null {
  if (typeof message !== 'object' || message === null) return null;
  const { type, url, message: reason } = message as Record<string, unknown>;
  if (type === 'ready' && typeof url === 'string' && /^https?:\/\/\S+$/.test(url)) return { type, url };
  if (type === 'failed' && typeof reason === 'string') return { type, message: reason };
  return null;
}

/** How much of the child's output a failure shows: its last lines. */
const outputKept = 2000;

/** The sandbox in a process of its own; it ends with this process. */
export class SandboxProcess {
  private child: ChildProcess | null = null;
  url = '';

  constructor(
    private readonly root: string,
    private readonly host: string,
    private readonly port: number,
    private readonly snapshotFile: string,
    /** The child's program; another one only in a test of the channel. */
    private readonly entry: string = join(root, 'src/cli/watch-sandbox-child.ts'),
  ) {}

  /** Starts the child and waits for its message: resolves when it is ready (`url` set), rejects when it failed or ended. */
  async start(): Promise<void> {
    const settings: SandboxChildSettings = { host: this.host, port: this.port, snapshotFile: this.snapshotFile };
    const child = spawn(process.execPath, ['--import', 'tsx', this.entry, JSON.stringify(settings)], {
      cwd: this.root,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    this.child = child;
    // Read all along (a pipe left full would block the child), the end kept for the message of a failure.
    let output = '';
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-outputKept);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const message = await new Promise<SandboxChildMessage>((done, fail) => {
      const onMessage = (received: unknown): void => {
        const known = sandboxChildMessage(received);
        if (known) done(known);
      };
      child.on('message', onMessage);
      child.once('exit', (code) => fail(new Error(`the sandbox ended (exit ${code}) before it said it was ready:\n${output}`)));
    }).finally(() => child.removeAllListeners('message').removeAllListeners('exit'));
    if (message.type === 'failed') {
      await this.stop();
      throw new Error(`the sandbox did not start: ${message.message}\n${output}`);
    }
    this.url = message.url;
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((done) => {
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  }
}

/**
 * The sandbox process of a watch (watch-sandbox.ts starts it, with an IPC channel): it starts the sandbox
 * on the modules it loads now — the regenerated ones — with its state kept in the snapshot file, and tells
 * its parent where it listens in one message, `{ "type": "ready", "url": … }`, or why it could not start,
 * `{ "type": "failed", "message": … }`. Its output is for a person reading a failure, never parsed. It
 * stops on SIGTERM, and when the channel closes: however the parent ended, the sandbox ends with it.
 */
import { pathToFileURL } from 'node:url';
import { recordSandboxAddress } from './sandbox-address.js';
import type { SandboxChildMessage, SandboxChildSettings } from './watch-sandbox.js';

/** A running sandbox child: its end (the sandbox stopped, its state saved with each change). */
export interface SandboxChild {
  stop(): Promise<void>;
}

/**
 * Starts the sandbox with `settings` and sends its readiness through `send` (process.send in the child):
 * ready with the address it listens at, or failed with the reason. Answers its handle, or null when it failed.
 */
export async function runSandboxChild(
  settings: SandboxChildSettings,
  send: (message: SandboxChildMessage) => void,
  log: (line: string) => void = (line) => console.log(line),
): Promise<SandboxChild | null> {
  try {
    const { startSandbox } = await import('../sandbox/server.js');
    const { sandboxModules } = await import('../sandbox/modules.js');
    const { host, port, snapshotFile } = settings;
    const sandbox = await startSandbox({ modules: sandboxModules, host, port, snapshotFile, log });
    send({ type: 'ready', url: sandbox.url });
    return sandbox;
  } catch (error) {
    send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    return null;
  }
}

/** As a process: the settings are its one argument (JSON), its parent the other end of the IPC channel. */
async function main(): Promise<void> {
  const reply = process.send?.bind(process);
  if (!reply) throw new Error('the sandbox of a watch runs with an IPC channel to the watch (see watch-sandbox.ts)');
  const settings = JSON.parse(process.argv[2] ?? '{}') as SandboxChildSettings;
  const sandbox = await runSandboxChild(settings, (message) => {
    // Recorded while it runs (removed on exit), so contrato sandbox <verb> finds it, as it finds npm start's.
    if (message.type === 'ready') recordSandboxAddress(message.url);
    reply(message);
  });
  if (!sandbox) {
    process.disconnect();
    return;
  }
  const stop = (): void => {
    void sandbox.stop().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();

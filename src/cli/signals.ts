/**
 * How the long-running commands end: the first SIGINT, SIGTERM or SIGHUP asks them to stop cleanly, and so
 * does npm when it started them and was signalled or went away (launcher.ts: npm's shell passes nothing on).
 */
import type { Output } from './format-commands.js';
import { watchLauncher } from './launcher.js';

/** Resolves on the first signal; a second one (Ctrl-C pressed twice while stopping) ends the process at once. */
export function untilSignal(output: Output): Promise<void> {
  return new Promise((done) => {
    let received = false;
    const stopWatching = watchLauncher((reason) => {
      output.err(`contrato: ${reason}`);
      onSignal();
    });
    function onSignal(): void {
      if (received) {
        output.err('contrato: stopped at once');
        process.exit(130);
      }
      received = true;
      stopWatching();
      done();
    }
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);
  });
}

/** How the long-running commands end: the first SIGINT, SIGTERM or SIGHUP asks them to stop cleanly. */
import type { Output } from './format-commands.js';

/** Resolves on the first signal; a second one (Ctrl-C pressed twice while stopping) ends the process at once. */
export function untilSignal(output: Output): Promise<void> {
  return new Promise((done) => {
    let received = false;
    const onSignal = (): void => {
      if (received) {
        output.err('contrato: stopped at once');
        process.exit(130);
      }
      received = true;
      done();
    };
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);
  });
}

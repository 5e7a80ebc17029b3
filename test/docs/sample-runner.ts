/**
 * Runs TypeScript samples as printed, many in one Node process (starting one process per sample costs
 * seconds each): a runner loaded with tsx imports each sample file in turn and reports, over IPC, the
 * status of every request the sample sent (undici's diagnostics channel), what it wrote to stderr and what
 * it threw. The files are the samples unchanged (the sandbox's address aside).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SampleOutcome {
  /** Every request the sample sent, in order. */
  readonly answers: readonly { readonly method: string; readonly path: string; readonly status: number }[];
  readonly stderr: string;
  /** What the sample threw (its stack), or null when its module finished. */
  readonly error: string | null;
}

const runnerSource = `import diagnostics from 'node:diagnostics_channel';
import { pathToFileURL } from 'node:url';
let answers = [];
let stderr = '';
diagnostics.subscribe('undici:request:headers', ({ request, response }) =>
  answers.push({ method: request.method, path: request.path, status: response.statusCode }));
process.on('unhandledRejection', (reason) => { stderr += 'unhandled rejection: ' + String(reason?.stack ?? reason) + '\\n'; });
process.stderr.write = (chunk) => { stderr += String(chunk); return true; };
process.on('message', async ({ file }) => {
  answers = [];
  stderr = '';
  let error = null;
  try {
    await import(pathToFileURL(file).href);
  } catch (thrown) {
    error = String(thrown?.stack ?? thrown);
  }
  process.send({ answers, stderr, error });
});
process.send({ ready: true });
`;

export interface TypescriptRunner {
  run(file: string, timeoutMs?: number): Promise<SampleOutcome>;
  close(): Promise<void>;
}

/** Starts the runner in `folder` (where `contrato` resolves), with the tsx loader given. */
export async function startTypescriptRunner(folder: string, tsxLoader: string): Promise<TypescriptRunner> {
  const script = join(folder, 'sample-runner.mjs');
  writeFileSync(script, runnerSource);
  const child: ChildProcess = fork(script, [], {
    cwd: folder,
    execArgv: ['--import', tsxLoader],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let early = '';
  child.stderr?.on('data', (chunk) => {
    early += String(chunk);
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the sample runner exited (${code}) before it was ready:\n${early}`)));
  });
  let queue: Promise<unknown> = Promise.resolve();
  return {
    run(file, timeoutMs = 60_000) {
      const next = queue.then(
        () =>
          new Promise<SampleOutcome>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`${file}: the sample did not finish in ${timeoutMs} ms`)), timeoutMs);
            child.once('message', (outcome) => {
              clearTimeout(timer);
              resolve(outcome as SampleOutcome);
            });
            child.send({ file });
          }),
      );
      queue = next.catch(() => {});
      return next;
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      // Bounded: a sample that left a handler on SIGTERM must not keep the runner, and the suite, waiting.
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    },
  };
}

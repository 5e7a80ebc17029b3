/**
 * The first minutes of a user: `npm start` until "all ready" with the docs site to build (first start) and
 * already built (warm), with the moment the sandbox said it was ready; `npm run mock` until its first mock and
 * until all are ready; and `npx contrato` in the checkout with an empty npm cache (first) and again (warm),
 * beside the bin run directly. Wall time of whole processes from their spawn, medians; beside it, the figure
 * the start printed itself (it counts from its own process start, regenerate check included).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../scripts/lib.js';

const startLimitMs = 240_000;

/** Seconds from the spawn until each of `marks` first shows in the output (the last one ends the run). */
interface Timed {
  readonly seconds: Record<string, number>;
  readonly output: string;
}

/** Runs `args` until the output shows "all ready in", noting when each mark first appeared; then stops it. */
function secondsUntil(args: string[], marks: Record<string, RegExp>): Promise<Timed> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const seconds: Record<string, number> = {};
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')} was not ready within ${startLimitMs} ms:\n${output}`));
    }, startLimitMs);
    let ready = false;
    const collect = (chunk: Buffer): void => {
      output += chunk.toString();
      const now = (performance.now() - started) / 1000;
      for (const [mark, pattern] of Object.entries(marks)) if (seconds[mark] === undefined && pattern.test(output)) seconds[mark] = now;
      // Once: a second SIGTERM means "stop at once", which is not what is measured here.
      if (ready || !/all ready in/.test(output)) return;
      ready = true;
      seconds.allReady = now;
      clearTimeout(timer);
      child.once('exit', () => resolve({ seconds, output }));
      child.kill('SIGTERM');
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
  });
}

/** `npm start`'s own figure: "all ready in <n> s". */
const printedSeconds = (output: string): number => Number(/all ready in ([\d.]+) s/.exec(output)?.[1] ?? Number.NaN);

function wallSeconds(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const started = performance.now();
  const run = spawnSync(command, args, { cwd: projectRoot, encoding: 'utf8', env });
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${run.stdout}${run.stderr}`);
  return (performance.now() - started) / 1000;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round2 = (value: number): number => Math.round(value * 100) / 100;

export async function benchStartup(rounds: number) {
  const series = {
    startColdSeconds: [] as number[],
    startColdSandboxReadySeconds: [] as number[],
    startWarmSeconds: [] as number[],
    startWarmPrintedSeconds: [] as number[],
    mockFirstReadySeconds: [] as number[],
    mockAllReadySeconds: [] as number[],
    npxFirstSeconds: [] as number[],
    npxWarmSeconds: [] as number[],
    binDirectSeconds: [] as number[],
    /** The machine's 1-minute load average as each round began: these figures grow with it. */
    loadAverage: [] as number[],
  };
  const start = (site: string): string[] => ['scripts/start.ts', '--port', '0', '--site', site];
  for (let round = 0; round < rounds; round += 1) {
    const scratch = mkdtempSync(join(tmpdir(), 'contrato-bench-start-'));
    try {
      const site = join(scratch, 'site');
      series.loadAverage.push(loadavg()[0]!);
      const cold = await secondsUntil(start(site), { sandbox: /^sandbox \(stateful\).*ready in/m });
      series.startColdSeconds.push(cold.seconds.allReady!);
      series.startColdSandboxReadySeconds.push(cold.seconds.sandbox!);
      const warm = await secondsUntil(start(site), {});
      series.startWarmSeconds.push(warm.seconds.allReady!);
      series.startWarmPrintedSeconds.push(printedSeconds(warm.output));
      const mock = await secondsUntil(['src/cli/main.ts', 'mock', '--port', '0'], { first: /^mock {2}\S+\s+http\S+\s+ready in/m });
      series.mockFirstReadySeconds.push(mock.seconds.first!);
      series.mockAllReadySeconds.push(mock.seconds.allReady!);
      const env = { ...process.env, npm_config_cache: join(scratch, 'npm-cache'), npm_config_update_notifier: 'false' };
      series.npxFirstSeconds.push(wallSeconds('npx', ['--yes', 'contrato', '--version'], env));
      series.npxWarmSeconds.push(wallSeconds('npx', ['--yes', 'contrato', '--version'], env));
      series.binDirectSeconds.push(wallSeconds(process.execPath, [join(projectRoot, 'dist/src/cli/main.js'), '--version']));
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  return Object.fromEntries(Object.entries(series).map(([name, values]) => [name, round2(median(values))])) as Record<
    keyof typeof series,
    number
  >;
}

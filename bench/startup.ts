/**
 * The first minutes of a user: `npm start` until "all ready", with the docs site to build (cold) and
 * already built (warm), and `npx contrato` in the checkout with an empty npm cache (first) and again (warm),
 * beside the bin run directly. Wall time of whole processes, medians.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../scripts/lib.js';

const startLimitMs = 180_000;

/** Seconds from spawning `npm start`'s script until it prints "all ready"; then stops it. */
function secondsUntilReady(siteDir: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts', '--port', '0', '--site', siteDir], {
    cwd: projectRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`npm start was not ready within ${startLimitMs} ms:\n${output}`));
    }, startLimitMs);
    let ready = false;
    const collect = (chunk: Buffer): void => {
      output += chunk.toString();
      // Once: a second SIGTERM means "stop at once", which is not what is measured here.
      if (ready || !/all ready in/.test(output)) return;
      ready = true;
      clearTimeout(timer);
      const seconds = (performance.now() - started) / 1000;
      child.once('exit', () => resolve(seconds));
      child.kill('SIGTERM');
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
  });
}

function wallSeconds(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const started = performance.now();
  const run = spawnSync(command, args, { cwd: projectRoot, encoding: 'utf8', env });
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${run.stdout}${run.stderr}`);
  return (performance.now() - started) / 1000;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round2 = (value: number): number => Math.round(value * 100) / 100;

export async function benchStartup(rounds: number) {
  const cold: number[] = [];
  const warm: number[] = [];
  const npxFirst: number[] = [];
  const npxWarm: number[] = [];
  const binDirect: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const scratch = mkdtempSync(join(tmpdir(), 'contrato-bench-start-'));
    try {
      const site = join(scratch, 'site');
      cold.push(await secondsUntilReady(site));
      warm.push(await secondsUntilReady(site));
      const env = { ...process.env, npm_config_cache: join(scratch, 'npm-cache'), npm_config_update_notifier: 'false' };
      npxFirst.push(wallSeconds('npx', ['--yes', 'contrato', '--version'], env));
      npxWarm.push(wallSeconds('npx', ['--yes', 'contrato', '--version'], env));
      binDirect.push(wallSeconds(process.execPath, [join(projectRoot, 'dist/src/cli/main.js'), '--version']));
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  return {
    startColdSeconds: round2(median(cold)),
    startWarmSeconds: round2(median(warm)),
    npxFirstSeconds: round2(median(npxFirst)),
    npxWarmSeconds: round2(median(npxWarm)),
    binDirectSeconds: round2(median(binDirect)),
  };
}

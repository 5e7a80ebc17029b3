/**
 * The contract author's loop: one spec file saved, to its interface's regenerated outputs. On a copy of
 * specs/ and generated/ (nothing of the checkout is touched): `npm run regenerate` as one process after
 * the save (`oneFileSeconds`), and `contrato regenerate --watch` from the save to its line
 * (`oneFileWatchSeconds`, the generators already loaded). Outputs only (`--no-docs`): the reference page
 * of the interface is Redoc's work on top (bench/startup.ts measures the whole site).
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../scripts/lib.js';

/** The file saved for each interface measured: a path file with a folded description. */
export const editedFiles = {
  'core-banking': 'core-banking/paths/fee-rules.yaml',
  accounts: 'accounts/paths/accounts.yaml',
} as const;
type Measured = keyof typeof editedFiles;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round2 = (value: number): number => Math.round(value * 100) / 100;

let edits = 0;
/** Saves `file` of the copy with one more line in its first folded description: its bundle changes. */
function save(specs: string, file: string): void {
  const path = join(specs, file);
  const text = readFileSync(path, 'utf8');
  if (!text.includes('description: >-\n')) throw new Error(`${file} has no folded description to edit`);
  edits += 1;
  writeFileSync(path, text.replace('description: >-\n', `description: >-\n    Edited by the benchmark (${edits}).\n`));
}

export async function benchOneFile(rounds: number) {
  const scratch = mkdtempSync(join(tmpdir(), 'contrato-bench-onefile-'));
  const specs = join(scratch, 'specs');
  const out = join(scratch, 'generated');
  const args = ['--import', 'tsx', 'scripts/regenerate.ts', '--specs', specs, '--out', out, '--manifest', '--no-docs'];
  const regenerate = (): { ms: number; summary: string } => {
    const started = performance.now();
    const run = spawnSync(process.execPath, args, { cwd: projectRoot, encoding: 'utf8' });
    const ms = performance.now() - started;
    if (run.status !== 0) throw new Error(`regenerate failed:\n${run.stdout}${run.stderr}`);
    return { ms, summary: run.stdout.trim().split('\n').at(-1) ?? '' };
  };
  try {
    cpSync(join(projectRoot, 'specs'), specs, { recursive: true });
    cpSync(join(projectRoot, 'generated'), out, { recursive: true });
    regenerate(); // whatever the copy needs first (nothing, when generated/ is current)
    const oneShot: Record<Measured, number[]> = { 'core-banking': [], accounts: [] };
    for (let round = 0; round < rounds; round += 1)
      for (const [name, file] of Object.entries(editedFiles) as [Measured, string][]) {
        save(specs, file);
        const { ms, summary } = regenerate();
        if (!summary.startsWith(`regenerated ${name} in`)) throw new Error(`a save of ${file} did: ${summary}`);
        oneShot[name].push(ms);
      }

    // The watch: from the save to its line, the generators loaded once.
    const watch = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'regenerate', '--watch', '--no-serve', '--no-docs', '--specs', specs, '--out', out],
      { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    watch.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    watch.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const until = (pattern: RegExp, from: number, limitMs = 120_000): Promise<void> =>
      new Promise((resolve, reject) => {
        const started = Date.now();
        const poll = setInterval(() => {
          if (pattern.test(output.slice(from))) {
            clearInterval(poll);
            resolve();
          } else if (Date.now() - started > limitMs || watch.exitCode !== null) {
            clearInterval(poll);
            reject(new Error(`the watch did not print ${pattern}:\n${output}`));
          }
        }, 5);
      });
    const inWatch: Record<Measured, number[]> = { 'core-banking': [], accounts: [] };
    try {
      await until(/^watching /m, 0);
      for (let round = 0; round < rounds; round += 1)
        for (const [name, file] of Object.entries(editedFiles) as [Measured, string][]) {
          const from = output.length;
          const started = performance.now();
          save(specs, file);
          await until(new RegExp(`regenerated ${name} in [\\d.]+ s$`, 'm'), from);
          inWatch[name].push(performance.now() - started);
          // The next save only after this one's debounce is long over.
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
    } finally {
      await new Promise((resolve) => {
        watch.once('exit', resolve);
        watch.kill('SIGINT');
      });
    }
    const seconds = (values: Record<Measured, number[]>): Record<Measured, number> => ({
      'core-banking': round2(median(values['core-banking']) / 1000),
      accounts: round2(median(values.accounts) / 1000),
    });
    return { oneFileSeconds: seconds(oneShot), oneFileWatchSeconds: seconds(inWatch) };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * `npm start`: regenerate when the specs changed, then `contrato start` — the sandbox of every interface
 * and the docs site, side by side, a line as each is ready. Its "ready in" figures count from the start of
 * this process, so they include the check. Options after `--` go to `contrato start`
 * (`npm start -- --port 5000`, `npm start -- --help`).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { runCli } from '../src/cli/program.js';
import { projectRoot } from './lib.js';

const args = process.argv.slice(2);
if (!args.includes('--help') && !args.includes('-h')) {
  console.log('checking generated/ against specs/ (regenerates what is stale)…');
  // The site is built by `contrato start`, at the same time as the mocks start.
  const regenerate = spawnSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'scripts/regenerate.ts'), '--no-docs'], {
    stdio: 'inherit',
    cwd: projectRoot,
  });
  if (regenerate.status !== 0) process.exit(regenerate.status ?? 1);
}
process.exitCode = await runCli(['start', ...args], { invokedAs: 'npm start --', defaultSite: join(projectRoot, 'site') });

/** `npm start`: regenerate if stale, then serve the mocks of every interface and the docs site on loopback. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { startAll } from '../src/cli/servers.js';
import { interfaces } from '../src/interfaces.js';
import { projectRoot } from './lib.js';

const regenerate = spawnSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'scripts/regenerate.ts')], {
  stdio: 'inherit',
  cwd: projectRoot,
});
if (regenerate.status !== 0) process.exit(regenerate.status ?? 1);

const servers = await startAll(
  interfaces.map((info) => info.name),
  join(projectRoot, 'site'),
);
console.log('\nready — Ctrl-C to stop');
const stop = async (): Promise<void> => {
  await Promise.all(servers.map((server) => server.stop()));
  process.exit(0);
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => void stop());

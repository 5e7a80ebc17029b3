// Compiles src/ and generated/ into dist/ (ES modules + declarations) and copies the generated
// JavaScript validators and bundled specs beside them. Runs on `npm ci` (prepare) and `npm run build`.
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
rmSync(join(root, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });

const copied = /(\.js|\.d\.ts|openapi\.json)$/;
const copy = (from, to) => {
  for (const entry of readdirSync(from)) {
    const source = join(from, entry);
    if (statSync(source).isDirectory()) copy(source, join(to, entry));
    else if (copied.test(entry)) cpSync(source, join(to, entry));
  }
};
copy(join(root, 'generated'), join(root, 'dist/generated'));
chmodSync(join(root, 'dist/src/cli/main.js'), 0o755);

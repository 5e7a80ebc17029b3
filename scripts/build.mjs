// Compiles src/ and generated/ into dist/ (ES modules + declarations) and copies the generated
// JavaScript validators and bundled specs beside them. Runs on `npm ci` (prepare) and `npm run build`.
// npm runs `prepare` again whenever it installs this folder (`npx contrato` in a clone, `npm pack`), so a
// stamp of the inputs makes a build with nothing changed a no-op; `--force` builds anyway. It reports on
// stderr: `npm pack --json` prints the lifecycle scripts' stdout into its JSON.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
// Outside dist/, so it is not packed; dist/ must still hold the bin for the stamp to count.
const stampPath = join(root, '.cache/build-stamp');

const filesBelow = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? filesBelow(join(dir, entry.name)) : [join(dir, entry.name)]))
    .sort();

/** What dist/ is made from: the sources, the compiler and its settings, this script. */
function inputsHash() {
  const hash = createHash('sha256');
  const files = [
    ...filesBelow(join(root, 'src')),
    ...filesBelow(join(root, 'generated')),
    join(root, 'tsconfig.json'),
    join(root, 'tsconfig.build.json'),
    fileURLToPath(import.meta.url),
    require.resolve('typescript/package.json'),
  ];
  for (const file of files) hash.update(file.slice(root.length)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

const stamp = inputsHash();
if (
  !process.argv.includes('--force') &&
  existsSync(stampPath) &&
  existsSync(join(root, 'dist/src/cli/main.js')) &&
  readFileSync(stampPath, 'utf8') === stamp
) {
  console.error('dist/ is up to date');
  process.exit(0);
}
const started = Date.now();
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
mkdirSync(dirname(stampPath), { recursive: true });
writeFileSync(stampPath, stamp);
console.error(`dist/ built in ${Date.now() - started} ms`);

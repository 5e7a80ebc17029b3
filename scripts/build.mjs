// Compiles src/ and generated/ into dist/ (ES modules + declarations) and copies the generated
// JavaScript validators and bundled specs beside them; then the CommonJS face of the package: beside each
// declaration file a .d.cts twin (its relative imports ending in .cjs), and for each `require` target of
// package.json's exports a one-line .cjs module that require()s the ES module (Node >= 20.19 loads ES
// modules with require). Runs on `npm pack` and `npm publish` (prepack) and `npm run build`; a clone needs
// no build to run the bin (bin/contrato.js runs the sources there). A stamp of the inputs makes a build with
// nothing changed a no-op; `--force` builds anyway. It reports on stderr: `npm pack --json` prints the
// lifecycle scripts' stdout into its JSON.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
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
  return hash.update(JSON.stringify(manifest.exports)).digest('hex');
}

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
/** The CommonJS entry points package.json's exports promise: `{ require: { types, default } }` of each subpath. */
const requireTargets = Object.values(manifest.exports)
  .map((target) => (typeof target === 'object' ? target.require?.default : undefined))
  .filter((target) => typeof target === 'string');

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

const copied = /(\.js|\.d\.ts|openapi\.json|requests\.json)$/;
const copy = (from, to) => {
  for (const entry of readdirSync(from)) {
    const source = join(from, entry);
    if (statSync(source).isDirectory()) copy(source, join(to, entry));
    else if (copied.test(entry)) cpSync(source, join(to, entry));
  }
};
copy(join(root, 'generated'), join(root, 'dist/generated'));
// The SQL migrations of contrato/postgres, read beside the compiled module that applies them.
cpSync(join(root, 'src/postgres/migrations'), join(root, 'dist/src/postgres/migrations'), { recursive: true });

// A CommonJS consumer's TypeScript (module node16, a package without "type": "module") may not import an ES
// module's declarations (TS1479): the .d.cts twins describe the same modules as CommonJS, which is what the
// .cjs entry points below make of them.
const relativeJs = /((?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]*?)\.js\2/g;
for (const file of filesBelow(join(root, 'dist'))) {
  if (!file.endsWith('.d.ts')) continue;
  const text = readFileSync(file, 'utf8').replace(relativeJs, (_match, keyword, quote, path) => `${keyword}${quote}${path}.cjs${quote}`);
  writeFileSync(`${file.slice(0, -'.d.ts'.length)}.d.cts`, text);
}
for (const target of requireTargets) {
  const esm = `./${basename(target, '.cjs')}.js`;
  if (!existsSync(join(root, dirname(target), esm))) throw new Error(`package.json exports ${target}, but ${esm} was not built beside it`);
  writeFileSync(
    join(root, target),
    `'use strict';\n// The ES module, loaded with require() (Node >= 20.19): one instance whichever way it is imported.\nmodule.exports = require(${JSON.stringify(esm)});\n`,
  );
}
chmodSync(join(root, 'dist/src/cli/main.js'), 0o755);
mkdirSync(dirname(stampPath), { recursive: true });
writeFileSync(stampPath, stamp);
console.error(`dist/ built in ${Date.now() - started} ms`);

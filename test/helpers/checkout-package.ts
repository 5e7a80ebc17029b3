/**
 * contrato as npm would install it into a user's folder, for tests that run documentation as printed: a
 * package in node_modules whose entry points are this checkout's sources (run with the tsx loader), and its
 * `contrato` bin.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../scripts/lib.js';

/** The loader that runs TypeScript files and the checkout's sources. */
export const tsxLoader = import.meta.resolve('tsx');

/** contrato as npm would install it into `folder`, its entry points and bin leading to this checkout's sources. */
export function installContrato(folder: string): void {
  const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { default: string }>;
  };
  const packageDir = join(folder, 'node_modules/contrato');
  mkdirSync(join(folder, 'node_modules/.bin'), { recursive: true });
  mkdirSync(packageDir);
  const exports: Record<string, { types: string; default: string }> = {};
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    const built = typeof target === 'string' ? target : target.default;
    const source = /^\.\/dist\/(src\/.+)\.js$/.exec(built)?.[1];
    if (!source) continue;
    const file = subpath === '.' ? 'index' : subpath.slice(2);
    writeFileSync(join(packageDir, `${file}.mjs`), `export * from ${JSON.stringify(join(projectRoot, `${source}.ts`))};\n`);
    writeFileSync(join(packageDir, `${file}.d.ts`), `export * from ${JSON.stringify(join(projectRoot, `${source}.js`))};\n`);
    exports[subpath] = { types: `./${file}.d.ts`, default: `./${file}.mjs` };
  }
  const bin = join(packageDir, 'contrato.sh');
  writeFileSync(bin, `#!/bin/sh\nexec "${process.execPath}" --import "${tsxLoader}" "${join(projectRoot, 'src/cli/main.ts')}" "$@"\n`);
  chmodSync(bin, 0o755);
  writeFileSync(
    join(packageDir, 'package.json'),
    JSON.stringify({ name: 'contrato', version: '0.0.0-checkout', type: 'module', bin: { contrato: 'contrato.sh' }, exports }),
  );
  writeFileSync(join(folder, 'node_modules/.bin/contrato'), `#!/bin/sh\nexec "${bin}" "$@"\n`);
  chmodSync(join(folder, 'node_modules/.bin/contrato'), 0o755);
  writeFileSync(
    join(folder, 'package.json'),
    JSON.stringify({ name: 'readme-user', private: true, type: 'module', dependencies: { contrato: '*' } }),
  );
}

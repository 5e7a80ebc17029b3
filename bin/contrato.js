#!/usr/bin/env node
// The `contrato` command. In the installed package it runs the compiled dist/src/cli/main.js. In a clone of
// the repository (src/ beside this folder, tsx among the devDependencies) it runs the TypeScript sources, so
// `npx contrato` there needs no build and never runs an outdated dist/.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const sources = new URL('../src/cli/main.ts', import.meta.url);
const built = new URL('../dist/src/cli/main.js', import.meta.url);

/** tsx's loader, when this is a clone whose devDependencies are installed. */
function sourceLoader() {
  if (!existsSync(fileURLToPath(sources))) return undefined;
  try {
    return import.meta.resolve('tsx/esm/api');
  } catch {
    return undefined;
  }
}

const loader = sourceLoader();
if (loader) {
  const { register } = await import(loader);
  register();
  await import(sources.href);
} else if (existsSync(fileURLToPath(built))) {
  await import(built.href);
} else {
  console.error('contrato: neither dist/ (npm run build) nor the sources with tsx (npm ci) are here');
  process.exitCode = 1;
}

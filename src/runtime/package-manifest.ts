/** contrato's own package.json, for its version (the CLI's --version, the instrumentation scope of its spans) and peers. */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface ContratoManifest {
  readonly name?: string;
  readonly version?: string;
  readonly peerDependencies?: Record<string, string>;
}

let found: ContratoManifest | null | undefined;

/** contrato's package.json, above this file (src/runtime in a checkout, dist/src/runtime in the package). */
export function contratoManifest(): ContratoManifest | undefined {
  if (found !== undefined) return found ?? undefined;
  found = null;
  for (const relative of ['../../package.json', '../../../package.json']) {
    const path = fileURLToPath(new URL(relative, import.meta.url));
    if (!existsSync(path)) continue;
    const manifest = JSON.parse(readFileSync(path, 'utf8')) as ContratoManifest;
    if (manifest.name === 'contrato') {
      found = manifest;
      break;
    }
  }
  return found ?? undefined;
}

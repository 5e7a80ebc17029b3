/**
 * The checkout of contrato this code runs from, for the commands that work on the repository rather than on
 * an installed package (`contrato regenerate`, `contrato changelog`, the docs of `contrato site`). This file
 * sits in src/ of a checkout and in dist/src/ of a build made there, so the checkout is one or two folders up.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout above this file holding every one of `markers` (paths inside it), or null: an installed package has none. */
export function checkoutRoot(markers: readonly string[]): string | null {
  for (const relativePath of ['../', '../../']) {
    const root = fileURLToPath(new URL(relativePath, import.meta.url));
    if (markers.every((marker) => existsSync(join(root, marker)))) return resolve(root);
  }
  return null;
}

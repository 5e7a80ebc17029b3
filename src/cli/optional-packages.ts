/**
 * The optional peer packages (package.json peerDependenciesMeta) some commands need, checked before the
 * command starts anything: a missing one ends it in one line naming what to install, at the version
 * contrato declares for it.
 */
import { createRequire } from 'node:module';
import { contratoManifest } from '../runtime/package-manifest.js';

export { contratoManifest };

/** The optional packages the site build needs (its pages are Markdown, its reference pages Redoc). */
export const docsPackages = ['@redocly/cli', 'marked'] as const;
/** What the Prism mocks need. */
export const mockPackages = ['@stoplight/prism-cli'] as const;

/** Whether `name` can be loaded from contrato's own files (a package that exports no package.json is installed too). */
function installed(name: string, from: string): boolean {
  try {
    createRequire(from).resolve(`${name}/package.json`);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND';
  }
}

/** A command that cannot run here: the packages it needs are not installed. */
export class MissingPackagesError extends Error {
  constructor(
    readonly missing: readonly string[],
    what: string,
  ) {
    const peers = contratoManifest()?.peerDependencies ?? {};
    const specs = missing.map((name) => (peers[name] ? `${name}@${peers[name]}` : name));
    super(`${what} needs ${missing.join(' and ')}, not installed here: npm install --save-dev ${specs.join(' ')}`);
    this.name = 'MissingPackagesError';
  }
}

/** Throws MissingPackagesError when any of `names` is missing; `what` is what needs them ("contrato start"). */
export function assertPackagesInstalled(names: readonly string[], what: string, from: string = import.meta.url): void {
  const missing = names.filter((name) => !installed(name, from));
  if (missing.length > 0) throw new MissingPackagesError(missing, what);
}

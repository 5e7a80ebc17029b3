/**
 * `npm run drill:interface`: the proof that the definition is the only registration. In a copy of the
 * repository (its files as they are now, committed or not, with node_modules linked) it adds the test-only
 * interface of test/fixtures/widgets as a real one, as docs/guides/updating-a-spec.md says — its specs under
 * specs/widgets/, its folder src/widgets/, one line in src/interfaces.ts and its subpath in package.json —
 * runs the project's generators (regenerate, coverage, changelog), the type check, the linter and every test
 * file that iterates the definitions (those importing src/interfaces.ts or test/helpers/interfaces.ts), and
 * prints the files it touched. It fails when a step fails or when any other file changed.
 *
 * Flags: --keep    leave the copy in place (it is kept anyway when the drill fails, and its path printed)
 *        --tests <pattern>  run only the selected test files whose path contains the pattern (a quicker look)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from './lib.js';

const fixture = 'test/fixtures/widgets';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const name = 'widgets';

/** Where the files of the drill go, and which of them it may touch: by hand (placed, edited) or through a command. */
export const touchRules = {
  placed: [`specs/${name}/`, `src/${name}/`],
  edited: ['src/interfaces.ts', 'package.json'],
  /** What the project's generators write: regenerate, npm run coverage, npm run changelog. */
  generated: ['generated/', 'docs/coverage.md', 'CHANGELOG.md'],
} as const;

/** The kind of change a touched path is, or null when the drill had no business changing it. */
export function touchKind(path: string): keyof typeof touchRules | null {
  for (const [kind, prefixes] of Object.entries(touchRules) as [keyof typeof touchRules, readonly string[]][])
    if (prefixes.some((prefix) => (prefix.endsWith('/') ? path.startsWith(prefix) : path === prefix))) return kind;
  return null;
}

/** src/interfaces.ts with the definition of `name` imported and listed last. */
export function withDefinition(text: string, interfaceName: string, identifier: string): string {
  const lines = text.split('\n');
  const lastImport = lines.findLastIndex((line) => /^import \{ \w+Definition \} from '\.\/[\w-]+\/definition\.js';$/.test(line));
  const listStart = lines.findIndex((line) => line.startsWith('export const definitions'));
  const listEnd = lines.findIndex((line, index) => index > listStart && line === '];');
  if (lastImport < 0 || listStart < 0 || listEnd < 0)
    throw new Error('src/interfaces.ts: no definition import or no definitions list to add to');
  const binding = `${identifier}Definition`;
  lines.splice(listEnd, 0, `  ${binding} as InterfaceDefinition<never>,`);
  lines.splice(lastImport + 1, 0, `import { ${binding} } from './${interfaceName}/definition.js';`);
  return lines.join('\n');
}

/** package.json with the subpath of the interface and the bundled spec of each document, and their typesVersions. */
/** The members of package.json the drill adds to. */
export interface PackageManifest {
  readonly exports: Record<string, unknown>;
  readonly typesVersions: { readonly '*': Record<string, string[]> };
}

export function withSubpath<Manifest extends PackageManifest>(
  manifest: Manifest,
  interfaceName: string,
  documents: readonly string[],
): Manifest {
  const base = `./dist/src/${interfaceName}/index`;
  const copy = structuredClone(manifest);
  copy.exports[`./${interfaceName}`] = {
    require: { types: `${base}.d.cts`, default: `${base}.cjs` },
    types: `${base}.d.ts`,
    default: `${base}.js`,
  };
  copy.typesVersions['*'][interfaceName] = [`${base}.d.cts`];
  for (const document of documents) {
    copy.exports[`./specs/${document}.json`] = `./dist/generated/${document}/openapi.json`;
    copy.typesVersions['*'][`specs/${document}.json`] = [`./dist/generated/${document}/openapi.json`];
  }
  return copy;
}

/** The test files that iterate the definitions: those importing src/interfaces.ts or test/helpers/interfaces.ts. */
export function definitionTests(root: string): string[] {
  const below = (dir: string): string[] =>
    readdirSync(join(root, dir)).flatMap((entry) => {
      const path = `${dir}/${entry}`;
      return statSync(join(root, path)).isDirectory() ? below(path) : [path];
    });
  return below('test')
    .filter((file) => file.endsWith('.test.ts'))
    .filter((file) =>
      /from '(\.\.\/)+(src\/interfaces|(test\/)?helpers\/interfaces)\.js'|from '\.\/helpers\/interfaces\.js'/.test(
        readFileSync(join(root, file), 'utf8'),
      ),
    )
    .sort();
}

function run(label: string, command: string, args: readonly string[], cwd: string): void {
  console.log(`\n▶ ${label}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(command, args, {
    cwd,
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  if (result.status !== 0) throw new Error(`${label} failed (exit ${result.status ?? result.signal})`);
  console.log(`✓ ${label} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** The repository's files as they are now: tracked and untracked (not ignored), deleted ones left out. */
function checkoutFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: projectRoot,
    encoding: 'utf8',
  });
  return [...new Set(listed.split('\0').filter(Boolean))].filter((file) => existsSync(join(projectRoot, file))).sort();
}

function copyRepository(into: string): void {
  for (const file of checkoutFiles()) {
    mkdirSync(dirname(join(into, file)), { recursive: true });
    cpSync(join(projectRoot, file), join(into, file), { verbatimSymlinks: true });
  }
  symlinkSync(join(projectRoot, 'node_modules'), join(into, 'node_modules'));
  // A repository of its own, so the touched files are what `git status` reports (and Biome reads .gitignore there).
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=drill', '-c', 'user.email=drill@localhost', ...args], { cwd: into, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '--no-verify', '-m', 'the repository before the drill');
}

function addInterface(into: string): void {
  cpSync(join(projectRoot, fixture, 'specs', name), join(into, 'specs', name), { recursive: true });
  cpSync(join(projectRoot, fixture, 'src', name), join(into, 'src', name), { recursive: true });
  const interfacesFile = join(into, 'src/interfaces.ts');
  writeFileSync(interfacesFile, withDefinition(readFileSync(interfacesFile, 'utf8'), name, name));
  const manifestFile = join(into, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as PackageManifest;
  writeFileSync(manifestFile, `${JSON.stringify(withSubpath(manifest, name, [name]), null, 2)}\n`);
}

function touchedFiles(into: string): string[] {
  const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all', '-z'], { cwd: into, encoding: 'utf8' });
  return status
    .split('\0')
    .filter(Boolean)
    .map((entry) => entry.slice(3))
    .sort();
}

async function main(args: readonly string[]): Promise<number> {
  const keep = args.includes('--keep');
  const pattern = args.includes('--tests') ? args[args.indexOf('--tests') + 1] : undefined;
  const copy = mkdtempSync(join(tmpdir(), 'contrato-drill-'));
  console.log(`drill: a copy of the repository in ${copy}`);
  // The generators must pass for anything after them to mean something; the checks after them all run, so one
  // drill shows every problem.
  const failures: string[] = [];
  const check = (label: string, command: string, args: readonly string[]): void => {
    try {
      run(label, command, args, copy);
    } catch (error) {
      failures.push((error as Error).message);
    }
  };
  try {
    copyRepository(copy);
    addInterface(copy);
    run('regenerate', npm, ['run', '--silent', 'regenerate'], copy);
    run('coverage', npm, ['run', '--silent', 'coverage'], copy);
    run('changelog', npm, ['run', '--silent', 'changelog'], copy);
    check('type check', process.execPath, [join(copy, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit']);
    check('lint', process.execPath, [join(copy, 'node_modules/@biomejs/biome/bin/biome'), 'ci', '--error-on-warnings', '.']);
    const tests = definitionTests(copy).filter((file) => pattern === undefined || file.includes(pattern));
    console.log(`\ndrill: ${tests.length} test files iterate the definitions:\n  ${tests.join('\n  ')}`);
    check('tests', process.execPath, [join(copy, 'node_modules/vitest/vitest.mjs'), 'run', ...tests]);
    check('regenerate --check', npm, ['run', '--silent', 'regenerate', '--', '--check']);
  } catch (error) {
    failures.push((error as Error).message);
  }
  const touched = existsSync(join(copy, '.git')) ? touchedFiles(copy) : [];
  const byKind = (kind: keyof typeof touchRules | null) => touched.filter((file) => touchKind(file) === kind);
  const placed = byKind('placed');
  const edited = byKind('edited');
  const generated = byKind('generated');
  const other = byKind(null);
  console.log(`\ndrill: files touched in the copy (${touched.length})`);
  console.log(`  added with the interface (${placed.length}):\n${placed.map((file) => `    ${file}`).join('\n')}`);
  console.log(
    `  edited by hand (${edited.length}, at most ${touchRules.edited.length}):\n${edited.map((file) => `    ${file}`).join('\n')}`,
  );
  console.log(
    `  written by regenerate, coverage and changelog (${generated.length}):\n${generated.map((file) => `    ${file}`).join('\n')}`,
  );
  console.log(`  anything else (${other.length}, must be none):\n${other.map((file) => `    ${file}`).join('\n')}`);
  if (other.length > 0) failures.push(`files outside the new interface changed: ${other.join(', ')}`);
  if (failures.length > 0) {
    console.error(`\ndrill: FAILED\n  ${failures.join('\n  ')}\n  the copy is kept in ${copy}`);
    return 1;
  }
  if (!keep) rmSync(copy, { recursive: true, force: true });
  console.log(
    `\ndrill: passed — a new interface needed its specs, its folder, src/interfaces.ts and package.json, nothing else${keep ? ` (copy kept in ${copy})` : ''}`,
  );
  return 0;
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) process.exitCode = await main(process.argv.slice(2));

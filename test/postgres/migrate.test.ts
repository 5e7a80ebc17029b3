/**
 * Schema management against a real PostgreSQL (test/helpers/postgres.ts): `migrate` on an empty schema
 * creates every table of the shipped migrations and records each; a second run applies nothing and leaves
 * the catalogue as it was; two processes migrating at once take turns; the schema name is checked before
 * it is written into a statement. `contrato db migrate` does the same from the command line, in one line,
 * and never prints the password of the connection string.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/lib.js';
import { migrate, migrations } from '../../src/postgres/index.js';
import { useTestDatabase } from '../helpers/postgres.js';

const database = useTestDatabase();

/** Every column of every table of a schema, as `table.column type`, sorted. */
async function catalogue(schema: string): Promise<string[]> {
  const { rows } = await database().pool.query<{ line: string }>(
    `select table_name || '.' || column_name || ' ' || data_type as line
       from information_schema.columns where table_schema = $1 order by 1`,
    [schema],
  );
  return rows.map((row) => row.line);
}

const cli = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'src/cli/main.ts'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: '' },
  });

describe('migrate', () => {
  it('creates the tables on an empty schema, and a second run changes nothing', async () => {
    const schema = database().freshSchema();
    const first = await migrate(database().pool, { schema });
    expect(first.applied).toEqual(migrations().map((migration) => migration.id));
    const tables = new Set((await catalogue(schema)).map((line) => line.slice(0, line.indexOf('.'))));
    expect([...tables].sort()).toEqual(['deliveries', 'migrations', 'outgoing_calls', 'poll_cursors', 'rate_limit_sends']);
    const before = await catalogue(schema);

    const second = await migrate(database().pool, { schema });
    expect(second).toEqual({ schema, applied: [], skipped: first.applied });
    expect(await catalogue(schema)).toEqual(before);
  });

  it('lets processes that migrate at once take turns: each migration applied once', async () => {
    const schema = database().freshSchema();
    const results = await Promise.all([1, 2, 3].map(() => migrate(database().pool, { schema })));
    expect(results.flatMap((result) => result.applied).sort()).toEqual(migrations().map((migration) => migration.id));
    const { rows } = await database().pool.query(`select count(*)::int as n from "${schema}".migrations`);
    expect(rows[0].n).toBe(migrations().length);
  });

  it.each([
    { given: 'Contrato', problem: 'upper case' },
    { given: 'a-b', problem: 'a hyphen' },
    { given: '1st', problem: 'a leading digit' },
    { given: 'x"; drop table y; --', problem: 'a statement' },
    { given: 'a'.repeat(64), problem: 'more than 63 characters' },
  ])('refuses the schema name $given ($problem) before writing it into a statement', async ({ given }) => {
    await expect(migrate(database().pool, { schema: given })).rejects.toThrow(/schema must be a lower-case PostgreSQL identifier/);
  });
});

describe('contrato db migrate', () => {
  it('applies the migrations, then says the schema is up to date', () => {
    const schema = database().freshSchema();
    const first = cli('db', 'migrate', database().url, '--schema', schema);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^applied 001_webhook_inbox, .* to schema ${schema} of 127\\.0\\.0\\.1:\\d+/postgres\\n$`));
    const second = cli('db', 'migrate', database().url, '--schema', schema);
    expect(second.status).toBe(0);
    expect(second.stdout).toBe(
      `schema ${schema} of ${new URL(database().url).host}/postgres is up to date (${migrations().length} migrations applied before)\n`,
    );
  });

  it.each([
    { given: ['db'], want: /db needs a verb/ },
    { given: ['db', 'drop'], want: /db knows one verb, migrate, not "drop"/ },
    { given: ['db', 'migrate'], want: /db migrate needs a database/ },
    { given: ['db', 'migrate', 'postgres://x@127.0.0.1:1/db', 'extra'], want: /takes one DATABASE_URL/ },
    { given: ['db', 'migrate', 'postgres://x@127.0.0.1:1/db', '--schema', 'Bad-Name'], want: /schema must be a lower-case/ },
  ])('$given: one line, exit 2', ({ given, want }) => {
    const run = cli(...given);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(want);
  });

  it('names the database without its password when it cannot connect', () => {
    const run = cli('db', 'migrate', 'postgres://someone:hunter2secret@127.0.0.1:1/ledger');
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^contrato: db migrate on 127\.0\.0\.1:1\/ledger failed: .*ECONNREFUSED/);
    expect(run.stderr).not.toContain('hunter2secret');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});

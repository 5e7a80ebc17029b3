/**
 * `contrato db migrate <DATABASE_URL> [--schema <name>]`: the tables of contrato/postgres, created or
 * brought up to date. The connection string's password is never printed: a failure names the database by
 * its host, port and name only.
 */
import { UsageError } from '../checks/usage-error.js';
import { migrate } from '../postgres/migrate.js';
import type { Output } from './format-commands.js';

/** `host:port/database` of a connection string, without its user or password (or a neutral name when it is no URL). */
export function describeDatabase(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname.length > 1 ? url.pathname : ''}`;
  } catch {
    return 'the database';
  }
}

/** A driver's message with the connection string and its password taken out, should it quote them. */
function withoutSecrets(message: string, connectionString: string): string {
  let password = '';
  try {
    password = decodeURIComponent(new URL(connectionString).password);
  } catch {
    // not a URL: only the whole string can be recognised
  }
  const hidden = message.split(connectionString).join('<DATABASE_URL>');
  return password ? hidden.split(password).join('***') : hidden;
}

export async function dbCommand(positionals: readonly string[], schema: string | undefined, output: Output): Promise<number> {
  const [verb, given, extra] = positionals;
  if (verb !== 'migrate')
    throw new UsageError(
      verb === undefined
        ? 'db needs a verb: contrato db migrate <DATABASE_URL>'
        : `db knows one verb, migrate, not ${JSON.stringify(verb)}`,
    );
  if (extra !== undefined) throw new UsageError(`db migrate takes one DATABASE_URL, not also ${JSON.stringify(extra)}`);
  const connectionString = given ?? process.env.DATABASE_URL;
  if (!connectionString)
    throw new UsageError('db migrate needs a database: contrato db migrate postgres://user@host:5432/name (or DATABASE_URL)');
  let pg: typeof import('pg');
  try {
    pg = await import('pg');
  } catch {
    output.err('contrato: db migrate needs the pg package beside contrato: npm install pg');
    return 2;
  }
  const options = schema === undefined ? {} : { schema };
  const Pool = pg.default?.Pool ?? pg.Pool;
  const pool = new Pool({ connectionString, max: 1 });
  // An idle connection that fails later is reported by the query that uses it, not as an uncaught event.
  pool.on('error', () => {});
  const where = describeDatabase(connectionString);
  try {
    const result = await migrate(pool, options);
    output.out(
      result.applied.length > 0
        ? `applied ${result.applied.join(', ')} to schema ${result.schema} of ${where}`
        : `schema ${result.schema} of ${where} is up to date (${result.skipped.length} migrations applied before)`,
    );
    return 0;
  } catch (error) {
    if (error instanceof RangeError) throw new UsageError(error.message);
    output.err(
      `contrato: db migrate on ${where} failed: ${withoutSecrets(error instanceof Error ? error.message : String(error), connectionString)}`,
    );
    return 1;
  } finally {
    await pool.end();
  }
}

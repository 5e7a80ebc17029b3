/**
 * What contrato/postgres needs of node-postgres, said structurally: a `pg.Pool` (or a `pg.Client` where no
 * transaction of its own is needed) fits without this package importing `pg` at all. `pg` stays an optional
 * peer: the user's pool carries their connection settings, TLS and limits, and nothing here opens a
 * connection the user did not configure.
 */

export interface QueryResult<Row> {
  readonly rows: Row[];
  readonly rowCount: number | null;
}

/** Anything that runs one statement: a pool, a pooled client, a client. */
export interface Queryable {
  query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<QueryResult<Row>>;
}

/** A connection taken from a pool, held for a transaction and given back with `release`. */
export interface PooledConnection extends Queryable {
  release(error?: Error | boolean): void;
}

/** A pool of connections: `pg.Pool`. */
export interface ConnectionPool extends Queryable {
  connect(): Promise<PooledConnection>;
}

/** Where the tables are: every table of contrato/postgres lives in one schema (default `contrato`). */
export interface SchemaOptions {
  /** A PostgreSQL identifier of lower-case letters, digits and underscores (default `contrato`). */
  readonly schema?: string;
}

export const defaultSchema = 'contrato';

const identifier = /^[a-z_][a-z0-9_]{0,62}$/;

/** The schema's name, checked: it is written into statements, so only plain identifiers are taken. */
export function schemaOf(options: SchemaOptions | undefined): string {
  const schema = options?.schema ?? defaultSchema;
  if (!identifier.test(schema))
    throw new RangeError(
      `schema must be a lower-case PostgreSQL identifier (letters, digits, underscores, at most 63, not starting with a digit), not ${JSON.stringify(schema)}`,
    );
  return schema;
}

/** `"schema"."table"`, for a table of contrato/postgres. */
export function tableName(schema: string, table: string): string {
  return `"${schema}"."${table}"`;
}

/** A rollback that failed: the connection is in an unknown state, and its pool must not hand it out again. */
export class RollbackFailedError extends Error {
  constructor(
    readonly failure: unknown,
    cause: unknown,
  ) {
    super(`a transaction failed and its rollback failed too: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'RollbackFailedError';
  }
}

/** Runs `work` in a transaction on a connection held already: committed when it resolves, rolled back when it throws. */
export async function transaction<T>(connection: Queryable, work: (connection: Queryable) => Promise<T>): Promise<T> {
  await connection.query('begin');
  let result: T;
  try {
    result = await work(connection);
  } catch (error) {
    try {
      await connection.query('rollback');
    } catch (rollbackError) {
      throw new RollbackFailedError(error, rollbackError);
    }
    throw error;
  }
  await connection.query('commit');
  return result;
}

/**
 * Runs `work` in a transaction on one connection of the pool, given back afterwards; one whose rollback
 * failed is discarded rather than reused.
 */
export async function inTransaction<T>(pool: ConnectionPool, work: (connection: PooledConnection) => Promise<T>): Promise<T> {
  const connection = await pool.connect();
  let broken: Error | undefined;
  try {
    return await transaction(connection, () => work(connection));
  } catch (error) {
    if (error instanceof RollbackFailedError) {
      broken = error;
      throw error.failure;
    }
    throw error;
  } finally {
    connection.release(broken);
  }
}

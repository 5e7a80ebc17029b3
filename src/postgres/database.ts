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

/**
 * A connection taken from a pool, held for a transaction and given back with `release` (with an error when it
 * failed, so the pool discards it). `on` and `off` are pg.PoolClient's: pg's pool stops listening for the
 * connection's 'error' while it is lent out, so the holder listens instead — an 'error' nobody hears (the
 * server restarting under a held connection) ends the process.
 */
export interface PooledConnection extends Queryable {
  release(error?: Error | boolean): void;
  on?(event: 'error', listener: (error: Error) => void): unknown;
  off?(event: 'error', listener: (error: Error) => void): unknown;
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

/** The server's own word on ending a session (57P01 terminating it, 57P02, 57P03, class 08), rather than the socket's. */
const endedByServer = (error: unknown): error is Error =>
  error instanceof Error && /^(57P0[123]|08)/.test(String((error as { code?: unknown }).code));

/**
 * The connection died under its holder: `failure` is what the work (or its commit) saw, `cause` the
 * connection's own error, or the rollback's that could not run. The pool discarded the connection.
 */
export class ConnectionLostError extends Error {
  override readonly name = 'ConnectionLostError';
  constructor(
    readonly failure: unknown,
    cause: unknown,
  ) {
    // A statement under way hears why the server ended the session; the connection then only that it ended.
    const why = endedByServer(failure) ? failure : cause;
    super(`the connection to the database was lost: ${why instanceof Error ? why.message : String(why)}`, { cause });
  }
}

/**
 * Runs `use` on one connection of the pool, listening for the connection's 'error' meanwhile, and gives it
 * back — discarded when anything failed. A connection lost under `use` (its 'error', or a rollback that could
 * not run) rejects with a ConnectionLostError.
 */
export async function withConnection<T>(pool: ConnectionPool, use: (connection: PooledConnection) => Promise<T>): Promise<T> {
  const connection = await pool.connect();
  let lost: Error | undefined;
  // The first error says why; the end of the socket that follows it says nothing more.
  const listener = (error: Error): void => {
    lost ??= error;
  };
  connection.on?.('error', listener);
  let failed: Error | undefined;
  try {
    return await use(connection);
  } catch (error) {
    // Discarded, as pg's own pool.query does after any failure: a session in an unknown state (a lock held, a
    // transaction open) is not handed out again.
    failed = lost ?? (error instanceof Error ? error : new Error(String(error)));
    const rollback = error instanceof RollbackFailedError ? error : undefined;
    if (!rollback && !lost) throw error;
    throw new ConnectionLostError(rollback ? rollback.failure : error, lost ?? rollback?.cause);
  } finally {
    connection.release(failed ?? lost);
    // Removed after the release, which gives the pool back its own listener: no instant without one.
    connection.off?.('error', listener);
  }
}

/**
 * Runs `work` in a transaction on one connection of the pool, given back afterwards; after a failure (the
 * work's, a rollback's, the connection's own when the server restarted) it is discarded rather than reused.
 */
export async function inTransaction<T>(pool: ConnectionPool, work: (connection: PooledConnection) => Promise<T>): Promise<T> {
  try {
    return await withConnection(pool, (connection) => transaction(connection, () => work(connection)));
  } catch (error) {
    // What the work saw: a lost connection shows in it already (the connection is not queryable).
    throw error instanceof ConnectionLostError ? error.failure : error;
  }
}

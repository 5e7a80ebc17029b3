/**
 * The failures of contrato/postgres's stores, as ContratoErrors naming the store. A database that cannot be
 * reached now (down, restarting, a connection dropped) is told apart from one that answered with an error:
 * the first passes by itself, so the webhook handlers answer 503 and a call can simply be made again; the
 * second needs a change (a missing table: apply the migrations).
 */
import { ContratoError } from '../runtime/errors.js';
import { ConnectionLostError } from './database.js';

/** System codes of a server that cannot be reached now. */
const unreachableCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** SQLSTATEs of a server shutting down (57P01, 57P02), starting up (57P03) or full (53300); class 08 is the connection's. */
const unavailableStates = new Set(['57P01', '57P02', '57P03', '53300']);
/** What node-postgres says, without a code, of a connection that ended or never opened in time. */
const lostConnection =
  /^Connection terminated|Client has encountered a connection error and is not queryable|timeout exceeded when trying to connect/;
/** SQLSTATEs of a schema or table that is not there: the migrations were not applied. */
const notMigrated = new Set(['3F000', '42P01']);

const codeOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** Whether `error` says the database cannot be reached now, rather than that it refused a statement. */
export function isUnavailable(error: unknown, depth = 0): boolean {
  if (error instanceof ConnectionLostError) return true;
  if (!(error instanceof Error) || depth > 3) return false;
  const code = codeOf(error);
  if (code !== undefined && (unreachableCodes.has(code) || unavailableStates.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  if (lostConnection.test(error.message)) return true;
  // Node's connection to a name with several addresses fails with every address's error in one.
  return error instanceof AggregateError && error.errors.some((inner) => isUnavailable(inner, depth + 1));
}

/** The cause in one line: its message, else (an AggregateError's empty one) its first inner message, else its code. */
function reasonOf(error: unknown): string {
  const inner = error instanceof AggregateError ? (error.errors[0] as unknown) : undefined;
  const text =
    (error instanceof Error && error.message) ||
    (inner instanceof Error && inner.message) ||
    codeOf(error) ||
    (error instanceof Error ? error.name : String(error));
  return text.replace(/\s+/g, ' ').trim().slice(0, 300);
}

const possessive = (store: string): string => (store.endsWith('s') ? `${store}'` : `${store}'s`);

/**
 * A store of contrato/postgres failed in its database: `store` names which (`the call journal`, `the delivery
 * inbox`, …), `unavailable` says whether the database could not be reached (try again once it is back) rather
 * than refused a statement; `cause` is node-postgres's error.
 */
export class PostgresStoreError extends ContratoError {
  override readonly name: string = 'PostgresStoreError';
  readonly store: string;
  readonly unavailable: boolean;
  /** The SQLSTATE or system code of the cause, when it had one. */
  declare readonly code?: string;
  /** `consequence`: what did not happen because of it, e.g. `the request was not sent`. */
  constructor(store: string, cause: unknown, consequence?: string) {
    const unavailable = isUnavailable(cause);
    const code = codeOf(cause instanceof ConnectionLostError ? cause.cause : cause);
    const so = consequence ? `, so ${consequence}` : '';
    const remedy = unavailable
      ? 'try again once PostgreSQL accepts connections'
      : code !== undefined && notMigrated.has(code)
        ? 'apply the migrations first (migrate(pool) or contrato db migrate)'
        : "error.cause holds PostgreSQL's answer";
    super(
      `${possessive(store)} database ${unavailable ? 'could not be reached' : 'failed'} (${reasonOf(cause)})${so}: ${remedy}`,
      {},
      { cause },
    );
    this.store = store;
    this.unavailable = unavailable;
    if (code !== undefined) Object.defineProperty(this, 'code', { value: code, enumerable: true });
  }
}

/** Runs one operation of `store`; a failure rejects with a PostgresStoreError naming the store (one already is passes as it is). */
export async function asStore<T>(store: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw error instanceof PostgresStoreError ? error : new PostgresStoreError(store, error);
  }
}

/**
 * contrato/postgres: what several processes of one integration share through PostgreSQL — the inbox of
 * received deliveries, the leases of long-poll cursors, the journal of outgoing keyed calls and the rate
 * limit of a credential. Built on node-postgres (`pg`, an optional peer): pass your own `pg.Pool`; this
 * module never imports `pg`. Apply the tables with `migrate(pool)` or `contrato db migrate <DATABASE_URL>`.
 * One process needs none of it: the memory implementations of the same interfaces are the default.
 */
export {
  type ConnectionPool,
  defaultSchema,
  inTransaction,
  type PooledConnection,
  type Queryable,
  type QueryResult,
  RollbackFailedError,
  type SchemaOptions,
} from './database.js';
export { PostgresStoreError } from './failures.js';
export { type MigrateResult, type Migration, migrate, migrations } from './migrate.js';
export { postgresCursorLeases } from './cursors.js';
export {
  type PostgresRateLimiter,
  type PostgresRateLimiterOptions,
  postgresRateLimiter,
  rateLimitBucket,
  SharedRateLimitError,
} from './rate-limit.js';
export { postgresIdempotencyJournal } from './journal.js';
export { postgresDeliveryStore, type PruneOptions, pruneHandledDeliveries } from './inbox.js';
export {
  createPostgresPixNotificationHandler,
  createPostgresWebhookHandler,
  type InTransaction,
  type PostgresInboxOptions,
  type PostgresPixNotificationHandlerOptions,
  type PostgresWebhookHandlerOptions,
} from './inbox-handlers.js';

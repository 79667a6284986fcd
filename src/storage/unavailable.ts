import { UnavailableError } from '../shared/errors.js';

/** How a failed database call failed, when the database itself (not the query) was the problem. */
export type Unavailability = 'refused' | 'stalled';

/**
 * PostgreSQL SQLSTATE classes and codes that mean the server went away or will not take the connection
 * (PostgreSQL manual, appendix A): class 08 connection exceptions, 57P01 admin_shutdown, 57P02
 * crash_shutdown, 57P03 cannot_connect_now, 53300 too_many_connections.
 */
const PG_CODES = new Set(['57P01', '57P02', '57P03', '53300']);

/** Socket errors of a connection that could not be made or was cut. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENOENT', // a Unix socket that is not there while the server restarts
]);

/** SQLite: a lock conflict inside one database connection's own use; the database is not usable now. */
const SQLITE_CODES = new Set(['SQLITE_LOCKED']);

/** How many `cause` links the classifiers follow (drivers wrap once or twice). */
const MAX_CAUSES = 8;

/** node-postgres raises these as plain errors, told apart only by their text. */
const STALLED =
  /^(Query read timeout|timeout exceeded when trying to connect|Connection terminated due to connection timeout)$/;
const REFUSED =
  /^(Connection terminated unexpectedly|Connection terminated|Client has encountered a connection error and is not queryable|Client was closed and is not queryable)$/;

/** Whether `error` means the database could not be reached (and how), rather than a bad query. */
export function classifyUnavailable(error: unknown, depth = 0): Unavailability | undefined {
  if (error instanceof UnavailableError) return 'refused';
  if (!(error instanceof Error)) return undefined;
  const code = (error as Error & { code?: unknown }).code;
  if (typeof code === 'string') {
    if (PG_CODES.has(code) || code.startsWith('08') || SOCKET_CODES.has(code) || SQLITE_CODES.has(code))
      return 'refused';
  }
  if (STALLED.test(error.message)) return 'stalled';
  if (REFUSED.test(error.message)) return 'refused';
  // A pg "Connection terminated" error can arrive wrapped by the driver that saw it first.
  // A few wrappings deep at most: an error that is its own cause must not loop.
  return error.cause === undefined || depth >= MAX_CAUSES
    ? undefined
    : classifyUnavailable(error.cause, depth + 1);
}

/**
 * Whether `error` is a statement that ran out of time while the database itself answered: PostgreSQL
 * cancelled it at `statement_timeout` (SQLSTATE 57014 query_canceled; an administrator's cancel is the same
 * code, and "try again" suits it too), or SQLite waited `busy_timeout` for another connection's lock
 * (SQLITE_BUSY, or SQLITE_BUSY_TIMEOUT where the library reports it). Not an outage: the next statement may
 * well succeed. A statement the server never answers is `stalled` (classifyUnavailable) instead.
 */
export function isStatementTimeout(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as Error & { code?: unknown }).code;
  // SQLITE_BUSY and its extended codes (SQLITE_BUSY_TIMEOUT, _SNAPSHOT, _RECOVERY): a lock not had in time.
  if (code === '57014' || (typeof code === 'string' && code.startsWith('SQLITE_BUSY'))) return true;
  return error.cause !== undefined && depth < MAX_CAUSES && isStatementTimeout(error.cause, depth + 1);
}

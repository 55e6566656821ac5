import { NoWritableServer } from './writable-host.js';

/**
 * SQLSTATEs that say the server went away or cannot take the statement now, not that the statement
 * is wrong: class 08 (connection exception), 57P01–57P03 (shut down, crashed, starting) and 25006
 * (a read-only server: a standby, or a primary demoted since the connection was made).
 */
const UNAVAILABLE_STATES = new Set(['08000', '08001', '08003', '08004', '08006', '57P01', '57P02', '57P03', '25006']);

/** Socket errors of a connection to the database. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/** What node-postgres says, without a code, when a connection ends or cannot be made in time. */
const DRIVER_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
];

/**
 * Whether an error means the database was unreachable or its connection died, so that the call
 * may succeed if retried (a restart, a failover: design §21.2), rather than a fault of the call.
 */
export function isConnectionLost(error: unknown): boolean {
  if (error instanceof NoWritableServer) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_STATES.has(code) || SOCKET_CODES.has(code))) return true;
  if (DRIVER_MESSAGES.some((m) => error.message.startsWith(m))) return true;
  return error.cause !== undefined && error.cause !== error && isConnectionLost(error.cause);
}

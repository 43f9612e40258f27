/** Error codes of a dependency that is down or going away: sockets, Postgres (class 08, 57P0x), Prisma's connection errors. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  'P1001', // Prisma: can't reach the database server
  'P1002',
  'P1017', // Prisma: server closed the connection
]);

const UNAVAILABLE_MESSAGES =
  /Connection terminated|Connection is closed|connect ECONNREFUSED|database system is (starting up|shutting down)|MaxRetriesPerRequest|Stream isn't writeable|Can't reach database server/i;

/**
 * Whether a failure means Postgres, Redis or NATS is unreachable (a restart, a network cut)
 * rather than a fault of ours: answered 503 SERVICE_UNAVAILABLE, which clients retry, instead of
 * an internal error. Looks through the error's causes (driver adapters wrap the socket's error).
 */
export function isDependencyUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
    current = cause;
  }
  return false;
}

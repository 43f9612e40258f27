/**
 * Error codes of a dependency that is down, going away or full: sockets, Postgres (class 08,
 * 57P0x, 53300), Prisma's connection errors. Redis Cluster's own (below, by message) say a slot
 * is moving between nodes or has no master for a moment (a failover).
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections: every connection slot taken (the others' pools); retrying may find one
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
  /Connection terminated|Connection is closed|connect ECONNREFUSED|database system is (starting up|shutting down)|MaxRetriesPerRequest|Stream isn't writeable|Can't reach database server|too many clients already|^(MOVED|ASK|CLUSTERDOWN|TRYAGAIN|LOADING|MASTERDOWN|READONLY) |Failed to refresh slots cache|None of startup nodes is available|Cluster isn't ready/i;

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

/** Postgres's data exceptions that only a client's value can cause. */
const INPUT_CODES: Record<string, string> = {
  '22003': 'Number out of range', // numeric_value_out_of_range: 2^31 into an integer column
  '22P05': 'Invalid character in request', // untranslatable_character: \u0000 into text or jsonb
  '22021': 'Invalid character in request', // character_not_in_repertoire: a NUL byte in text
  '54000': 'Value too long', // program_limit_exceeded: a key longer than an index row holds
  P2000: 'Value too long', // Prisma: the value is too long for the column
  P2020: 'Number out of range', // Prisma: a value out of range for the column's type
  P2033: 'Number out of range', // Prisma: a number does not fit a 64-bit integer
};
const INPUT_MESSAGES: [RegExp, string][] = [
  [/Unable to fit (integer )?value|out of range for type (integer|smallint|bigint)/i, 'Number out of range'],
  [/unsupported Unicode escape sequence|invalid byte sequence for encoding/i, 'Invalid character in request'],
  [/index row size .* exceeds/i, 'Value too long'],
];

/**
 * The message of a database failure that a client's value caused (an id past what its column
 * holds, a NUL the text type refuses, a key too long for its index), or undefined. A last line
 * of defence, answered 400 instead of a 500: the rules that know the value should refuse it
 * with their own words first. The failed statement changed nothing.
 */
export function inputOutOfRange(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && INPUT_CODES[code]) return INPUT_CODES[code];
    if (typeof message === 'string') for (const [pattern, text] of INPUT_MESSAGES) if (pattern.test(message)) return text;
    current = cause;
  }
  return undefined;
}

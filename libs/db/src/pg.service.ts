import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { SpanKind, inSpan, refuseIfTooLateToCommit, tracing } from '@teamchat/platform';
import { Pool, type ClientBase, type PoolClient, type QueryResultRow } from 'pg';

/**
 * One named SQL statement: Postgres parses and plans it once per connection (a prepared
 * statement), then only binds values. Declare each once, in its service's SQL module.
 */
export interface Statement<Row extends QueryResultRow, Params extends unknown[]> {
  readonly name: string;
  readonly text: string;
  /** Phantom: the parameter and row types, for typing callers. */
  readonly _types?: [Row, Params];
}

export const statement = <Row extends QueryResultRow, Params extends unknown[] = unknown[]>(
  name: string,
  text: string,
): Statement<Row, Params> => ({ name, text });

/** What can run a statement: the pool, or one connection inside a transaction. */
export interface Queryable {
  run<Row extends QueryResultRow, Params extends unknown[]>(statement: Statement<Row, Params>, ...params: Params): Promise<Row[]>;
}

/**
 * A Prisma interactive transaction as a Queryable, for the rare read that must see what the
 * transaction wrote before it commits (the statement runs unnamed on the transaction's connection).
 */
export const queryableOf = (tx: { $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T> }): Queryable => ({
  run: <Row extends QueryResultRow, Params extends unknown[]>(s: Statement<Row, Params>, ...params: Params) =>
    tx.$queryRawUnsafe<Row[]>(s.text, ...params),
});

/**
 * A flat array of numbers and strings (and nulls) as Postgres's array literal, in one pass (the
 * values Postgres reads from it are those of pg's own literal). pg escapes each element with two
 * regular expressions and converts each number through its general value conversion. Anything
 * else (nested arrays, buffers, dates, objects) is left to pg.
 */
export function arrayLiteral(values: readonly unknown[]): string | undefined {
  let literal = '{';
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (i > 0) literal += ',';
    if (value === null || value === undefined) literal += 'NULL';
    else if (typeof value === 'number') literal += String(value);
    else if (typeof value === 'string') literal += quotedElement(value);
    else return undefined;
  }
  return `${literal}}`;
}

/**
 * A text element in double quotes, `"` and `\` escaped by a backslash. For a text with no control
 * character and no surrogate (which JSON.stringify would write as `\n`, `\u…`), that is exactly
 * what JSON.stringify writes, natively: for the outbox row of a message to 1,000 recipients
 * (25 KB of JSON, 6,000 quotes) 0.15 ms, where a regular expression's replace took 1.3 ms of the
 * messaging service's CPU per send.
 */
function quotedElement(value: string): string {
  return JSON_WRITES_OTHERWISE.test(value) ? `"${value.replace(ARRAY_SPECIAL, '\\$&')}"` : JSON.stringify(value);
}

/** Characters JSON.stringify may write otherwise than the array literal's quoting (a surrogate pair included, to keep the test cheap). */
// eslint-disable-next-line no-control-regex
const JSON_WRITES_OTHERWISE = /[\u0000-\u001f\ud800-\udfff]/;
const ARRAY_SPECIAL = /["\\]/g;

/** A statement's parameters as sent: flat arrays written by arrayLiteral, the rest as pg converts them. */
const paramsOf = (params: unknown[]): unknown[] => params.map((param) => (Array.isArray(param) ? (arrayLiteral(param) ?? param) : param));

const runOn =
  (target: Pool | PoolClient) =>
  async <Row extends QueryResultRow, Params extends unknown[]>(s: Statement<Row, Params>, ...params: Params): Promise<Row[]> => {
    const run = async () => (await target.query<Row>({ name: s.name, text: s.text, values: paramsOf(params) })).rows;
    return tracing.enabled ? inSpan(`pg ${s.name}`, { kind: SpanKind.CLIENT, attributes: DB_ATTRIBUTES(s.name) }, run) : run();
  };

/** How a service's connections plan its prepared statements. */
export interface PlanningOptions {
  /**
   * Plan each prepared statement once per connection (Postgres's generic plan), never for the
   * values of a call. For a service whose statements are all look-ups by ids, whose best plan
   * does not depend on the values: Postgres otherwise keeps planning a many-join statement per
   * call when its estimate favours that (push's candidate recipients: 2 ms of planning for 3 ms
   * of execution, on every message). Set per session, so it holds through PgBouncer (session mode).
   */
  genericPlans?: boolean;
}

function openPool(connectionString: string, max: number, { genericPlans = false }: PlanningOptions = {}): Pool {
  const pool = new Pool({
    connectionString,
    max,
    // Awaited on each new connection before its first statement (pg-pool waits for the promise,
    // though its type says void); a connection that cannot run it is closed, not used.
    onConnect: genericPlans ? (client: ClientBase) => client.query('SET plan_cache_mode = force_generic_plan') : undefined,
  });
  // An idle connection that breaks (Postgres restarted) is dropped from the pool, and the next
  // query opens a new one; unhandled, the pool's 'error' event would end the process.
  pool.on('error', () => undefined);
  return pool;
}

/** A statement's span attributes (the name, never the values). */
const DB_ATTRIBUTES = (name: string) => ({ 'db.system.name': 'postgresql', 'db.operation.name': name });

/**
 * The database through the `pg` driver, for hot paths: every statement prepared and named,
 * no ORM in between. Prisma keeps the schema, the migrations and the cold paths.
 */
@Injectable()
export class PgService implements Queryable, OnApplicationShutdown {
  private readonly pool: Pool;
  private readonly replicaPool?: Pool;
  /**
   * Where reads that may be a moment behind go (searches): the replica's pool when
   * DATABASE_REPLICA_URL is set, else the primary's. Statements only, never a transaction.
   */
  readonly replica: Pick<PgService, 'run' | 'query'>;

  constructor(databaseUrl: string, poolSize = 10, replicaUrl = '', planning: PlanningOptions = {}) {
    this.pool = openPool(databaseUrl, poolSize, planning);
    this.replicaPool = replicaUrl ? openPool(replicaUrl, poolSize, planning) : undefined;
    const replica = this.replicaPool;
    this.replica = replica
      ? {
          run: <Row extends QueryResultRow, Params extends unknown[]>(s: Statement<Row, Params>, ...params: Params) => runOn(replica)(s, ...params),
          query: async <Row extends QueryResultRow>(sql: { text: string; values: unknown[] }) => (await replica.query<Row>(sql.text, sql.values)).rows,
        }
      : this;
  }

  run<Row extends QueryResultRow, Params extends unknown[]>(s: Statement<Row, Params>, ...params: Params): Promise<Row[]> {
    return runOn(this.pool)(s, ...params);
  }

  /**
   * A statement whose shape depends on the request (a narrow's conditions), composed with
   * `Prisma.sql` (which only builds text and values; no ORM runs) and sent unnamed.
   */
  async query<Row extends QueryResultRow>(sql: { text: string; values: unknown[] }): Promise<Row[]> {
    const run = async () => (await this.pool.query<Row>(sql.text, paramsOf(sql.values))).rows;
    return tracing.enabled ? inSpan('pg query', { kind: SpanKind.CLIENT, attributes: DB_ATTRIBUTES('query') }, run) : run();
  }

  /** `work` inside one BEGIN … COMMIT on one pooled connection (ROLLBACK if it throws). */
  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    if (tracing.enabled) return inSpan('pg transaction', { kind: SpanKind.CLIENT, attributes: DB_ATTRIBUTES('transaction') }, () => this.inTransaction(work));
    return this.inTransaction(work);
  }

  private async inTransaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    // A checked-out client has no listener of the pool's: a connection lost meanwhile (Postgres
    // restarted, the backend ended) would be an unheard 'error' event, which ends the process.
    // Heard here, it fails the transaction's next statement, and the pool drops the client.
    let lost: Error | undefined;
    const onLost = (error: Error) => (lost ??= error);
    client.on('error', onLost);
    try {
      await client.query('BEGIN');
      const result = await work({ run: runOn(client) });
      refuseIfTooLateToCommit();
      await client.query('COMMIT');
      return result;
    } catch (error) {
      if (!lost) await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.removeListener('error', onLost);
      client.release(lost);
    }
  }

  /**
   * Last of all on shutdown (not onModuleDestroy, which Nest runs first): the commands and jobs
   * still draining need the database until then.
   */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.pool.end(), this.replicaPool?.end()]);
  }
}

import { useTestDatabase } from '@teamchat/testing';
import { statement } from './pg.service';

/**
 * Postgres ends a connection while a transaction holds it (a restart, a failover, an
 * administrator): the transaction fails, the process goes on, and the pool opens a new
 * connection for what comes next. pg emits 'error' on a client that loses its connection, and
 * a pool's client checked out for a transaction has no listener of the pool's: unheard, that
 * event ends the process.
 */
describe('a connection lost inside a transaction', () => {
  const db = useTestDatabase({ poolSize: 2 });

  const backendPid = statement<{ pid: number }, []>('test.backend-pid', 'SELECT pg_backend_pid() AS pid');
  const one = statement<{ one: number }, []>('test.one', 'SELECT 1 AS one');
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /** Ends the backend with `pid` from another connection (Prisma's), as Postgres itself would. */
  const terminate = (pid: number) => db.prisma.$queryRawUnsafe(`SELECT pg_terminate_backend(${pid})`);

  it('between statements: the transaction fails and the next statement runs on a new connection', async () => {
    const outcome = db.pg
      .transaction(async (tx) => {
        const [{ pid }] = await tx.run(backendPid);
        await terminate(pid);
        // The connection is gone while the transaction waits on something else.
        await sleep(200);
        await tx.run(one);
      })
      .then(
        () => 'committed',
        (error: unknown) => (error instanceof Error ? 'failed' : 'other'),
      );
    expect(await outcome).toBe('failed');
    expect(await db.pg.run(one)).toEqual([{ one: 1 }]);
  });

  it('during a statement: the statement fails, and the pool goes on', async () => {
    const outcome = db.pg
      .transaction(async (tx) => {
        const [{ pid }] = await tx.run(backendPid);
        await Promise.all([tx.run(statement('test.sleep', 'SELECT pg_sleep(1)')), sleep(100).then(() => terminate(pid))]);
      })
      .then(
        () => 'committed',
        () => 'failed',
      );
    expect(await outcome).toBe('failed');
    expect(await db.pg.run(one)).toEqual([{ one: 1 }]);
    expect(await db.pg.run(one)).toEqual([{ one: 1 }]);
  });
});

import { withDeadline } from '@teamchat/platform';
import { useTestDatabase } from '@teamchat/testing';
import { statement } from './pg.service';

/**
 * A command's transaction commits only while its caller still waits: past the deadline it rolls
 * back and answers "not done" (503 with Retry-After), so a 503 never hides a change that was kept.
 */
describe('transactions and the command deadline', () => {
  const db = useTestDatabase({ poolSize: 2 });
  let realmId: number;

  beforeAll(async () => {
    realmId = (await db.factory.organization()).id;
  });

  const describe_ = statement<never, [string, number]>('test.describe-realm', 'UPDATE realms SET description = $1 WHERE id = $2');
  const description = async () => (await db.prisma.realm.findUniqueOrThrow({ where: { id: realmId } })).description;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('pg: keeps the change when the work ends in time, rolls it back when the deadline passed meanwhile', async () => {
    const write = (text: string, ms: number) =>
      withDeadline(Date.now(), () =>
        db.pg.transaction(async (tx) => {
          await tx.run(describe_, text, realmId);
          await sleep(ms);
        }),
        // The caller waits 1,250 ms, an answer needs 250 of them: a second for the work, which a
        // busy machine's BEGIN, statement and COMMIT fit in (with 100 ms, CI's starved run did not).
        Date.now() + 1250,
      );
    await write('in time', 0);
    expect(await description()).toBe('in time');
    expect(await write('too late', 1100).catch((error: unknown) => error)).toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: 'Service temporarily unavailable',
      extra: { 'retry-after': 1 },
    });
    expect(await description()).toBe('in time');
  });

  it('Prisma: the same for an interactive transaction', async () => {
    const write = (text: string, ms: number) =>
      withDeadline(Date.now(), () =>
        db.prisma.transaction(async (tx) => {
          await tx.realm.update({ where: { id: realmId }, data: { description: text } });
          await sleep(ms);
        }),
        // The caller waits 1,250 ms, an answer needs 250 of them: a second for the work, which a
        // busy machine's BEGIN, statement and COMMIT fit in (with 100 ms, CI's starved run did not).
        Date.now() + 1250,
      );
    await write('prisma in time', 0);
    expect(await description()).toBe('prisma in time');
    expect(await write('prisma too late', 1100).catch((error: unknown) => error)).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(await description()).toBe('prisma in time');
  });

  it('outside a command (a worker, the command line) has no deadline', async () => {
    await db.pg.transaction(async (tx) => {
      await tx.run(describe_, 'no deadline', realmId);
      await sleep(150);
    });
    expect(await description()).toBe('no deadline');
  });
});

import { createTestDatabase, dropTestDatabase } from '@teamchat/testing';
import { PgService, statement } from './pg.service';

/**
 * PlanningOptions.genericPlans: a service's statements planned once per connection, whatever
 * the values (Postgres's plan counts per prepared statement, read on the same connection).
 */
describe('PgService generic plans', () => {
  let database: { name: string; url: string };

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await dropTestDatabase(database.name);
  });

  const byId = statement<{ id: number }, [number]>('test.realm-by-id', 'SELECT id FROM realms WHERE id = $1');
  const plans = statement<{ generic: string; custom: string }, [string]>(
    'test.plan-counts',
    'SELECT generic_plans::text AS generic, custom_plans::text AS custom FROM pg_prepared_statements WHERE name = $1',
  );

  /** Runs the look-up three times on a one-connection pool, then counts how its plans were made. */
  async function planCounts(pg: PgService): Promise<{ generic: string; custom: string }[]> {
    try {
      for (const id of [1, 2, 3]) await pg.run(byId, id);
      return await pg.run(plans, byId.name);
    } finally {
      await pg.onApplicationShutdown();
    }
  }

  it('plans a statement for each call by default (Postgres’s first five are custom)', async () => {
    expect(await planCounts(new PgService(database.url, 1))).toEqual([{ generic: '0', custom: '3' }]);
  });

  it('plans it once per connection with genericPlans', async () => {
    expect(await planCounts(new PgService(database.url, 1, '', { genericPlans: true }))).toEqual([{ generic: '3', custom: '0' }]);
  });
});

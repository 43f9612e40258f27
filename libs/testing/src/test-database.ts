import { PgService, openPrisma, type PrismaService } from '@teamchat/db';
import { createTestDatabase, dropTestDatabase } from './databases';
import { Factory } from './factories';

// Not in databases.ts: the global setup imports that before the build has generated Prisma's client.

/** A spec file's own database, as useTestDatabase gives it. */
export interface TestDatabase {
  readonly prisma: PrismaService;
  /** The database through pg, as the services' repositories reach it (opened on first use). */
  readonly pg: PgService;
  readonly factory: Factory;
}

/**
 * A database of the spec file's own for specs of repositories and SQL, without the services:
 * created before its tests (a copy of the migrated template), dropped after them. Call it in a
 * `describe`; the fields are there once `beforeAll` has run. `poolSize`: pg's connections.
 */
export function useTestDatabase({ poolSize }: { poolSize?: number } = {}): TestDatabase {
  let database: { name: string; url: string } | undefined;
  let prisma: PrismaService | undefined;
  let pg: PgService | undefined;
  let factory: Factory | undefined;
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useTestDatabase: the database is there only once beforeAll has run');
    return value;
  };
  beforeAll(async () => {
    database = await createTestDatabase();
    prisma = openPrisma(database.url);
    factory = new Factory(prisma);
  });
  afterAll(async () => {
    await pg?.onApplicationShutdown();
    await prisma?.$disconnect();
    if (database) await dropTestDatabase(database.name);
  });
  return {
    get prisma() {
      return ready(prisma);
    },
    get pg() {
      return (pg ??= new PgService(ready(database).url, poolSize));
    },
    get factory() {
      return ready(factory);
    },
  };
}

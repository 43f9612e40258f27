import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';
import { PgService, openPrisma, type PrismaService } from '@teamchat/db';
import { Factory } from './factories';
import { TEST_POSTGRES_URL, templateDatabase, workspaceRoot } from './test-environment';

const root = workspaceRoot();

async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: `${TEST_POSTGRES_URL}/postgres` });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Once per run: a migrated template every test file's database is copied from. */
export async function createTemplateDatabase(): Promise<void> {
  const template = templateDatabase();
  await admin(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${template}`);
  });
  execFileSync(path.join(root, 'node_modules/.bin/prisma'), ['migrate', 'deploy'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: `${TEST_POSTGRES_URL}/${template}` },
    stdio: 'pipe',
  });
}

/** A fresh, migrated database of its own (copying the template takes milliseconds). */
export async function createTestDatabase(): Promise<{ name: string; url: string }> {
  const name = `teamchat_test_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${templateDatabase()}`));
  return { name, url: `${TEST_POSTGRES_URL}/${name}` };
}

export async function dropTestDatabase(name: string): Promise<void> {
  await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

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

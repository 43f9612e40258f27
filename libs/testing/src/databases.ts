import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';
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

/**
 * Empties a test database for the next test file (every table but the migrations' record, in
 * one TRUNCATE), while the services stay connected; their sequences go on. Refused rather than
 * waited on for long if a service holds a lock.
 */
export async function emptyTestDatabase(url: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`SET lock_timeout = '5s'`);
    const { rows } = await client.query<{ name: string }>(
      `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables
        WHERE schemaname NOT IN ('pg_catalog', 'information_schema') AND tablename <> '_prisma_migrations'`,
    );
    await client.query(`TRUNCATE ${rows.map((row) => row.name).join(', ')}`);
  } finally {
    await client.end();
  }
}

export async function dropTestDatabase(name: string): Promise<void> {
  await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

import { existsSync } from 'node:fs';
import path from 'node:path';

/** Where the tests find Postgres, Redis and NATS (the same defaults as the services). */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432';
export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const TEST_NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
/** Set by the global setup, one per Jest run, so concurrent runs never share a template. */
export const templateDatabase = (): string => process.env.TEAMCHAT_TEMPLATE_DB ?? 'teamchat_test_template';
/** The root host of test organizations: `<subdomain>.testserver.local`. */
export const TEST_ROOT_HOST = 'testserver.local';

/** The repository's root: the nearest folder up from here holding prisma/schema.prisma (works from src and dist). */
export function workspaceRoot(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'prisma', 'schema.prisma'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Cannot find the workspace root (prisma/schema.prisma)');
    dir = parent;
  }
  return dir;
}

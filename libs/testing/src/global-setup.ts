import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createTemplateDatabase } from './databases';
import { TEST_NATS_URL, TEST_POSTGRES_URL, TEST_REDIS_URL, workspaceRoot } from './test-environment';

/** What tools/deps returns: stopped by the global teardown (the same process). */
export interface Dependencies {
  stop(): Promise<void>;
}
export const DEPENDENCIES_KEY = '__teamchatTestDependencies';

/**
 * Makes Postgres, Redis and NATS answer at the test URLs (tools/deps: starting private instances
 * under var/deps, or TEAMCHAT_DEPS_DIR, when they do not; installing them as root on Debian when
 * missing), builds the services the integration tests start, and migrates the template database.
 */
export default async function globalSetup(): Promise<void> {
  const root = workspaceRoot();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { ensureDependencies, defaultStateDir } = require(path.join(root, 'tools/deps'));
  const dependencies: Dependencies = await ensureDependencies({
    stateDir: defaultStateDir(root),
    urls: { postgres: TEST_POSTGRES_URL, redis: TEST_REDIS_URL, nats: TEST_NATS_URL },
    log: (line: string) => process.stdout.write(`${line}\n`),
  });
  (globalThis as Record<string, unknown>)[DEPENDENCIES_KEY] = dependencies;
  try {
    if (!process.env.TEAMCHAT_SKIP_BUILD) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require(path.join(root, 'tools/build.js')).build({ quiet: true });
    }
    // Test workers inherit this variable: every file of this run copies the same template.
    process.env.TEAMCHAT_TEMPLATE_DB = `teamchat_test_template_${randomBytes(4).toString('hex')}`;
    await createTemplateDatabase();
  } catch (error) {
    // Jest runs no teardown after a failed setup: stop here what was started.
    await dependencies.stop();
    throw error;
  }
}

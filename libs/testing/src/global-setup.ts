import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createTemplateDatabase } from './databases';

/** Builds the services the integration tests start, and migrates the template database. */
export default async function globalSetup(): Promise<void> {
  if (!process.env.TEAMCHAT_SKIP_BUILD) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(path.resolve(__dirname, '../../../tools/build.js')).build({ quiet: true });
  }
  // Test workers inherit this variable: every file of this run copies the same template.
  process.env.TEAMCHAT_TEMPLATE_DB = `teamchat_test_template_${randomBytes(4).toString('hex')}`;
  await createTemplateDatabase();
}

import path from 'node:path';
import { createTemplateDatabase } from './databases';

/** Builds the services the integration tests start, and migrates the template database. */
export default async function globalSetup(): Promise<void> {
  if (!process.env.TEAMCHAT_SKIP_BUILD) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(path.resolve(__dirname, '../../../tools/build.js')).build({ quiet: true });
  }
  await createTemplateDatabase();
}

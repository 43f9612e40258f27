import { dropTestDatabase } from './databases';
import { DEPENDENCIES_KEY, type Dependencies } from './global-setup';
import { stopRecordedSystems } from './system-records';
import { templateDatabase } from './test-environment';

/**
 * Stops the test systems still running (those files handed on, see TestSystem.start), drops the
 * template database, then stops the dependencies the global setup started (only those).
 */
export default async function globalTeardown(): Promise<void> {
  const dependencies = (globalThis as Record<string, unknown>)[DEPENDENCIES_KEY] as Dependencies | undefined;
  try {
    await stopRecordedSystems();
    await dropTestDatabase(templateDatabase());
  } finally {
    await dependencies?.stop();
  }
}

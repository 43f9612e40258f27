import { dropTestDatabase } from './databases';
import { DEPENDENCIES_KEY, type Dependencies } from './global-setup';
import { templateDatabase } from './test-environment';

/** Drops the template database, then stops the dependencies the global setup started (only those). */
export default async function globalTeardown(): Promise<void> {
  const dependencies = (globalThis as Record<string, unknown>)[DEPENDENCIES_KEY] as Dependencies | undefined;
  try {
    await dropTestDatabase(templateDatabase());
  } finally {
    await dependencies?.stop();
  }
}

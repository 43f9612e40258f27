import { dropTestDatabase } from './databases';
import { templateDatabase } from './test-environment';

export default async function globalTeardown(): Promise<void> {
  await dropTestDatabase(templateDatabase());
}

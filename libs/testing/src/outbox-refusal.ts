import type { PrismaService } from '@teamchat/db';

/**
 * Runs `during` while the test database's event_outbox refuses rows of the event `subject` (a
 * CHECK constraint, dropped after): a change that writes its event in its own transaction then
 * fails whole; one that published its event after committing would not notice.
 */
export async function refusingEventRows<T>(db: PrismaService, subject: string, during: () => Promise<T>): Promise<T> {
  await db.$executeRawUnsafe(`ALTER TABLE event_outbox ADD CONSTRAINT outbox_spec_refusal CHECK (subject NOT LIKE '%${subject}') NOT VALID`);
  try {
    return await during();
  } finally {
    await db.$executeRawUnsafe('ALTER TABLE event_outbox DROP CONSTRAINT outbox_spec_refusal');
  }
}

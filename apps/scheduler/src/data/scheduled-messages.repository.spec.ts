import { useTestDatabase } from '@teamchat/testing';
import { DeliveryType, ScheduledMessagesRepository } from './scheduled-messages.repository';

/**
 * A sender's undelivered scheduled messages and reminders (POST /register's `scheduled_messages`
 * and `reminders`), read through pg, are what the Prisma query it replaced read: every field (the
 * scheduled time is the column `scheduled_timestamp`), earliest first, ties by id.
 */
describe('a sender’s undelivered scheduled messages through pg', () => {
  const db = useTestDatabase();

  it('has each of the sender’s undelivered ones of the type, failed ones included, earliest first', async () => {
    const [realm, other] = [await db.factory.organization(), await db.factory.organization()];
    const [sender, someoneElse] = [await db.factory.user(realm), await db.factory.user(realm)];
    const at = (minutes: number) => new Date(Date.UTC(2030, 0, 1, 0, minutes));
    const stored = (senderId: number, realmId: number, minutes: number, more: Record<string, unknown> = {}) =>
      db.prisma.scheduledMessage.create({
        data: { realmId, senderId, type: 'private', recipientIds: [sender.id], content: `at ${minutes}`, renderedContent: `<p>at ${minutes}</p>`, scheduledAt: at(minutes), ...more },
      });
    await stored(sender.id, realm.id, 30);
    await stored(sender.id, realm.id, 10, { failed: true, failureMessage: 'Channel gone' });
    await stored(sender.id, realm.id, 20, { type: 'stream', streamId: 5, recipientIds: [], topic: 'later', readBySender: true });
    await stored(sender.id, realm.id, 20);
    await stored(sender.id, realm.id, 5, { delivered: true, deliveredMessageId: 9 });
    await stored(sender.id, realm.id, 15, { deliveryType: DeliveryType.REMIND, reminderTargetMessageId: 3, reminderNote: 'look' });
    await stored(someoneElse.id, realm.id, 1);
    await stored(sender.id, other.id, 1);
    const repository = new ScheduledMessagesRepository(db.prisma, db.pg);
    for (const deliveryType of [DeliveryType.SEND_LATER, DeliveryType.REMIND]) {
      const expected = await db.prisma.scheduledMessage.findMany({
        where: { realmId: realm.id, senderId: sender.id, delivered: false, deliveryType },
        orderBy: [{ scheduledAt: 'asc' }, { id: 'asc' }],
      });
      expect(await repository.undeliveredOf(realm.id, sender.id, deliveryType)).toEqual(expected);
    }
    expect((await repository.undeliveredOf(realm.id, sender.id)).map((row) => row.content)).toEqual(['at 10', 'at 20', 'at 20', 'at 30']);
    expect((await repository.undeliveredOf(realm.id, sender.id, DeliveryType.REMIND)).map((row) => row.reminderNote)).toEqual(['look']);
  });
});

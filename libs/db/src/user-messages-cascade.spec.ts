import { useTestDatabase } from '@teamchat/testing';

/**
 * user_messages has no foreign key to messages (its check per row cost as much as a send's
 * insert); a statement trigger on messages takes the rows of deleted messages instead. These
 * are the deletions the key's ON DELETE CASCADE used to cover.
 */
describe('user_messages go with their messages', () => {
  const db = useTestDatabase();

  const rowsOf = (messageIds: number[]) => db.prisma.userMessage.count({ where: { messageId: { in: messageIds } } });

  it('takes the rows of the messages one statement deleted, and only theirs', async () => {
    const { realm, owner, member } = await db.factory.organizationWithStaff({ subdomain: 'cascade-one' });
    const channel = await db.factory.channel(realm, { subscribers: [owner, member] });
    const [first, second, third] = await db.factory.channelMessages(owner, channel, 'topic', 3);
    expect(await rowsOf([first, second, third])).toBe(6);

    await db.prisma.message.deleteMany({ where: { id: { in: [first, second] } } });
    expect(await rowsOf([first, second])).toBe(0);
    expect(await rowsOf([third])).toBe(2);

    await db.prisma.$executeRaw`DELETE FROM messages WHERE id = ${third}`;
    expect(await rowsOf([third])).toBe(0);
  });

  it('a row written for a message being deleted waits for the deletion and is taken with it (as under a key)', async () => {
    const { realm, owner, member } = await db.factory.organizationWithStaff({ subdomain: 'cascade-three' });
    const channel = await db.factory.channel(realm, { subscribers: [owner] });
    const [id] = await db.factory.channelMessages(owner, channel, 'topic', 1);
    // messaging.insert_historical_row's statement, in a transaction left open while another deletes the message.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const writer = db.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`INSERT INTO user_messages (user_id, message_id, flags) SELECT ${member.id}, m.id, 1 FROM messages m WHERE m.id = ${id} FOR KEY SHARE ON CONFLICT DO NOTHING`;
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const deletion = db.prisma.$executeRaw`DELETE FROM messages WHERE id = ${id}`;
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    await writer;
    expect(await deletion).toBe(1);
    expect(await rowsOf([id])).toBe(0);
  });
});

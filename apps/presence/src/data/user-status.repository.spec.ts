import { useTestDatabase } from '@teamchat/testing';
import { UserStatusRepository } from './user-status.repository';

/** POST /register's `user_status` rows, read through pg, are what the Prisma query it replaced read. */
describe('the organization’s stored statuses through pg', () => {
  const db = useTestDatabase();

  it('every status of the organization by user id, with what a client is shown, and none of another', async () => {
    const [realm, other] = [await db.factory.organization(), await db.factory.organization()];
    const users = [await db.factory.user(realm), await db.factory.user(realm), await db.factory.user(realm), await db.factory.user(other)];
    // Stored out of user order, one with only an emoji, one of another organization.
    for (const [user, status] of [
      [users[2], { statusText: 'on leave', emojiName: 'palm_tree', emojiCode: '1f334', reactionType: 'unicode_emoji' }],
      [users[0], { emojiName: 'party', emojiCode: '42', reactionType: 'realm_emoji' }],
      [users[3], { statusText: 'elsewhere' }],
    ] as const) {
      await db.prisma.userStatus.create({ data: { userId: user.id, realmId: user.realmId, ...status } });
    }
    const expected = await db.prisma.userStatus.findMany({
      where: { realmId: realm.id },
      select: { userId: true, statusText: true, emojiName: true, emojiCode: true, reactionType: true },
      orderBy: { userId: 'asc' },
    });
    expect(expected.map((row) => row.userId)).toEqual([users[0].id, users[2].id]);
    expect(await new UserStatusRepository(db.prisma, db.pg).ofRealm(realm.id)).toEqual(expected);
  });
});

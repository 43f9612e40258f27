import { useTestDatabase } from '@teamchat/testing';
import { Role } from '@teamchat/zulip';
import { OrganizationsRepository } from './organizations.repository';
import { UsersRepository } from './users.repository';

/**
 * The whole organization and the whole account read through pg (POST /register's hot path) are
 * what Prisma reads, key for key and value for value: a field whose column is not its name in
 * snake_case (what columnsOf assumes) fails here.
 */
describe('whole rows through pg', () => {
  const db = useTestDatabase();

  it('an organization by id is the Prisma model, every field; one that is not there is an error', async () => {
    const realm = await db.factory.organization({ name: 'Columns' });
    await db.prisma.realm.update({ where: { id: realm.id }, data: { jitsiServerUrl: 'https://meet.example', userSettingsDefaults: { enter_sends: true } } });
    const organizations = new OrganizationsRepository(db.prisma, db.pg);
    const expected = await db.prisma.realm.findUniqueOrThrow({ where: { id: realm.id } });
    expect(await organizations.byIdOrThrow(realm.id)).toEqual(expected);
    await expect(organizations.byIdOrThrow(realm.id + 1000)).rejects.toThrow(`no organization ${realm.id + 1000}`);
  });

  it('an account by id is the Prisma model, every field, and only in its own organization', async () => {
    const realm = await db.factory.organization();
    const other = await db.factory.organization();
    const user = await db.factory.user(realm, { role: Role.MODERATOR, settings: { twenty_four_hour_time: true }, timezone: 'Europe/Paris' });
    const users = new UsersRepository(db.prisma, db.pg);
    const expected = await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(await users.wholeOfRealm(realm.id, user.id)).toEqual(expected);
    await expect(users.wholeOfRealm(other.id, user.id)).rejects.toThrow(`no user ${user.id} in organization ${other.id}`);
  });
});

import { PgService, openPrisma, type PrismaService } from '@teamchat/db';
import { Factory, createTestDatabase, dropTestDatabase } from '@teamchat/testing';
import { Role } from '@teamchat/zulip';
import { OrganizationsRepository } from './organizations.repository';
import { UsersRepository } from './users.repository';

/**
 * The whole organization and the whole account read through pg (POST /register's hot path) are
 * what Prisma reads, key for key and value for value: a field whose column is not its name in
 * snake_case (what columnsOf assumes) fails here.
 */
describe('whole rows through pg', () => {
  let database: { name: string; url: string };
  let prisma: PrismaService;
  let pg: PgService;

  beforeAll(async () => {
    database = await createTestDatabase();
    prisma = openPrisma(database.url);
    pg = new PgService(database.url);
  });
  afterAll(async () => {
    await pg.onApplicationShutdown();
    await prisma.$disconnect();
    await dropTestDatabase(database.name);
  });

  it('an organization by id is the Prisma model, every field; one that is not there is an error', async () => {
    const factory = new Factory(prisma);
    const realm = await factory.organization({ name: 'Columns' });
    await prisma.realm.update({ where: { id: realm.id }, data: { jitsiServerUrl: 'https://meet.example', userSettingsDefaults: { enter_sends: true } } });
    const organizations = new OrganizationsRepository(prisma, pg);
    const expected = await prisma.realm.findUniqueOrThrow({ where: { id: realm.id } });
    expect(await organizations.byIdOrThrow(realm.id)).toEqual(expected);
    await expect(organizations.byIdOrThrow(realm.id + 1000)).rejects.toThrow(`no organization ${realm.id + 1000}`);
  });

  it('an account by id is the Prisma model, every field, and only in its own organization', async () => {
    const factory = new Factory(prisma);
    const realm = await factory.organization();
    const other = await factory.organization();
    const user = await factory.user(realm, { role: Role.MODERATOR, settings: { twenty_four_hour_time: true }, timezone: 'Europe/Paris' });
    const users = new UsersRepository(prisma, pg);
    const expected = await prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(await users.wholeOfRealm(realm.id, user.id)).toEqual(expected);
    await expect(users.wholeOfRealm(other.id, user.id)).rejects.toThrow(`no user ${user.id} in organization ${other.id}`);
  });
});

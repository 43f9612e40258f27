import { useTestDatabase } from '@teamchat/testing';
import { ChannelFoldersRepository } from './channel-folders.repository';
import { ChannelsRepository } from './channels.repository';
import { DraftsRepository } from './drafts.repository';
import { LinkifiersRepository } from './linkifiers.repository';
import { MemberProfilesReadonlyRepository } from './member-profiles.readonly.repository';
import { SavedSnippetsRepository } from './saved-snippets.repository';

/**
 * What POST /register reads of messaging's tables through pg (drafts, saved snippets, channel
 * folders, linkifiers, playgrounds, default channels, a user's stored settings) is what the
 * Prisma queries it replaced read: every field of every row, in the same order. A column named
 * otherwise than its field in snake_case, or an order lost, fails here.
 */
describe('POST /register’s reads of messaging’s tables through pg', () => {
  const db = useTestDatabase();

  it('drafts: the newest first (ties by id, newest first), at most the limit, only the user’s', async () => {
    const realm = await db.factory.organization();
    const [user, other] = [await db.factory.user(realm), await db.factory.user(realm)];
    const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));
    for (const [n, seconds] of [3, 1, 3, 2, 5].entries()) {
      await db.prisma.draft.create({ data: { userId: user.id, type: n % 2 ? 'private' : 'stream', to: n % 2 ? [other.id, user.id] : [n], topic: `t${n}`, content: `draft ${n}`, lastEditTime: at(seconds) } });
    }
    await db.prisma.draft.create({ data: { userId: other.id, type: '', to: [], topic: '', content: 'not mine', lastEditTime: at(9) } });
    const drafts = new DraftsRepository(db.prisma, db.pg);
    for (const limit of [10, 3]) {
      const expected = await db.prisma.draft.findMany({ where: { userId: user.id }, orderBy: [{ lastEditTime: 'desc' }, { id: 'desc' }], take: limit });
      expect(await drafts.newest(user.id, limit)).toEqual(expected);
    }
    expect((await drafts.newest(user.id, 10)).map((draft) => draft.content)).toEqual(['draft 4', 'draft 2', 'draft 0', 'draft 3', 'draft 1']);
  });

  it('saved snippets: the user’s, oldest first', async () => {
    const realm = await db.factory.organization();
    const [user, other] = [await db.factory.user(realm), await db.factory.user(realm)];
    for (const n of [1, 2, 3]) await db.prisma.savedSnippet.create({ data: { userId: n === 2 ? other.id : user.id, title: `title ${n}`, content: `content ${n}` } });
    const expected = await db.prisma.savedSnippet.findMany({ where: { userId: user.id }, orderBy: { id: 'asc' } });
    expect(expected).toHaveLength(2);
    expect(await new SavedSnippetsRepository(db.prisma, db.pg).ofUser(user.id)).toEqual(expected);
  });

  it('channel folders: in their order then by id, archived ones only when asked, only the organization’s', async () => {
    const [realm, other] = [await db.factory.organization(), await db.factory.organization()];
    const creator = await db.factory.user(realm);
    for (const [n, order] of [2, 0, 2, 1].entries()) {
      await db.prisma.channelFolder.create({ data: { realmId: realm.id, name: `folder ${n}`, description: `about ${n}`, renderedDescription: `<p>about ${n}</p>`, creatorId: creator.id, order, isArchived: n === 3 } });
    }
    await db.prisma.channelFolder.create({ data: { realmId: other.id, name: 'elsewhere' } });
    const folders = new ChannelFoldersRepository(db.prisma, db.pg);
    for (const includeArchived of [true, false]) {
      const expected = await db.prisma.channelFolder.findMany({ where: { realmId: realm.id, ...(includeArchived ? {} : { isArchived: false }) }, orderBy: [{ order: 'asc' }, { id: 'asc' }] });
      expect(await folders.list(realm.id, includeArchived)).toEqual(expected);
    }
    expect((await folders.list(realm.id, true)).map((folder) => folder.name)).toEqual(['folder 1', 'folder 3', 'folder 0', 'folder 2']);
  });

  it('linkifiers in the order they apply and playgrounds oldest first, from the pool and inside a transaction', async () => {
    const [realm, other] = [await db.factory.organization(), await db.factory.organization()];
    for (const [n, order] of [1, 0, 1].entries()) await db.prisma.realmLinkifier.create({ data: { realmId: realm.id, pattern: `#(?P<id>[0-9]+)${n}`, urlTemplate: `https://example.test/${n}/{id}`, order } });
    await db.prisma.realmLinkifier.create({ data: { realmId: other.id, pattern: 'x', urlTemplate: 'https://example.test/x' } });
    for (const n of [1, 2]) await db.prisma.realmPlayground.create({ data: { realmId: realm.id, name: `Playground ${n}`, pygmentsLanguage: n === 1 ? 'Python' : 'Rust', urlTemplate: `https://play.example/${n}?code={code}` } });
    const linkifiers = new LinkifiersRepository(db.prisma, db.pg);
    const expectedLinkifiers = await db.prisma.realmLinkifier.findMany({ where: { realmId: realm.id }, orderBy: [{ order: 'asc' }, { id: 'asc' }] });
    const expectedPlaygrounds = await db.prisma.realmPlayground.findMany({ where: { realmId: realm.id }, orderBy: { id: 'asc' } });
    expect(await linkifiers.ofRealm(realm.id)).toEqual(expectedLinkifiers);
    expect(await linkifiers.playgroundsOf(realm.id)).toEqual(expectedPlaygrounds);
    // Inside a transaction: what it wrote is seen before the commit.
    await db.prisma.$transaction(async (tx) => {
      await tx.realmPlayground.create({ data: { realmId: realm.id, name: 'Uncommitted', pygmentsLanguage: 'Go', urlTemplate: 'https://go.example/{code}' } });
      expect((await linkifiers.playgroundsOf(realm.id, tx)).map((row) => row.name)).toEqual(['Playground 1', 'Playground 2', 'Uncommitted']);
      expect(await linkifiers.ofRealm(realm.id, tx)).toEqual(expectedLinkifiers);
    });
  });

  it('default channels: flagged, public and not archived, in id order, also inside a transaction', async () => {
    const realm = await db.factory.organization();
    const flagged: number[] = [];
    for (const [n, state] of (['public', 'private', 'archived', 'public', 'plain'] as const).entries()) {
      const channel = await db.factory.channel(realm, { name: `default ${n}` });
      await db.prisma.stream.update({ where: { id: channel.id }, data: { isDefault: state !== 'plain', inviteOnly: state === 'private', isArchived: state === 'archived' } });
      if (state === 'public') flagged.push(channel.id);
    }
    const channels = new ChannelsRepository(db.pg, db.prisma);
    expect(await channels.defaultIds(realm.id)).toEqual(flagged);
    await db.prisma.$transaction(async (tx) => {
      await tx.stream.updateMany({ where: { id: flagged[0] }, data: { isDefault: false } });
      expect(await channels.defaultIds(realm.id, tx)).toEqual(flagged.slice(1));
    });
  });

  it('a user’s stored settings with the organization’s defaults, and nothing for a user of another organization', async () => {
    const [realm, other] = [await db.factory.organization(), await db.factory.organization()];
    await db.prisma.realm.update({ where: { id: realm.id }, data: { userSettingsDefaults: { enable_drafts_synchronization: false, twenty_four_hour_time: true } } });
    const user = await db.factory.user(realm, { settings: { enter_sends: true } });
    const profiles = new MemberProfilesReadonlyRepository(db.pg, db.prisma);
    const row = await db.prisma.user.findFirst({ where: { id: user.id, realmId: realm.id }, select: { settings: true, realm: { select: { userSettingsDefaults: true } } } });
    expect(await profiles.storedSettings(realm.id, user.id)).toEqual({ settings: row!.settings, realmDefaults: row!.realm.userSettingsDefaults });
    expect(await profiles.storedSettings(realm.id, user.id)).toEqual({ settings: { enter_sends: true }, realmDefaults: { enable_drafts_synchronization: false, twenty_four_hour_time: true } });
    expect(await profiles.storedSettings(other.id, user.id)).toEqual({ settings: undefined, realmDefaults: undefined });
  });
});

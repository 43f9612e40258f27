import type { ClientEvent } from '@teamchat/contracts';
import type { ChannelFolderModel } from '@teamchat/db';
import { Role } from '@teamchat/zulip';
import {
  EventQueueClient,
  Factory,
  TestSystem,
  expectCallersRefused,
  expectError,
  expectMatchesOpenApi,
  expectNoInternals,
  expectSuccess,
  type ApiResponse,
  type Credentials,
  type EventRecorder,
  type FormValue,
  type TestUser,
} from '@teamchat/testing';
import { checkFolderForChannel } from '../src/channel-folders/folder-for-channel';
import { ChannelFoldersRepository } from '../src/data/channel-folders.repository';

const CHANGED = 'event.messaging.channel_folder_changed.v1';
const NOT_ADMIN = 'Must be an organization administrator';
const IN_USE = 'Channel folder name already in use';
const INVALID_ID = 'Invalid channel folder ID';
const HOLDS_CHANNELS = 'You need to remove all the channels from this folder to archive it.';

interface Folder {
  id: number;
  name: string;
  description: string;
  rendered_description: string;
  creator_id: number | null;
  date_created: number;
  is_archived: boolean;
  order: number;
}

interface Channel {
  stream_id: number;
  name: string;
  folder_id: number | null;
  [key: string]: unknown;
}

type Staff = Awaited<ReturnType<Factory['organizationWithStaff']>>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('channel folders', () => {
  let system: TestSystem;
  let factory: Factory;
  let events: EventRecorder;
  let org: Staff;
  let subdomain: string;
  let realmId: number;
  let owner: TestUser, admin: TestUser, moderator: TestUser, member: TestUser, guest: TestUser, bot: TestUser, deactivated: TestUser;
  let outsider: TestUser, outsiderSubdomain: string, outsiderRealmId: number;
  let counter = 0;

  const as = (user: TestUser, sub = subdomain) => ({ auth: user, subdomain: sub });
  const subOf = (staff: Staff) => staff.realm.subdomain;
  const create = (user: TestUser, form: Record<string, FormValue>, sub = subdomain) =>
    system.api.post<{ channel_folder_id: number }>('/channel_folders/create', form, as(user, sub));
  const list = (user: TestUser, query: Record<string, FormValue> = {}, sub = subdomain) =>
    system.api.get<{ channel_folders: Folder[] }>('/channel_folders', query, as(user, sub));
  const update = (user: TestUser, id: number | string, form: Record<string, FormValue>, sub = subdomain) =>
    system.api.patch(`/channel_folders/${id}`, form, as(user, sub));
  const reorder = (user: TestUser, form: Record<string, FormValue>, sub = subdomain) => system.api.patch('/channel_folders', form, as(user, sub));
  /** A name no other test uses. */
  const unique = (prefix = 'Folder') => `${prefix} ${++counter}`;
  /** A folder written straight to the store, as if made earlier (no event). */
  const store = (
    realm: { id: number },
    input: { name?: string; description?: string; renderedDescription?: string; isArchived?: boolean; order?: number; creatorId?: number | null } = {},
  ) =>
    system.db.channelFolder.create({
      data: {
        realmId: realm.id,
        name: input.name ?? unique(),
        description: input.description ?? '',
        renderedDescription: input.renderedDescription ?? '',
        isArchived: input.isArchived ?? false,
        order: input.order ?? 0,
        creatorId: input.creatorId ?? null,
      },
    });
  const allFolders = () => system.db.channelFolder.findMany({ orderBy: { id: 'asc' } });
  const folderRow = (id: number) => system.db.channelFolder.findUniqueOrThrow({ where: { id } });
  /** The record GET /channel_folders, POST /register and the add event show for a stored folder. */
  const record = (row: ChannelFolderModel): Folder => ({
    id: row.id,
    name: row.name,
    description: row.description,
    rendered_description: row.renderedDescription,
    creator_id: row.creatorId,
    date_created: Math.floor(row.dateCreated.getTime() / 1000),
    is_archived: row.isArchived,
    order: row.order,
  });
  /** Every active user of an organization, bots included, ascending: who hears of its folders. */
  const activeIds = async (realm: { id: number }) =>
    (await system.db.user.findMany({ where: { realmId: realm.id, isActive: true }, select: { id: true }, orderBy: { id: 'asc' } })).map((u) => u.id);
  const expectNoEvent = async () => expect(await events.publishedByNow(CHANGED)).toEqual([]);
  /** The event as GET /events would serve it, checked against the project's document. */
  const expectEventMatchesOpenApi = (event: Record<string, unknown>) =>
    expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: 'q', events: [{ id: 0, ...event }] });
  const updateEvent = (realm: { id: number }, users: number[], folderId: number, data: Record<string, unknown>) => ({
    realmId: realm.id,
    users,
    event: { type: 'channel_folder', op: 'update', channel_folder_id: folderId, data },
  });
  /** An organization of its own, for tests that must know every folder in it. */
  const freshOrg = () => factory.organizationWithStaff();

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    org = await factory.organizationWithStaff({ subdomain: 'folders' });
    ({ owner, admin, member, guest } = org);
    subdomain = org.realm.subdomain;
    realmId = org.realm.id;
    moderator = await factory.user(org.realm, { role: Role.MODERATOR, fullName: 'Mo Derator' });
    bot = await factory.user(org.realm, { isBot: true, botOwnerId: member.id, fullName: 'Helper bot' });
    deactivated = await factory.user(org.realm, { role: Role.ADMINISTRATOR, isActive: false });
    const elsewhere = await factory.organization({ subdomain: 'folders-elsewhere' });
    outsiderSubdomain = elsewhere.subdomain;
    outsiderRealmId = elsewhere.id;
    outsider = await factory.user(elsewhere, { role: Role.OWNER });
    events = await system.recordEvents();
  });
  afterAll(() => system?.stop());
  beforeEach(() => events.clear());

  describe('POST /channel_folders/create', () => {
    it('lets an administrator create a folder, its description rendered, and tells every active user', async () => {
      const o = await freshOrg();
      const orgBot = await factory.user(o.realm, { isBot: true, botOwnerId: o.member.id });
      const gone = await factory.user(o.realm, { isActive: false });
      const before = Date.now();
      const body = expectSuccess(await create(o.admin, { name: 'Backend', description: 'Channels for **backend** discussions' }, subOf(o)));
      expectMatchesOpenApi('post', '/channel_folders/create', body);
      expect(body).toEqual({ result: 'success', msg: '', channel_folder_id: expect.any(Number) });

      const row = await folderRow(body.channel_folder_id);
      expect(row).toMatchObject({
        realmId: o.realm.id,
        name: 'Backend',
        description: 'Channels for **backend** discussions',
        renderedDescription: '<p>Channels for <strong>backend</strong> discussions</p>',
        creatorId: o.admin.id,
        isArchived: false,
        order: 0,
      });
      expect(row.dateCreated.getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(row.dateCreated.getTime()).toBeLessThanOrEqual(Date.now() + 1000);

      const [event] = await events.waitFor<ClientEvent>(CHANGED);
      const users = await activeIds(o.realm);
      expect(users).toEqual([o.owner.id, o.admin.id, o.member.id, o.guest.id, orgBot.id]);
      expect(users).not.toContain(gone.id);
      expect(event).toEqual({ realmId: o.realm.id, users, event: { type: 'channel_folder', op: 'add', channel_folder: record(row) } });
      expectEventMatchesOpenApi(event.event);
      expect(await events.settle(CHANGED)).toHaveLength(1);
    });

    it('lets an owner create one too', async () => {
      const name = unique('Owned');
      const { channel_folder_id: id } = expectSuccess(await create(owner, { name, description: '' }));
      expect(await folderRow(id)).toMatchObject({ realmId, name, creatorId: owner.id });
      await events.waitFor(CHANGED);
    });

    it('stores the name stripped and the description as sent, an empty one rendered empty', async () => {
      const name = unique('Stripped');
      const { channel_folder_id: id } = expectSuccess(await create(admin, { name: `  ${name}  `, description: '  Design *work*  ' }));
      expect(await folderRow(id)).toMatchObject({ name, description: '  Design *work*  ', renderedDescription: '<p>Design <em>work</em></p>' });
      const [event] = await events.waitFor<ClientEvent>(CHANGED);
      expect((event.event.channel_folder as Folder).name).toBe(name);

      const { channel_folder_id: plain } = expectSuccess(await create(admin, { name: unique('Plain'), description: '' }));
      expect(await folderRow(plain)).toMatchObject({ description: '', renderedDescription: '' });
    });

    it('puts each new folder last, after a reorder too', async () => {
      const o = await freshOrg();
      const ids: number[] = [];
      for (const name of ['A', 'B', 'C']) ids.push(expectSuccess(await create(o.admin, { name, description: '' }, subOf(o))).channel_folder_id);
      expect((await Promise.all(ids.map(folderRow))).map((row) => row.order)).toEqual([0, 1, 2]);
      expectSuccess(await reorder(o.admin, { order: [ids[2], ids[0], ids[1]] }, subOf(o)));
      const d = expectSuccess(await create(o.admin, { name: 'D', description: '' }, subOf(o))).channel_folder_id;
      expect((await folderRow(d)).order).toBe(3);
      const listed = expectSuccess(await list(o.member, {}, subOf(o))).channel_folders;
      expect(listed.map((f) => f.name)).toEqual(['C', 'A', 'B', 'D']);
    });

    it('enforces the limits POST /register serves, counting characters', async () => {
      const queue = await EventQueueClient.register(system.api, as(admin), { fetch_event_types: ['realm'] });
      const nameMax = queue.state.max_channel_folder_name_length as number;
      const descriptionMax = queue.state.max_channel_folder_description_length as number;
      expect([nameMax, descriptionMax]).toEqual([60, 1024]);

      const name = `${unique('L')} `.padEnd(nameMax - 1, 'x') + '😀';
      expect(Array.from(name)).toHaveLength(nameMax);
      const description = 'é'.repeat(descriptionMax);
      const { channel_folder_id: id } = expectSuccess(await create(admin, { name, description }));
      expect(await folderRow(id)).toMatchObject({ name, description });
      await events.waitFor(CHANGED);
      events.clear();

      const before = await allFolders();
      expectError(await create(admin, { name: `${name}x`, description: '' }), 400, 'BAD_REQUEST', `name is too long (limit: ${nameMax} characters)`);
      expectError(
        await create(admin, { name: unique('L'), description: `${description}x` }),
        400,
        'BAD_REQUEST',
        `description is too long (limit: ${descriptionMax} characters)`,
      );
      expect(await allFolders()).toEqual(before);
      await expectNoEvent();
    });

    it('lets a folder take an archived folder’s name, and another organization’s', async () => {
      const name = unique('Reused');
      await store({ id: realmId }, { name, isArchived: true });
      await store({ id: outsiderRealmId }, { name });
      const { channel_folder_id: id } = expectSuccess(await create(admin, { name: name.toUpperCase(), description: '' }));
      expect(await folderRow(id)).toMatchObject({ name: name.toUpperCase(), isArchived: false });
    });

    it('settles two creations of one name at once: one folder, one refusal', async () => {
      const name = unique('Race');
      const results = await Promise.all([create(admin, { name, description: '' }), create(owner, { name, description: '' })]);
      const ok = results.filter((res) => res.status === 200);
      expect(ok).toHaveLength(1);
      expectError(results.find((res) => res.status !== 200)!, 400, 'BAD_REQUEST', IN_USE);
      expect(await system.db.channelFolder.count({ where: { realmId, name } })).toBe(1);
      expect(await events.settle(CHANGED)).toHaveLength(1);
    });

    it('reports unsupported parameters', async () => {
      const res = await create(admin, { name: unique(), description: '', color: 'red' });
      expect((expectSuccess(res) as Record<string, unknown>).ignored_parameters_unsupported).toEqual(['color']);
    });

    describe('refusals', () => {
      beforeAll(async () => {
        await store(org.realm, { name: 'Frontend' });
      });

      it.each<[string, Record<string, FormValue>, string]>([
        ['an empty name', { name: '', description: 'x' }, "Channel folder name can't be empty."],
        ['a blank name', { name: ' \t ', description: 'x' }, "Channel folder name can't be empty."],
        ['a name past 60 characters', { name: 'n'.repeat(61), description: '' }, 'name is too long (limit: 60 characters)'],
        ['a name past 60 characters with blanks (counted as sent)', { name: ` ${'n'.repeat(59)} `, description: '' }, 'name is too long (limit: 60 characters)'],
        ['a description past 1024 characters', { name: 'Long', description: 'd'.repeat(1025) }, 'description is too long (limit: 1024 characters)'],
        ['a null byte in the name', { name: 'abc\u0000', description: '' }, 'Invalid character in channel folder name, at position 4.'],
        ['a control character in the name', { name: 'a\u0007b', description: '' }, 'Invalid character in channel folder name, at position 2.'],
        ['a noncharacter in the name', { name: '😀\uFFFE', description: '' }, 'Invalid character in channel folder name, at position 2.'],
        ['a trailing newline (characters are checked as sent)', { name: 'Design\n', description: '' }, 'Invalid character in channel folder name, at position 7.'],
        ['an unarchived folder’s name', { name: 'Frontend', description: '' }, IN_USE],
        ['an unarchived folder’s name in another case', { name: 'frontEND', description: '' }, IN_USE],
        ['an unarchived folder’s name with blanks around it', { name: '  Frontend ', description: '' }, IN_USE],
        ['a null byte in the description', { name: 'Nul', description: 'a\u0000' }, 'description must not contain null bytes'],
      ])('refuses %s, storing and announcing nothing', async (_name, form, msg) => {
        const before = await allFolders();
        const res = await create(admin, form);
        expectError(res, 400, 'BAD_REQUEST', msg);
        expectNoInternals(res);
        expect(await allFolders()).toEqual(before);
        await expectNoEvent();
      });

      it.each([['name'], ['description']])('requires %s', async (missing) => {
        const before = await allFolders();
        const form: Record<string, FormValue> = { name: unique(), description: '' };
        delete form[missing];
        expectError(await create(admin, form), 400, 'REQUEST_VARIABLE_MISSING', `Missing '${missing}' argument`, { var_name: missing });
        expect(await allFolders()).toEqual(before);
        await expectNoEvent();
      });

      it.each<[string, () => TestUser]>([
        ['a member', () => member],
        ['a moderator', () => moderator],
        ['a guest', () => guest],
        ['a bot', () => bot],
      ])('refuses %s, before looking at the name', async (_name, who) => {
        const before = await allFolders();
        expectError(await create(who(), { name: unique(), description: '' }), 400, 'UNAUTHORIZED_PRINCIPAL', NOT_ADMIN);
        expectError(await create(who(), { name: '', description: 'd'.repeat(2000) }), 400, 'UNAUTHORIZED_PRINCIPAL', NOT_ADMIN);
        expect(await allFolders()).toEqual(before);
        await expectNoEvent();
      });
    });
  });

  describe('GET /channel_folders', () => {
    let o: Staff;
    let rows: ChannelFolderModel[];

    beforeAll(async () => {
      o = await freshOrg();
      const a = await store(o.realm, { name: 'A', description: 'About *a*', renderedDescription: '<p>About <em>a</em></p>', order: 2, creatorId: o.admin.id });
      const b = await store(o.realm, { name: 'B', isArchived: true, order: 0, creatorId: o.owner.id });
      const c = await store(o.realm, { name: 'C', order: 1 });
      const d = await store(o.realm, { name: 'D', order: 1 });
      rows = [a, b, c, d];
      await store({ id: outsiderRealmId }, { name: 'Foreign' });
    });

    it.each<[string, () => TestUser]>([
      ['a member', () => o.member],
      ['a guest', () => o.guest],
      ['an administrator', () => o.admin],
      ['the owner', () => o.owner],
    ])('shows %s the unarchived folders in their order (ties by id)', async (_name, who) => {
      const [a, , c, d] = rows;
      const body = expectSuccess(await list(who(), {}, subOf(o)));
      expectMatchesOpenApi('get', '/channel_folders', body);
      expect(body).toEqual({ result: 'success', msg: '', channel_folders: [record(c), record(d), record(a)] });
      expect(body.channel_folders[2]).toMatchObject({ description: 'About *a*', rendered_description: '<p>About <em>a</em></p>', creator_id: o.admin.id });
    });

    it('includes archived folders when asked', async () => {
      const [a, b, c, d] = rows;
      const body = expectSuccess(await list(o.guest, { include_archived: true }, subOf(o)));
      expectMatchesOpenApi('get', '/channel_folders', body);
      expect(body.channel_folders).toEqual([record(b), record(c), record(d), record(a)]);
      expect(expectSuccess(await list(o.guest, { include_archived: false }, subOf(o))).channel_folders).toEqual([record(c), record(d), record(a)]);
    });

    it('lists nothing for an organization without folders', async () => {
      const empty = await freshOrg();
      const body = expectSuccess(await list(empty.member, { include_archived: true }, subOf(empty)));
      expect(body).toEqual({ result: 'success', msg: '', channel_folders: [] });
    });

    it('shows each organization only its own', async () => {
      const theirs = expectSuccess(await list(outsider, { include_archived: true }, outsiderSubdomain)).channel_folders;
      const stored = await system.db.channelFolder.findMany({ where: { realmId: outsiderRealmId }, orderBy: [{ order: 'asc' }, { id: 'asc' }] });
      expect(theirs).toEqual(stored.map(record));
      expect(theirs.map((f) => f.name)).toContain('Foreign');
      expect(theirs.map((f) => f.id)).not.toEqual(expect.arrayContaining([rows[0].id]));
    });

    it.each<[string, FormValue, string]>([
      ['not JSON', 'yes', 'include_archived is not valid JSON'],
      ['not a boolean', 1, 'include_archived is not a boolean'],
    ])('refuses include_archived that is %s', async (_name, value, msg) => {
      expectError(await list(o.member, { include_archived: value }, subOf(o)), 400, 'BAD_REQUEST', msg);
    });

    it('reports unsupported parameters', async () => {
      const body = expectSuccess(await list(o.member, { archived: true }, subOf(o))) as Record<string, unknown>;
      expect(body.ignored_parameters_unsupported).toEqual(['archived']);
    });
  });

  describe('PATCH /channel_folders/{channel_folder_id}', () => {
    let users: number[];
    beforeAll(async () => {
      users = await activeIds(org.realm);
    });

    it('renames a folder, the name stripped, and tells every active user', async () => {
      const folder = await store(org.realm, { name: unique('Frontend') });
      const name = unique('Web frontend');
      const body = expectSuccess(await update(admin, folder.id, { name: ` ${name} ` }));
      expectMatchesOpenApi('patch', '/channel_folders/{channel_folder_id}', body);
      expect(body).toEqual({ result: 'success', msg: '' });
      expect(await folderRow(folder.id)).toEqual({ ...folder, name });
      const [event] = await events.waitFor<ClientEvent>(CHANGED);
      expect(event).toEqual(updateEvent(org.realm, users, folder.id, { name }));
      expectEventMatchesOpenApi(event.event);
      expect(await events.settle(CHANGED)).toHaveLength(1);
    });

    it('changes the description and its rendering, down to empty', async () => {
      const folder = await store(org.realm, { description: 'Old', renderedDescription: '<p>Old</p>' });
      expectSuccess(await update(owner, folder.id, { description: 'Channels for **frontend** discussions' }));
      const rendered = '<p>Channels for <strong>frontend</strong> discussions</p>';
      expect(await folderRow(folder.id)).toEqual({ ...folder, description: 'Channels for **frontend** discussions', renderedDescription: rendered });
      const [event] = await events.waitFor<ClientEvent>(CHANGED);
      expect(event).toEqual(
        updateEvent(org.realm, users, folder.id, { description: 'Channels for **frontend** discussions', rendered_description: rendered }),
      );
      expectEventMatchesOpenApi(event.event);

      events.clear();
      expectSuccess(await update(admin, folder.id, { description: '' }));
      expect(await folderRow(folder.id)).toMatchObject({ description: '', renderedDescription: '' });
      const [cleared] = await events.waitFor<ClientEvent>(CHANGED);
      expect(cleared.event.data).toEqual({ description: '', rendered_description: '' });
      expectEventMatchesOpenApi(cleared.event);
    });

    it('archives a folder, which leaves the default listing, and unarchives it', async () => {
      const folder = await store(org.realm);
      expectSuccess(await update(admin, folder.id, { is_archived: true }));
      expect(await folderRow(folder.id)).toEqual({ ...folder, isArchived: true });
      const [archived] = await events.waitFor<ClientEvent>(CHANGED);
      expect(archived).toEqual(updateEvent(org.realm, users, folder.id, { is_archived: true }));
      expectEventMatchesOpenApi(archived.event);
      expect(expectSuccess(await list(member)).channel_folders.map((f) => f.id)).not.toContain(folder.id);
      expect(expectSuccess(await list(member, { include_archived: true })).channel_folders.map((f) => f.id)).toContain(folder.id);

      events.clear();
      expectSuccess(await update(admin, folder.id, { is_archived: false }));
      expect(await folderRow(folder.id)).toEqual(folder);
      const [restored] = await events.waitFor<ClientEvent>(CHANGED);
      expect(restored).toEqual(updateEvent(org.realm, users, folder.id, { is_archived: false }));
    });

    it('applies several changes at once, one event each, in Zulip’s order', async () => {
      const folder = await store(org.realm);
      const name = unique('All at once');
      expectSuccess(await update(admin, folder.id, { is_archived: true, description: 'New', name }));
      expect(await folderRow(folder.id)).toEqual({ ...folder, name, description: 'New', renderedDescription: '<p>New</p>', isArchived: true });
      const published = await events.waitFor<ClientEvent>(CHANGED, 3);
      expect(published).toEqual([
        updateEvent(org.realm, users, folder.id, { name }),
        updateEvent(org.realm, users, folder.id, { description: 'New', rendered_description: '<p>New</p>' }),
        updateEvent(org.realm, users, folder.id, { is_archived: true }),
      ]);
      expect(await events.settle(CHANGED)).toHaveLength(3);
    });

    it('accepts a request that changes nothing, announcing nothing', async () => {
      const folder = await store(org.realm, { description: 'Same', renderedDescription: '<p>Same</p>' });
      expectSuccess(await update(admin, folder.id, {}));
      expectSuccess(await update(admin, folder.id, { name: folder.name, description: 'Same', is_archived: false }));
      expectSuccess(await update(admin, folder.id, { name: `  ${folder.name} ` }));
      expect(await folderRow(folder.id)).toEqual(folder);
      await expectNoEvent();
    });

    it('renames a folder to its own name in another case, and to an archived folder’s name', async () => {
      const folder = await store(org.realm, { name: unique('casing') });
      expectSuccess(await update(admin, folder.id, { name: folder.name.toUpperCase() }));
      expect((await folderRow(folder.id)).name).toBe(folder.name.toUpperCase());
      const old = await store(org.realm, { name: unique('Old'), isArchived: true });
      expectSuccess(await update(admin, folder.id, { name: old.name.toLowerCase() }));
      expect((await folderRow(folder.id)).name).toBe(old.name.toLowerCase());
      expect(await events.waitFor(CHANGED, 2)).toHaveLength(2);
    });

    it('archives a folder whose channels have all left it', async () => {
      const folder = await store(org.realm);
      const channel = await factory.channel(org.realm);
      await system.db.stream.update({ where: { id: channel.id }, data: { folderId: folder.id } });
      expectError(await update(admin, folder.id, { is_archived: true }), 400, 'BAD_REQUEST', HOLDS_CHANNELS);
      await system.db.stream.update({ where: { id: channel.id }, data: { folderId: null } });
      expectSuccess(await update(admin, folder.id, { is_archived: true }));
      expect((await folderRow(folder.id)).isArchived).toBe(true);
    });

    describe('refusals', () => {
      let target: ChannelFolderModel, taken: ChannelFolderModel, archivedTwin: ChannelFolderModel, withChannel: ChannelFolderModel;
      let withArchivedChannel: ChannelFolderModel, foreign: ChannelFolderModel;

      beforeAll(async () => {
        target = await store(org.realm, { name: unique('Target'), description: 'Kept', renderedDescription: '<p>Kept</p>' });
        taken = await store(org.realm, { name: unique('Taken') });
        archivedTwin = await store(org.realm, { name: taken.name.toUpperCase(), isArchived: true });
        withChannel = await store(org.realm, { name: unique('Busy') });
        const channel = await factory.channel(org.realm);
        await system.db.stream.update({ where: { id: channel.id }, data: { folderId: withChannel.id } });
        withArchivedChannel = await store(org.realm, { name: unique('Busy archived') });
        const archivedChannel = await factory.channel(org.realm);
        await system.db.stream.update({ where: { id: archivedChannel.id }, data: { folderId: withArchivedChannel.id, isArchived: true } });
        foreign = await store({ id: outsiderRealmId }, { name: unique('Foreign') });
      });

      it.each<[string, () => number, () => Record<string, FormValue>, string]>([
        ['an empty name', () => target.id, () => ({ name: '' }), "Channel folder name can't be empty."],
        ['a blank name', () => target.id, () => ({ name: '   ' }), "Channel folder name can't be empty."],
        ['a name past 60 characters', () => target.id, () => ({ name: 'n'.repeat(61) }), 'name is too long (limit: 60 characters)'],
        ['a description past 1024 characters', () => target.id, () => ({ description: 'd'.repeat(1025) }), 'description is too long (limit: 1024 characters)'],
        ['a null byte in the name', () => target.id, () => ({ name: 'abc\u0000' }), 'Invalid character in channel folder name, at position 4.'],
        ['a control character in the name', () => target.id, () => ({ name: 'ab\u001bc' }), 'Invalid character in channel folder name, at position 3.'],
        ['another unarchived folder’s name', () => target.id, () => ({ name: taken.name }), IN_USE],
        ['another unarchived folder’s name in another case', () => target.id, () => ({ name: taken.name.toLowerCase() }), IN_USE],
        ['is_archived that is not JSON', () => target.id, () => ({ is_archived: 'yes' }), 'is_archived is not valid JSON'],
        ['is_archived that is not a boolean', () => target.id, () => ({ is_archived: '"true"' }), 'is_archived is not a boolean'],
        ['archiving a folder holding a channel', () => withChannel.id, () => ({ is_archived: true }), HOLDS_CHANNELS],
        ['archiving a folder holding an archived channel', () => withArchivedChannel.id, () => ({ is_archived: true }), HOLDS_CHANNELS],
        ['unarchiving a folder whose name an unarchived folder has', () => archivedTwin.id, () => ({ is_archived: false }), IN_USE],
        ['a valid rename beside a refused archiving (nothing is applied)', () => withChannel.id, () => ({ name: unique('Renamed'), is_archived: true }), HOLDS_CHANNELS],
        ['a valid description beside a refused name', () => target.id, () => ({ description: 'Changed', name: taken.name }), IN_USE],
        ['an unknown folder', () => 999999999, () => ({ name: unique() }), INVALID_ID],
        ['folder 0', () => 0, () => ({ name: unique() }), INVALID_ID],
        ['a negative folder id', () => -1, () => ({ name: unique() }), INVALID_ID],
        ['a folder id past the integer range', () => 2 ** 40, () => ({ name: unique() }), INVALID_ID],
        ['another organization’s folder', () => foreign.id, () => ({ name: unique() }), INVALID_ID],
        ['an unknown folder with a name too long (lengths are checked first)', () => 999999999, () => ({ name: 'n'.repeat(61) }), 'name is too long (limit: 60 characters)'],
      ])('refuses %s, changing and announcing nothing', async (_name, id, form, msg) => {
        const before = await allFolders();
        const res = await update(admin, id(), form());
        expectError(res, 400, 'BAD_REQUEST', msg);
        expectNoInternals(res);
        expect(await allFolders()).toEqual(before);
        await expectNoEvent();
      });

      it.each([['abc'], ['1.5'], ['%20']])('answers the path %s with a JSON 404', async (path) => {
        const before = await allFolders();
        expectError(await update(admin, path, { name: unique() }), 404, 'NOT_FOUND', 'Not Found');
        expect(await allFolders()).toEqual(before);
      });

      it.each<[string, () => TestUser]>([
        ['a member', () => member],
        ['a moderator', () => moderator],
        ['a guest', () => guest],
        ['a bot', () => bot],
      ])('refuses %s, before looking for the folder', async (_name, who) => {
        const before = await allFolders();
        expectError(await update(who(), target.id, { name: unique() }), 400, 'UNAUTHORIZED_PRINCIPAL', NOT_ADMIN);
        expectError(await update(who(), 999999999, { is_archived: true }), 400, 'UNAUTHORIZED_PRINCIPAL', NOT_ADMIN);
        expect(await allFolders()).toEqual(before);
        await expectNoEvent();
      });
    });
  });

  describe('PATCH /channel_folders', () => {
    let o: Staff;
    let ids: number[];
    beforeAll(async () => {
      o = await freshOrg();
      const a = await store(o.realm, { name: 'A', order: 0 });
      const b = await store(o.realm, { name: 'B', order: 1, isArchived: true });
      const c = await store(o.realm, { name: 'C', order: 2 });
      ids = [a.id, b.id, c.id];
    });
    const orders = async () => (await system.db.channelFolder.findMany({ where: { realmId: o.realm.id }, orderBy: { id: 'asc' } })).map((f) => f.order);

    it('sets every folder’s order, archived ones included, and tells every active user', async () => {
      const [a, b, c] = ids;
      const body = expectSuccess(await reorder(o.admin, { order: [c, a, b] }, subOf(o)));
      expectMatchesOpenApi('patch', '/channel_folders', body);
      expect(body).toEqual({ result: 'success', msg: '' });
      expect(await orders()).toEqual([1, 2, 0]);
      const listed = expectSuccess(await list(o.guest, { include_archived: true }, subOf(o))).channel_folders;
      expect(listed.map((f) => [f.name, f.order])).toEqual([
        ['C', 0],
        ['A', 1],
        ['B', 2],
      ]);
      const [event] = await events.waitFor<ClientEvent>(CHANGED);
      expect(event).toEqual({ realmId: o.realm.id, users: await activeIds(o.realm), event: { type: 'channel_folder', op: 'reorder', order: [c, a, b] } });
      expectEventMatchesOpenApi(event.event);

      events.clear();
      expectSuccess(await reorder(o.owner, { order: [a, b, c] }, subOf(o)));
      expect(await orders()).toEqual([0, 1, 2]);
      expect((await events.waitFor<ClientEvent>(CHANGED))[0].event).toEqual({ type: 'channel_folder', op: 'reorder', order: [a, b, c] });
    });

    it('takes an empty order in an organization without folders', async () => {
      const empty = await freshOrg();
      expectSuccess(await reorder(empty.admin, { order: [] }, subOf(empty)));
      const [event] = await events.waitFor<ClientEvent>(CHANGED);
      expect(event.event).toEqual({ type: 'channel_folder', op: 'reorder', order: [] });
    });

    it.each<[string, () => FormValue, string]>([
      ['a folder missing', () => [ids[2], ids[0]], 'Invalid order mapping.'],
      ['no folder at all', () => [], 'Invalid order mapping.'],
      ['a folder twice', () => [ids[0], ids[1], ids[2], ids[0]], 'Invalid order mapping.'],
      ['a folder twice in place of another', () => [ids[0], ids[1], ids[1]], 'Invalid order mapping.'],
      ['an unknown folder too', () => [...ids, 999999999], 'Invalid order mapping.'],
      ['an id past the integer range', () => [...ids, 2 ** 40], 'Invalid order mapping.'],
      ['a folder missing, an unknown one in its place', () => [ids[0], ids[1], 999999998], 'Invalid order mapping.'],
      ['text that is not JSON', () => 'a,b', 'order is not valid JSON'],
      ['a value that is not a list', () => '{"a": 1}', 'order is not a list'],
      ['an id that is not an integer', () => [ids[0], String(ids[1]), ids[2]], 'order[1] is not an integer'],
    ])('refuses %s, changing and announcing nothing', async (_name, order, msg) => {
      const before = await allFolders();
      const res = await reorder(o.admin, { order: order() }, subOf(o));
      expectError(res, 400, 'BAD_REQUEST', msg);
      expectNoInternals(res);
      expect(await allFolders()).toEqual(before);
      await expectNoEvent();
    });

    it('refuses another organization’s folder ids', async () => {
      const before = await allFolders();
      expectError(await reorder(outsider, { order: ids }, outsiderSubdomain), 400, 'BAD_REQUEST', 'Invalid order mapping.');
      expect(await allFolders()).toEqual(before);
    });

    it('requires order', async () => {
      expectError(await reorder(o.admin, {}, subOf(o)), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'order' argument", { var_name: 'order' });
    });

    it.each<[string, () => TestUser]>([
      ['a member', () => o.member],
      ['a guest', () => o.guest],
    ])('refuses %s', async (_name, who) => {
      const before = await allFolders();
      expectError(await reorder(who(), { order: [...ids].reverse() }, subOf(o)), 400, 'UNAUTHORIZED_PRINCIPAL', NOT_ADMIN);
      expectError(await reorder(who(), { order: [] }, subOf(o)), 400, 'UNAUTHORIZED_PRINCIPAL', NOT_ADMIN);
      expect(await allFolders()).toEqual(before);
      await expectNoEvent();
    });

    it.each<[string, () => TestUser]>([
      ['a moderator', () => moderator],
      ['a bot', () => bot],
    ])('refuses %s', async (_name, who) => {
      const before = await allFolders();
      expectError(await reorder(who(), { order: [] }), 400, 'UNAUTHORIZED_PRINCIPAL', NOT_ADMIN);
      expect(await allFolders()).toEqual(before);
    });
  });

  describe('event queues and POST /register', () => {
    it('delivers every change to every user’s queue that asked for channel_folder events, and to nobody else', async () => {
      const o = await freshOrg();
      const asked = await EventQueueClient.register(system.api, as(o.member, subOf(o)), { event_types: ['channel_folder'] });
      const everything = await EventQueueClient.register(system.api, as(o.guest, subOf(o)), { fetch_event_types: [] });
      const adminQueue = await EventQueueClient.register(system.api, as(o.admin, subOf(o)), { event_types: ['channel_folder', 'stream'] });
      const draftsOnly = await EventQueueClient.register(system.api, as(o.owner, subOf(o)), { event_types: ['drafts'] });
      const foreignQueue = await EventQueueClient.register(system.api, as(outsider, outsiderSubdomain), { fetch_event_types: [] });

      const id = expectSuccess(await create(o.admin, { name: 'Ops', description: 'Run *things*' }, subOf(o))).channel_folder_id;
      expectSuccess(await update(o.admin, id, { name: 'Operations', description: 'Keep it **running**', is_archived: true }, subOf(o)));
      expectSuccess(await reorder(o.owner, { order: [id] }, subOf(o)));
      const row = await folderRow(id);

      const expected = [
        { type: 'channel_folder', op: 'add', channel_folder: { ...record(row), name: 'Ops', description: 'Run *things*', rendered_description: '<p>Run <em>things</em></p>', is_archived: false } },
        { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { name: 'Operations' } },
        {
          type: 'channel_folder',
          op: 'update',
          channel_folder_id: id,
          data: { description: 'Keep it **running**', rendered_description: '<p>Keep it <strong>running</strong></p>' },
        },
        { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { is_archived: true } },
        { type: 'channel_folder', op: 'reorder', order: [id] },
      ];
      for (const queue of [asked, everything, adminQueue]) {
        const received = await queue.waitFor('channel_folder', expected.length);
        expect(received.map(({ id: _id, ...event }) => event)).toEqual(expected);
        expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: queue.queueId, events: received });
      }
      expect(await draftsOnly.settle()).toEqual([]);
      expect(await foreignQueue.settle()).toEqual([]);
    });

    it('serves every folder, archived ones too, in their order under channel_folders', async () => {
      const o = await freshOrg();
      const a = await store(o.realm, { name: 'A', order: 1, description: 'x', renderedDescription: '<p>x</p>', creatorId: o.admin.id });
      const b = await store(o.realm, { name: 'B', order: 0, isArchived: true });
      await store({ id: outsiderRealmId }, { name: unique('Not theirs') });
      for (const user of [o.guest, o.member, o.admin]) {
        const queue = await EventQueueClient.register(system.api, as(user, subOf(o)), { fetch_event_types: ['channel_folders'] });
        expect(queue.state.channel_folders).toEqual([record(b), record(a)]);
        expectMatchesOpenApi('post', '/register', queue.state);
      }
      const beside = await EventQueueClient.register(system.api, as(o.member, subOf(o)), { fetch_event_types: ['channel_folders', 'drafts', 'realm'] });
      expect(beside.state.channel_folders).toEqual([record(b), record(a)]);
      expect(beside.state).toHaveProperty('drafts');
      expect(beside.state).toHaveProperty('max_channel_folder_name_length', 60);
      expectMatchesOpenApi('post', '/register', beside.state);
    });

    it('serves an empty list to an organization without folders, and nothing when not asked', async () => {
      const o = await freshOrg();
      expect((await EventQueueClient.register(system.api, as(o.member, subOf(o)), { fetch_event_types: ['channel_folders'] })).state.channel_folders).toEqual(
        [],
      );
      await store(o.realm);
      const draftsOnly = await EventQueueClient.register(system.api, as(o.member, subOf(o)), { fetch_event_types: ['drafts'] });
      expect(draftsOnly.state).not.toHaveProperty('channel_folders');
    });
  });

  describe('folder_id in channel records', () => {
    let o: Staff;
    let folder: ChannelFolderModel;
    let inFolder: { id: number; name: string }, loose: { id: number; name: string }, unjoined: { id: number; name: string };

    beforeAll(async () => {
      o = await freshOrg();
      folder = await store(o.realm, { name: 'Engineering' });
      inFolder = await factory.channel(o.realm, { name: 'in-folder', subscribers: [o.member, o.admin] });
      loose = await factory.channel(o.realm, { name: 'loose', subscribers: [o.member] });
      unjoined = await factory.channel(o.realm, { name: 'unjoined' });
      await system.db.stream.updateMany({ where: { id: { in: [inFolder.id, unjoined.id] } }, data: { folderId: folder.id } });
    });
    const folders = (channels: unknown) =>
      Object.fromEntries((channels as Channel[]).map((channel) => [channel.name, channel.folder_id]));

    it('shows it in GET /streams', async () => {
      const body = expectSuccess(await system.api.get<{ streams: Channel[] }>('/streams', {}, as(o.member, subOf(o))));
      expectMatchesOpenApi('get', '/streams', body);
      expect(folders(body.streams)).toEqual({ 'in-folder': folder.id, loose: null, unjoined: folder.id });
    });

    it('shows it in GET /users/me/subscriptions', async () => {
      const body = expectSuccess(await system.api.get<{ subscriptions: Channel[] }>('/users/me/subscriptions', {}, as(o.member, subOf(o))));
      expectMatchesOpenApi('get', '/users/me/subscriptions', body);
      expect(folders(body.subscriptions)).toEqual({ 'in-folder': folder.id, loose: null });
    });

    it('shows it in the channel lists of POST /register', async () => {
      const queue = await EventQueueClient.register(system.api, as(o.member, subOf(o)), {
        fetch_event_types: ['subscription', 'stream'],
        client_capabilities: { notification_settings_null: true },
      });
      expectMatchesOpenApi('post', '/register', queue.state);
      expect(folders(queue.state.subscriptions)).toEqual({ 'in-folder': folder.id, loose: null });
      expect(folders(queue.state.never_subscribed)).toEqual({ unjoined: folder.id });
      expect(folders(queue.state.streams)).toEqual({ 'in-folder': folder.id, loose: null, unjoined: folder.id });
    });

    it('shows it in the stream and subscription events of a subscription', async () => {
      const queue = await EventQueueClient.register(system.api, as(o.guest, subOf(o)), { event_types: ['stream', 'subscription'] });
      expectSuccess(await system.api.post('/users/me/subscriptions', { subscriptions: [{ name: 'in-folder' }], principals: [o.guest.id] }, as(o.admin, subOf(o))));
      const [created] = await queue.waitFor('stream');
      const [added] = await queue.waitFor('subscription');
      expect(created).toMatchObject({ op: 'create', streams: [{ stream_id: inFolder.id, folder_id: folder.id }] });
      expect(added).toMatchObject({ op: 'add', subscriptions: [{ stream_id: inFolder.id, folder_id: folder.id }] });
      expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: queue.queueId, events: [created, added] });
    });

    it('shows null again once the folder is gone', async () => {
      const gone = await store(o.realm, { name: 'Temporary' });
      await system.db.stream.update({ where: { id: loose.id }, data: { folderId: gone.id } });
      await system.db.channelFolder.delete({ where: { id: gone.id } });
      const body = expectSuccess(await system.api.get<{ streams: Channel[] }>('/streams', {}, as(o.member, subOf(o))));
      expect(folders(body.streams).loose).toBeNull();
    });
  });

  describe('checkFolderForChannel (for putting a channel in a folder)', () => {
    let usable: ChannelFolderModel, archived: ChannelFolderModel, foreign: ChannelFolderModel;
    beforeAll(async () => {
      usable = await store(org.realm, { name: unique('Usable') });
      archived = await store(org.realm, { name: unique('Archived'), isArchived: true });
      foreign = await store({ id: outsiderRealmId }, { name: unique('Foreign') });
    });

    it('accepts an unarchived folder of the organization', async () => {
      await expect(checkFolderForChannel(new ChannelFoldersRepository(system.db, system.pg), realmId, usable.id)).resolves.toBeUndefined();
    });

    it.each<[string, () => number]>([
      ['an archived folder', () => archived.id],
      ['another organization’s folder', () => foreign.id],
      ['an unknown folder', () => 999999999],
      ['folder 0', () => 0],
      ['a negative id', () => -5],
      ['an id past the integer range', () => 2 ** 40],
    ])('refuses %s with Zulip’s words', async (_name, id) => {
      await expect(checkFolderForChannel(new ChannelFoldersRepository(system.db, system.pg), realmId, id())).rejects.toMatchObject({ code: 'BAD_REQUEST', message: INVALID_ID, status: 400 });
    });

    it('holds off archiving until the channel is in the folder, which archiving then refuses', async () => {
      const folder = await store(org.realm, { name: unique('Locked') });
      const channel = await factory.channel(org.realm);
      let inside!: () => void;
      let release!: () => void;
      const checked = new Promise<void>((resolve) => (inside = resolve));
      const gate = new Promise<void>((resolve) => (release = resolve));
      const putting = system.db.$transaction(
        async (tx) => {
          await checkFolderForChannel(new ChannelFoldersRepository(system.db, system.pg), realmId, folder.id, tx);
          await tx.stream.update({ where: { id: channel.id }, data: { folderId: folder.id } });
          inside();
          await gate;
        },
        { timeout: 30000 },
      );
      await checked;
      let answered = false;
      const archiving = update(admin, folder.id, { is_archived: true }).then((res) => ((answered = true), res));
      await sleep(500);
      expect(answered).toBe(false);
      release();
      await putting;
      expectError(await archiving, 400, 'BAD_REQUEST', HOLDS_CHANNELS);
      expect((await folderRow(folder.id)).isArchived).toBe(false);
    });
  });

  describe('who may call', () => {
    let folder: ChannelFolderModel;
    beforeAll(async () => {
      folder = await store(org.realm, { name: unique('Callers') });
    });

    const calls: [string, (options: { subdomain: string; auth?: Credentials }) => Promise<ApiResponse<unknown>>][] = [
      ['POST /channel_folders/create', (options) => system.api.post('/channel_folders/create', { name: unique(), description: '' }, options)],
      ['GET /channel_folders', (options) => system.api.get('/channel_folders', {}, options)],
      ['PATCH /channel_folders/{channel_folder_id}', (options) => system.api.patch(`/channel_folders/${folder.id}`, { name: unique() }, options)],
      ['PATCH /channel_folders', (options) => system.api.patch('/channel_folders', { order: [folder.id] }, options)],
    ];

    it.each(calls)('%s refuses callers without valid credentials for the organization', async (_name, call) => {
      const before = await allFolders();
      await expectCallersRefused(call, { subdomain, member: admin, outsider, deactivated });
      expect(await allFolders()).toEqual(before);
      await expectNoEvent();
    });

    it.each<[string, () => TestUser]>([
      ['the owner', () => owner],
      ['an administrator', () => admin],
      ['a moderator', () => moderator],
      ['a member', () => member],
      ['a guest', () => guest],
      ['a bot', () => bot],
    ])('GET /channel_folders answers %s', async (_name, who) => {
      const body = expectSuccess(await list(who()));
      expect(body.channel_folders.map((f) => f.id)).toContain(folder.id);
    });
  });
});

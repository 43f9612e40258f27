import { execFile } from 'node:child_process';
import { writeFile, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Role } from '@teamchat/zulip';
import {
  Factory,
  TestSystem,
  expectCallersRefused,
  expectError,
  expectMatchesOpenApi,
  expectSuccess,
  type EventRecorder,
  type TestUser,
} from '@teamchat/testing';
import sharp from 'sharp';
import { archiveEntries, readAll } from '../src/realm-export/export-archive';
import { multipart, send } from './http';

const EXPORTS_CHANGED = 'event.uploads.realm_exports_changed.v1';
const CONSENT_CHANGED = 'event.users-groups.realm_export_consent_changed.v1';
const CLI = path.resolve(__dirname, '../../../dist/tools/admin/admin-cli.js');

interface RealmExport {
  id: number;
  acting_user_id: number;
  export_time: number;
  deleted_timestamp: number | null;
  failed_timestamp: number | null;
  export_url: string | null;
  pending: boolean;
  export_type: number;
}
type Event = { realmId: number; users: number[]; event: Record<string, unknown> };
type Row = Record<string, unknown>;
interface Archive {
  manifest: { export_type: number; realm_id: number; tables: Record<string, Row[]>; files: { archive: string; kind: string }[] };
  messages: Row[];
  userMessages: Row[];
  reactions: Row[];
  files: Map<string, Buffer>;
}

describe('organization export and import', () => {
  let system: TestSystem;
  let factory: Factory;
  let events: EventRecorder;
  let subdomain: string;
  let realmId: number;
  let owner: TestUser, admin: TestUser, member: TestUser, other: TestUser, guest: TestUser, gone: TestUser, bot: TestUser;
  let outsider: TestUser, outsiderSubdomain: string;
  let uploadUrl: string;
  let uploaded: Buffer;
  const sent: Record<string, number> = {};

  const as = (user: TestUser, sub = subdomain) => ({ auth: user, subdomain: sub });
  const requestExport = (user: TestUser, form: Record<string, string | number> = {}, sub = subdomain) =>
    system.api.post<{ id: number }>('/export/realm', form, as(user, sub));
  const listExports = (user: TestUser, sub = subdomain) => system.api.get<{ exports: RealmExport[] }>('/export/realm', {}, as(user, sub));
  const deleteExport = (user: TestUser, id: number | string, sub = subdomain) => system.api.delete(`/export/realm/${id}`, {}, as(user, sub));
  const consents = (user: TestUser, sub = subdomain) =>
    system.api.get<{ export_consents: { user_id: number; consented: boolean }[] }>('/export/realm/consents', {}, as(user, sub));
  const sendMessage = async (user: TestUser, form: Record<string, string>, sub = subdomain) =>
    expectSuccess(await system.api.post<{ id: number }>('/messages', form, as(user, sub))).id;
  const pathOf = (url: string) => new URL(url).pathname;
  const eventBody = (event: Record<string, unknown>) => ({ result: 'success', msg: '', queue_id: 'q', events: [{ id: 0, ...event }] });
  const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

  /** Waits for the export's `realm_export` event that shows it finished (or failed), and answers the export as it shows it. */
  async function finished(id: number): Promise<RealmExport> {
    for (let i = 0; i < 100; i++) {
      const done = events
        .of<Event>(EXPORTS_CHANGED)
        .map((e) => (e.event.exports as RealmExport[]).find((x) => x.id === id))
        .find((x) => x && !x.pending);
      if (done) return done;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`export ${id} did not finish`);
  }

  async function download(url: string, user: TestUser, sub = subdomain) {
    return send(system, 'GET', pathOf(url), { subdomain: sub, auth: user });
  }

  async function unpack(body: Buffer): Promise<Archive> {
    const archive: Archive = { manifest: undefined as never, messages: [], userMessages: [], reactions: [], files: new Map() };
    for await (const entry of archiveEntries(Readable.from([body]))) {
      const data = await readAll(entry.body);
      if (entry.name === 'realm.json') archive.manifest = JSON.parse(data.toString('utf8'));
      else if (/^messages-\d{6}\.json$/.test(entry.name)) {
        const batch = JSON.parse(data.toString('utf8'));
        archive.messages.push(...batch.messages);
        archive.userMessages.push(...batch.user_messages);
        archive.reactions.push(...batch.reactions);
      } else archive.files.set(entry.name, data);
    }
    return archive;
  }

  const cli = (...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        [CLI, ...args],
        {
          env: {
            PATH: process.env.PATH ?? '',
            DATABASE_URL: system.env.DATABASE_URL,
            EXTERNAL_URL: system.env.EXTERNAL_URL,
            NATS_URL: system.env.NATS_URL,
            NATS_SUBJECT_PREFIX: system.env.NATS_SUBJECT_PREFIX,
            LOCAL_UPLOADS_DIR: system.env.LOCAL_UPLOADS_DIR,
            AVATAR_SALT: system.env.AVATAR_SALT ?? '',
            LOG_LEVEL: 'warn',
          },
        },
        (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
      );
    });

  beforeAll(async () => {
    // A low message limit, so an organization of 41 messages is "too large" to export.
    system = await TestSystem.start({ env: { REALM_EXPORT_MAX_MESSAGES: '40' } });
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'exporting' });
    ({ owner, admin, member, guest } = org);
    subdomain = org.realm.subdomain;
    realmId = org.realm.id;
    other = await factory.user(org.realm, { fullName: 'Otto Other' });
    gone = await factory.user(org.realm, { fullName: 'Gone Member', isActive: false });
    bot = await factory.user(org.realm, { fullName: 'Helper Bot', isBot: true, botOwnerId: owner.id });
    await factory.userSettings(owner, { allow_private_data_export: true });
    await factory.channel(org.realm, { name: 'general', subscribers: [owner, admin, member, other] });
    await factory.channel(org.realm, { name: 'inner', inviteOnly: true, subscribers: [owner, member] });
    await factory.channel(org.realm, { name: 'secret', inviteOnly: true, subscribers: [member, other] });
    const elsewhere = await factory.organization({ subdomain: 'elsewhere' });
    outsiderSubdomain = elsewhere.subdomain;
    outsider = await factory.user(elsewhere, { role: Role.OWNER });

    // A custom emoji, an upload linked from a message, and messages of every kind.
    const emoji = multipart([
      { field: 'file', filename: 'wave.png', type: 'image/png', content: await sharp({ create: { width: 80, height: 80, channels: 4, background: '#3a7' } }).png().toBuffer() },
    ]);
    const added = await send(system, 'POST', '/api/v1/realm/emoji/wave', { subdomain, auth: admin, ...emoji });
    expect(added.status).toBe(200);
    uploaded = Buffer.from('the minutes of the meeting\n'.repeat(50));
    const file = multipart([{ field: 'file', filename: 'minutes.txt', type: 'text/plain', content: uploaded }]);
    const upload = await send(system, 'POST', '/api/v1/user_uploads', { subdomain, auth: owner, ...file });
    uploadUrl = String(upload.json().url);
    sent.general = await sendMessage(member, { type: 'stream', to: 'general', topic: 'greetings', content: 'Hello everyone :wave:' });
    sent.upload = await sendMessage(owner, { type: 'stream', to: 'general', topic: 'minutes', content: `The [minutes](${uploadUrl})` });
    sent.inner = await sendMessage(member, { type: 'stream', to: 'inner', topic: 'plans', content: 'Inner plans' });
    sent.secret = await sendMessage(member, { type: 'stream', to: 'secret', topic: 'hush', content: 'Secret things' });
    sent.ownerDm = await sendMessage(owner, { type: 'direct', to: JSON.stringify([member.id]), content: 'A word with the owner' });
    sent.privateDm = await sendMessage(member, { type: 'direct', to: JSON.stringify([other.id]), content: 'Between us two' });
    expectSuccess(await system.api.post(`/messages/${sent.general}/reactions`, { emoji_name: 'wave' }, as(other)));
    for (let i = 0; i < 50 && (await system.db.attachmentMessage.count({ where: { messageId: sent.upload } })) === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    events = await system.recordEvents();
  }, 120000);
  afterAll(() => system.stop());
  beforeEach(() => events.clear());

  describe('GET /export/realm/consents and the consent setting', () => {
    it("lists each active human's consent, to administrators, as Zulip's document shows it", async () => {
      for (const caller of [owner, admin]) {
        const body = expectSuccess(await consents(caller));
        expectMatchesOpenApi('get', '/export/realm/consents', body);
        expect(body.export_consents).toEqual(
          sorted([owner.id, admin.id, member.id, guest.id, other.id]).map((id) => ({ user_id: id, consented: id === owner.id })),
        );
      }
    });

    it('tells the administrators when a user changes allow_private_data_export through PATCH /settings', async () => {
      expectSuccess(await system.api.patch('/settings', { allow_private_data_export: true }, as(other)));
      const [event] = await events.waitFor<Event>(CONSENT_CHANGED);
      expect(event).toEqual({ realmId, users: sorted([owner.id, admin.id]), event: { type: 'realm_export_consent', user_id: other.id, consented: true } });
      expectMatchesOpenApi('get', '/events', eventBody(event.event));
      expect(expectSuccess(await consents(admin)).export_consents).toContainEqual({ user_id: other.id, consented: true });
      events.clear();
      // Sending the same value again announces nothing; turning it off does.
      expectSuccess(await system.api.patch('/settings', { allow_private_data_export: true }, as(other)));
      expect(await events.publishedByNow(CONSENT_CHANGED)).toEqual([]);
      expectSuccess(await system.api.patch('/settings', { allow_private_data_export: false }, as(other)));
      const [off] = await events.waitFor<Event>(CONSENT_CHANGED);
      expect(off.event).toEqual({ type: 'realm_export_consent', user_id: other.id, consented: false });
    });

    it('refuses members, guests, and callers without valid credentials of the organization', async () => {
      for (const caller of [member, guest]) expectError(await consents(caller), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
      await expectCallersRefused((o) => system.api.get('/export/realm/consents', {}, o), { subdomain, member, outsider, deactivated: gone });
    });
  });

  describe('POST /export/realm refusals', () => {
    it('refuses members and guests, an unknown export type, and callers without valid credentials, recording nothing', async () => {
      const before = await system.db.realmExport.count();
      for (const caller of [member, guest]) expectError(await requestExport(caller), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
      for (const caller of [member, guest]) expectError(await listExports(caller), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
      for (const caller of [member, guest]) expectError(await deleteExport(caller, 1), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
      expectError(await requestExport(admin, { export_type: 3 }), 400, 'BAD_REQUEST', 'Invalid export_type');
      expectError(await requestExport(admin, { export_type: 'full' }), 400, 'BAD_REQUEST', 'export_type is not valid JSON');
      await expectCallersRefused((o) => system.api.post('/export/realm', {}, o), { subdomain, member, outsider, deactivated: gone });
      await expectCallersRefused((o) => system.api.get('/export/realm', {}, o), { subdomain, member, outsider, deactivated: gone });
      await expectCallersRefused((o) => system.api.delete('/export/realm/1', {}, o), { subdomain, member, outsider, deactivated: gone });
      expect(await system.db.realmExport.count()).toBe(before);
      expect(await events.publishedByNow(EXPORTS_CHANGED)).toEqual([]);
    });

    it('refuses an organization larger than the limits, and one an export would leave without a usable owner', async () => {
      const big = await factory.organizationWithStaff({ subdomain: 'big' });
      const channel = await factory.channel(big.realm, { name: 'general', subscribers: [big.owner] });
      await factory.channelMessages(big.owner, channel, 'lots', 41);
      expectError(await requestExport(big.owner, {}, 'big'), 400, 'BAD_REQUEST', 'Please request a manual export from zulip-admin@example.com.');

      const shy = await factory.organizationWithStaff({ subdomain: 'shy' });
      expectError(
        await requestExport(shy.admin, { export_type: 2 }, 'shy'),
        400,
        'BAD_REQUEST',
        'Make sure at least one Organization Owner is consenting to the export or contact zulip-admin@example.com for help.',
      );
      await factory.userSettings(shy.owner, { email_address_visibility: 4 });
      expectError(
        await requestExport(shy.admin, {}, 'shy'),
        400,
        'BAD_REQUEST',
        'Make sure at least one Organization Owner allows other Administrators to see their email address or contact zulip-admin@example.com for help',
      );
      expect(await system.db.realmExport.count({ where: { realmId: { in: [big.realm.id, shy.realm.id] } } })).toBe(0);
    });

    it('refuses a sixth export in a week ("Exceeded rate limit.")', async () => {
      const busy = await factory.organizationWithStaff({ subdomain: 'busy' });
      const lastWeek = new Date(Date.now() - 8 * 24 * 3600 * 1000);
      await system.db.realmExport.createMany({
        data: [
          { realmId: busy.realm.id, actingUserId: busy.owner.id, exportType: 1, status: 3, dateRequested: lastWeek },
          ...[1, 2, 3, 4].map(() => ({ realmId: busy.realm.id, actingUserId: busy.owner.id, exportType: 1, status: 4 })),
        ],
      });
      // Four this week: a fifth is allowed, a sixth is not.
      const { id } = expectSuccess(await requestExport(busy.admin, {}, 'busy'));
      expectError(await requestExport(busy.owner, {}, 'busy'), 400, 'BAD_REQUEST', 'Exceeded rate limit.');
      expect(await system.db.realmExport.count({ where: { realmId: busy.realm.id } })).toBe(6);
      expect((await finished(id)).failed_timestamp).toBeNull();
    });
  });

  describe('a public export', () => {
    let exported: RealmExport;
    let archive: Archive;

    it('answers its id, tells the administrators it is pending, then finished, and lists it as Zulip does', async () => {
      const body = expectSuccess(await requestExport(admin));
      expectMatchesOpenApi('post', '/export/realm', body);
      expect(Object.keys(body).sort()).toEqual(['id', 'msg', 'result']);
      const [pending] = await events.waitFor<Event>(EXPORTS_CHANGED);
      expect(pending.users).toEqual(sorted([owner.id, admin.id]));
      expectMatchesOpenApi('get', '/events', eventBody(pending.event));
      expect(pending.event.type).toBe('realm_export');
      expect(pending.event.exports).toContainEqual(expect.objectContaining({ id: body.id, pending: true, export_url: null, acting_user_id: admin.id, export_type: 1 }));

      exported = await finished(body.id);
      expect(exported).toMatchObject({ id: body.id, pending: false, failed_timestamp: null, deleted_timestamp: null, export_type: 1 });
      expect(exported.export_url).toMatch(new RegExp(`^http://exporting\\.[^/]+/user_uploads/exports/${realmId}/[A-Za-z0-9]+/zulip-export-[a-z0-9]+\\.tar\\.gz$`));
      const list = expectSuccess(await listExports(owner));
      expectMatchesOpenApi('get', '/export/realm', list);
      expect(list.exports.find((e) => e.id === body.id)).toEqual(exported);
      expect(Math.abs(exported.export_time - Date.now() / 1000)).toBeLessThan(60);
    });

    it('serves the archive to administrators only', async () => {
      const res = await download(exported.export_url!, owner);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/gzip');
      archive = await unpack(res.body);
      const refused = await download(exported.export_url!, member);
      expect({ status: refused.status, body: refused.json() }).toEqual({
        status: 400,
        body: { result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' },
      });
      expect((await download(exported.export_url!, outsider, outsiderSubdomain)).status).toBe(404);
      expect((await send(system, 'GET', pathOf(exported.export_url!), { subdomain })).status).toBe(401);
    });

    it("holds public channels' messages only, users without secrets or private settings, the emoji and the linked upload", async () => {
      const { manifest } = archive;
      expect(manifest.export_type).toBe(1);
      expect(manifest.realm_id).toBe(realmId);
      expect(sorted(archive.messages.map((m) => Number(m.id)))).toEqual(sorted([sent.general, sent.upload]));
      expect(archive.reactions).toEqual([expect.objectContaining({ message_id: sent.general, user_id: other.id, emoji_name: 'wave', reaction_type: 'realm_emoji' })]);
      const users = manifest.tables.users;
      expect(sorted(users.map((u) => Number(u.id)))).toEqual(sorted([owner.id, admin.id, member.id, guest.id, other.id, gone.id, bot.id]));
      for (const user of users) {
        expect(Object.keys(user)).not.toEqual(expect.arrayContaining(['api_key']));
        expect(user.settings).toEqual({ email_address_visibility: 1 });
      }
      expect(JSON.stringify(manifest)).not.toContain(owner.apiKey);
      expect(manifest.tables.realm_emoji).toEqual([expect.objectContaining({ name: 'wave' })]);
      expect(manifest.tables.attachments).toEqual([expect.objectContaining({ file_name: 'minutes.txt' })]);
      const attachment = manifest.tables.attachments[0];
      expect(archive.files.get(`uploads/${attachment.path_id}`)).toEqual(uploaded);
      expect([...archive.files.keys()].filter((name) => name.startsWith('avatars/')).length).toBeGreaterThanOrEqual(2);
    });
  });

  describe('a full export with member consent', () => {
    let exported: RealmExport;
    let archive: Archive;
    let archiveFile: string;

    it("carries the consenting owner's private data and not the others'", async () => {
      const { id } = expectSuccess(await requestExport(owner, { export_type: 2 }));
      exported = await finished(id);
      expect(exported).toMatchObject({ export_type: 2, failed_timestamp: null });
      const res = await download(exported.export_url!, admin);
      expect(res.status).toBe(200);
      archive = await unpack(res.body);
      archiveFile = path.join(await mkdtemp(path.join(os.tmpdir(), 'teamchat-export-')), 'export.tar.gz');
      await writeFile(archiveFile, res.body);

      // The owner's direct message and the private channel they are in; not what only others could read.
      expect(sorted(archive.messages.map((m) => Number(m.id)))).toEqual(sorted([sent.general, sent.upload, sent.inner, sent.ownerDm]));
      // Flags only of consenting users (the owner and the owner's bot).
      expect(new Set(archive.userMessages.map((um) => Number(um.user_id)))).toEqual(new Set([owner.id]));
      const users = new Map(archive.manifest.tables.users.map((u) => [Number(u.id), u]));
      expect(users.get(owner.id)).toMatchObject({ is_active: true, settings: expect.objectContaining({ allow_private_data_export: true }) });
      expect(users.get(bot.id)).toMatchObject({ is_active: true });
      for (const id of [admin.id, member.id, guest.id, other.id]) expect(users.get(id)).toMatchObject({ is_active: false, settings: { email_address_visibility: 1 } });
    });

    it('imports through the command line as a new organization that serves the same messages, upload and emoji', async () => {
      const run = await cli('import-realm', archiveFile, '--subdomain', 'imported', '--json');
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      const result = JSON.parse(run.stdout);
      expect(result).toMatchObject({ subdomain: 'imported', users: 7, messages: 4 });
      const newRealm = Number(result.realm_id);
      expect(newRealm).not.toBe(realmId);

      const importedOwner = await system.db.user.findFirstOrThrow({ where: { realmId: newRealm, deliveryEmail: owner.email }, include: { apiKey: true } });
      const newOwner = { ...owner, id: importedOwner.id, apiKey: importedOwner.apiKey!.key };
      const query = { anchor: 'newest', num_before: 100, num_after: 0, apply_markdown: 'false' };
      const before = expectSuccess(await system.api.get<{ messages: Row[] }>('/messages', query, as(owner))).messages;
      const after = expectSuccess(await system.api.get<{ messages: Row[] }>('/messages', query, as(newOwner, 'imported'))).messages;
      const shape = (m: Row, realm: number) => ({
        content: String(m.content).split(`/user_uploads/${realm}/`).join('/user_uploads/REALM/'),
        sender_email: m.sender_email,
        subject: m.subject,
        type: m.type,
      });
      expect(after.map((m) => shape(m, newRealm))).toEqual(before.map((m) => shape(m, realmId)));
      expect(after.length).toBe(4);

      const newUpload = uploadUrl.replace(`/user_uploads/${realmId}/`, `/user_uploads/${newRealm}/`);
      const file = await send(system, 'GET', newUpload, { subdomain: 'imported', auth: newOwner });
      expect(file.status).toBe(200);
      expect(file.body).toEqual(uploaded);

      const emoji = expectSuccess(await system.api.get<{ emoji: Record<string, Row> }>('/realm/emoji', {}, as(newOwner, 'imported'))).emoji;
      const wave = Object.values(emoji).find((e) => e.name === 'wave');
      expect(wave).toMatchObject({ deactivated: false, author_id: expect.any(Number) });
      expect(String(wave!.source_url)).toMatch(new RegExp(`^/user_avatars/${newRealm}/emoji/images/`));
      const image = await send(system, 'GET', String(wave!.source_url), { subdomain: 'imported' });
      expect(image.status).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
    });

    it('refuses to import over an organization that exists, changing nothing', async () => {
      const realms = await system.db.realm.count();
      const run = await cli('import-realm', archiveFile, '--subdomain', 'imported');
      expect(run.code).toBe(1);
      expect(run.stderr).toBe("error: An organization with subdomain 'imported' already exists\n");
      expect(await system.db.realm.count()).toBe(realms);
    });

    it('deletes a finished export: the archive goes, the administrators hear of it, a second delete is refused', async () => {
      const res = await deleteExport(admin, exported.id);
      expect(expectSuccess(res)).toEqual({ result: 'success', msg: '' });
      const [event] = await events.waitFor<Event>(EXPORTS_CHANGED);
      const shown = (event.event.exports as RealmExport[]).find((e) => e.id === exported.id)!;
      expect(shown).toMatchObject({ export_url: null, pending: false });
      expect(shown.deleted_timestamp).toEqual(expect.any(Number));
      expect((await download(exported.export_url!, admin)).status).toBe(404);
      expectError(await deleteExport(admin, exported.id), 400, 'BAD_REQUEST', 'Export already deleted');
    });

    it("refuses unknown ids, another organization's export, and exports that failed or are still being written", async () => {
      const theirs = await system.db.realmExport.create({ data: { realmId: (await system.db.realm.findFirstOrThrow({ where: { subdomain: outsiderSubdomain } })).id, actingUserId: outsider.id, exportType: 1, status: 3, exportPath: 'exports/x/y/z.tar.gz' } });
      const failed = await system.db.realmExport.create({ data: { realmId, actingUserId: admin.id, exportType: 1, status: 4, dateFailed: new Date() } });
      const running = await system.db.realmExport.create({ data: { realmId, actingUserId: admin.id, exportType: 1, status: 2 } });
      expectError(await deleteExport(admin, 999999999), 400, 'BAD_REQUEST', 'Invalid data export ID');
      expectError(await deleteExport(admin, theirs.id), 400, 'BAD_REQUEST', 'Invalid data export ID');
      expectError(await deleteExport(admin, failed.id), 400, 'BAD_REQUEST', 'Export failed, nothing to delete');
      expectError(await deleteExport(admin, running.id), 400, 'BAD_REQUEST', 'Export still in progress');
      const list = expectSuccess(await listExports(admin)).exports;
      expect(list.find((e) => e.id === theirs.id)).toBeUndefined();
      expect(list.find((e) => e.id === failed.id)).toMatchObject({ pending: false, export_url: null, failed_timestamp: expect.any(Number) });
      expect(list.find((e) => e.id === running.id)).toMatchObject({ pending: true, export_url: null });
      expect(await system.db.realmExport.findUniqueOrThrow({ where: { id: theirs.id } })).toMatchObject({ status: 3 });
    });
  });
});

import { Role, userAvatarPath, configureAvatars } from '@teamchat/zulip';
import {
  Factory,
  TestSystem,
  expectCallersRefused,
  expectError,
  expectMatchesOpenApi,
  expectSuccess,
  type ApiResponse,
  type EventRecorder,
  type TestUser,
} from '@teamchat/testing';
import sharp from 'sharp';
import { bytes, multipart, send, type RawResponse } from './http';

const REALM_EMOJI_CHANGED = 'event.users-groups.realm_emoji_changed.v1';
const REALM_USER_CHANGED = 'event.users-groups.realm_user_changed.v1';
const ACCESS_CHANGED = 'event.users-groups.user_access_changed.v1';
const MiB = 1024 * 1024;

interface RealmEmoji {
  id: string;
  name: string;
  source_url: string;
  still_url: string | null;
  deactivated: boolean;
  author_id: number | null;
}

/** A PNG of `width`x`height` in one colour, made here. */
const png = (width = 120, height = 80, colour = { r: 200, g: 30, b: 30 }) =>
  sharp({ create: { width, height, channels: 4, background: { ...colour, alpha: 1 } } }).png().toBuffer();

/** An animated GIF of three frames of `width`x`height`. */
async function animatedGif(width = 40, height = 80): Promise<Buffer> {
  const frames = await Promise.all(
    [0, 1, 2].map((i) => sharp({ create: { width, height, channels: 4, background: { r: i * 100, g: 50, b: 0, alpha: 1 } } }).raw().toBuffer()),
  );
  return sharp(Buffer.concat(frames), { raw: { width, height: height * 3, channels: 4, pageHeight: height } })
    .gif({ delay: [100, 100, 100], loop: 0 })
    .toBuffer();
}

describe('custom emoji, avatars and API keys', () => {
  let system: TestSystem;
  let factory: Factory;
  let events: EventRecorder;
  let subdomain: string, outsiderSubdomain: string;
  let realmId: number;
  let owner: TestUser, admin: TestUser, member: TestUser, other: TestUser, guest: TestUser, gone: TestUser, outsider: TestUser;
  let activeIds: number[];

  const asApi = (raw: RawResponse): ApiResponse<unknown> =>
    ({ status: raw.status, body: raw.json(), headers: new Headers(raw.headers as Record<string, string>) }) as unknown as ApiResponse<unknown>;
  const uploadEmoji = (user: TestUser | undefined, name: string, parts: Parameters<typeof multipart>[0], sub = subdomain) => {
    const { body, headers } = multipart(parts);
    return send(system, 'POST', `/api/v1/realm/emoji/${encodeURIComponent(name)}`, { subdomain: sub, auth: user, headers, body });
  };
  const emojiFile = (content: Buffer, type = 'image/png', filename = 'emoji.png') => [{ field: 'file', filename, type, content }];
  const listEmoji = (user: TestUser, sub = subdomain) => system.api.get<{ emoji: Record<string, RealmEmoji> }>('/realm/emoji', {}, { auth: user, subdomain: sub });
  const deleteEmoji = (user: TestUser | undefined, name: string, sub = subdomain) =>
    system.api.delete(`/realm/emoji/${encodeURIComponent(name)}`, {}, { auth: user, subdomain: sub });
  const fetchPublic = (url: string, sub = subdomain) => send(system, 'GET', url, { subdomain: sub });
  const emojiRows = () => system.db.realmEmoji.findMany({ where: { realmId }, orderBy: { id: 'asc' } });
  const byName = async (name: string) => Object.values(expectSuccess(await listEmoji(member)).emoji).find((e) => e.name === name && !e.deactivated);
  const setAvatar = (user: TestUser | undefined, parts: Parameters<typeof multipart>[0], sub = subdomain) => {
    const { body, headers } = multipart(parts);
    return send(system, 'POST', '/api/v1/users/me/avatar', { subdomain: sub, auth: user, headers, body });
  };
  const deleteAvatar = (user: TestUser | undefined, sub = subdomain) => send(system, 'DELETE', '/api/v1/users/me/avatar', { subdomain: sub, auth: user });
  const errorOf = (res: RawResponse) => ({ status: res.status, body: res.json() });
  const badRequest = (msg: string, code = 'BAD_REQUEST') => ({ status: 400, body: { result: 'error', msg, code } });

  beforeAll(async () => {
    // A long credential cache: the regenerated key must be refused at once all the same.
    system = await TestSystem.start({ env: { AUTH_CACHE_TTL_SECONDS: '60' } });
    configureAvatars({ enableGravatar: true, salt: system.env.AVATAR_SALT ?? 'teamchat-avatar-salt' });
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'emoji' });
    ({ owner, admin, member, guest } = org);
    subdomain = org.realm.subdomain;
    realmId = org.realm.id;
    other = await factory.user(org.realm, { fullName: 'Other Member' });
    gone = await factory.user(org.realm, { fullName: 'Gone Member', isActive: false });
    activeIds = [owner.id, admin.id, member.id, guest.id, other.id].sort((a, b) => a - b);
    await factory.channel(org.realm, { name: 'general', subscribers: [member, other, admin] });
    const elsewhere = await factory.organization({ subdomain: 'elsewhere' });
    outsiderSubdomain = elsewhere.subdomain;
    outsider = await factory.user(elsewhere, { role: Role.OWNER });
    events = await system.recordEvents();
  }, 120000);
  afterAll(() => system.stop());
  beforeEach(() => events.clear());

  describe('POST /realm/emoji/{emoji_name}', () => {
    it('resizes a PNG to 64x64, serves it at Zulip path, lists it and tells every active user', async () => {
      const res = await uploadEmoji(member, 'Party Parrot'.toLowerCase(), emojiFile(await png(120, 80)));
      expect(errorOf(res)).toEqual({ status: 200, body: { result: 'success', msg: '' } });

      const emoji = await byName('party_parrot');
      expect(emoji).toMatchObject({ name: 'party_parrot', deactivated: false, author_id: member.id, still_url: null });
      expect(emoji!.source_url).toMatch(new RegExp(`^/user_avatars/${realmId}/emoji/images/[0-9a-f]{8}\\.png$`));
      const body = expectSuccess(await listEmoji(guest));
      expectMatchesOpenApi('get', '/realm/emoji', body);

      const image = await fetchPublic(emoji!.source_url);
      expect(image.status).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
      expect(await sharp(image.body).metadata()).toMatchObject({ format: 'png', width: 64, height: 64 });

      const [event] = await events.waitFor<{ realmId: number; users: number[]; event: { type: string; op: string; realm_emoji: Record<string, RealmEmoji> } }>(
        REALM_EMOJI_CHANGED,
      );
      expect({ realmId: event.realmId, users: [...event.users].sort((a, b) => a - b) }).toEqual({ realmId, users: activeIds });
      expect(event.event).toMatchObject({ type: 'realm_emoji', op: 'update' });
      expect(event.event.realm_emoji[emoji!.id]).toEqual(emoji);
      expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: 'q', events: [{ id: 0, ...event.event }] });
    });

    it('keeps an animated GIF animated at 64x64 with a still PNG of its first frame', async () => {
      expect(errorOf(await uploadEmoji(member, 'dancing', emojiFile(await animatedGif(), 'image/gif', 'dance.gif'))).status).toBe(200);
      const emoji = (await byName('dancing'))!;
      expect(emoji.source_url).toMatch(/\.gif$/);
      expect(emoji.still_url).toBe(emoji.source_url.replace('/emoji/images/', '/emoji/images/still/').replace(/\.gif$/, '.png'));
      const animated = await fetchPublic(emoji.source_url);
      expect(animated.headers['content-type']).toBe('image/gif');
      expect(await sharp(animated.body, { animated: true }).metadata()).toMatchObject({ format: 'gif', width: 64, pages: 3, pageHeight: 64 });
      const still = await fetchPublic(emoji.still_url!);
      expect(await sharp(still.body).metadata()).toMatchObject({ format: 'png', width: 64, height: 64 });
      expect((await emojiRows()).find((row) => row.name === 'dancing')?.isAnimated).toBe(true);
    });

    it("refuses bad names with Zulip's texts, changing nothing", async () => {
      const file = emojiFile(await png());
      const before = await emojiRows();
      expect(errorOf(await uploadEmoji(member, 'Bad!', file))).toEqual(
        badRequest('Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.'),
      );
      expect(errorOf(await uploadEmoji(member, 'trailing_', file))).toEqual(badRequest('Emoji names must end with either a letter or digit.'));
      expect(errorOf(await uploadEmoji(member, ' ', file))).toEqual(badRequest('Emoji name is missing'));
      expect(errorOf(await uploadEmoji(member, 'party_parrot', file))).toEqual(badRequest('A custom emoji with this name already exists.'));
      expect(await emojiRows()).toEqual(before);
      expect(await events.publishedByNow(REALM_EMOJI_CHANGED)).toEqual([]);
    });

    it('refuses a wrong type, a non-image, an oversized file, no file and two files', async () => {
      const before = await emojiRows();
      expect(errorOf(await uploadEmoji(member, 'texty', emojiFile(Buffer.from('hello'), 'text/plain', 'a.txt')))).toEqual(
        badRequest('Invalid image format', 'BAD_IMAGE'),
      );
      expect(errorOf(await uploadEmoji(member, 'fake', emojiFile(Buffer.from('not really a png'), 'image/png')))).toEqual(
        badRequest('Could not decode image; did you upload an image file?', 'BAD_IMAGE'),
      );
      const big = await uploadEmoji(member, 'huge', [{ field: 'file', filename: 'huge.png', type: 'image/png', content: bytes(5 * MiB + 1) }]);
      expect(errorOf(big)).toEqual(badRequest('Uploaded file is larger than the allowed limit of 5 MiB'));
      expect(errorOf(await uploadEmoji(member, 'none', []))).toEqual(badRequest('You must upload exactly one file.'));
      const two = [...emojiFile(await png()), ...emojiFile(await png(), 'image/png', 'second.png')];
      expect(errorOf(await uploadEmoji(member, 'two', two))).toEqual(badRequest('You must upload exactly one file.'));
      expect(await emojiRows()).toEqual(before);
    });

    it('guests may not add emoji; only administrators override a built-in emoji', async () => {
      const file = emojiFile(await png());
      expect(errorOf(await uploadEmoji(guest, 'guest_emoji', file))).toEqual(badRequest('Not allowed for guest users'));
      expect(errorOf(await uploadEmoji(member, 'smile', file))).toEqual(badRequest('Only administrators can override built-in emoji.'));
      expect(errorOf(await uploadEmoji(admin, 'smile', file)).status).toBe(200);
      expect((await byName('smile'))?.author_id).toBe(admin.id);
    });

    it('refuses callers without credentials, with a wrong key, of another organization or deactivated', async () => {
      const file = emojiFile(await png());
      await expectCallersRefused(async ({ subdomain: sub, auth }) => asApi(await uploadEmoji(auth as TestUser | undefined, 'refused', file, sub)), {
        subdomain,
        member,
        outsider,
        deactivated: gone,
      });
      // Each organization has its own emoji: the name is free elsewhere, and theirs are not ours.
      expect(errorOf(await uploadEmoji(outsider, 'party_parrot', file, outsiderSubdomain)).status).toBe(200);
      const theirs = Object.values(expectSuccess(await listEmoji(outsider, outsiderSubdomain)).emoji);
      expect(theirs.map((e) => e.name)).toEqual(['party_parrot']);
      expect(theirs[0].source_url).toMatch(/^\/user_avatars\/\d+\/emoji\//);
      expect(theirs[0].source_url.startsWith(`/user_avatars/${realmId}/`)).toBe(false);
    });
  });

  describe('using custom emoji', () => {
    it('renders :name: in a message as an <img class="emoji"> and accepts it as a realm_emoji reaction', async () => {
      const emoji = (await byName('party_parrot'))!;
      const sent = expectSuccess(
        await system.api.post<{ id: number }>('/messages', { type: 'stream', to: 'general', topic: 'fun', content: 'hi :party_parrot: :smile:' }, { auth: member, subdomain }),
      );
      const message = expectSuccess(await system.api.get<{ message: { content: string } }>(`/messages/${sent.id}`, {}, { auth: member, subdomain }));
      expect(message.message.content).toBe(
        `<p>hi <img alt=":party_parrot:" class="emoji" src="${emoji.source_url}" title="party parrot"> ` +
          `<img alt=":smile:" class="emoji" src="${(await byName('smile'))!.source_url}" title="smile"></p>`,
      );
      expectSuccess(await system.api.post(`/messages/${sent.id}/reactions`, { emoji_name: 'party_parrot' }, { auth: other, subdomain }));
      const reacted = expectSuccess(
        await system.api.get<{ message: { reactions: { emoji_code: string; reaction_type: string }[] } }>(`/messages/${sent.id}`, {}, { auth: member, subdomain }),
      );
      expect(reacted.message.reactions).toMatchObject([{ emoji_code: emoji.id, emoji_name: 'party_parrot', reaction_type: 'realm_emoji', user_id: other.id }]);
    });
  });

  describe('DELETE /realm/emoji/{emoji_name}', () => {
    it('deactivates for its author or an administrator only; 404 for an unknown name; a deactivated emoji renders as text', async () => {
      expect(errorOf(await uploadEmoji(member, 'mine', emojiFile(await png()))).status).toBe(200);
      events.clear();
      expectError(await deleteEmoji(other, 'mine'), 400, 'BAD_REQUEST', 'Must be an organization administrator or emoji author');
      expectError(await deleteEmoji(member, 'nothing_here'), 404, 'BAD_REQUEST', "Emoji 'nothing_here' does not exist");
      expectError(await deleteEmoji(outsider, 'mine', outsiderSubdomain), 404, 'BAD_REQUEST', "Emoji 'mine' does not exist");
      expect(await events.publishedByNow(REALM_EMOJI_CHANGED)).toEqual([]);

      const id = (await byName('mine'))!.id;
      expectSuccess(await deleteEmoji(member, 'mine'));
      expect(expectSuccess(await listEmoji(member)).emoji[id]).toMatchObject({ name: 'mine', deactivated: true });
      const [event] = await events.waitFor<{ event: { realm_emoji: Record<string, RealmEmoji> } }>(REALM_EMOJI_CHANGED);
      expect(event.event.realm_emoji[id].deactivated).toBe(true);
      expectError(await deleteEmoji(member, 'mine'), 404, 'BAD_REQUEST', "Emoji 'mine' does not exist");

      // The rendering cache heard the event: the name is text again.
      const sent = expectSuccess(await system.api.post<{ id: number }>('/messages', { type: 'stream', to: 'general', topic: 'fun', content: ':mine:' }, { auth: member, subdomain }));
      const message = expectSuccess(await system.api.get<{ message: { content: string } }>(`/messages/${sent.id}`, {}, { auth: member, subdomain }));
      expect(message.message.content).toBe('<p>:mine:</p>');

      // An administrator deactivates anyone's emoji.
      expectSuccess(await deleteEmoji(admin, 'dancing'));
      await expectCallersRefused(({ subdomain: sub, auth }) => system.api.delete('/realm/emoji/smile', {}, { subdomain: sub, auth }), {
        subdomain,
        member,
        outsider,
        deactivated: gone,
      });
    });

    it('the register key realm_emoji lists every emoji with still_url', async () => {
      const register = expectSuccess(await system.api.post<{ realm_emoji: Record<string, RealmEmoji> }>('/register', { fetch_event_types: '["realm_emoji"]' }, { auth: member, subdomain }));
      expect(register.realm_emoji).toEqual(expectSuccess(await listEmoji(member)).emoji);
      expect(Object.values(register.realm_emoji).find((e) => e.name === 'dancing')?.still_url).toMatch(/\/still\/.*\.png$/);
    });
  });

  describe('avatars', () => {
    it('POST /users/me/avatar stores 100 and 500 pixel PNGs, answers the URL and tells everyone; users, register and messages show it', async () => {
      const res = await setAvatar(member, emojiFile(await png(300, 200, { r: 0, g: 0, b: 255 }), 'image/png', 'me.png'));
      expect(res.status).toBe(200);
      const body = res.json() as { avatar_url: string };
      const path = userAvatarPath(member.id, realmId);
      expect(body).toEqual({ result: 'success', msg: '', avatar_url: `/user_avatars/${path}.png?version=2` });

      const small = await fetchPublic(`/user_avatars/${path}.png`);
      expect(await sharp(small.body).metadata()).toMatchObject({ format: 'png', width: 100, height: 100 });
      const medium = await fetchPublic(`/user_avatars/${path}-medium.png`);
      expect(await sharp(medium.body).metadata()).toMatchObject({ format: 'png', width: 500, height: 500 });

      const [event] = await events.waitFor<{ users: number[]; event: Record<string, unknown> }>(REALM_USER_CHANGED);
      expect([...event.users].sort((a, b) => a - b)).toEqual(activeIds);
      expect(event.event).toEqual({
        type: 'realm_user',
        op: 'update',
        person: {
          user_id: member.id,
          avatar_source: 'U',
          avatar_url: body.avatar_url,
          avatar_url_medium: `/user_avatars/${path}-medium.png?version=2`,
          avatar_version: 2,
        },
      });
      expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: 'q', events: [{ id: 0, ...event.event }] });

      // One rule everywhere: GET /users (even with client_gravatar), register, a message's sender.
      const users = expectSuccess(await system.api.get<{ members: { user_id: number; avatar_url: string | null }[] }>('/users', { client_gravatar: 'true' }, { auth: other, subdomain }));
      expect(users.members.find((m) => m.user_id === member.id)?.avatar_url).toBe(body.avatar_url);
      expect(users.members.find((m) => m.user_id === other.id)?.avatar_url).toBeNull();
      const register = expectSuccess(
        await system.api.post<{ avatar_url: string; avatar_url_medium: string; avatar_source: string }>('/register', { fetch_event_types: '["realm_user"]' }, { auth: member, subdomain }),
      );
      expect(register).toMatchObject({ avatar_source: 'U', avatar_url: body.avatar_url, avatar_url_medium: `/user_avatars/${path}-medium.png?version=2` });
      const sent = expectSuccess(await system.api.post<{ id: number }>('/messages', { type: 'stream', to: 'general', topic: 'faces', content: 'new face' }, { auth: member, subdomain }));
      const message = expectSuccess(await system.api.get<{ message: { avatar_url: string | null } }>(`/messages/${sent.id}`, { client_gravatar: 'true' } as never, { auth: other, subdomain }));
      expect(message.message.avatar_url).toBe(body.avatar_url);
    });

    it('refuses no file, a wrong type, an oversized file, and callers not allowed', async () => {
      const version = async () => (await system.db.user.findUniqueOrThrow({ where: { id: other.id } })).avatarVersion;
      const before = await version();
      expect(errorOf(await setAvatar(other, []))).toEqual(badRequest('You must upload exactly one avatar.'));
      expect(errorOf(await setAvatar(other, emojiFile(Buffer.from('x'), 'text/plain', 'a.txt')))).toEqual(badRequest('Invalid image format', 'BAD_IMAGE'));
      const big = await setAvatar(other, [{ field: 'file', filename: 'big.png', type: 'image/png', content: bytes(5 * MiB + 1) }]);
      expect(errorOf(big)).toEqual(badRequest('Uploaded file is larger than the allowed limit of 5 MiB'));
      expect(await version()).toBe(before);
      const file = emojiFile(await png());
      await expectCallersRefused(async ({ subdomain: sub, auth }) => asApi(await setAvatar(auth as TestUser | undefined, file, sub)), {
        subdomain,
        member,
        outsider,
        deactivated: gone,
      });
      await expectCallersRefused(async ({ subdomain: sub, auth }) => asApi(await deleteAvatar(auth as TestUser | undefined, sub)), {
        subdomain,
        member,
        outsider,
        deactivated: gone,
      });
    });

    it('DELETE /users/me/avatar goes back to the Gravatar and removes the files', async () => {
      const path = userAvatarPath(member.id, realmId);
      const res = await deleteAvatar(member);
      const body = res.json() as { avatar_url: string };
      expect(res.status).toBe(200);
      expect(body.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=3$/);
      expect((await fetchPublic(`/user_avatars/${path}.png`)).status).toBe(404);
      const [event] = await events.waitFor<{ event: { person: Record<string, unknown> } }>(REALM_USER_CHANGED);
      expect(event.event.person).toMatchObject({ user_id: member.id, avatar_source: 'G', avatar_version: 3, avatar_url: body.avatar_url });
      expect(String(event.event.person.avatar_url_medium)).toContain('&s=500&');
    });

    it('with AVATAR_CHANGES_DISABLED only administrators change avatars', async () => {
      await system.stopService('users-groups');
      await system.startService('users-groups', true, { AVATAR_CHANGES_DISABLED: 'true' });
      try {
        expect(errorOf(await setAvatar(member, emojiFile(await png())))).toEqual(badRequest('Avatar changes are disabled in this organization.'));
        expect(errorOf(await deleteAvatar(member))).toEqual(badRequest('Avatar changes are disabled in this organization.'));
        expect((await setAvatar(admin, emojiFile(await png()))).status).toBe(200);
      } finally {
        await system.stopService('users-groups');
        await system.startService('users-groups', true, { AVATAR_CHANGES_DISABLED: 'false' });
      }
    }, 120000);
  });

  describe('POST /users/me/api_key/regenerate', () => {
    it('answers a new key; the old one is refused at once, though the gateway had cached it', async () => {
      const me = await factory.user({ id: realmId }, { fullName: 'Key Holder' });
      expectSuccess(await system.api.get('/users/me', {}, { auth: me, subdomain })); // now cached for a minute
      const res = await system.api.post<{ api_key: string }>('/users/me/api_key/regenerate', {}, { auth: me, subdomain });
      const body = expectSuccess(res);
      expect(Object.keys(body).sort()).toEqual(['api_key', 'msg', 'result']);
      expect(body.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
      expect(body.api_key).not.toBe(me.apiKey);
      expectError(await system.api.get('/users/me', {}, { auth: me, subdomain }), 401, 'UNAUTHORIZED', 'Invalid API key');
      expectSuccess(await system.api.get('/users/me', {}, { auth: { email: me.email, apiKey: body.api_key }, subdomain }));
      expect((await events.waitFor<{ userId: number; deactivated: boolean }>(ACCESS_CHANGED))[0]).toMatchObject({ userId: me.id, deactivated: false });
      await expectCallersRefused(({ subdomain: sub, auth }) => system.api.post('/users/me/api_key/regenerate', {}, { subdomain: sub, auth }), {
        subdomain,
        member,
        outsider,
        deactivated: gone,
      });
    });
  });
});

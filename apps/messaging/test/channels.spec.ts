import { Role } from '@teamchat/zulip';
import {
  Factory,
  TestSystem,
  expectCallersRefused,
  expectError,
  expectMatchesOpenApi,
  expectNoInternals,
  expectSuccess,
  type TestUser,
} from '@teamchat/testing';

describe('channels and subscriptions', () => {
  let system: TestSystem;
  let factory: Factory;
  let subdomain: string;
  let owner: TestUser, admin: TestUser, member: TestUser, guest: TestUser, other: TestUser;
  let outsider: TestUser;
  let outsiderSubdomain: string;

  const as = (user: TestUser, sub = subdomain) => ({ auth: user, subdomain: sub });
  const subscribe = (user: TestUser, form: Record<string, unknown>, sub = subdomain) =>
    system.api.post('/users/me/subscriptions', form as never, as(user, sub));
  const mySubscriptions = async (user: TestUser) =>
    expectSuccess(await system.api.get<{ subscriptions: Record<string, unknown>[] }>('/users/me/subscriptions', {}, as(user)))
      .subscriptions;
  const channelId = async (name: string) => (await system.db.stream.findFirstOrThrow({ where: { name } })).id;

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'chan' });
    ({ owner, admin, member, guest } = org);
    subdomain = org.realm.subdomain;
    other = await factory.user(org.realm, { role: Role.MEMBER, fullName: 'Other Member' });
    const elsewhere = await factory.organization({ subdomain: 'elsewhere' });
    outsiderSubdomain = elsewhere.subdomain;
    outsider = await factory.user(elsewhere, { role: Role.OWNER });
  });
  afterAll(() => system.stop());

  describe('POST /users/me/subscriptions', () => {
    it('creates a public channel and subscribes the caller', async () => {
      const res = await subscribe(member, { subscriptions: [{ name: 'general', description: 'Talk **here**' }] });
      const body = expectSuccess(res);
      expectMatchesOpenApi('post', '/users/me/subscriptions', body);
      expect(body).toEqual({ result: 'success', msg: '', subscribed: { [member.id]: ['general'] }, already_subscribed: {} });
      const channel = await system.db.stream.findFirstOrThrow({ where: { name: 'general' } });
      expect(channel).toMatchObject({ inviteOnly: false, historyPublicToSubscribers: true, creatorId: member.id });
      expect(channel.renderedDescription).toBe('<p>Talk <strong>here</strong></p>');
    });

    it('reports channels already subscribed to and matches names case-insensitively', async () => {
      const body = expectSuccess(await subscribe(member, { subscriptions: [{ name: 'GENERAL' }] }));
      expect(body).toMatchObject({ subscribed: {}, already_subscribed: { [member.id]: ['general'] } });
      expect(await system.db.stream.count({ where: { name: { equals: 'general', mode: 'insensitive' } } })).toBe(1);
    });

    it('subscribes other users given as principals, by id or by email', async () => {
      const byId = expectSuccess(await subscribe(member, { subscriptions: [{ name: 'general' }], principals: [other.id] }));
      expect(byId.subscribed).toEqual({ [other.id]: ['general'] });
      const byEmail = expectSuccess(
        await subscribe(member, { subscriptions: [{ name: 'general' }], principals: [admin.email.toUpperCase()] }),
      );
      expect(byEmail.subscribed).toEqual({ [admin.id]: ['general'] });
    });

    it('creates a private channel with protected history by default', async () => {
      expectSuccess(await subscribe(admin, { subscriptions: [{ name: 'secret' }], invite_only: true }));
      expect(await system.db.stream.findFirstOrThrow({ where: { name: 'secret' } })).toMatchObject({
        inviteOnly: true,
        historyPublicToSubscribers: false,
      });
      expectSuccess(
        await subscribe(admin, { subscriptions: [{ name: 'open-secret' }], invite_only: true, history_public_to_subscribers: true }),
      );
      expect(await system.db.stream.findFirstOrThrow({ where: { name: 'open-secret' } })).toMatchObject({
        historyPublicToSubscribers: true,
      });
    });

    it('refuses to join a private channel the caller is not in', async () => {
      expectError(await subscribe(member, { subscriptions: [{ name: 'secret' }] }), 400, 'BAD_REQUEST', 'Unable to access channel (secret).');
      const body = expectSuccess(
        await subscribe(member, { subscriptions: [{ name: 'secret' }, { name: 'general' }], authorization_errors_fatal: false }),
      );
      expect(body.unauthorized).toEqual(['secret']);
      expect(await system.db.subscription.count({ where: { userId: member.id, streamId: await channelId('secret') } })).toBe(0);
    });

    it('lets an administrator add someone to a private channel', async () => {
      const body = expectSuccess(await subscribe(admin, { subscriptions: [{ name: 'secret' }], principals: [other.id] }));
      expect(body.subscribed).toEqual({ [other.id]: ['secret'] });
    });

    it('does not let a guest create channels or subscribe others', async () => {
      expectError(await subscribe(guest, { subscriptions: [{ name: 'guest-made' }] }), 400, 'BAD_REQUEST', 'Insufficient permission');
      expectError(
        await subscribe(guest, { subscriptions: [{ name: 'general' }], principals: [other.id] }),
        400,
        'BAD_REQUEST',
        'Insufficient permission',
      );
      expect(await system.db.stream.count({ where: { name: 'guest-made' } })).toBe(0);
    });

    it.each([
      [{ subscriptions: [{ name: '' }] }, "Channel name can't be empty."],
      [{ subscriptions: [{ name: '   ' }] }, "Channel name can't be empty."],
      [{ subscriptions: [{ name: 'x'.repeat(61) }] }, 'Channel name too long (limit: 60 characters).'],
      [{ subscriptions: [{ name: 'bad\u0007bell' }] }, 'Invalid character in channel name, at position 4.'],
      [{ subscriptions: 'general' }, 'subscriptions is not valid JSON'],
      [{ subscriptions: { name: 'x' } }, 'subscriptions is not a list'],
      [{ subscriptions: [{ name: 7 }] }, 'subscriptions[0]["name"] is not a string'],
      [{ subscriptions: [{ name: 'x', colour: 'red' }] }, 'Argument "colour" at subscriptions[0] is unexpected'],
      [{ subscriptions: [{ name: 'ok' }], principals: [123456] }, 'No such user: 123456'],
      [{ subscriptions: [{ name: 'ok' }], principals: ['nobody@nowhere.test'] }, 'No such user: nobody@nowhere.test'],
      [{ subscriptions: [{ name: 'ok' }], principals: [1, 'a@b.c'] }, 'Principals must be all user IDs or all emails'],
      [{ subscriptions: [{ name: 'ok' }], invite_only: 'yes' }, 'invite_only is not valid JSON'],
    ])('rejects bad input %j and stores nothing', async (form, msg) => {
      const before = await system.db.stream.count();
      const res = await subscribe(member, form);
      expectError(res, 400, 'BAD_REQUEST', msg);
      expectNoInternals(res);
      expect(await system.db.stream.count()).toBe(before);
    });

    it('rejects a null byte in a channel name', async () => {
      expectError(
        await subscribe(member, { subscriptions: [{ name: 'nul\u0000name' }] }),
        400,
        'BAD_REQUEST',
        'subscriptions[0]["name"] must not contain null bytes',
      );
    });

    it('requires subscriptions', async () => {
      expectError(await subscribe(member, {}), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'subscriptions' argument", {
        var_name: 'subscriptions',
      });
    });

    it('never subscribes a user of another organization', async () => {
      expectError(
        await subscribe(member, { subscriptions: [{ name: 'general' }], principals: [outsider.id] }),
        400,
        'BAD_REQUEST',
        `No such user: ${outsider.id}`,
      );
      expectError(
        await subscribe(member, { subscriptions: [{ name: 'general' }], principals: [outsider.email] }),
        400,
        'BAD_REQUEST',
        `No such user: ${outsider.email}`,
      );
    });

    it('keeps organizations apart: the same name is a different channel elsewhere', async () => {
      expectSuccess(await subscribe(outsider, { subscriptions: [{ name: 'general' }] }, outsiderSubdomain));
      expect(await system.db.stream.count({ where: { name: 'general' } })).toBe(2);
    });

    it('refuses callers without valid credentials', async () => {
      const form = { subscriptions: JSON.stringify([{ name: 'x' }]) };
      await expectCallersRefused((options) => system.api.post('/users/me/subscriptions', form, options), { subdomain, member, outsider });
    });
  });

  describe('GET /users/me/subscriptions', () => {
    it('lists the caller’s subscriptions with their properties', async () => {
      const res = await system.api.get('/users/me/subscriptions', {}, as(member));
      expectMatchesOpenApi('get', '/users/me/subscriptions', expectSuccess(res));
      const subs = await mySubscriptions(member);
      expect(subs.map((s) => s.name)).toEqual(['general']);
      expect(subs[0]).toMatchObject({
        is_muted: false,
        in_home_view: true,
        pin_to_top: false,
        desktop_notifications: null,
        invite_only: false,
      });
      expect(subs[0].color).toMatch(/^#[0-9a-f]{6}$/);
    });

    it('includes subscribers when asked', async () => {
      const res = await system.api.get<{ subscriptions: { subscribers: number[] }[] }>(
        '/users/me/subscriptions',
        { include_subscribers: true },
        as(member),
      );
      expect(expectSuccess(res).subscriptions[0].subscribers).toEqual([admin.id, member.id, other.id].sort((a, b) => a - b));
    });
  });

  describe('GET /streams', () => {
    it('shows public channels and the caller’s private ones, never another organization’s', async () => {
      const asMember = expectSuccess(await system.api.get<{ streams: { name: string }[] }>('/streams', {}, as(member)));
      // The channel permission groups arrive with user groups (a later issue).
      expectMatchesOpenApi('get', '/streams', asMember);
      expect(asMember.streams[0]).toMatchObject({ subscriber_count: 3, is_recently_active: true });
      expect(asMember.streams.map((s) => s.name)).toEqual(['general']);
      const asOther = expectSuccess(await system.api.get<{ streams: { name: string }[] }>('/streams', {}, as(other)));
      expect(asOther.streams.map((s) => s.name).sort()).toEqual(['general', 'secret']);
    });

    it('does not count or list deactivated subscribers', async () => {
      await system.db.user.update({ where: { id: other.id }, data: { isActive: false } });
      try {
        const streams = expectSuccess(await system.api.get<{ streams: { name: string; subscriber_count: number }[] }>('/streams', {}, as(member)));
        expect(streams.streams.find((s) => s.name === 'general')?.subscriber_count).toBe(2);
        const subs = expectSuccess(
          await system.api.get<{ subscriptions: { subscribers: number[] }[] }>('/users/me/subscriptions', { include_subscribers: true }, as(member)),
        );
        expect(subs.subscriptions[0].subscribers).not.toContain(other.id);
      } finally {
        await system.db.user.update({ where: { id: other.id }, data: { isActive: true } });
      }
    });

    it('shows a guest only what they are subscribed to', async () => {
      const body = expectSuccess(await system.api.get<{ streams: unknown[] }>('/streams', {}, as(guest)));
      expect(body.streams).toEqual([]);
    });

    it('lets only administrators list every channel', async () => {
      expectError(await system.api.get('/streams', { include_all: true }, as(member)), 400, 'BAD_REQUEST', 'User not authorized for this query');
      const body = expectSuccess(await system.api.get<{ streams: { name: string }[] }>('/streams', { include_all: true }, as(owner)));
      expect(body.streams.map((s) => s.name).sort()).toEqual(['general', 'open-secret', 'secret']);
    });
  });

  describe('POST /users/me/subscriptions/properties', () => {
    const update = (user: TestUser, data: unknown) =>
      system.api.post('/users/me/subscriptions/properties', { subscription_data: data as never }, as(user));

    it('changes each property', async () => {
      const id = await channelId('general');
      const res = await update(member, [
        { stream_id: id, property: 'color', value: '#abcdef' },
        { stream_id: id, property: 'pin_to_top', value: true },
        { stream_id: id, property: 'desktop_notifications', value: false },
        { stream_id: id, property: 'audible_notifications', value: true },
        { stream_id: id, property: 'push_notifications', value: true },
        { stream_id: id, property: 'email_notifications', value: false },
        { stream_id: id, property: 'wildcard_mentions_notify', value: false },
        { stream_id: id, property: 'is_muted', value: true },
      ]);
      expectMatchesOpenApi('post', '/users/me/subscriptions/properties', expectSuccess(res));
      const [sub] = await mySubscriptions(member);
      expect(sub).toMatchObject({
        color: '#abcdef',
        pin_to_top: true,
        desktop_notifications: false,
        audible_notifications: true,
        push_notifications: true,
        email_notifications: false,
        wildcard_mentions_notify: false,
        is_muted: true,
        in_home_view: false,
      });
    });

    it('treats in_home_view as the opposite of is_muted', async () => {
      const id = await channelId('general');
      expectSuccess(await update(member, [{ stream_id: id, property: 'in_home_view', value: true }]));
      expect((await mySubscriptions(member))[0]).toMatchObject({ is_muted: false, in_home_view: true });
    });

    it('reports unsupported parameters', async () => {
      const id = await channelId('general');
      const res = await system.api.post(
        '/users/me/subscriptions/properties',
        { subscription_data: [{ stream_id: id, property: 'pin_to_top', value: false }], verbose: true },
        as(member),
      );
      expect(expectSuccess(res).ignored_parameters_unsupported).toEqual(['verbose']);
    });

    it.each([
      [(id: number) => [{ stream_id: id, property: 'color', value: 'red' }], 'color is not a valid hex color code'],
      [(id: number) => [{ stream_id: id, property: 'color', value: true }], 'color is not a string'],
      [(id: number) => [{ stream_id: id, property: 'is_muted', value: 'yes' }], 'is_muted is not a boolean'],
      [(id: number) => [{ stream_id: id, property: 'volume', value: true }], 'Unknown subscription property: volume'],
      [() => [{ stream_id: 999999, property: 'is_muted', value: true }], 'Invalid channel ID'],
      [() => [{ stream_id: 2 ** 40, property: 'is_muted', value: true }], 'Invalid channel ID'],
      [(id: number) => [{ stream_id: id, property: 'is_muted' }], 'Invalid subscription_data[1]["value"]'],
    ])('rejects a bad change and changes nothing (%#)', async (data, msg) => {
      const id = await channelId('general');
      const before = await system.db.subscription.findMany({ where: { userId: member.id }, orderBy: { id: 'asc' } });
      // A valid change first: the whole request must still leave everything as it was.
      expectError(await update(member, [{ stream_id: id, property: 'pin_to_top', value: false }, ...data(id)]), 400, 'BAD_REQUEST', msg);
      expect(await system.db.subscription.findMany({ where: { userId: member.id }, orderBy: { id: 'asc' } })).toEqual(before);
    });

    it('refuses channels the caller is not subscribed to or cannot see', async () => {
      expectError(
        await update(member, [{ stream_id: await channelId('open-secret'), property: 'is_muted', value: true }]),
        400,
        'BAD_REQUEST',
        'Invalid channel ID',
      );
      expectError(
        await update(guest, [{ stream_id: await channelId('general'), property: 'is_muted', value: true }]),
        400,
        'BAD_REQUEST',
        'Invalid channel ID',
      );
      const foreign = await system.db.stream.findFirstOrThrow({ where: { name: 'general', NOT: { id: await channelId('general') } } });
      expectError(await update(member, [{ stream_id: foreign.id, property: 'is_muted', value: true }]), 400, 'BAD_REQUEST', 'Invalid channel ID');
      expectSuccess(await subscribe(owner, { subscriptions: [{ name: 'owners-only' }] }));
      expectError(
        await update(member, [{ stream_id: await channelId('owners-only'), property: 'is_muted', value: true }]),
        400,
        'BAD_REQUEST',
        `Not subscribed to channel ID ${await channelId('owners-only')}`,
      );
    });
  });

  describe('DELETE /users/me/subscriptions', () => {
    it('unsubscribes the caller', async () => {
      const res = await system.api.delete('/users/me/subscriptions', { subscriptions: ['owners-only'] }, as(owner));
      const body = expectSuccess(res);
      expectMatchesOpenApi('delete', '/users/me/subscriptions', body);
      expect(body).toMatchObject({ removed: ['owners-only'], not_removed: [] });
      expect(expectSuccess(await system.api.delete('/users/me/subscriptions', { subscriptions: ['owners-only'] }, as(owner)))).toMatchObject(
        { removed: [], not_removed: ['owners-only'] },
      );
    });

    it('lets only administrators (of the organization, or the channel: its creator) remove someone else', async () => {
      expectError(
        await system.api.delete('/users/me/subscriptions', { subscriptions: ['general'], principals: [member.id] }, as(other)),
        400,
        'BAD_REQUEST',
        'Insufficient permission',
      );
      const body = expectSuccess(
        await system.api.delete('/users/me/subscriptions', { subscriptions: ['general'], principals: [other.id] }, as(admin)),
      );
      expect(body).toMatchObject({ removed: ['general'] });
    });

    it('treats an unknown or invisible channel as not existing', async () => {
      expectError(
        await system.api.delete('/users/me/subscriptions', { subscriptions: ['nope'] }, as(member)),
        400,
        'STREAM_DOES_NOT_EXIST',
        "Channel 'nope' does not exist",
        { stream: 'nope' },
      );
      expectError(
        await system.api.delete('/users/me/subscriptions', { subscriptions: ['open-secret'] }, as(member)),
        400,
        'STREAM_DOES_NOT_EXIST',
        "Channel 'open-secret' does not exist",
        { stream: 'open-secret' },
      );
    });
  });

  // Last: it adds channels and a subscriber that the listings above would count.
  describe('names', () => {
    it('compares names exactly: `_` and `%` are characters, not wildcards', async () => {
      // `secre_` once matched the private `secret` (a LIKE pattern), and its error named it.
      const realm = await system.db.realm.findFirstOrThrow({ where: { subdomain } });
      const member = await factory.user(realm, { fullName: 'Wildcard Tester' });
      expectSuccess(await subscribe(member, { subscriptions: [{ name: 'general' }] }));
      const body = expectSuccess(await subscribe(member, { subscriptions: [{ name: 'secre_' }, { name: 'genera%' }] }));
      expect(body).toMatchObject({ subscribed: { [member.id]: ['secre_', 'genera%'] }, already_subscribed: {} });
      expect(await system.db.subscription.count({ where: { userId: member.id, streamId: await channelId('secret') } })).toBe(0);
      expectError(
        await system.api.delete('/users/me/subscriptions', { subscriptions: ['gener_l'] }, as(member)),
        400,
        'STREAM_DOES_NOT_EXIST',
        "Channel 'gener_l' does not exist",
        { stream: 'gener_l' },
      );
      expect(await system.db.subscription.count({ where: { userId: member.id, streamId: await channelId('general'), active: true } })).toBe(1);
      expectError(
        await system.api.post('/messages', { type: 'stream', to: 'gen%', topic: 't', content: 'x' }, as(member)),
        400,
        'STREAM_DOES_NOT_EXIST',
        "Channel 'gen%' does not exist",
        { stream: 'gen%' },
      );
    });
  });
});

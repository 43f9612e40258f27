import type { StreamModel } from '@teamchat/db';
import { Role } from '@teamchat/zulip';
import {
  Factory,
  TestSystem,
  expectError,
  expectMatchesOpenApi,
  expectSuccess,
  type EventRecorder,
  type TestUser,
} from '@teamchat/testing';

const SUBSCRIPTION = 'event.messaging.subscription_changed.v1';
const STREAM = 'event.messaging.channel_changed.v1';

/** The channel permission groups arrive with user groups (a later issue). */
interface Published {
  subject: string;
  payload: { realmId: number; users: number[]; event: Record<string, unknown> };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ids = (...users: { id: number }[]) => users.map((u) => u.id).sort((a, b) => a - b);

describe('channel and subscription events', () => {
  let system: TestSystem;
  let factory: Factory;
  let recorder: EventRecorder;
  let realmId: number, subdomain: string;
  let owner: TestUser, admin: TestUser, member: TestUser, guest: TestUser, other: TestUser, bot: TestUser, gone: TestUser;
  let elsewhereId: number, elsewhereSubdomain: string;
  let outsider: TestUser, outsiderMember: TestUser;
  /** The users of each organization, to check that no event ever crosses over. */
  const usersOf = new Map<number, Set<number>>();

  const as = (user: TestUser, sub = subdomain) => ({ auth: user, subdomain: sub });
  const subscribe = (user: TestUser, form: Record<string, unknown>, sub = subdomain) =>
    system.api.post('/users/me/subscriptions', form as never, as(user, sub));
  const unsubscribe = (user: TestUser, form: Record<string, unknown>) =>
    system.api.delete('/users/me/subscriptions', form as never, as(user));
  const updateProperties = (user: TestUser, data: unknown) =>
    system.api.post('/users/me/subscriptions/properties', { subscription_data: data as never }, as(user));
  const channel = (name: string, realm = realmId) => system.db.stream.findFirstOrThrow({ where: { name, realmId: realm } });
  const colorOf = async (user: TestUser, streamId: number) =>
    (await system.db.subscription.findUniqueOrThrow({ where: { userId_streamId: { userId: user.id, streamId } } })).color;

  /** Waits for `count` events, then a little longer so that any extra one shows too. */
  async function published(count: number): Promise<Published[]> {
    const deadline = Date.now() + 5000;
    while (recorder.events.length < count && Date.now() < deadline) await sleep(20);
    await sleep(300);
    return recorder.events.map(({ subject, payload }) => ({ subject, payload }) as Published);
  }

  /** GET /streams' record of a channel: what `stream` create and `subscription` add carry. */
  const record = (row: StreamModel, subscriberCount: number) => ({
    stream_id: row.id,
    name: row.name,
    description: row.description,
    rendered_description: row.renderedDescription,
    date_created: Math.floor(row.dateCreated.getTime() / 1000),
    creator_id: row.creatorId,
    invite_only: row.inviteOnly,
    is_web_public: row.isWebPublic,
    history_public_to_subscribers: row.historyPublicToSubscribers,
    first_message_id: null,
    message_retention_days: null,
    stream_post_policy: 1,
    is_announcement_only: false,
    is_archived: false,
    stream_weekly_traffic: null,
    folder_id: null,
    is_recently_active: true,
    subscriber_count: subscriberCount,
    // Zulip's defaults, filled in by the database: the creator alone administers the channel.
    can_add_subscribers_group: row.canAddSubscribersGroupId,
    can_administer_channel_group:
      row.creatorId !== null ? { direct_members: [row.creatorId], direct_subgroups: [] } : row.canAdministerChannelGroupId,
    can_delete_any_message_group: row.canDeleteAnyMessageGroupId,
    can_delete_own_message_group: row.canDeleteOwnMessageGroupId,
    can_move_messages_within_channel_group: row.canMoveMessagesWithinChannelGroupId,
    can_remove_subscribers_group: row.canRemoveSubscribersGroupId,
    can_resolve_topics_group: row.canResolveTopicsGroupId,
    can_send_message_group: row.canSendMessageGroupId,
    can_subscribe_group: row.canSubscribeGroupId,
  });
  const subscriptionRecord = (row: StreamModel, color: string, subscribers: number[]) => ({
    ...record(row, subscribers.length),
    color,
    is_muted: false,
    in_home_view: true,
    pin_to_top: false,
    desktop_notifications: null,
    audible_notifications: null,
    push_notifications: null,
    email_notifications: null,
    wildcard_mentions_notify: null,
    subscribers,
  });
  const ofSubscription = (users: number[], event: Record<string, unknown>) => ({
    subject: SUBSCRIPTION,
    payload: { realmId, users, event: { type: 'subscription', ...event } },
  });
  const ofStream = (users: number[], event: Record<string, unknown>) => ({
    subject: STREAM,
    payload: { realmId, users, event: { type: 'stream', ...event } },
  });

  /** Each client event as GET /events would serve it must match the project's OpenAPI document. */
  function expectClientEventsMatchOpenApi(events: Published[]): void {
    const served = events.map(({ payload: { event } }, id) => ({ id, ...event }));
    expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: 'q', events: served });
  }

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'evts' });
    ({ owner, admin, member, guest } = org);
    realmId = org.realm.id;
    subdomain = org.realm.subdomain;
    other = await factory.user(org.realm, { role: Role.MEMBER, fullName: 'Other Member' });
    bot = await factory.user(org.realm, { role: Role.MEMBER, isBot: true, fullName: 'A Bot' });
    gone = await factory.user(org.realm, { role: Role.MEMBER, isActive: false, fullName: 'Deactivated' });
    usersOf.set(realmId, new Set(ids(owner, admin, member, guest, other, bot, gone)));

    const elsewhere = await factory.organization({ subdomain: 'evts-elsewhere' });
    elsewhereId = elsewhere.id;
    elsewhereSubdomain = elsewhere.subdomain;
    outsider = await factory.user(elsewhere, { role: Role.OWNER });
    outsiderMember = await factory.user(elsewhere, { role: Role.MEMBER });
    usersOf.set(elsewhereId, new Set(ids(outsider, outsiderMember)));

    recorder = await system.recordEvents();
  });
  afterAll(() => system.stop());

  beforeEach(() => recorder.clear());

  afterEach(() => {
    // Whatever a test did, no event may name a user of another organization.
    for (const { payload } of recorder.events as unknown as Published[]) {
      const members = usersOf.get(payload.realmId);
      expect({ realmId: payload.realmId, known: members !== undefined }).toEqual({ realmId: payload.realmId, known: true });
      expect(payload.users.filter((id) => !members!.has(id))).toEqual([]);
    }
  });

  // Everyone in the organization who is active: the bot counts, the deactivated user never.
  const everyone = () => ids(owner, admin, member, guest, other, bot);
  const nonGuests = () => ids(owner, admin, member, other, bot);
  const without = (list: number[], ...users: { id: number }[]) => list.filter((id) => !users.some((u) => u.id === id));

  describe('POST /users/me/subscriptions/properties', () => {
    it('sends the caller one update per change, two (in_home_view, then is_muted) for muting', async () => {
      const row = await factory.channel({ id: realmId }, { name: 'props', subscribers: [member, other] });
      expectSuccess(
        await updateProperties(member, [
          { stream_id: row.id, property: 'color', value: '#123456' },
          { stream_id: row.id, property: 'pin_to_top', value: true },
          { stream_id: row.id, property: 'is_muted', value: true },
          { stream_id: row.id, property: 'in_home_view', value: true },
          { stream_id: row.id, property: 'desktop_notifications', value: false },
        ]),
      );
      const update = (property: string, value: unknown) => ofSubscription([member.id], { op: 'update', stream_id: row.id, property, value });
      const events = await published(7);
      expect(events).toEqual([
        update('color', '#123456'),
        update('pin_to_top', true),
        update('in_home_view', false),
        update('is_muted', true),
        update('in_home_view', true),
        update('is_muted', false),
        update('desktop_notifications', false),
      ]);
      expectClientEventsMatchOpenApi(events);
    });

    it('publishes nothing when any change of the request is refused', async () => {
      const row = await factory.channel({ id: realmId }, { name: 'props-refused', subscribers: [member] });
      const mine = await factory.channel({ id: realmId }, { name: 'props-not-mine', subscribers: [other] });
      expectError(
        await updateProperties(member, [
          { stream_id: row.id, property: 'is_muted', value: true },
          { stream_id: row.id, property: 'volume', value: true },
        ]),
        400,
        'BAD_REQUEST',
        'Unknown subscription property: volume',
      );
      expectError(
        await updateProperties(member, [
          { stream_id: row.id, property: 'color', value: '#abcdef' },
          { stream_id: mine.id, property: 'pin_to_top', value: true },
        ]),
        400,
        'BAD_REQUEST',
        `Not subscribed to channel ID ${mine.id}`,
      );
      expect(await published(0)).toEqual([]);
    });
  });

  describe('POST /users/me/subscriptions', () => {
    it('creating a public channel: create to every active non-guest, add to the caller, peer_add to the rest', async () => {
      expectSuccess(await subscribe(member, { subscriptions: [{ name: 'pub-new', description: 'Hello *there*' }] }));
      const row = await channel('pub-new');
      const events = await published(3);
      expect(events).toEqual([
        ofStream(nonGuests(), { op: 'create', streams: [record(row, 0)] }),
        ofSubscription([member.id], {
          op: 'add',
          subscriptions: [subscriptionRecord(row, await colorOf(member, row.id), [member.id])],
        }),
        ofSubscription(without(nonGuests(), member), { op: 'peer_add', stream_ids: [row.id], user_ids: [member.id] }),
      ]);
      expect(row.renderedDescription).toBe('<p>Hello <em>there</em></p>');
      expectClientEventsMatchOpenApi(events);
    });

    it('creating a public channel with a guest in it: the guest learns of it too, and peer_add reaches them', async () => {
      expectSuccess(await subscribe(admin, { subscriptions: [{ name: 'pub-guest' }], principals: [admin.id, guest.id] }));
      const row = await channel('pub-guest');
      const subscribers = ids(admin, guest);
      expect(await published(4)).toEqual([
        ofStream(everyone(), { op: 'create', streams: [record(row, 0)] }),
        ofSubscription([admin.id], { op: 'add', subscriptions: [subscriptionRecord(row, await colorOf(admin, row.id), subscribers)] }),
        ofSubscription([guest.id], { op: 'add', subscriptions: [subscriptionRecord(row, await colorOf(guest, row.id), subscribers)] }),
        ofSubscription(without(everyone(), admin, guest), { op: 'peer_add', stream_ids: [row.id], user_ids: subscribers }),
      ]);
    });

    it('creating a private channel: only its subscribers and the administrators hear of it', async () => {
      expectSuccess(await subscribe(admin, { subscriptions: [{ name: 'priv-new' }], invite_only: true, principals: [admin.id, member.id] }));
      const row = await channel('priv-new');
      expect(row).toMatchObject({ inviteOnly: true, historyPublicToSubscribers: false });
      const subscribers = ids(admin, member);
      const events = await published(4);
      expect(events).toEqual([
        ofStream(ids(owner, admin, member), { op: 'create', streams: [record(row, 0)] }),
        ofSubscription([admin.id], { op: 'add', subscriptions: [subscriptionRecord(row, await colorOf(admin, row.id), subscribers)] }),
        ofSubscription([member.id], { op: 'add', subscriptions: [subscriptionRecord(row, await colorOf(member, row.id), subscribers)] }),
        ofSubscription([owner.id], { op: 'peer_add', stream_ids: [row.id], user_ids: subscribers }),
      ]);
      expectClientEventsMatchOpenApi(events);
    });

    it('adding someone to an existing private channel: create and add to them, peer_add to those who see it', async () => {
      const row = await factory.channel({ id: realmId }, { name: 'priv-old', inviteOnly: true, subscribers: [admin, member, gone] });
      expectSuccess(await subscribe(admin, { subscriptions: [{ name: 'priv-old' }], principals: [other.id] }));
      // The deactivated subscriber is neither counted, listed nor told.
      const subscribers = ids(admin, member, other);
      expect(await published(3)).toEqual([
        ofStream([other.id], { op: 'create', streams: [record(row, 2)] }),
        ofSubscription([other.id], { op: 'add', subscriptions: [subscriptionRecord(row, await colorOf(other, row.id), subscribers)] }),
        ofSubscription(ids(owner, admin, member), { op: 'peer_add', stream_ids: [row.id], user_ids: [other.id] }),
      ]);
    });

    it('adding a guest to an existing public channel: the guest gets create first', async () => {
      const row = await factory.channel({ id: realmId }, { name: 'pub-old', subscribers: [member] });
      expectSuccess(await subscribe(member, { subscriptions: [{ name: 'pub-old' }], principals: [guest.id] }));
      expect(await published(3)).toEqual([
        ofStream([guest.id], { op: 'create', streams: [record(row, 1)] }),
        ofSubscription([guest.id], {
          op: 'add',
          subscriptions: [subscriptionRecord(row, await colorOf(guest, row.id), ids(member, guest))],
        }),
        ofSubscription(nonGuests(), { op: 'peer_add', stream_ids: [row.id], user_ids: [guest.id] }),
      ]);
    });

    it('joining several public channels: one add, one peer_add per audience (web-public apart)', async () => {
      const first = await factory.channel({ id: realmId }, { name: 'multi-a', subscribers: [other] });
      const second = await factory.channel({ id: realmId }, { name: 'multi-b' });
      const web = await factory.channel({ id: realmId }, { name: 'multi-web' });
      await system.db.stream.update({ where: { id: web.id }, data: { isWebPublic: true } });
      expectSuccess(await subscribe(member, { subscriptions: [{ name: 'multi-web' }, { name: 'multi-b' }, { name: 'multi-a' }] }));
      const webRow = await channel('multi-web');
      const events = await published(3);
      expect(events).toEqual([
        ofSubscription([member.id], {
          op: 'add',
          subscriptions: [
            subscriptionRecord(first, await colorOf(member, first.id), ids(member, other)),
            subscriptionRecord(second, await colorOf(member, second.id), [member.id]),
            subscriptionRecord(webRow, await colorOf(member, web.id), [member.id]),
          ],
        }),
        // A web-public channel is seen by guests too.
        ofSubscription(without(everyone(), member), { op: 'peer_add', stream_ids: [web.id], user_ids: [member.id] }),
        ofSubscription(without(nonGuests(), member), { op: 'peer_add', stream_ids: ids(first, second), user_ids: [member.id] }),
      ]);
      expectClientEventsMatchOpenApi(events);
    });

    it('publishes nothing when nobody was subscribed', async () => {
      await factory.channel({ id: realmId }, { name: 'already', subscribers: [member] });
      const res = expectSuccess(await subscribe(member, { subscriptions: [{ name: 'already' }] }));
      expect(res).toMatchObject({ subscribed: {}, already_subscribed: { [member.id]: ['already'] } });
      expect(await published(0)).toEqual([]);
    });

    it('publishes nothing for a refused request', async () => {
      await factory.channel({ id: realmId }, { name: 'closed', inviteOnly: true, subscribers: [admin] });
      expectError(await subscribe(member, { subscriptions: [{ name: '' }] }), 400, 'BAD_REQUEST', "Channel name can't be empty.");
      expectError(
        await subscribe(member, { subscriptions: [{ name: 'fresh' }], principals: [outsider.id] }),
        400,
        'BAD_REQUEST',
        `No such user: ${outsider.id}`,
      );
      expectError(await subscribe(guest, { subscriptions: [{ name: 'guest-made' }] }), 400, 'BAD_REQUEST', 'Insufficient permission');
      expectError(
        await subscribe(member, { subscriptions: [{ name: 'fresh' }, { name: 'closed' }] }),
        400,
        'BAD_REQUEST',
        'Unable to access channel (closed).',
      );
      expect(await system.db.stream.count({ where: { name: { in: ['fresh', 'guest-made'] } } })).toBe(0);
      expect(await published(0)).toEqual([]);
    });
  });

  describe('DELETE /users/me/subscriptions', () => {
    it('leaving a public channel: remove to the user, peer_remove to everyone who still sees it', async () => {
      const row = await factory.channel({ id: realmId }, { name: 'leave-pub', subscribers: [member, other, guest] });
      expectSuccess(await unsubscribe(member, { subscriptions: ['leave-pub'] }));
      const events = await published(2);
      expect(events).toEqual([
        ofSubscription([member.id], { op: 'remove', subscriptions: [{ name: 'leave-pub', stream_id: row.id }] }),
        // The guest subscriber sees the channel, so is told too.
        ofSubscription(without(everyone(), member), { op: 'peer_remove', stream_ids: [row.id], user_ids: [member.id] }),
      ]);
      expectClientEventsMatchOpenApi(events);
    });

    it('leaving a private channel: the channel is deleted for the user, peer_remove to its subscribers and administrators', async () => {
      const row = await factory.channel({ id: realmId }, { name: 'leave-priv', inviteOnly: true, subscribers: [member, other] });
      expectSuccess(await unsubscribe(member, { subscriptions: ['leave-priv'] }));
      const events = await published(3);
      expect(events).toEqual([
        ofSubscription([member.id], { op: 'remove', subscriptions: [{ name: 'leave-priv', stream_id: row.id }] }),
        ofStream([member.id], { op: 'delete', streams: [{ stream_id: row.id }], stream_ids: [row.id] }),
        ofSubscription(ids(owner, admin, other), { op: 'peer_remove', stream_ids: [row.id], user_ids: [member.id] }),
      ]);
      expectClientEventsMatchOpenApi(events);
    });

    it('an administrator removing a guest and a member from public channels', async () => {
      const first = await factory.channel({ id: realmId }, { name: 'rm-a', subscribers: [guest, other, member] });
      const second = await factory.channel({ id: realmId }, { name: 'rm-b', subscribers: [guest, other] });
      expectSuccess(await unsubscribe(admin, { subscriptions: ['rm-a', 'rm-b'], principals: [guest.id, other.id] }));
      const removed = (name: string, id: number) => ({ name, stream_id: id });
      expect(await published(4)).toEqual([
        ofSubscription([guest.id], { op: 'remove', subscriptions: [removed('rm-a', first.id), removed('rm-b', second.id)] }),
        // A guest sees a public channel only while subscribed.
        ofStream([guest.id], { op: 'delete', streams: [{ stream_id: first.id }, { stream_id: second.id }], stream_ids: ids(first, second) }),
        ofSubscription([other.id], { op: 'remove', subscriptions: [removed('rm-a', first.id), removed('rm-b', second.id)] }),
        ofSubscription(without(nonGuests(), other), {
          op: 'peer_remove',
          stream_ids: ids(first, second),
          user_ids: ids(guest, other),
        }),
      ]);
    });

    it('publishes nothing when nobody was unsubscribed or the request is refused', async () => {
      await factory.channel({ id: realmId }, { name: 'not-in', subscribers: [other] });
      expect(expectSuccess(await unsubscribe(member, { subscriptions: ['not-in'] }))).toMatchObject({ removed: [], not_removed: ['not-in'] });
      expectError(
        await unsubscribe(member, { subscriptions: ['not-in'], principals: [other.id] }),
        400,
        'BAD_REQUEST',
        'Insufficient permission',
      );
      expectError(await unsubscribe(member, { subscriptions: ['not-in', 'nope'] }), 400, 'STREAM_DOES_NOT_EXIST', "Channel 'nope' does not exist", {
        stream: 'nope',
      });
      expect(await system.db.subscription.count({ where: { userId: other.id, active: true, stream: { name: 'not-in' } } })).toBe(1);
      expect(await published(0)).toEqual([]);
    });
  });

  describe('organizations', () => {
    it('tells only the users of the organization where it happened', async () => {
      expectSuccess(await subscribe(member, { subscriptions: [{ name: 'same-name' }] }));
      await published(3);
      recorder.clear();
      expectSuccess(await subscribe(outsider, { subscriptions: [{ name: 'same-name' }] }, elsewhereSubdomain));
      const row = await channel('same-name', elsewhereId);
      const events = await published(3);
      expect(events).toEqual([
        { subject: STREAM, payload: { realmId: elsewhereId, users: ids(outsider, outsiderMember), event: { type: 'stream', op: 'create', streams: [record(row, 0)] } } },
        {
          subject: SUBSCRIPTION,
          payload: {
            realmId: elsewhereId,
            users: [outsider.id],
            event: { type: 'subscription', op: 'add', subscriptions: [subscriptionRecord(row, await colorOf(outsider, row.id), [outsider.id])] },
          },
        },
        {
          subject: SUBSCRIPTION,
          payload: {
            realmId: elsewhereId,
            users: [outsiderMember.id],
            event: { type: 'subscription', op: 'peer_add', stream_ids: [row.id], user_ids: [outsider.id] },
          },
        },
      ]);
    });
  });
});

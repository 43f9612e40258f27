import type { TestUser } from '@teamchat/testing';
import { NO_SUCH_ID, documentedExample, unique, type ExampleWorld } from './world';

/**
 * Channels, subscriptions, topics and channel folders. Examples that change something make
 * their own channels, topics and folders (unique names), so that each can run alone; the
 * seeded ones (Verona, Denmark, Scotland, core team) are only read.
 */

interface Channel {
  id: number;
  name: string;
}

/** Creates a channel through POST /users/me/subscriptions, the caller and `principals` subscribed. */
async function newChannel(world: ExampleWorld, prefix: string, options: { as?: TestUser; principals?: TestUser[]; inviteOnly?: boolean } = {}): Promise<Channel> {
  const name = unique(prefix);
  const caller = options.as ?? world.iago;
  await world.succeeds('subscribe', {
    as: caller,
    params: {
      subscriptions: [{ name }],
      principals: [...new Set([caller, ...(options.principals ?? [])].map((user) => user.id))],
      ...(options.inviteOnly ? { invite_only: true } : {}),
    },
  });
  const { stream_id } = await world.succeeds<{ stream_id: number }>('get-stream-id', { as: caller, params: { stream: name } });
  return { id: stream_id, name };
}

interface Subscription {
  stream_id: number;
  name: string;
  description: string;
  color: string;
  pin_to_top: boolean;
  subscribers?: number[];
}

async function subscriptionsOf(world: ExampleWorld, user: TestUser = world.iago): Promise<Subscription[]> {
  const { subscriptions } = await world.succeeds<{ subscriptions: Subscription[] }>('get-subscriptions', { as: user });
  return subscriptions;
}

/** Sends a channel message; its id. */
const send = (world: ExampleWorld, channel: Channel, topic: string, content: string, as: TestUser = world.iago) =>
  world.send(as, { type: 'stream', to: channel.name, topic, content });

interface StreamRecord {
  stream_id: number;
  name: string;
  description: string;
  invite_only: boolean;
  is_archived?: boolean;
  is_default?: boolean;
  history_public_to_subscribers: boolean;
  folder_id: number | null;
  can_add_subscribers_group: number | { direct_members: number[]; direct_subgroups: number[] };
}

const streamById = async (world: ExampleWorld, id: number) => (await world.succeeds<{ stream: StreamRecord }>('get-stream-by-id', { path: { stream_id: id } })).stream;

documentedExample('get-stream-id', async (world) => {
  const { stream_id } = await world.succeeds<{ stream_id: number }>('get-stream-id', { params: { stream: world.example('get-stream-id', 'stream') } });
  expect(stream_id).toBe(world.channel('Denmark').id);
  const failed = await world.fails('get-stream-id', { params: { stream: 'nonexistent' } }, 400);
  expect(failed.msg).toBe("Invalid channel name 'nonexistent'");
});

documentedExample('add-default-stream', async (world) => {
  const channel = await newChannel(world, 'test channel');
  await world.succeeds('add-default-stream', { params: { stream_id: channel.id } });
  const { streams } = await world.succeeds<{ streams: StreamRecord[] }>('get-streams', { params: { include_default: true } });
  expect(streams.find((stream) => stream.stream_id === channel.id)?.is_default).toBe(true);
  const { realm_default_streams } = await world.initialState<{ realm_default_streams: number[] }>(['default_streams']);
  expect(realm_default_streams).toContain(channel.id);

  expect((await world.fails('add-default-stream', { params: { stream_id: NO_SUCH_ID } }, 400)).msg).toBe('Invalid channel ID');
  const secret = await newChannel(world, 'secret channel', { inviteOnly: true });
  expect((await world.fails('add-default-stream', { params: { stream_id: secret.id } }, 400)).msg).toBe('Private channels cannot be made default.');
});

documentedExample('remove-default-stream', async (world) => {
  const channel = await newChannel(world, 'test channel');
  await world.succeeds('add-default-stream', { params: { stream_id: channel.id } });
  await world.succeeds('remove-default-stream', { params: { stream_id: channel.id } });
  const { streams } = await world.succeeds<{ streams: StreamRecord[] }>('get-streams', { params: { include_default: true } });
  expect(streams.find((stream) => stream.stream_id === channel.id)?.is_default).toBe(false);
  const { realm_default_streams } = await world.initialState<{ realm_default_streams: number[] }>(['default_streams']);
  expect(realm_default_streams).not.toContain(channel.id);

  expect((await world.fails('remove-default-stream', { params: { stream_id: NO_SUCH_ID } }, 400)).msg).toBe('Invalid channel ID');
});

documentedExample('get-stream-topics', async (world) => {
  const denmark = world.channel('Denmark');
  const { topics } = await world.succeeds<{ topics: { name: string; max_id: number }[] }>('get-stream-topics', {
    path: { stream_id: denmark.id },
    params: { allow_empty_topic_name: world.example('get-stream-topics', 'allow_empty_topic_name') },
  });
  expect(topics.map((topic) => topic.name)).toContain('castle');
  // A topic written now comes first, its newest message its max_id.
  const channel = await newChannel(world, 'topics', { principals: [world.hamlet] });
  await send(world, channel, 'older', 'first');
  const newest = await send(world, channel, 'newer', 'second');
  const fresh = await world.succeeds<{ topics: { name: string; max_id: number }[] }>('get-stream-topics', { path: { stream_id: channel.id }, as: world.hamlet });
  expect(fresh.topics[0]).toEqual({ name: 'newer', max_id: newest });
  expect(fresh.topics.map((topic) => topic.name)).toEqual(['newer', 'older']);

  // A channel that is not there, and a private one the caller cannot see: the same answer.
  expect((await world.fails('get-stream-topics', { path: { stream_id: NO_SUCH_ID } }, 400)).msg).toBe('Invalid channel ID');
  expect((await world.fails('get-stream-topics', { path: { stream_id: world.channel('core team').id }, as: world.hamlet }, 400)).msg).toBe('Invalid channel ID');
});

documentedExample('subscribe', async (world) => {
  const name = unique('python-test');
  const created = await world.succeeds<{ subscribed: Record<string, string[]>; already_subscribed: Record<string, string[]> }>('subscribe', {
    params: { subscriptions: [{ name, description: 'Italian city' }] },
  });
  expect(created.subscribed[String(world.iago.id)]).toEqual([name]);
  const mine = (await subscriptionsOf(world)).find((subscription) => subscription.name === name);
  expect(mine?.description).toBe('Italian city');

  // Other users, by their ids (`principals`).
  const again = await world.succeeds<{ subscribed: Record<string, string[]>; already_subscribed: Record<string, string[]> }>('subscribe', {
    params: { subscriptions: [{ name }], principals: [world.iago.id, world.hamlet.id] },
  });
  expect(again.subscribed).toEqual({ [String(world.hamlet.id)]: [name] });
  expect(again.already_subscribed).toEqual({ [String(world.iago.id)]: [name] });
  expect((await subscriptionsOf(world, world.hamlet)).map((subscription) => subscription.name)).toContain(name);

  // A private channel the caller may not join: left out, or (authorization_errors_fatal) refused.
  const secret = await newChannel(world, 'private-channel', { inviteOnly: true });
  const tolerated = await world.succeeds<{ subscribed: Record<string, string[]>; unauthorized?: string[] }>('subscribe', {
    as: world.hamlet,
    params: { subscriptions: [{ name: secret.name }], authorization_errors_fatal: false },
  });
  expect(tolerated.unauthorized).toEqual([secret.name]);
  expect(tolerated.subscribed).toEqual({});
  const refused = await world.fails('subscribe', { as: world.hamlet, params: { subscriptions: [{ name: secret.name }], authorization_errors_fatal: true } }, 400);
  // Zulip's text names the channel (its example's was called "private").
  expect(refused.msg).toBe(`Unable to access channel (${secret.name}).`);
  expect((await subscriptionsOf(world, world.hamlet)).map((subscription) => subscription.name)).not.toContain(secret.name);
});

documentedExample('unsubscribe', async (world) => {
  const first = await newChannel(world, 'leave me', { principals: [world.hamlet] });
  const second = await newChannel(world, 'leave me too', { principals: [world.hamlet] });
  const left = await world.succeeds<{ removed: string[]; not_removed: string[] }>('unsubscribe', { params: { subscriptions: [first.name, second.name] } });
  expect(left.removed.sort()).toEqual([first.name, second.name].sort());
  expect(left.not_removed).toEqual([]);
  const names = (await subscriptionsOf(world)).map((subscription) => subscription.name);
  expect(names).not.toContain(first.name);
  expect(names).not.toContain(second.name);

  // An administrator unsubscribes another user (`principals`).
  const removed = await world.succeeds<{ removed: string[] }>('unsubscribe', { params: { subscriptions: [first.name], principals: [world.hamlet.id] } });
  expect(removed.removed).toEqual([first.name]);
  expect((await subscriptionsOf(world, world.hamlet)).map((subscription) => subscription.name)).not.toContain(first.name);

  const failed = await world.fails('unsubscribe', { params: { subscriptions: ['nonexistent'] } }, 400, 'STREAM_DOES_NOT_EXIST');
  expect(failed).toMatchObject({ msg: "Channel 'nonexistent' does not exist", stream: 'nonexistent' });
});

documentedExample('get-subscriptions', async (world) => {
  const { subscriptions } = await world.succeeds<{ subscriptions: Subscription[] }>('get-subscriptions', {
    params: { include_subscribers: world.example('get-subscriptions', 'include_subscribers') },
  });
  const denmark = subscriptions.find((subscription) => subscription.stream_id === world.channel('Denmark').id);
  expect(denmark?.name).toBe('Denmark');
  expect(denmark?.subscribers).toEqual(expect.arrayContaining([world.hamlet.id, world.iago.id, world.polonius.id]));
  expect(subscriptions.map((subscription) => subscription.name)).toContain('core team');
  // Without subscribers unless asked; Hamlet is not in core team.
  const hamlets = await world.succeeds<{ subscriptions: Subscription[] }>('get-subscriptions', { as: world.hamlet });
  expect(hamlets.subscriptions.map((subscription) => subscription.name)).toEqual(expect.arrayContaining(['Verona', 'Denmark', 'Scotland']));
  expect(hamlets.subscriptions.map((subscription) => subscription.name)).not.toContain('core team');
  expect(hamlets.subscriptions.every((subscription) => subscription.subscribers === undefined)).toBe(true);
});

documentedExample('update-subscriptions', async (world) => {
  // Zulip's example leaves Verona and Denmark and joins them again; here, a channel of this
  // example is left and another created, with the documented color and description.
  const leaving = await newChannel(world, 'Verona leaving');
  const joining = unique('Denmark joining');
  const answer = await world.succeeds<{ subscribed: Record<string, string[]>; removed: string[]; not_removed: string[] }>('update-subscriptions', {
    params: { delete: [leaving.name], add: [{ name: joining, color: '#e79ab5', description: 'A Scandinavian country' }] },
  });
  expect(answer.subscribed).toEqual({ [String(world.iago.id)]: [joining] });
  expect(answer.removed).toEqual([leaving.name]);
  const after = await subscriptionsOf(world);
  expect(after.map((subscription) => subscription.name)).not.toContain(leaving.name);
  expect(after.find((subscription) => subscription.name === joining)).toMatchObject({ color: '#e79ab5', description: 'A Scandinavian country' });
});

documentedExample('mute-topic', async (world) => {
  type Muted = { muted_topics: [string, string, number][] };
  const topic = unique('dinner');
  await world.succeeds('mute-topic', { params: { stream: world.example('mute-topic', 'stream'), topic, op: 'add' } });
  const muted = await world.initialState<Muted>(['muted_topics']);
  expect(muted.muted_topics.map(([channel, name]) => [channel, name])).toContainEqual(['Denmark', topic]);
  // By the channel's id, and unmuted again.
  await world.succeeds('mute-topic', { params: { stream_id: world.channel('Denmark').id, topic, op: 'remove' } });
  const unmuted = await world.initialState<Muted>(['muted_topics']);
  expect(unmuted.muted_topics.map(([, name]) => name)).not.toContain(topic);
});

documentedExample('update-user-topic', async (world) => {
  type UserTopics = { user_topics: { stream_id: number; topic_name: string; visibility_policy: number }[] };
  const denmark = world.channel('Denmark');
  const topic = unique('dinner');
  await world.succeeds('update-user-topic', { params: { stream_id: denmark.id, topic, visibility_policy: world.example('update-user-topic', 'visibility_policy') } });
  const muted = await world.initialState<UserTopics>(['user_topic']);
  expect(muted.user_topics).toContainEqual(expect.objectContaining({ stream_id: denmark.id, topic_name: topic, visibility_policy: 1 }));
  // Followed (3), then back to inheriting the channel's (0): no row left.
  await world.succeeds('update-user-topic', { params: { stream_id: denmark.id, topic, visibility_policy: 3 } });
  expect((await world.initialState<UserTopics>(['user_topic'])).user_topics).toContainEqual(expect.objectContaining({ topic_name: topic, visibility_policy: 3 }));
  await world.succeeds('update-user-topic', { params: { stream_id: denmark.id, topic, visibility_policy: 0 } });
  expect((await world.initialState<UserTopics>(['user_topic'])).user_topics.map((row) => row.topic_name)).not.toContain(topic);
});

documentedExample('get-subscription-status', async (world) => {
  const subscribed = await world.succeeds<{ is_subscribed: boolean }>('get-subscription-status', {
    path: { user_id: world.hamlet.id, stream_id: world.channel('Denmark').id },
  });
  expect(subscribed.is_subscribed).toBe(true);
  const not = await world.succeeds<{ is_subscribed: boolean }>('get-subscription-status', {
    path: { user_id: world.hamlet.id, stream_id: world.channel('core team').id },
  });
  expect(not.is_subscribed).toBe(false);
});

documentedExample('update-subscription-settings', async (world) => {
  // The documented pair of changes (pin one channel, color another), on two channels of this example.
  const pinned = await newChannel(world, 'pinned');
  const colored = await newChannel(world, 'colored');
  await world.succeeds('update-subscription-settings', {
    params: {
      subscription_data: [
        { stream_id: pinned.id, property: 'pin_to_top', value: true },
        { stream_id: colored.id, property: 'color', value: '#f00f00' },
      ],
    },
  });
  const after = await subscriptionsOf(world);
  expect(after.find((subscription) => subscription.stream_id === pinned.id)?.pin_to_top).toBe(true);
  expect(after.find((subscription) => subscription.stream_id === colored.id)?.color).toBe('#f00f00');
});

documentedExample('get-subscribers', async (world) => {
  const { subscribers } = await world.succeeds<{ subscribers: number[] }>('get-subscribers', { path: { stream_id: world.channel('core team').id } });
  expect([...subscribers].sort((a, b) => a - b)).toEqual([world.desdemona.id, world.iago.id, world.shiva.id].sort((a, b) => a - b));
  const denmark = await world.succeeds<{ subscribers: number[] }>('get-subscribers', { path: { stream_id: world.channel('Denmark').id }, as: world.hamlet });
  expect(denmark.subscribers).toEqual(expect.arrayContaining([world.hamlet.id, world.othello.id, world.polonius.id]));

  expect((await world.fails('get-subscribers', { path: { stream_id: NO_SUCH_ID } }, 400)).msg).toBe('Invalid channel ID');
  expect((await world.fails('get-subscribers', { path: { stream_id: world.channel('core team').id }, as: world.hamlet }, 400)).msg).toBe('Invalid channel ID');
});

documentedExample('get-streams', async (world) => {
  // Every documented parameter at its example value.
  const all = await world.succeeds<{ streams: StreamRecord[] }>('get-streams', {
    params: Object.fromEntries(
      ['include_public', 'include_web_public', 'include_subscribed', 'exclude_archived', 'include_all_active', 'include_all', 'include_default', 'include_owner_subscribed', 'include_can_access_content'].map(
        (name) => [name, world.example<boolean>('get-streams', name)],
      ),
    ),
  });
  const names = all.streams.map((stream) => stream.name);
  expect(names).toEqual(expect.arrayContaining(['Verona', 'Denmark', 'Scotland', 'core team']));
  expect(all.streams.every((stream) => typeof stream.is_default === 'boolean')).toBe(true);
  // The python client's own call, as a member: the public channels, not the private one.
  const hamlets = await world.succeeds<{ streams: StreamRecord[] }>('get-streams', { as: world.hamlet });
  expect(hamlets.streams.map((stream) => stream.name)).toEqual(expect.arrayContaining(['Verona', 'Denmark', 'Scotland']));
  expect(hamlets.streams.map((stream) => stream.name)).not.toContain('core team');
});

documentedExample('archive-stream', async (world) => {
  const channel = await newChannel(world, 'archive me', { principals: [world.hamlet] });
  await world.succeeds('archive-stream', { path: { stream_id: channel.id } });
  expect((await streamById(world, channel.id)).is_archived).toBe(true);
  const { streams } = await world.succeeds<{ streams: StreamRecord[] }>('get-streams');
  expect(streams.map((stream) => stream.stream_id)).not.toContain(channel.id);
  expect((await subscriptionsOf(world, world.hamlet)).map((subscription) => subscription.stream_id)).not.toContain(channel.id);

  expect((await world.fails('archive-stream', { path: { stream_id: NO_SUCH_ID } }, 400)).msg).toBe('Invalid channel ID');
});

documentedExample('get-stream-by-id', async (world) => {
  const denmark = world.channel('Denmark');
  const { stream } = await world.succeeds<{ stream: StreamRecord }>('get-stream-by-id', { path: { stream_id: denmark.id } });
  expect(stream).toMatchObject({ stream_id: denmark.id, name: 'Denmark', invite_only: false });
  expect((await world.fails('get-stream-by-id', { path: { stream_id: NO_SUCH_ID } }, 400)).msg).toBe('Invalid channel ID');
});

documentedExample('update-stream', async (world) => {
  const channel = await newChannel(world, 'Verona update', { principals: [world.hamlet] });
  const newName = unique('Italy');
  await world.succeeds('update-stream', {
    path: { stream_id: channel.id },
    params: {
      description: world.example('update-stream', 'description'),
      new_name: newName,
      is_private: true,
      history_public_to_subscribers: false,
    },
  });
  const updated = await streamById(world, channel.id);
  expect(updated).toMatchObject({ name: newName, description: 'Discuss Italian history and travel destinations.', invite_only: true, history_public_to_subscribers: false });

  // A group setting, as the documented `{new, old}` change: Hamlet and the moderators may add subscribers.
  const moderators = await world.factory.systemGroupId(world.realm, 'role:moderators');
  await world.succeeds('update-stream', {
    path: { stream_id: channel.id },
    params: {
      can_add_subscribers_group: { new: { direct_members: [world.hamlet.id], direct_subgroups: [moderators] }, old: updated.can_add_subscribers_group },
    },
  });
  expect((await streamById(world, channel.id)).can_add_subscribers_group).toEqual({ direct_members: [world.hamlet.id], direct_subgroups: [moderators] });
  // Into a channel folder (`folder_id`), one of this example's.
  const { channel_folder_id } = await world.succeeds<{ channel_folder_id: number }>('create-channel-folder', { params: { name: unique('Italy folder'), description: 'Italian channels.' } });
  await world.succeeds('update-stream', { path: { stream_id: channel.id }, params: { folder_id: channel_folder_id } });
  expect((await streamById(world, channel.id)).folder_id).toBe(channel_folder_id);

  expect((await world.fails('update-stream', { path: { stream_id: NO_SUCH_ID }, params: { description: 'Nowhere' } }, 400)).msg).toBe('Invalid channel ID');
  // Private and web-public at once is not a combination.
  expect((await world.fails('update-stream', { path: { stream_id: channel.id }, params: { is_private: true, is_web_public: true } }, 400)).msg).toBe('Invalid parameters');
});

documentedExample('get-stream-email-address', async (world) => {
  const denmark = world.channel('Denmark');
  const { email } = await world.succeeds<{ email: string }>('get-stream-email-address', { path: { stream_id: denmark.id } });
  expect(email).toMatch(/@/);
  // As sent by the caller (sender_id, the caller's own id here).
  const mine = await world.succeeds<{ email: string }>('get-stream-email-address', { path: { stream_id: denmark.id }, params: { sender_id: world.iago.id } });
  // Zulip gives each sender its own address (a token per channel, creator and sender); this
  // server has one token per channel and no email gateway bot, so `sender_id` may only be the
  // caller and the address is the same.
  expect(mine.email).toMatch(/@/);

  expect((await world.fails('get-stream-email-address', { path: { stream_id: NO_SUCH_ID } }, 400)).msg).toBe('Invalid channel ID');
  expect((await world.fails('get-stream-email-address', { path: { stream_id: world.channel('core team').id }, as: world.hamlet }, 400)).msg).toBe('Invalid channel ID');
});

documentedExample('delete-topic', async (world) => {
  const channel = await newChannel(world, 'coffee', { principals: [world.hamlet] });
  const topic = world.example<string>('delete-topic', 'topic_name');
  await send(world, channel, topic, 'The new coffee machine is here', world.hamlet);
  await send(world, channel, topic, 'It makes espresso');
  await send(world, channel, 'tea', 'Tea stays');
  const topicsOf = async () =>
    (await world.succeeds<{ topics: { name: string }[] }>('get-stream-topics', { path: { stream_id: channel.id } })).topics.map((row) => row.name);
  expect(await topicsOf()).toContain(topic);

  // Members may not (the documented error); an administrator may.
  const refused = await world.fails('delete-topic', { path: { stream_id: channel.id }, params: { topic_name: topic }, as: world.hamlet }, 400, 'UNAUTHORIZED_PRINCIPAL');
  expect(refused.msg).toBe('Must be an organization administrator');
  expect(await topicsOf()).toContain(topic);
  const { complete } = await world.succeeds<{ complete: boolean }>('delete-topic', { path: { stream_id: channel.id }, params: { topic_name: topic } });
  expect(complete).toBe(true);
  expect(await topicsOf()).toEqual(['tea']);
});

documentedExample('create-channel', async (world) => {
  const name = unique('music');
  const { id } = await world.succeeds<{ id: number }>('create-channel', {
    params: {
      name,
      description: world.example('create-channel', 'description'),
      subscribers: [world.othello.id, world.hamlet.id],
      announce: true,
      invite_only: true,
    },
  });
  const stream = await streamById(world, id);
  expect(stream).toMatchObject({ name, description: 'Channel for discussing all things music!', invite_only: true });
  const { subscribers } = await world.succeeds<{ subscribers: number[] }>('get-subscribers', { path: { stream_id: id } });
  expect([...subscribers].sort((a, b) => a - b)).toEqual([world.othello.id, world.hamlet.id].sort((a, b) => a - b));

  const taken = await world.fails('create-channel', { params: { name, subscribers: [world.hamlet.id] } }, 409, 'CHANNEL_ALREADY_EXISTS');
  expect(taken.msg).toBe(`Channel '${name}' already exists`);
});

interface Folder {
  id: number;
  name: string;
  description: string;
  order: number;
  is_archived: boolean;
}

const foldersOf = async (world: ExampleWorld) =>
  (await world.succeeds<{ channel_folders: Folder[] }>('get-channel-folders', { params: { include_archived: true } })).channel_folders;

const newFolder = async (world: ExampleWorld, prefix: string) =>
  (await world.succeeds<{ channel_folder_id: number }>('create-channel-folder', { params: { name: unique(prefix), description: `Channels for ${prefix}.` } })).channel_folder_id;

documentedExample('create-channel-folder', async (world) => {
  const name = unique('marketing');
  const { channel_folder_id } = await world.succeeds<{ channel_folder_id: number }>('create-channel-folder', {
    params: { name, description: world.example('create-channel-folder', 'description') },
  });
  expect((await foldersOf(world)).find((folder) => folder.id === channel_folder_id)).toMatchObject({ name, description: 'Channels for marketing.', is_archived: false });

  const refused = await world.fails('create-channel-folder', { params: { name: unique('sales'), description: 'Channels for sales.' }, as: world.hamlet }, 400, 'UNAUTHORIZED_PRINCIPAL');
  expect(refused.msg).toBe('Must be an organization administrator');
});

documentedExample('get-channel-folders', async (world) => {
  const open = await newFolder(world, 'frontend');
  const archived = await newFolder(world, 'legacy');
  await world.succeeds('update-channel-folder', { path: { channel_folder_id: archived }, params: { is_archived: true } });
  const all = await world.succeeds<{ channel_folders: Folder[] }>('get-channel-folders', { params: { include_archived: world.example('get-channel-folders', 'include_archived') } });
  expect(all.channel_folders.map((folder) => folder.id)).toEqual(expect.arrayContaining([open, archived]));
  // Without include_archived, the archived one is left out; members see them too.
  const active = await world.succeeds<{ channel_folders: Folder[] }>('get-channel-folders', { as: world.hamlet });
  expect(active.channel_folders.map((folder) => folder.id)).toContain(open);
  expect(active.channel_folders.map((folder) => folder.id)).not.toContain(archived);
});

documentedExample('patch-channel-folders', async (world) => {
  await newFolder(world, 'design');
  await newFolder(world, 'docs');
  const reversed = (await foldersOf(world)).sort((a, b) => a.order - b.order).map((folder) => folder.id).reverse();
  await world.succeeds('patch-channel-folders', { params: { order: reversed } });
  expect((await foldersOf(world)).sort((a, b) => a.order - b.order).map((folder) => folder.id)).toEqual(reversed);

  // Not every folder once: the documented error.
  await world.fails('patch-channel-folders', { params: { order: reversed.slice(1) } }, 400);
  await world.fails('patch-channel-folders', { params: { order: [...reversed, NO_SUCH_ID] } }, 400);
});

documentedExample('update-channel-folder', async (world) => {
  const id = await newFolder(world, 'frontend');
  const name = unique('backend');
  await world.succeeds('update-channel-folder', {
    path: { channel_folder_id: id },
    params: { name, description: world.example('update-channel-folder', 'description') },
  });
  expect((await foldersOf(world)).find((folder) => folder.id === id)).toMatchObject({ name, description: 'Backend channels.', is_archived: false });
  await world.succeeds('update-channel-folder', { path: { channel_folder_id: id }, params: { is_archived: world.example('update-channel-folder', 'is_archived') } });
  expect((await foldersOf(world)).find((folder) => folder.id === id)?.is_archived).toBe(true);

  const failed = await world.fails('update-channel-folder', { path: { channel_folder_id: NO_SUCH_ID }, params: { name: unique('nowhere') } }, 400);
  expect(failed.msg).toBe('Invalid channel folder ID');
});

let bigBlueButtonConfigured = false;

documentedExample('create-big-blue-button-video-call', async (world) => {
  // BigBlueButton is a server setting (Zulip's development server has one); the example
  // system starts without it, so users-groups, which makes the calls, is restarted with one.
  if (!bigBlueButtonConfigured && !world.system.env.BIG_BLUE_BUTTON_URL) {
    await world.system.stopService('users-groups');
    await world.system.startService('users-groups', true, { BIG_BLUE_BUTTON_URL: 'https://bbb.example.test/bigbluebutton/', BIG_BLUE_BUTTON_SECRET: 'bbb-example-secret' });
    bigBlueButtonConfigured = true;
  }
  const { url } = await world.succeeds<{ url: string }>('create-big-blue-button-video-call', {
    params: { meeting_name: world.example('create-big-blue-button-video-call', 'meeting_name'), voice_only: world.example('create-big-blue-button-video-call', 'voice_only') },
  });
  expect(url).toMatch(/^\/calls\/bigbluebutton\/join\?/);
});

import { createHash } from 'node:crypto';
import http from 'node:http';
import type { TestUser } from '@teamchat/testing';
import { NO_SUCH_ID, documentedExample, unique, type ExampleWorld } from './world';

interface Message {
  id: number;
  content: string;
  subject: string;
  stream_id?: number;
  flags: string[];
  reactions: { emoji_name: string; emoji_code: string; reaction_type: string; user_id: number }[];
}

/** A channel message from `as`, to a topic of its own unless said. */
const post = (world: ExampleWorld, as: TestUser, channel: string, topic = unique('topic'), content = unique('A message')) =>
  world.send(as, { type: 'stream', to: channel, topic, content });

/** The message as `as` (Iago unless said) sees it, with its raw Markdown content. */
async function read(world: ExampleWorld, id: number, as: TestUser = world.iago): Promise<Message> {
  const res = await world.system.api.get<{ message: Message }>(`/messages/${id}`, { apply_markdown: false }, { auth: as, subdomain: world.realm.subdomain });
  if (res.status !== 200) throw new Error(`reading message ${id}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.message;
}

/** Whether `as` has read the message. */
const isRead = async (world: ExampleWorld, id: number, as: TestUser = world.iago) => (await read(world, id, as)).flags.includes('read');

documentedExample('mark-all-as-read', async (world) => {
  const ids = [await post(world, world.hamlet, 'Denmark'), await post(world, world.othello, 'Scotland')];
  expect(await isRead(world, ids[0])).toBe(false);
  const answer = await world.succeeds<{ complete?: boolean }>('mark-all-as-read');
  // Zulip may do it in batches and say `complete: false`; ours does it all in one answer.
  expect(answer.complete ?? true).toBe(true);
  for (const id of ids) expect(await isRead(world, id)).toBe(true);
});

documentedExample('mark-stream-as-read', async (world) => {
  const inDenmark = await post(world, world.hamlet, 'Denmark');
  const inScotland = await post(world, world.hamlet, 'Scotland');
  await world.succeeds('mark-stream-as-read', { params: { stream_id: world.channel('Denmark').id } });
  expect(await isRead(world, inDenmark)).toBe(true);
  expect(await isRead(world, inScotland)).toBe(false);
});

documentedExample('mark-topic-as-read', async (world) => {
  const topic_name = world.example<string>('mark-topic-as-read', 'topic_name');
  const inTopic = await post(world, world.hamlet, 'Denmark', topic_name);
  const elsewhere = await post(world, world.hamlet, 'Denmark');
  await world.succeeds('mark-topic-as-read', { params: { stream_id: world.channel('Denmark').id, topic_name } });
  expect(await isRead(world, inTopic)).toBe(true);
  expect(await isRead(world, elsewhere)).toBe(false);
});

documentedExample('get-messages', async (world) => {
  const topic = unique('get-messages');
  const ids: number[] = [];
  for (let i = 0; i < 3; i++) ids.push(await post(world, world.iago, 'Verona', topic, `Message ${i} of ${topic}`));
  // The python client's example: Iago's newest messages in Verona.
  const newest = await world.succeeds<{ messages: Message[]; found_newest: boolean; anchor: number }>('get-messages', {
    params: {
      anchor: 'newest',
      num_before: 100,
      num_after: 0,
      narrow: [
        { operator: 'sender', operand: world.iago.email },
        { operator: 'channel', operand: 'Verona' },
      ],
    },
  });
  expect(newest.found_newest).toBe(true);
  expect(newest.messages.slice(-3).map((m) => m.id)).toEqual(ids);
  // The documented values around an anchor: 4 before, 8 after, the anchor itself left out, Markdown as written.
  const around = await world.succeeds<{ messages: Message[] }>('get-messages', {
    params: {
      anchor: String(ids[1]),
      include_anchor: false,
      num_before: 4,
      num_after: 8,
      narrow: [
        { operator: 'channel', operand: 'Verona' },
        { operator: 'topic', operand: topic },
      ],
      client_gravatar: false,
      apply_markdown: false,
      allow_empty_topic_name: true,
    },
  });
  expect(around.messages.map((m) => [m.id, m.content])).toEqual([
    [ids[0], `Message 0 of ${topic}`],
    [ids[2], `Message 2 of ${topic}`],
  ]);
  // By their ids.
  const byIds = await world.succeeds<{ messages: Message[] }>('get-messages', { params: { message_ids: [ids[0], ids[2]] } });
  expect(byIds.messages.map((m) => m.id)).toEqual([ids[0], ids[2]]);
});

/**
 * A channel of its own with more subscribers than Zulip's wildcard mention threshold (15), and a
 * topic of it with as many participants: a member (not in can_mention_many_users_group, which is
 * administrators by default) may mention neither with a wildcard. Its extra audience, made for
 * it, is subscribed to it alone.
 */
function crowdedChannel(world: ExampleWorld): Promise<{ name: string; topic: string }> {
  // One for the organization, made by whichever example asks first (what they post there changes no refusal).
  let crowded = crowds.get(world);
  if (!crowded) crowds.set(world, (crowded = makeCrowdedChannel(world)));
  return crowded;
}

const crowds = new WeakMap<ExampleWorld, Promise<{ name: string; topic: string }>>();

async function makeCrowdedChannel(world: ExampleWorld): Promise<{ name: string; topic: string }> {
  const name = unique('crowded');
  const audience: TestUser[] = [];
  for (let i = 0; i < 16; i++) {
    audience.push(await world.factory.user(world.realm, { email: `${name.replace(/\W/g, '-')}-${i}@zulip.com`, fullName: `${name} listener ${i}` }));
  }
  const channel = await world.factory.channel(world.realm, { name, subscribers: [world.iago, world.hamlet, ...audience] });
  const topic = 'many voices';
  for (const speaker of audience) await world.factory.channelMessages(speaker, channel, topic, 1, () => `${speaker.fullName} speaks`);
  return { name, topic };
}

documentedExample('send-message', async (world) => {
  const topic = world.example<string>('send-message', 'topic');
  const toChannel = await world.succeeds<{ id: number }>('send-message', {
    params: { type: 'stream', to: 'Denmark', topic, content: 'I come not, friends, to steal away your hearts.' },
  });
  expect(await read(world, toChannel.id)).toMatchObject({
    stream_id: world.channel('Denmark').id,
    subject: topic,
    content: 'I come not, friends, to steal away your hearts.',
  });
  const direct = await world.succeeds<{ id: number }>('send-message', {
    params: { type: 'direct', to: [world.hamlet.id], content: 'With mirth and laughter let old wrinkles come.', read_by_sender: true },
  });
  const received = await read(world, direct.id, world.hamlet);
  expect(received.content).toBe('With mirth and laughter let old wrinkles come.');
  expect(received.flags).not.toContain('read');
  expect((await read(world, direct.id)).flags).toContain('read');
  // The documented errors: a channel that is not there, an address nobody has.
  const missing = await world.fails('send-message', { params: { type: 'stream', to: 'nonexistent', topic, content: 'x' } }, 400, 'STREAM_DOES_NOT_EXIST');
  expect(missing).toMatchObject({ msg: "Channel 'nonexistent' does not exist", stream: 'nonexistent' });
  const nobody = await world.fails('send-message', { params: { type: 'direct', to: ['eeshan@zulip.com'], content: 'x' } }, 400);
  expect(nobody.msg).toBe("Invalid email 'eeshan@zulip.com'");
  // Wildcard mentions a member may not make in a channel, or a topic, of more than 15.
  const crowded = await crowdedChannel(world);
  const everyone = await world.fails(
    'send-message',
    { params: { type: 'stream', to: crowded.name, topic: 'anything', content: 'Hear me, @**all**' }, as: world.hamlet },
    400,
    'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
  );
  expect(everyone.msg).toBe('You do not have permission to use channel wildcard mentions in this channel.');
  const topicWide = await world.fails(
    'send-message',
    { params: { type: 'stream', to: crowded.name, topic: crowded.topic, content: 'Hear me, @**topic**' }, as: world.hamlet },
    400,
    'TOPIC_WILDCARD_MENTION_NOT_ALLOWED',
  );
  expect(topicWide.msg).toBe('You do not have permission to use topic wildcard mentions in this topic.');
  // An administrator may.
  await world.succeeds('send-message', { params: { type: 'stream', to: crowded.name, topic: 'anything', content: 'Hear me, @**all**' } });
});

documentedExample('get-message-history', async (world) => {
  const id = await post(world, world.iago, 'Denmark', unique('history'), 'The first version');
  const edited = await world.system.api.patch(`/messages/${id}`, { content: 'The second version' }, { auth: world.iago, subdomain: world.realm.subdomain });
  expect(edited.status).toBe(200);
  const { message_history } = await world.succeeds<{ message_history: { content: string; prev_content?: string; user_id: number }[] }>(
    'get-message-history',
    { path: { message_id: id }, params: { allow_empty_topic_name: true } },
  );
  expect(message_history.map((version) => version.content)).toEqual(['The first version', 'The second version']);
  expect(message_history[1]).toMatchObject({ prev_content: 'The first version', user_id: world.iago.id });
  const invalid = await world.fails('get-message-history', { path: { message_id: NO_SUCH_ID } }, 400);
  expect(invalid.msg).toBe('Invalid message(s)');
});

documentedExample('update-message-flags', async (world) => {
  const ids = [await post(world, world.hamlet, 'Denmark'), await post(world, world.hamlet, 'Denmark')];
  const { messages } = await world.succeeds<{ messages: number[] }>('update-message-flags', { params: { messages: ids, op: 'add', flag: 'read' } });
  expect(messages).toEqual(ids);
  for (const id of ids) expect(await isRead(world, id)).toBe(true);
  await world.succeeds('update-message-flags', { params: { messages: [ids[0]], op: 'add', flag: 'starred' } });
  expect((await read(world, ids[0])).flags).toContain('starred');
  await world.succeeds('update-message-flags', { params: { messages: [ids[0]], op: 'remove', flag: 'starred' } });
  expect((await read(world, ids[0])).flags).not.toContain('starred');
});

documentedExample('update-message-flags-for-narrow', async (world) => {
  const topic = unique('flags for a narrow');
  const before = await post(world, world.hamlet, 'Denmark', topic);
  const anchor = await post(world, world.hamlet, 'Denmark', topic);
  const after = await post(world, world.hamlet, 'Denmark', topic);
  // Zulip's documented values but num_before: Zulip (message_flags.py) refuses to leave out an
  // anchor in the middle of the range ("The anchor can only be excluded at an end of the range"),
  // so the documented include_anchor: false goes with messages after the anchor only.
  const answer = await world.succeeds<{ processed_count: number; updated_count: number; first_processed_id: number | null; last_processed_id: number | null }>(
    'update-message-flags-for-narrow',
    {
      params: {
        anchor: String(anchor),
        include_anchor: false,
        num_before: 0,
        num_after: 8,
        // Denmark, as documented: after the anchor there is only the newest message.
        narrow: world.example('update-message-flags-for-narrow', 'narrow'),
        op: 'add',
        flag: 'read',
      },
    },
  );
  expect(answer).toMatchObject({ processed_count: 1, updated_count: 1, first_processed_id: after, last_processed_id: after });
  expect(await isRead(world, before)).toBe(false);
  expect(await isRead(world, anchor)).toBe(false);
  expect(await isRead(world, after)).toBe(true);
});

documentedExample('render-message', async (world) => {
  const { rendered } = await world.succeeds<{ rendered: string }>('render-message', { params: { content: '**foo**' } });
  expect(rendered).toBe('<p><strong>foo</strong></p>');
});

documentedExample('add-reaction', async (world) => {
  const id = await post(world, world.hamlet, 'Denmark');
  const emoji_name = world.example<string>('add-reaction', 'emoji_name');
  await world.succeeds('add-reaction', { path: { message_id: id }, params: { emoji_name } });
  expect((await read(world, id)).reactions).toEqual([expect.objectContaining({ emoji_name, reaction_type: 'unicode_emoji', user_id: world.iago.id })]);
  // Zulip's documented errors: the same reaction again; an emoji code that is not the name's.
  const again = await world.fails('add-reaction', { path: { message_id: id }, params: { emoji_name } }, 400, 'REACTION_ALREADY_EXISTS');
  expect(again.msg).toBe('Reaction already exists.');
  const invalid = await world.fails('add-reaction', { path: { message_id: id }, params: { emoji_name, emoji_code: '1f4a9ff' } }, 400);
  // (The description's example has no final period; zerver/lib/emoji.py's check_emoji_request has one.)
  expect(invalid.msg).toBe('Invalid emoji code.');
});

documentedExample('remove-reaction', async (world) => {
  const id = await post(world, world.hamlet, 'Denmark');
  const emoji_name = world.example<string>('remove-reaction', 'emoji_name');
  const added = await world.system.api.post(`/messages/${id}/reactions`, { emoji_name }, { auth: world.iago, subdomain: world.realm.subdomain });
  expect(added.status).toBe(200);
  await world.succeeds('remove-reaction', { path: { message_id: id }, params: { emoji_name } });
  expect((await read(world, id)).reactions).toEqual([]);
  const gone = await world.fails('remove-reaction', { path: { message_id: id }, params: { emoji_name } }, 400, 'REACTION_DOES_NOT_EXIST');
  expect(gone.msg).toBe("Reaction doesn't exist.");
});

documentedExample('get-read-receipts', async (world) => {
  const id = await post(world, world.hamlet, 'Denmark');
  const marked = await world.system.api.post('/messages/flags', { messages: [id], op: 'add', flag: 'read' }, { auth: world.othello, subdomain: world.realm.subdomain });
  expect(marked.status).toBe(200);
  const { user_ids } = await world.succeeds<{ user_ids: number[] }>('get-read-receipts', { path: { message_id: id } });
  expect(user_ids).toContain(world.othello.id);
  expect(user_ids).not.toContain(world.cordelia.id);
  // The sender is not listed as having read it.
  expect(user_ids).not.toContain(world.hamlet.id);
  const invalid = await world.fails('get-read-receipts', { path: { message_id: NO_SUCH_ID } }, 400);
  expect(invalid.msg).toBe('Invalid message(s)');
});

documentedExample('check-messages-match-narrow', async (world) => {
  const withLink = await post(world, world.iago, 'Verona', unique('links'), 'hello with a link https://zulip.com');
  const without = await post(world, world.iago, 'Verona', unique('links'), 'hello without one');
  const { messages } = await world.succeeds<{ messages: Record<string, { match_content: string; match_subject: string }> }>(
    'check-messages-match-narrow',
    { params: { msg_ids: [withLink, without], narrow: [{ operator: 'has', operand: 'link' }] } },
  );
  expect(Object.keys(messages)).toEqual([String(withLink)]);
  expect(messages[String(withLink)].match_content).toContain('https://zulip.com');
});

documentedExample('delete-message', async (world) => {
  const id = await post(world, world.hamlet, 'Denmark');
  // Hamlet, a member, may not delete Othello's message.
  const othellos = await post(world, world.othello, 'Denmark');
  const refused = await world.fails('delete-message', { path: { message_id: othellos }, as: world.hamlet }, 400);
  expect(refused.msg).toBe("You don't have permission to delete this message");
  // Iago, an administrator, may delete Hamlet's.
  await world.succeeds('delete-message', { path: { message_id: id } });
  const gone = await world.system.api.get(`/messages/${id}`, {}, { auth: world.iago, subdomain: world.realm.subdomain });
  expect(gone.status).toBe(400);
  const again = await world.fails('delete-message', { path: { message_id: id } }, 400);
  expect(again.msg).toBe('Invalid message(s)');
});

documentedExample('get-message', async (world) => {
  const id = await post(world, world.hamlet, 'Denmark', unique('get-message'), '**Hamlet** speaks');
  const raw = await world.succeeds<{ message: Message; raw_content?: string }>('get-message', {
    path: { message_id: id },
    params: { apply_markdown: false, allow_empty_topic_name: true },
  });
  expect(raw.message).toMatchObject({ id, content: '**Hamlet** speaks', stream_id: world.channel('Denmark').id });
  const rendered = await world.succeeds<{ message: Message }>('get-message', { path: { message_id: id } });
  expect(rendered.message.content).toBe('<p><strong>Hamlet</strong> speaks</p>');
  const invalid = await world.fails('get-message', { path: { message_id: NO_SUCH_ID } }, 400);
  expect(invalid.msg).toBe('Invalid message(s)');
});

documentedExample('update-message', async (world) => {
  const id = await post(world, world.iago, 'Denmark', unique('before the edit'), 'The old content');
  const prev_content_sha256 = createHash('sha256').update('The old content').digest('hex');
  const topic = unique(world.example<string>('update-message', 'topic'));
  await world.succeeds('update-message', {
    path: { message_id: id },
    params: {
      topic,
      propagate_mode: 'change_all',
      send_notification_to_old_thread: true,
      send_notification_to_new_thread: true,
      content: 'New content',
      prev_content_sha256,
    },
  });
  expect(await read(world, id)).toMatchObject({ subject: topic, content: 'New content' });
  // Moved to another channel, the topic with it.
  await world.succeeds('update-message', { path: { message_id: id }, params: { stream_id: world.channel('Scotland').id, propagate_mode: 'change_all' } });
  expect(await read(world, id)).toMatchObject({ subject: topic, stream_id: world.channel('Scotland').id });
  // Zulip's documented refusal: Hamlet may not edit Iago's message.
  const refused = await world.fails('update-message', { path: { message_id: id }, params: { content: 'Not mine' }, as: world.hamlet }, 400);
  expect(refused.msg).toBe("You don't have permission to edit this message");
  expect((await read(world, id)).content).toBe('New content');
  // Wildcard mentions a member may not add by an edit in a channel, or a topic, of more than 15.
  const crowded = await crowdedChannel(world);
  const hamlets = await post(world, world.hamlet, crowded.name, crowded.topic, 'Quiet words');
  const everyone = await world.fails('update-message', { path: { message_id: hamlets }, params: { content: 'Hear me, @**all**' }, as: world.hamlet }, 400, 'STREAM_WILDCARD_MENTION_NOT_ALLOWED');
  expect(everyone.msg).toBe('You do not have permission to use channel wildcard mentions in this channel.');
  const topicWide = await world.fails('update-message', { path: { message_id: hamlets }, params: { content: 'Hear me, @**topic**' }, as: world.hamlet }, 400, 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED');
  expect(topicWide.msg).toBe('You do not have permission to use topic wildcard mentions in this topic.');
  // A member moves a whole topic only when all of it is within the organization's move limit.
  const oldTopic = unique('an old story');
  const [old, recent] = [await post(world, world.hamlet, 'Denmark', oldTopic), await post(world, world.hamlet, 'Denmark', oldTopic)];
  await world.system.db.message.update({ where: { id: old }, data: { dateSent: new Date(Date.now() - 30 * 24 * 3600 * 1000) } });
  // (Not through world.fails: the description's schema for this answer, CodedError with
  // additionalProperties: false, refuses the three fields its own example and Zulip send.)
  const tooOld = await world.call('update-message', {
    path: { message_id: recent },
    params: { topic: unique('a new story'), propagate_mode: 'change_all' },
    as: world.hamlet,
  });
  expect(tooOld.status).toBe(400);
  expect(tooOld.body).toMatchObject({
    result: 'error',
    code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
    msg: 'You only have permission to move the 1/2 most recent messages in this topic.',
    first_message_id_allowed_to_move: recent,
    total_messages_in_topic: 2,
    total_messages_allowed_to_move: 1,
  });
  expect((await read(world, recent)).subject).toBe(oldTopic);
  // With message editing turned off for the organization, not even one's own message.
  await setRealm(world, { allow_message_editing: false });
  try {
    const off = await world.fails('update-message', { path: { message_id: id }, params: { content: 'Newer content' } }, 400);
    expect(off.msg).toBe('Your organization has turned off message editing');
  } finally {
    await setRealm(world, { allow_message_editing: true });
  }
  expect((await read(world, id)).content).toBe('New content');
});

/** Changes organization settings (PATCH /realm) as Iago. */
async function setRealm(world: ExampleWorld, settings: Record<string, string | number | boolean>): Promise<void> {
  const res = await world.system.api.patch('/realm', settings, { auth: world.iago, subdomain: world.realm.subdomain });
  if (res.status !== 200) throw new Error(`PATCH /realm ${JSON.stringify(settings)}: ${res.status} ${JSON.stringify(res.body)}`);
}

/** Sets the organization's moderation request channel (-1: none). */
const setModerationRequestChannel = (world: ExampleWorld, channelId: number) => setRealm(world, { moderation_request_channel_id: channelId });

documentedExample('report-message', async (world) => {
  const id = await post(world, world.othello, 'Denmark', unique('reported'), 'An insulting message');
  const report_type = world.example<string>('report-message', 'report_type');
  const description = world.example<string>('report-message', 'description');
  // Without a moderation request channel, reporting is off: Zulip's documented error.
  await setModerationRequestChannel(world, -1);
  const off = await world.fails('report-message', { path: { message_id: id }, params: { report_type, description }, as: world.hamlet }, 400);
  // The description's example words it "Moderation request channel must be specified to enable
  // message reporting."; Zulip's zerver/views/message_report.py says what ours says.
  expect(off.msg).toBe('Message reporting is not enabled in this organization.');
  const moderation = world.channel('core team');
  await setModerationRequestChannel(world, moderation.id);
  try {
    await world.succeeds('report-message', { path: { message_id: id }, params: { report_type, description }, as: world.hamlet });
    // The report is a message in the moderation request channel, quoting the description.
    const { messages } = await world.succeeds<{ messages: Message[] }>('get-messages', {
      params: { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'channel', operand: moderation.id }], apply_markdown: false },
    });
    expect(messages.some((m) => m.content.includes(description))).toBe(true);
  } finally {
    await setModerationRequestChannel(world, -1);
  }
});

/** GET of a file's URL (outside /api/v1), with Iago's credentials or none. */
function fetchFile(world: ExampleWorld, path: string, auth?: TestUser): Promise<{ status: number; body: string }> {
  const headers: Record<string, string> = { Host: world.system.api.hostFor(world.realm.subdomain) };
  if (auth) headers.Authorization = `Basic ${Buffer.from(`${auth.email}:${auth.apiKey}`).toString('base64')}`;
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, world.system.api.baseUrl), { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

documentedExample('upload-file', async (world) => {
  const res = await world.upload('zulip.txt', 'The file Zulip uploads in its example.');
  world.expectDocumented('upload-file', res, 200);
  expect(res.body).toMatchObject({ result: 'success', filename: 'zulip.txt' });
  expect(res.body.url).toMatch(new RegExp(`^/user_uploads/${world.realm.id}/.+/zulip\\.txt$`));
  expect(res.body.uri).toBe(res.body.url);
  // The file is there, for its uploader.
  const fetched = await fetchFile(world, res.body.url, world.iago);
  expect(fetched.status).toBe(200);
  expect(fetched.body).toBe('The file Zulip uploads in its example.');
  // Shared in a message to Denmark, as Zulip's example goes on: then Hamlet, who reads Denmark,
  // may fetch it too (the link is recorded once the message is sent, not within its request).
  expect((await fetchFile(world, res.body.url, world.hamlet)).status).toBe(403);
  await world.send(world.iago, { type: 'stream', to: 'Denmark', topic: 'Castle', content: `Check out [this file](${res.body.url}) of my castle!` });
  let shared = await fetchFile(world, res.body.url, world.hamlet);
  for (let i = 0; i < 50 && shared.status !== 200; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    shared = await fetchFile(world, res.body.url, world.hamlet);
  }
  expect(shared).toEqual({ status: 200, body: 'The file Zulip uploads in its example.' });
});

documentedExample('get-file-temporary-url', async (world) => {
  const uploaded = await world.upload('zulip.txt', 'A file to share for a while.');
  expect(uploaded.status).toBe(200);
  const [, , realm_id_str, ...rest] = uploaded.body.url.split('/');
  const { url } = await world.succeeds<{ url: string }>('get-file-temporary-url', { path: { realm_id_str, filename: rest.join('/') } });
  // The temporary URL serves the file without credentials.
  const fetched = await fetchFile(world, url);
  expect(fetched.status).toBe(200);
  expect(fetched.body).toBe('A file to share for a while.');
});

interface Reminder {
  reminder_id: number;
  reminder_target_message_id: number;
  scheduled_delivery_timestamp: number;
  content: string;
}

const remind = (world: ExampleWorld, message_id: number) =>
  world.succeeds<{ reminder_id: number }>('create-message-reminder', {
    params: {
      message_id,
      scheduled_delivery_timestamp: world.example<number>('create-message-reminder', 'scheduled_delivery_timestamp'),
      note: world.example<string>('create-message-reminder', 'note'),
    },
  });

const reminders = async (world: ExampleWorld) => (await world.succeeds<{ reminders: Reminder[] }>('get-reminders')).reminders;

documentedExample('create-message-reminder', async (world) => {
  const message_id = await post(world, world.hamlet, 'Denmark');
  const { reminder_id } = await remind(world, message_id);
  expect(reminder_id).toEqual(expect.any(Number));
  expect((await reminders(world)).find((r) => r.reminder_id === reminder_id)).toMatchObject({
    reminder_target_message_id: message_id,
    scheduled_delivery_timestamp: world.example('create-message-reminder', 'scheduled_delivery_timestamp'),
  });
});

documentedExample('get-reminders', async (world) => {
  const message_id = await post(world, world.hamlet, 'Denmark');
  const { reminder_id } = await remind(world, message_id);
  const listed = (await reminders(world)).find((r) => r.reminder_id === reminder_id);
  expect(listed).toMatchObject({ reminder_target_message_id: message_id });
  // Only the caller's own reminders.
  const hamlets = await world.succeeds<{ reminders: Reminder[] }>('get-reminders', { as: world.hamlet });
  expect(hamlets.reminders.map((r) => r.reminder_id)).not.toContain(reminder_id);
});

documentedExample('delete-reminder', async (world) => {
  const { reminder_id } = await remind(world, await post(world, world.hamlet, 'Denmark'));
  await world.succeeds('delete-reminder', { path: { reminder_id } });
  expect((await reminders(world)).map((r) => r.reminder_id)).not.toContain(reminder_id);
  const gone = await world.fails('delete-reminder', { path: { reminder_id } }, 404);
  expect(gone.msg).toBe('Reminder does not exist');
});

interface ScheduledMessage {
  scheduled_message_id: number;
  type: string;
  to: number | number[];
  topic?: string;
  content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
}

const scheduledMessages = async (world: ExampleWorld) =>
  (await world.succeeds<{ scheduled_messages: ScheduledMessage[] }>('get-scheduled-messages')).scheduled_messages;

/** A channel message to Denmark, scheduled for Zulip's documented time. */
const schedule = (world: ExampleWorld, content: string) =>
  world.succeeds<{ scheduled_message_id: number }>('create-scheduled-message', {
    params: {
      type: 'stream',
      to: world.channel('Denmark').id,
      topic: world.example<string>('create-scheduled-message', 'topic'),
      content,
      scheduled_delivery_timestamp: world.example<number>('create-scheduled-message', 'scheduled_delivery_timestamp'),
    },
  });

documentedExample('create-scheduled-message', async (world) => {
  const content = unique('Nothing to see here');
  const { scheduled_message_id } = await schedule(world, content);
  const scheduled_delivery_timestamp = world.example<number>('create-scheduled-message', 'scheduled_delivery_timestamp');
  expect((await scheduledMessages(world)).find((m) => m.scheduled_message_id === scheduled_message_id)).toMatchObject({
    type: 'stream',
    to: world.channel('Denmark').id,
    topic: 'Castle',
    content,
    scheduled_delivery_timestamp,
    failed: false,
  });
  // A direct message, as the python client schedules it.
  const direct = await world.succeeds<{ scheduled_message_id: number }>('create-scheduled-message', {
    params: { type: 'direct', to: [world.hamlet.id], content: unique('Nothing to see here'), scheduled_delivery_timestamp, read_by_sender: true },
  });
  expect((await scheduledMessages(world)).find((m) => m.scheduled_message_id === direct.scheduled_message_id)).toMatchObject({
    type: 'private',
    to: [world.hamlet.id],
  });
  // The documented errors: a channel that is not there, a user who is not.
  const noChannel = await world.fails(
    'create-scheduled-message',
    { params: { type: 'stream', to: NO_SUCH_ID, topic: 'Castle', content: 'x', scheduled_delivery_timestamp } },
    400,
    'STREAM_DOES_NOT_EXIST',
  );
  expect(noChannel).toMatchObject({ msg: `Channel with ID '${NO_SUCH_ID}' does not exist`, stream_id: NO_SUCH_ID });
  const noUser = await world.fails('create-scheduled-message', { params: { type: 'direct', to: [NO_SUCH_ID], content: 'x', scheduled_delivery_timestamp } }, 400);
  expect(noUser.msg).toBe(`Invalid user ID ${NO_SUCH_ID}`);
});

documentedExample('get-scheduled-messages', async (world) => {
  const content = unique('Scheduled, to be listed');
  const { scheduled_message_id } = await schedule(world, content);
  expect((await scheduledMessages(world)).find((m) => m.scheduled_message_id === scheduled_message_id)).toMatchObject({ content });
  // Only the caller's own.
  const hamlets = await world.succeeds<{ scheduled_messages: ScheduledMessage[] }>('get-scheduled-messages', { as: world.hamlet });
  expect(hamlets.scheduled_messages.map((m) => m.scheduled_message_id)).not.toContain(scheduled_message_id);
});

documentedExample('delete-scheduled-message', async (world) => {
  const { scheduled_message_id } = await schedule(world, unique('Scheduled, to be deleted'));
  await world.succeeds('delete-scheduled-message', { path: { scheduled_message_id } });
  expect((await scheduledMessages(world)).map((m) => m.scheduled_message_id)).not.toContain(scheduled_message_id);
  const gone = await world.fails('delete-scheduled-message', { path: { scheduled_message_id } }, 404);
  expect(gone.msg).toBe('Scheduled message does not exist');
});

documentedExample('update-scheduled-message', async (world) => {
  const { scheduled_message_id } = await schedule(world, unique('Scheduled, to be changed'));
  const later = world.example<number>('update-scheduled-message', 'scheduled_delivery_timestamp') + 3600;
  await world.succeeds('update-scheduled-message', {
    path: { scheduled_message_id },
    params: { type: 'stream', to: world.channel('Scotland').id, content: 'Hello', topic: 'Castle', scheduled_delivery_timestamp: later },
  });
  expect((await scheduledMessages(world)).find((m) => m.scheduled_message_id === scheduled_message_id)).toMatchObject({
    to: world.channel('Scotland').id,
    content: 'Hello',
    topic: 'Castle',
    scheduled_delivery_timestamp: later,
  });
  // The documented errors: a channel that is not there; a scheduled message that is not.
  const noChannel = await world.fails('update-scheduled-message', { path: { scheduled_message_id }, params: { type: 'stream', to: NO_SUCH_ID, topic: 'Castle' } }, 400, 'STREAM_DOES_NOT_EXIST');
  expect(noChannel).toMatchObject({ msg: `Channel with ID '${NO_SUCH_ID}' does not exist`, stream_id: NO_SUCH_ID });
  const noUser = await world.fails('update-scheduled-message', { path: { scheduled_message_id }, params: { type: 'direct', to: [NO_SUCH_ID] } }, 400);
  expect(noUser.msg).toBe(`Invalid user ID ${NO_SUCH_ID}`);
  const missing = await world.fails('update-scheduled-message', { path: { scheduled_message_id: NO_SUCH_ID }, params: { content: 'Hello' } }, 404);
  expect(missing.msg).toBe('Scheduled message does not exist');
});

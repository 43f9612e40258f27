import { EventQueueClient, type ApiResponse, type FormValue, type TestUser } from '@teamchat/testing';
import { Role } from '@teamchat/zulip';
import { NO_SUCH_ID, documentedExample, type ExampleWorld } from './world';

// Zulip's documented examples of its users, presence, alert words, push tokens, typing,
// attachments and user groups operations. An example that changes, deactivates or creates a
// user works on a user of its own, never on the seeded people the other examples rely on.

type Json = Record<string, unknown>;

/** A member of the example organization made for one example. */
const someone = (world: ExampleWorld, fullName: string, role: number = Role.MEMBER): Promise<TestUser> =>
  world.factory.user(world.realm, { fullName, role, email: `${fullName.toLowerCase().replace(/[^a-z]+/g, '-')}-${Date.now()}@zulip.com` });

/** A request outside the example organization (another organization's subdomain), checked as Zulip documents the operation. */
async function elsewhere(world: ExampleWorld, operationId: string, path: string, as: TestUser, subdomain: string, status: number): Promise<Json> {
  const { method } = world.operation(operationId);
  const res = await world.system.api.request<Json>(method, path, {}, { auth: as, subdomain });
  world.expectDocumented(operationId, res, status);
  return res.body;
}

/** An organization of its own whose only owner is `owner` (with one member beside), for the "last owner" errors. */
async function lonelyOwner(world: ExampleWorld): Promise<{ subdomain: string; owner: TestUser }> {
  const realm = await world.factory.organization({ subdomain: `lonely${Date.now().toString(36)}` });
  const owner = await world.factory.user(realm, { role: Role.OWNER, fullName: 'Lonely Owner' });
  await world.factory.user(realm, { role: Role.MEMBER, fullName: 'Only Member' });
  return { subdomain: realm.subdomain, owner };
}

/** The user as an administrator reads them. */
const userOf = async (world: ExampleWorld, id: number): Promise<Json> =>
  (await world.succeeds<{ user: Json }>('get-user', { path: { user_id: id } })).user;

interface Attachment {
  id: number;
  name: string;
  path_id: string;
  messages: { id: number }[];
}

/** Iago's attachments once the one at `url` lists `messageId` (messages are linked to their files as they are sent). */
async function attachmentOf(world: ExampleWorld, url: string, messageId: number): Promise<{ attachment: Attachment; upload_space_used: number }> {
  const pathId = url.replace('/user_uploads/', '');
  for (let i = 0; ; i++) {
    const answer = await world.succeeds<{ attachments: Attachment[]; upload_space_used: number }>('get-attachments');
    const attachment = answer.attachments.find((one) => one.path_id === pathId);
    if (attachment?.messages.some((message) => message.id === messageId)) return { attachment, upload_space_used: answer.upload_space_used };
    if (i > 100) throw new Error(`the attachment ${pathId} never listed message ${messageId}: ${JSON.stringify(answer)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A user group made by Iago through POST /user_groups/create (so that he manages it); its id. */
async function groupOf(world: ExampleWorld, name: string, members: TestUser[], subgroups: number[] = []): Promise<number> {
  const created = await world.succeeds<{ group_id: number }>('create-user-group', {
    params: { name: `${name} ${Date.now().toString(36)}`, description: `The ${name}.`, members: members.map((one) => one.id), subgroups },
  });
  return created.group_id;
}

interface UserGroup {
  id: number;
  name: string;
  description: string;
  members: number[];
  direct_subgroup_ids: number[];
  deactivated: boolean;
  [setting: string]: unknown;
}

const groupsOf = async (world: ExampleWorld, params: Record<string, FormValue> = {}): Promise<UserGroup[]> =>
  (await world.succeeds<{ user_groups: UserGroup[] }>('get-user-groups', { params })).user_groups;

const groupOfId = async (world: ExampleWorld, id: number): Promise<UserGroup | undefined> =>
  (await groupsOf(world, { include_deactivated_groups: true })).find((group) => group.id === id);

// Attachments.

documentedExample('get-attachments', async (world) => {
  // Zulip's example shares an uploaded file in Denmark, then lists the caller's attachments.
  const url = (await world.upload('castle.txt', 'A picture of my castle, in words.')).body.url;
  const messageId = await world.send(world.iago, { type: 'stream', to: 'Denmark', topic: 'Castle', content: `Check out [this picture](${url}) of my castle!` });
  const { attachment, upload_space_used } = await attachmentOf(world, url, messageId);
  expect(attachment.name).toBe('castle.txt');
  expect(upload_space_used).toBeGreaterThanOrEqual('A picture of my castle, in words.'.length);
});

documentedExample('remove-attachment', async (world) => {
  const url = (await world.upload('to-remove.txt', 'Soon gone.')).body.url;
  const messageId = await world.send(world.iago, { type: 'stream', to: 'Denmark', topic: 'Castle', content: `A file [to remove](${url}).` });
  const { attachment } = await attachmentOf(world, url, messageId);
  await world.succeeds('remove-attachment', { path: { attachment_id: attachment.id } });
  const { attachments } = await world.succeeds<{ attachments: Attachment[] }>('get-attachments');
  expect(attachments.map((one) => one.id)).not.toContain(attachment.id);
  // Removed, it is the documented "Invalid attachment".
  await world.fails('remove-attachment', { path: { attachment_id: attachment.id } }, 400);
});

// Users.

documentedExample('get-users', async (world) => {
  type Member = { user_id: number; email: string; full_name: string; is_admin: boolean; is_bot: boolean; avatar_url: string | null; profile_data?: unknown };
  const { members } = await world.succeeds<{ members: Member[] }>('get-users');
  const iago = members.find((member) => member.user_id === world.iago.id);
  expect(iago).toMatchObject({ email: 'iago@zulip.com', full_name: 'Iago', is_admin: true });
  for (const seeded of [world.desdemona, world.shiva, world.hamlet, world.othello, world.cordelia, world.prospero, world.polonius]) {
    expect(members.map((member) => member.user_id)).toContain(seeded.id);
  }
  // The documented parameters: avatars by URL, and custom profile data for each person.
  const detailed = await world.succeeds<{ members: Member[] }>('get-users', {
    params: { client_gravatar: world.example('get-users', 'client_gravatar'), include_custom_profile_fields: world.example('get-users', 'include_custom_profile_fields') },
  });
  for (const member of detailed.members) {
    expect(member.avatar_url).toEqual(expect.any(String));
    if (!member.is_bot) expect(member.profile_data).toBeDefined();
  }
  // Some users, by id.
  const some = await world.succeeds<{ members: Member[] }>('get-users', { params: { user_ids: [world.hamlet.id, world.othello.id] } });
  expect(some.members.map((member) => member.user_id).sort((a, b) => a - b)).toEqual([world.hamlet.id, world.othello.id].sort((a, b) => a - b));
});

documentedExample('create-user', async (world) => {
  // Zulip's example creates newbie@zulip.com with the password "temp", which only a development
  // server's relaxed password rules take; ours applies a production server's, so "temp" is
  // refused as too weak and the account is created with a stronger one.
  const request = { email: 'newbie@zulip.com', full_name: 'New User' };
  const weak = await world.fails('create-user', { params: { ...request, password: 'temp' } }, 400);
  expect(weak.msg).toBe('The password is too weak.');
  const { user_id } = await world.succeeds<{ user_id: number }>('create-user', { params: { ...request, password: 'Newbie-Password-2024' } });
  expect(await userOf(world, user_id)).toMatchObject({ email: 'newbie@zulip.com', full_name: 'New User', is_active: true, role: Role.MEMBER });
  const login = await world.system.api.post<{ user_id: number }>('/fetch_api_key', { username: 'newbie@zulip.com', password: 'Newbie-Password-2024' }, { subdomain: world.realm.subdomain });
  expect(login.body.user_id).toBe(user_id);
  // Again: the address is in use, Zulip's documented error.
  await world.fails('create-user', { params: { ...request, password: 'Newbie-Password-2024' } }, 400);
});

documentedExample('reactivate-user', async (world) => {
  const gone = await world.factory.user(world.realm, { fullName: 'Returning Member', isActive: false });
  expect(await userOf(world, gone.id)).toMatchObject({ is_active: false });
  await world.succeeds('reactivate-user', { path: { user_id: gone.id } });
  expect(await userOf(world, gone.id)).toMatchObject({ is_active: true });
});

documentedExample('get-user-status', async (world) => {
  const traveller = await someone(world, 'Status Reader');
  await world.succeeds('update-status', { as: traveller, params: { status_text: 'on vacation', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' } });
  const { status } = await world.succeeds<{ status: Json }>('get-user-status', { path: { user_id: traveller.id } });
  expect(status).toMatchObject({ status_text: 'on vacation', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });
  // Someone with no status: an empty one.
  const quiet = await world.succeeds<{ status: Json }>('get-user-status', { path: { user_id: world.othello.id } });
  expect(quiet.status).toEqual({});
  await world.fails('get-user-status', { path: { user_id: NO_SUCH_ID } }, 400);
});

documentedExample('update-status-for-user', async (world) => {
  const target = await someone(world, 'Status Target');
  const op = 'update-status-for-user';
  await world.succeeds(op, {
    path: { user_id: target.id },
    params: {
      status_text: world.example(op, 'status_text'),
      emoji_name: world.example(op, 'emoji_name'),
      emoji_code: world.example(op, 'emoji_code'),
      reaction_type: world.example(op, 'reaction_type'),
    },
  });
  const { status } = await world.succeeds<{ status: Json }>('get-user-status', { path: { user_id: target.id } });
  expect(status).toMatchObject({ status_text: 'on vacation', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });
  // The documented errors: a member may not set another's status; nothing to change; a text over 60 characters.
  const refused = await world.fails(op, { path: { user_id: target.id }, params: { status_text: 'busy' }, as: world.hamlet }, 400);
  expect(refused.msg).toBe('Insufficient permission');
  expect((await world.fails(op, { path: { user_id: target.id }, params: {} }, 400)).msg).toBe('Client did not pass any new values.');
  expect((await world.fails(op, { path: { user_id: target.id }, params: { status_text: 'x'.repeat(61) } }, 400)).msg).toBe('status_text is too long (limit: 60 characters)');
  const codeOnly = await world.fails(op, { path: { user_id: target.id }, params: { status_text: 'In a meeting', emoji_code: '1f4bb' } }, 400);
  expect(codeOnly.msg).toBe('Client must pass emoji_name if they pass either emoji_code or reaction_type.');
});

documentedExample('get-user-presence', async (world) => {
  // Zulip's example asks for Iago's presence, by email; Iago has reported some first.
  await world.succeeds('update-presence', { params: { status: 'active', ping_only: false, new_user_input: false, last_update_id: -1 } });
  const { presence } = await world.succeeds<{ presence: Record<string, { status: string; timestamp: number }> }>('get-user-presence', {
    path: { user_id_or_email: world.example('get-user-presence', 'user_id_or_email') },
  });
  expect(presence.aggregated).toMatchObject({ status: 'active' });
  // By id too.
  const byId = await world.succeeds<{ presence: Json }>('get-user-presence', { path: { user_id_or_email: world.iago.id } });
  expect(byId.presence).toHaveProperty('aggregated');
});

documentedExample('deactivate-own-user', async (world) => {
  const leaver = await someone(world, 'Leaving Member');
  await world.succeeds('deactivate-own-user', { as: leaver });
  expect(await userOf(world, leaver.id)).toMatchObject({ is_active: false });
  // The only owner of an organization cannot leave it: Zulip's documented error (in an
  // organization of its own, so the example organization keeps its owner whatever happens).
  const { subdomain, owner } = await lonelyOwner(world);
  const refused = await elsewhere(world, 'deactivate-own-user', '/users/me', owner, subdomain, 400);
  expect(refused).toMatchObject({ result: 'error', code: 'CANNOT_DEACTIVATE_LAST_USER', is_last_owner: true, entity: 'organization owner' });
});

documentedExample('get-own-user', async (world) => {
  const me = await world.succeeds<Json>('get-own-user');
  expect(me).toMatchObject({ user_id: world.iago.id, email: 'iago@zulip.com', full_name: 'Iago', is_admin: true, is_owner: false, role: Role.ADMINISTRATOR });
  const guest = await world.succeeds<Json>('get-own-user', { as: world.polonius });
  expect(guest).toMatchObject({ user_id: world.polonius.id, is_guest: true, role: Role.GUEST });
});

// Alert words.

documentedExample('get-alert-words', async (world) => {
  const reader = await someone(world, 'Alert Reader');
  expect(await world.succeeds('get-alert-words', { as: reader })).toMatchObject({ alert_words: [] });
  await world.succeeds('add-alert-words', { as: reader, params: { alert_words: ['foo', 'bar'] } });
  const { alert_words } = await world.succeeds<{ alert_words: string[] }>('get-alert-words', { as: reader });
  expect([...alert_words].sort()).toEqual(['bar', 'foo']);
});

documentedExample('add-alert-words', async (world) => {
  const watcher = await someone(world, 'Alert Adder');
  const { alert_words } = await world.succeeds<{ alert_words: string[] }>('add-alert-words', {
    as: watcher,
    params: { alert_words: world.example('add-alert-words', 'alert_words') },
  });
  expect([...alert_words].sort()).toEqual(['bar', 'foo']);
  const stored = await world.succeeds<{ alert_words: string[] }>('get-alert-words', { as: watcher });
  expect([...stored.alert_words].sort()).toEqual(['bar', 'foo']);
  // A word over 100 characters: the documented error.
  const refused = await world.fails('add-alert-words', { as: watcher, params: { alert_words: ['x'.repeat(101)] } }, 400);
  expect(refused.msg).toBe('alert_words[0] is too long (limit: 100 characters)');
});

documentedExample('remove-alert-words', async (world) => {
  const watcher = await someone(world, 'Alert Remover');
  await world.succeeds('add-alert-words', { as: watcher, params: { alert_words: ['foo', 'bar'] } });
  const { alert_words } = await world.succeeds<{ alert_words: string[] }>('remove-alert-words', {
    as: watcher,
    params: { alert_words: world.example('remove-alert-words', 'alert_words') },
  });
  expect(alert_words).toEqual(['bar']);
  expect(await world.succeeds('get-alert-words', { as: watcher })).toMatchObject({ alert_words: ['bar'] });
});

// Presence and status.

documentedExample('update-presence', async (world) => {
  const present = await someone(world, 'Present Member');
  const op = 'update-presence';
  // Every documented parameter at its example value, then Zulip's python example.
  const answer = await world.succeeds<{ presences?: Json; presence_last_update_id?: number }>(op, {
    as: present,
    params: {
      status: world.example(op, 'status'),
      ping_only: world.example(op, 'ping_only'),
      new_user_input: world.example(op, 'new_user_input'),
      last_update_id: world.example(op, 'last_update_id'),
      history_limit_days: world.example(op, 'history_limit_days'),
      slim_presence: world.example(op, 'slim_presence'),
    },
  });
  expect(answer.presence_last_update_id).toEqual(expect.any(Number));
  const modern = await world.succeeds<{ presences: Record<string, Json> }>(op, {
    as: present,
    params: { status: 'active', ping_only: false, new_user_input: false, last_update_id: -1 },
  });
  expect(modern.presences[String(present.id)]).toMatchObject({ active_timestamp: expect.any(Number) });
  const { presence } = await world.succeeds<{ presence: Record<string, Json> }>('get-user-presence', { path: { user_id_or_email: present.id } });
  expect(presence.aggregated).toMatchObject({ status: 'active' });
});

documentedExample('update-status', async (world) => {
  const traveller = await someone(world, 'Travelling Member');
  const op = 'update-status';
  // Zulip's python example (away: false), then the documented example values (away: true).
  await world.succeeds(op, { as: traveller, params: { status_text: 'on vacation', away: false, emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' } });
  const { status } = await world.succeeds<{ status: Json }>('get-user-status', { path: { user_id: traveller.id } });
  expect(status).toMatchObject({ status_text: 'on vacation', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });
  expect(status.away).toBeFalsy();
  await world.succeeds(op, {
    as: traveller,
    params: {
      status_text: world.example(op, 'status_text'),
      away: world.example(op, 'away'),
      emoji_name: world.example(op, 'emoji_name'),
      emoji_code: world.example(op, 'emoji_code'),
      reaction_type: world.example(op, 'reaction_type'),
    },
  });
  expect((await world.succeeds<{ status: Json }>('get-user-status', { path: { user_id: traveller.id } })).status).toMatchObject({ away: true });
  // The documented errors.
  const long = await world.fails(op, { as: traveller, params: { status_text: 'This is a message that exceeds 60 characters, and so should throw an error.', away: 'false' } }, 400);
  expect(long.msg).toBe('status_text is too long (limit: 60 characters)');
  const nothing = await world.fails(op, { as: traveller, params: {} }, 400);
  expect(nothing.msg).toBe('Client did not pass any new values.');
  const codeOnly = await world.fails(op, { as: traveller, params: { status_text: 'In a meeting', emoji_code: '1f4bb' } }, 400);
  expect(codeOnly.msg).toBe('Client must pass emoji_name if they pass either emoji_code or reaction_type.');
  const unknown = await world.fails(op, { as: traveller, params: { status_text: 'In a meeting', emoji_code: '1f4bb', emoji_name: 'invalid' } }, 400);
  expect(unknown.msg).toBe("Emoji 'invalid' does not exist");
  const mismatched = await world.fails(op, { as: traveller, params: { status_text: 'In a meeting', emoji_code: '1f4bb', emoji_name: 'car' } }, 400);
  expect(mismatched.msg).toBe('Invalid emoji name.');
  const custom = await world.fails(op, { as: traveller, params: { status_text: 'In a meeting', emoji_code: '1f4bb', emoji_name: 'car', reaction_type: 'realm_emoji' } }, 400);
  expect(custom.msg).toBe('Invalid custom emoji.');
});

// Muted users.

documentedExample('mute-user', async (world) => {
  const muter = await someone(world, 'Muting Member');
  // Zulip's example mutes Hamlet.
  await world.succeeds('mute-user', { as: muter, path: { muted_user_id: world.hamlet.id } });
  const { muted_users } = (await world.initialState<Json>(['muted_users'], muter)) as { muted_users: { id: number }[] };
  expect(muted_users.map((muted) => muted.id)).toEqual([world.hamlet.id]);
  // The documented errors: oneself, someone who is not there, someone already muted.
  expect((await world.fails('mute-user', { as: muter, path: { muted_user_id: muter.id } }, 400)).msg).toBe('Cannot mute self');
  expect((await world.fails('mute-user', { as: muter, path: { muted_user_id: NO_SUCH_ID } }, 400)).msg).toBe('No such user');
  expect((await world.fails('mute-user', { as: muter, path: { muted_user_id: world.hamlet.id } }, 400)).msg).toBe('User already muted');
});

documentedExample('unmute-user', async (world) => {
  const muter = await someone(world, 'Unmuting Member');
  await world.succeeds('mute-user', { as: muter, path: { muted_user_id: world.hamlet.id } });
  await world.succeeds('unmute-user', { as: muter, path: { muted_user_id: world.hamlet.id } });
  expect((await world.initialState<Json>(['muted_users'], muter)).muted_users).toEqual([]);
  expect((await world.fails('unmute-user', { as: muter, path: { muted_user_id: world.hamlet.id } }, 400)).msg).toBe('User is not muted');
  expect((await world.fails('unmute-user', { as: muter, path: { muted_user_id: NO_SUCH_ID } }, 400)).msg).toBe('No such user');
});

// Push tokens (the older, unencrypted registration).

documentedExample('add-apns-token', async (world) => {
  const phone = await someone(world, 'Apple Phone Owner');
  const op = 'add-apns-token';
  await world.succeeds(op, { as: phone, params: { token: world.example(op, 'token'), appid: world.example(op, 'appid') } });
  // Registered with the push relay, as Zulip registers it with its bouncer.
  expect(world.pushRelay.tokens.has(`${phone.id}:1:c0ffee`)).toBe(true);
  expect((await world.fails(op, { as: phone, params: { token: '', appid: 'org.zulip.Zulip' } }, 400)).msg).toBe('Empty or invalid length token');
  expect((await world.fails(op, { as: phone, params: { token: 'not hex', appid: 'org.zulip.Zulip' } }, 400)).msg).toBe('Invalid APNS token');
});

documentedExample('remove-apns-token', async (world) => {
  const phone = await someone(world, 'Apple Phone Leaver');
  await world.succeeds('add-apns-token', { as: phone, params: { token: 'c0ffee', appid: 'org.zulip.Zulip' } });
  await world.succeeds('remove-apns-token', { as: phone, params: { token: world.example('remove-apns-token', 'token') } });
  expect(world.pushRelay.tokens.has(`${phone.id}:1:c0ffee`)).toBe(false);
  expect((await world.fails('remove-apns-token', { as: phone, params: { token: 'c0ffee' } }, 400)).msg).toBe('Token does not exist');
  expect((await world.fails('remove-apns-token', { as: phone, params: { token: '' } }, 400)).msg).toBe('Empty or invalid length token');
});

documentedExample('add-fcm-token', async (world) => {
  const phone = await someone(world, 'Android Phone Owner');
  await world.succeeds('add-fcm-token', { as: phone, params: { token: world.example('add-fcm-token', 'token') } });
  expect(world.pushRelay.tokens.has(`${phone.id}:2:android-token`)).toBe(true);
  expect((await world.fails('add-fcm-token', { as: phone, params: { token: '' } }, 400)).msg).toBe('Empty or invalid length token');
});

documentedExample('remove-fcm-token', async (world) => {
  const phone = await someone(world, 'Android Phone Leaver');
  await world.succeeds('add-fcm-token', { as: phone, params: { token: 'android-token' } });
  await world.succeeds('remove-fcm-token', { as: phone, params: { token: world.example('remove-fcm-token', 'token') } });
  expect(world.pushRelay.tokens.has(`${phone.id}:2:android-token`)).toBe(false);
  expect((await world.fails('remove-fcm-token', { as: phone, params: { token: 'android-token' } }, 400)).msg).toBe('Token does not exist');
  expect((await world.fails('remove-fcm-token', { as: phone, params: { token: '' } }, 400)).msg).toBe('Empty or invalid length token');
});

// One user.

documentedExample('get-user-by-email', async (world) => {
  const op = 'get-user-by-email';
  const { user } = await world.succeeds<{ user: Json }>(op, { path: { email: world.example(op, 'email') } });
  expect(user).toMatchObject({ user_id: world.iago.id, email: 'iago@zulip.com', full_name: 'Iago', role: Role.ADMINISTRATOR });
  const detailed = await world.succeeds<{ user: Json }>(op, {
    path: { email: 'iago@zulip.com' },
    params: { client_gravatar: world.example(op, 'client_gravatar'), include_custom_profile_fields: world.example(op, 'include_custom_profile_fields') },
  });
  expect(detailed.user.profile_data).toBeDefined();
  expect(detailed.user.avatar_url).toEqual(expect.any(String));
});

documentedExample('get-user', async (world) => {
  // Zulip's example reads Cordelia, then with her custom profile data.
  const { user } = await world.succeeds<{ user: Json }>('get-user', { path: { user_id: world.cordelia.id } });
  expect(user).toMatchObject({ user_id: world.cordelia.id, email: 'cordelia@zulip.com', full_name: "Cordelia, Lear's daughter", is_active: true });
  const detailed = await world.succeeds<{ user: Json }>('get-user', {
    path: { user_id: world.cordelia.id },
    params: { client_gravatar: world.example('get-user', 'client_gravatar'), include_custom_profile_fields: world.example('get-user', 'include_custom_profile_fields') },
  });
  expect(detailed.user.profile_data).toBeDefined();
});

/** A short-text custom profile field of the organization, made through HTTP; its id. */
async function profileField(world: ExampleWorld, name: string): Promise<number> {
  const res = await world.system.api.post<{ id: number }>('/realm/profile_fields', { name: `${name} ${Date.now().toString(36)}`, field_type: 1 }, { auth: world.iago, subdomain: world.realm.subdomain });
  if (res.status !== 200) throw new Error(`profile field: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

documentedExample('update-user', async (world) => {
  const renamed = await someone(world, 'Renamed Member');
  // Zulip's examples: a new name, then a custom profile field's value.
  await world.succeeds('update-user', { path: { user_id: renamed.id }, params: { full_name: 'New Name' } });
  expect(await userOf(world, renamed.id)).toMatchObject({ full_name: 'New Name' });
  const field = await profileField(world, 'Team');
  await world.succeeds('update-user', { path: { user_id: renamed.id }, params: { profile_data: [{ id: field, value: 'some data' }] } });
  const { user } = await world.succeeds<{ user: { profile_data: Record<string, { value: string }> } }>('get-user', {
    path: { user_id: renamed.id },
    params: { include_custom_profile_fields: true },
  });
  expect(user.profile_data[String(field)]).toMatchObject({ value: 'some data' });
  // The documented role example: a member.
  await world.succeeds('update-user', { path: { user_id: renamed.id }, params: { role: Role.MODERATOR } });
  expect(await userOf(world, renamed.id)).toMatchObject({ role: Role.MODERATOR });
  // Zulip's documented 400 ("Guests cannot be organization administrators") no longer happens in
  // Zulip (a role is one value); a role that is not one is its BAD_REQUEST today.
  expect((await world.fails('update-user', { path: { user_id: renamed.id }, params: { role: 7 } }, 400)).msg).toBe('Invalid role');
});

documentedExample('update-user-by-email', async (world) => {
  const renamed = await someone(world, 'Renamed By Email');
  await world.succeeds('update-user-by-email', { path: { email: renamed.email }, params: { full_name: 'NewName', role: Role.MEMBER } });
  expect(await userOf(world, renamed.id)).toMatchObject({ full_name: 'NewName', role: Role.MEMBER });
  await world.succeeds('update-user-by-email', { path: { email: renamed.email }, params: { role: Role.GUEST } });
  expect(await userOf(world, renamed.id)).toMatchObject({ role: Role.GUEST, is_guest: true });
  expect((await world.fails('update-user-by-email', { path: { email: renamed.email }, params: { role: 7 } }, 400)).msg).toBe('Invalid role');
});

documentedExample('deactivate-user', async (world) => {
  const leaver = await someone(world, 'Deactivated Member');
  await world.succeeds('deactivate-user', {
    path: { user_id: leaver.id },
    params: { deactivation_notification_comment: world.example('deactivate-user', 'deactivation_notification_comment') },
  });
  expect(await userOf(world, leaver.id)).toMatchObject({ is_active: false });
  // The comment reaches the deactivated user by mail.
  const [mail] = await world.mail.waitFor(leaver.email);
  expect(mail.subject).toBe('Notification of account deactivation on Zulip Dev');
  expect(mail.text).toContain('Farewell!');
  // The only owner cannot be deactivated (in an organization of its own).
  const { subdomain, owner } = await lonelyOwner(world);
  const refused = await elsewhere(world, 'deactivate-user', `/users/${owner.id}`, owner, subdomain, 400);
  expect(refused).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Cannot deactivate the only organization owner' });
});

// Settings.

documentedExample('update-settings', async (world) => {
  const settled = await someone(world, 'Settling Member');
  const op = 'update-settings';
  // Zulip's python example.
  await world.succeeds(op, { as: settled, params: { enable_offline_push_notifications: true, enable_online_push_notifications: true, emojiset: 'google' } });
  // Every documented setting at its example value (the name, address and password apart): all taken.
  const examples = world.operation(op).examples as Record<string, FormValue>;
  const { full_name: _name, email: _email, old_password: _old, new_password: _new, ...settings } = examples;
  expect(await world.succeeds(op, { as: settled, params: settings })).not.toHaveProperty('ignored_parameters_unsupported');
  const { user_settings } = (await world.initialState<Json>(['user_settings'], settled)) as { user_settings: Json };
  expect(user_settings).toMatchObject(settings);
  // The name.
  await world.succeeds(op, { as: settled, params: { full_name: world.example(op, 'full_name') } });
  expect(await userOf(world, settled.id)).toMatchObject({ full_name: 'NewName' });
  // The password: the old one, then a new one that can log in.
  await world.succeeds(op, { as: settled, params: { old_password: settled.password, new_password: 'A-new-Password-4-settings' } });
  const login = await world.system.api.post<{ user_id: number }>('/fetch_api_key', { username: settled.email, password: 'A-new-Password-4-settings' }, { subdomain: world.realm.subdomain });
  expect(login.body.user_id).toBe(settled.id);
  // The address: a confirmation mail to the new one.
  await world.succeeds(op, { as: settled, params: { email: world.example(op, 'email') } });
  await world.mail.waitFor('newname@example.com');
});

// Typing notifications.

documentedExample('set-typing-status', async (world) => {
  // Channel typing reaches only clients that say they handle it (client capability stream_typing_notifications).
  const hamletsQueue = await EventQueueClient.register(
    world.system.api,
    { auth: world.hamlet, subdomain: world.realm.subdomain },
    { event_types: ['typing'], client_capabilities: { stream_typing_notifications: true } },
  );
  // Zulip's examples: Iago starts and stops typing to Hamlet and Othello, then in a Denmark topic.
  const to = [world.hamlet.id, world.othello.id];
  await world.succeeds('set-typing-status', { params: { op: 'start', to } });
  await world.succeeds('set-typing-status', { params: { type: 'direct', op: 'stop', to } });
  const [started, stopped] = await hamletsQueue.waitFor('typing', 2);
  expect(started).toMatchObject({ op: 'start', sender: { user_id: world.iago.id }, message_type: 'direct' });
  expect(stopped).toMatchObject({ op: 'stop', sender: { user_id: world.iago.id } });
  const denmark = world.channel('Denmark').id;
  await world.succeeds('set-typing-status', { params: { type: 'stream', op: 'start', stream_id: denmark, topic: world.example('set-typing-status', 'topic') } });
  await world.succeeds('set-typing-status', { params: { type: 'stream', op: 'stop', stream_id: denmark, topic: 'typing notifications' } });
  const inChannel = (await hamletsQueue.waitFor('typing', 4)).slice(2);
  expect(inChannel[0]).toMatchObject({ op: 'start', message_type: 'stream', stream_id: denmark, topic: 'typing notifications' });
  // A channel message's typing without the channel: the documented error (Zulip's words are
  // "Missing 'stream_id' argument" today; the description's example keeps an older text).
  const missing = await world.fails('set-typing-status', { params: { type: 'stream', op: 'start', topic: 'typing notifications' } }, 400);
  expect(missing.msg).toBe("Missing 'stream_id' argument");
});

documentedExample('set-typing-status-for-message-edit', async (world) => {
  const messageId = await world.send(world.iago, { type: 'stream', to: 'Verona', topic: 'edits', content: 'A message Iago is about to edit.' });
  const hamletsQueue = await EventQueueClient.register(world.system.api, { auth: world.hamlet, subdomain: world.realm.subdomain }, { event_types: ['typing_edit_message'] });
  await world.succeeds('set-typing-status-for-message-edit', { path: { message_id: messageId }, params: { op: world.example('set-typing-status-for-message-edit', 'op') } });
  await world.succeeds('set-typing-status-for-message-edit', { path: { message_id: messageId }, params: { op: 'stop' } });
  const [started, stopped] = await hamletsQueue.waitFor('typing_edit_message', 2);
  expect(started).toMatchObject({ op: 'start', sender_id: world.iago.id, message_id: messageId });
  expect(stopped).toMatchObject({ op: 'stop', sender_id: world.iago.id, message_id: messageId });
});

// User groups.

documentedExample('create-user-group', async (world) => {
  const op = 'create-user-group';
  const admins = await world.factory.systemGroupId(world.realm, 'role:administrators');
  const everyone = await world.factory.systemGroupId(world.realm, 'role:everyone');
  const subgroup = await groupOf(world, 'marketing interns', [world.prospero]);
  // Zulip's documented example, its ids those of this organization: four members, a subgroup,
  // each permission granted to a system group.
  const members = [world.hamlet.id, world.othello.id, world.cordelia.id, world.iago.id];
  const permissions = {
    can_add_members_group: admins,
    can_join_group: admins,
    can_leave_group: everyone,
    can_manage_group: admins,
    can_mention_group: admins,
    can_remove_members_group: admins,
  };
  const { group_id } = await world.succeeds<{ group_id: number }>(op, {
    params: { name: world.example(op, 'name'), description: world.example(op, 'description'), members, subgroups: [subgroup], ...permissions },
  });
  expect(await groupOfId(world, group_id)).toMatchObject({
    name: 'marketing',
    description: 'The marketing team.',
    members: [...members].sort((a, b) => a - b),
    direct_subgroup_ids: [subgroup],
    ...permissions,
    deactivated: false,
  });
  // Zulip's python example: members only.
  const leadership = await world.succeeds<{ group_id: number }>(op, {
    params: { name: 'leadership', description: 'The leadership team.', members: [world.desdemona.id, world.iago.id] },
  });
  expect(await groupOfId(world, leadership.group_id)).toMatchObject({ name: 'leadership', members: [world.desdemona.id, world.iago.id].sort((a, b) => a - b) });
  // A member who is not there: the documented error.
  const refused = await world.fails(op, { params: { name: 'nobody home', description: 'No one.', members: [NO_SUCH_ID] } }, 400);
  expect(refused.msg).toBe(`Invalid user ID: ${NO_SUCH_ID}`);
});

documentedExample('get-user-groups', async (world) => {
  const op = 'get-user-groups';
  const kept = await groupOf(world, 'listed group', [world.hamlet]);
  const gone = await groupOf(world, 'deactivated group', [world.othello]);
  await world.succeeds('deactivate-user-group', { path: { user_group_id: gone } });
  const active = await groupsOf(world);
  expect(active.find((group) => group.id === kept)).toMatchObject({ members: [world.hamlet.id], deactivated: false });
  expect(active.map((group) => group.id)).not.toContain(gone);
  expect(active.filter((group) => group.is_system_group).map((group) => group.name)).toEqual(expect.arrayContaining(['role:administrators', 'role:everyone', 'role:members']));
  const all = await groupsOf(world, { include_deactivated_groups: world.example(op, 'include_deactivated_groups') });
  expect(all.find((group) => group.id === gone)).toMatchObject({ deactivated: true });
});

documentedExample('update-user-group', async (world) => {
  const op = 'update-user-group';
  const id = await groupOf(world, 'marketing to rename', [world.hamlet]);
  const helpers = await groupOf(world, 'marketing helpers', [world.prospero]);
  // Zulip's python example: a name and a description only.
  await world.succeeds(op, { path: { user_group_id: id }, params: { name: 'leadership team', description: 'The leadership team.' } });
  expect(await groupOfId(world, id)).toMatchObject({ name: 'leadership team', description: 'The leadership team.' });
  const before = (await groupOfId(world, id)) as UserGroup;
  // Zulip's documented example: a new name and description, each permission given to Hamlet and
  // a group (Zulip's `old` values the group's current ones).
  const change = (setting: string) => JSON.stringify({ new: { direct_members: [world.hamlet.id], direct_subgroups: [helpers] }, old: before[setting] });
  const settings = ['can_add_members_group', 'can_join_group', 'can_leave_group', 'can_manage_group', 'can_mention_group', 'can_remove_members_group'];
  await world.succeeds(op, {
    path: { user_group_id: id },
    params: {
      name: world.example(op, 'name'),
      description: world.example(op, 'description'),
      deactivated: world.example(op, 'deactivated'),
      ...Object.fromEntries(settings.map((setting) => [setting, change(setting)])),
    },
  });
  const after = (await groupOfId(world, id)) as UserGroup;
  expect(after).toMatchObject({ name: 'marketing team', description: 'The marketing team.', deactivated: false });
  for (const setting of settings) expect(after[setting]).toEqual({ direct_members: [world.hamlet.id], direct_subgroups: [helpers] });
  // Iago no longer manages the group (the organization's can_manage_all_groups is its owners): Hamlet does now.
  await world.succeeds(op, { path: { user_group_id: id }, params: { description: 'Marketing, managed by Hamlet.' }, as: world.hamlet });
  expect(await groupOfId(world, id)).toMatchObject({ description: 'Marketing, managed by Hamlet.' });
  // A group that is not there: the documented error.
  expect((await world.fails(op, { path: { user_group_id: NO_SUCH_ID }, params: { name: 'nothing' } }, 400)).msg).toBe('Invalid user group');
});

documentedExample('deactivate-user-group', async (world) => {
  const op = 'deactivate-user-group';
  const id = await groupOf(world, 'group to deactivate', [world.hamlet]);
  await world.succeeds(op, { path: { user_group_id: id } });
  expect(await groupOfId(world, id)).toMatchObject({ deactivated: true });
  // The documented errors: a group that is not there; a group in use as another's subgroup.
  expect((await world.fails(op, { path: { user_group_id: NO_SUCH_ID } }, 400)).msg).toBe('Invalid user group');
  const inner = await groupOf(world, 'inner group', [world.othello]);
  const outer = await groupOf(world, 'outer group', [], [inner]);
  // Zulip's description gives this answer the schema of a plain coded error, which allows no
  // `objections`, while its own example of it (and Zulip) carries them: only status and body are checked.
  const refused = await world.call(op, { path: { user_group_id: inner } });
  expect(refused.status).toBe(400);
  expect(refused.body).toEqual({
    result: 'error',
    code: 'CANNOT_DEACTIVATE_GROUP_IN_USE',
    msg: 'Cannot deactivate user group in use.',
    objections: [{ type: 'subgroup', supergroup_ids: [outer] }],
  });
  expect(await groupOfId(world, inner)).toMatchObject({ deactivated: false });
});

documentedExample('get-user-group-members', async (world) => {
  const op = 'get-user-group-members';
  const inner = await groupOf(world, 'inner members', [world.othello]);
  const id = await groupOf(world, 'members group', [world.hamlet], [inner]);
  const all = await world.succeeds<{ members: number[] }>(op, { path: { user_group_id: id }, params: { direct_member_only: world.example(op, 'direct_member_only') } });
  expect([...all.members].sort((a, b) => a - b)).toEqual([world.hamlet.id, world.othello.id].sort((a, b) => a - b));
  const direct = await world.succeeds<{ members: number[] }>(op, { path: { user_group_id: id }, params: { direct_member_only: true } });
  expect(direct.members).toEqual([world.hamlet.id]);
});

documentedExample('update-user-group-members', async (world) => {
  const op = 'update-user-group-members';
  const leaving = await groupOf(world, 'leaving subgroup', [world.prospero]);
  const joining = await groupOf(world, 'joining subgroup', [world.shiva]);
  const id = await groupOf(world, 'changing members', [world.hamlet], [leaving]);
  // Zulip's documented example, its ids this organization's: Hamlet out, Othello and Cordelia in, one subgroup for another.
  await world.succeeds(op, {
    path: { user_group_id: id },
    params: { delete: [world.hamlet.id], add: [world.othello.id, world.cordelia.id], delete_subgroups: [leaving], add_subgroups: [joining] },
  });
  const members = await world.succeeds<{ members: number[] }>('get-user-group-members', { path: { user_group_id: id }, params: { direct_member_only: true } });
  expect([...members.members].sort((a, b) => a - b)).toEqual([world.othello.id, world.cordelia.id].sort((a, b) => a - b));
  const subgroups = await world.succeeds<{ subgroups: number[] }>('get-user-group-subgroups', { path: { user_group_id: id }, params: { direct_subgroup_only: true } });
  expect(subgroups.subgroups).toEqual([joining]);
  // Zulip's python example: members only.
  await world.succeeds(op, { path: { user_group_id: id }, params: { delete: [world.othello.id, world.cordelia.id], add: [world.iago.id] } });
  expect((await world.succeeds<{ members: number[] }>('get-user-group-members', { path: { user_group_id: id }, params: { direct_member_only: true } })).members).toEqual([world.iago.id]);
});

documentedExample('get-user-group-subgroups', async (world) => {
  const op = 'get-user-group-subgroups';
  const innermost = await groupOf(world, 'innermost', [world.othello]);
  const inner = await groupOf(world, 'inner', [], [innermost]);
  const id = await groupOf(world, 'outer', [world.hamlet], [inner]);
  const direct = await world.succeeds<{ subgroups: number[] }>(op, { path: { user_group_id: id }, params: { direct_subgroup_only: world.example(op, 'direct_subgroup_only') } });
  expect(direct.subgroups).toEqual([inner]);
  const all = await world.succeeds<{ subgroups: number[] }>(op, { path: { user_group_id: id }, params: { direct_subgroup_only: false } });
  expect([...all.subgroups].sort((a, b) => a - b)).toEqual([inner, innermost].sort((a, b) => a - b));
});

documentedExample('update-user-group-subgroups', async (world) => {
  const op = 'update-user-group-subgroups';
  const leaving = await groupOf(world, 'old subgroup', [world.prospero]);
  const joining = await groupOf(world, 'new subgroup', [world.shiva]);
  const id = await groupOf(world, 'changing subgroups', [world.hamlet], [leaving]);
  await world.succeeds(op, { path: { user_group_id: id }, params: { delete: [leaving], add: [joining] } });
  const { subgroups } = await world.succeeds<{ subgroups: number[] }>('get-user-group-subgroups', { path: { user_group_id: id }, params: { direct_subgroup_only: true } });
  expect(subgroups).toEqual([joining]);
});

documentedExample('get-is-user-group-member', async (world) => {
  const op = 'get-is-user-group-member';
  const inner = await groupOf(world, 'inner membership', [world.othello]);
  const id = await groupOf(world, 'membership', [world.hamlet], [inner]);
  const check = (user: TestUser, directOnly: boolean) =>
    world.succeeds<{ is_user_group_member: boolean }>(op, { path: { user_group_id: id, user_id: user.id }, params: { direct_member_only: directOnly } });
  expect((await check(world.othello, world.example(op, 'direct_member_only'))).is_user_group_member).toBe(true);
  expect((await check(world.othello, true)).is_user_group_member).toBe(false);
  expect((await check(world.hamlet, true)).is_user_group_member).toBe(true);
  expect((await check(world.cordelia, false)).is_user_group_member).toBe(false);
});

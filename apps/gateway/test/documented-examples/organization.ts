import http from 'node:http';
import type { ApiResponse, TestUser } from '@teamchat/testing';
import sharp from 'sharp';
import { documentedExample, unique, type ExampleWorld } from './world';

/* Helpers of the organization examples. */

/** A small PNG in one colour, made here. */
const png = (colour = { r: 40, g: 160, b: 60 }): Promise<Buffer> =>
  sharp({ create: { width: 64, height: 64, channels: 4, background: { ...colour, alpha: 1 } } }).png().toBuffer();

/** One request to the gateway on the organization's host, path as given (no /api/v1 added). */
function rawRequest(
  world: ExampleWorld,
  method: string,
  path: string,
  options: { as?: TestUser; body?: Buffer; headers?: Record<string, string> } = {},
): Promise<ApiResponse<Record<string, unknown>> & { bytes: Buffer }> {
  const headers: Record<string, string> = { Host: world.system.api.hostFor(world.realm.subdomain), ...options.headers };
  if (options.body) headers['Content-Length'] = String(options.body.length);
  if (options.as) headers.Authorization = `Basic ${Buffer.from(`${options.as.email}:${options.as.apiKey}`).toString('base64')}`;
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, world.system.api.baseUrl), { method, headers, agent: new http.Agent({ keepAlive: false }) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        let parsed: unknown = bytes.toString('utf8');
        try {
          parsed = JSON.parse(parsed as string);
        } catch {
          // not JSON: kept as text
        }
        const responseHeaders = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') responseHeaders.set(k, v);
        resolve({ status: res.statusCode ?? 0, headers: responseHeaders, body: parsed as Record<string, unknown>, bytes });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * POST /realm/emoji/{emoji_name} with the image as a multipart file, as the python client's
 * `files=[fp]` sends it (world.call's multipart carries text fields only).
 */
async function uploadEmoji(world: ExampleWorld, name: string, as: TestUser = world.iago): Promise<ApiResponse<Record<string, unknown>>> {
  const form = new FormData();
  form.append('file', new Blob([await png()], { type: 'image/png' }), 'img.png');
  const encoded = new Request('http://multipart.invalid', { method: 'POST', body: form });
  const body = Buffer.from(await encoded.arrayBuffer());
  return rawRequest(world, 'POST', `/api/v1/realm/emoji/${encodeURIComponent(name)}`, {
    as,
    body,
    headers: { 'Content-Type': encoded.headers.get('content-type') ?? '' },
  });
}

interface RealmEmoji {
  id: string;
  name: string;
  source_url: string;
  deactivated: boolean;
  author_id: number | null;
}

/** The organization's custom emoji, by name (active ones only unless asked). */
async function emojiNamed(world: ExampleWorld, name: string): Promise<RealmEmoji | undefined> {
  const { emoji } = await world.succeeds<{ emoji: Record<string, RealmEmoji> }>('get-custom-emoji');
  return Object.values(emoji).find((one) => one.name === name);
}

interface ProfileField {
  id: number;
  name: string;
  hint: string;
  type: number;
  field_data: string;
  order: number;
  display_in_profile_summary?: boolean;
  required: boolean;
  editable_by_user?: boolean;
}

const profileFields = async (world: ExampleWorld): Promise<ProfileField[]> =>
  (await world.succeeds<{ custom_fields: ProfileField[] }>('get-custom-profile-fields')).custom_fields;

/** A short-text custom profile field of the given name, made through HTTP; its id. */
async function createProfileField(world: ExampleWorld, name: string): Promise<number> {
  return (await world.succeeds<{ id: number }>('create-custom-profile-field', { params: { name, hint: `The ${name}`, field_type: 1 } })).id;
}

interface Linkifier {
  id: number;
  pattern: string;
  url_template: string;
}

const linkifiers = async (world: ExampleWorld): Promise<Linkifier[]> =>
  (await world.succeeds<{ linkifiers: Linkifier[] }>('get-linkifiers')).linkifiers;

/** A linkifier of its own pattern (`<prefix>-<number>`), made through HTTP; its id. */
async function createLinkifier(world: ExampleWorld, prefix: string): Promise<number> {
  const params = { pattern: `${prefix}-(?P<id>[0-9]+)`, url_template: `https://tracker.example.com/${prefix}/{id}` };
  return (await world.succeeds<{ id: number }>('add-linkifier', { params })).id;
}

interface Invite {
  id: number;
  email?: string;
  is_multiuse: boolean;
  link_url?: string;
  invited_as: number;
  expiry_date: number | null;
  stream_ids?: number[];
}

const invites = async (world: ExampleWorld): Promise<Invite[]> => (await world.succeeds<{ invites: Invite[] }>('get-invites')).invites;

/** One email invitation to a fresh address, sent through HTTP; the address and the invitation's id. */
async function inviteByMail(world: ExampleWorld, local: string): Promise<{ email: string; id: number }> {
  const email = `${unique(local)}@zulip.com`;
  await world.succeeds('send-invites', { params: { invitee_emails: email, stream_ids: [] } });
  const invite = (await invites(world)).find((one) => !one.is_multiuse && one.email === email);
  if (!invite) throw new Error(`no invitation for ${email} in GET /invites`);
  return { email, id: invite.id };
}

/** A reusable invitation link, made through HTTP; the link and its id. */
async function inviteLink(world: ExampleWorld): Promise<{ link: string; id: number }> {
  const { invite_link } = await world.succeeds<{ invite_link: string }>('create-invite-link', { params: {} });
  const invite = (await invites(world)).find((one) => one.is_multiuse && one.link_url === invite_link);
  if (!invite) throw new Error(`no invitation for ${invite_link} in GET /invites`);
  return { link: invite_link, id: invite.id };
}

/** The confirmation key in the newest mail to `address` that has one (an invitation, a sign-up confirmation). */
async function keyMailedTo(world: ExampleWorld, address: string, count = 1): Promise<string> {
  const mails = await world.mail.waitFor(address, count);
  const key = /\/accounts\/do_confirm\/([a-z0-9]+)/i.exec(mails[count - 1].text)?.[1];
  if (!key) throw new Error(`no confirmation link in the mail to ${address}: ${mails[count - 1].text}`);
  return key;
}

/** The CSRF token of a form page (GET), as a browser would take it from the page and its cookie. */
async function formToken(world: ExampleWorld, path: string): Promise<string> {
  const page = await world.system.api.get<string>(path, {}, { subdomain: world.realm.subdomain, headers: { Accept: 'text/html' } });
  expect(page.status).toBe(200);
  const token = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(String(page.body))?.[1];
  if (!token) throw new Error(`no form at ${path}`);
  return token;
}

/** Posts a form as a browser does, with the page's CSRF token and cookie; the JSON answer. */
function postForm(world: ExampleWorld, path: string, token: string, form: Record<string, string>) {
  return world.system.api.post<Record<string, unknown>>(path, { csrfmiddlewaretoken: token, ...form }, {
    subdomain: world.realm.subdomain,
    headers: { Accept: 'application/json', Cookie: `csrftoken=${token}` },
  });
}

/**
 * Signs up with the confirmation key (the invitation's form, then the registration) and logs in:
 * the new account's credentials.
 */
async function signUp(world: ExampleWorld, key: string, fullName: string): Promise<{ id: number; email: string; apiKey: string }> {
  const password = 'k7#Qz!long-enough';
  const token = await formToken(world, `/accounts/do_confirm/${key}`);
  const done = await postForm(world, '/accounts/register/', token, { key, full_name: fullName, password });
  expect(done.status).toBe(200);
  const email = String(done.body.email);
  const login = await world.system.api.post<{ api_key: string; user_id: number }>('/fetch_api_key', { username: email, password }, { subdomain: world.realm.subdomain });
  expect(login.status).toBe(200);
  return { id: login.body.user_id, email, apiKey: login.body.api_key };
}

/** What a new account sees of itself: its role, its channels, and the direct messages it got (polled until `until` holds). */
async function newcomerView(
  world: ExampleWorld,
  user: { email: string; apiKey: string },
  until: (messages: { sender_email: string; content: string }[]) => boolean,
): Promise<{ role: number; channels: string[]; messages: { sender_email: string; content: string }[] }> {
  const options = { auth: user, subdomain: world.realm.subdomain };
  const me = await world.system.api.get<{ role: number }>('/users/me', {}, options);
  const subscriptions = await world.system.api.get<{ subscriptions: { name: string }[] }>('/users/me/subscriptions', {}, options);
  let messages: { sender_email: string; content: string }[] = [];
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 200))) {
    const got = await world.system.api.get<{ messages: { sender_email: string; content: string }[] }>(
      '/messages',
      { anchor: 'newest', num_before: 20, num_after: 0, narrow: [{ operator: 'is', operand: 'dm' }], apply_markdown: false },
      options,
    );
    messages = got.body.messages ?? [];
    if (until(messages)) break;
  }
  return { role: me.body.role, channels: subscriptions.body.subscriptions.map((one) => one.name).sort(), messages };
}

/** The Welcome Bot's messages among these. */
const fromWelcomeBot = (messages: { sender_email: string; content: string }[]) => messages.filter((one) => /^welcome-bot@/.test(one.sender_email));

/* Custom emoji. */

documentedExample('upload-custom-emoji', async (world) => {
  // The python example uploads an image as `my_custom_emoji`; a name of this run's own.
  const name = unique('my_custom_emoji_');
  const res = await uploadEmoji(world, name);
  world.expectDocumented('upload-custom-emoji', res, 200);
  expect(res.body.result).toBe('success');
  const uploaded = await emojiNamed(world, name);
  expect(uploaded).toMatchObject({ name, deactivated: false, author_id: world.iago.id });
  // The image is served where the listing says.
  const image = await rawRequest(world, 'GET', new URL(uploaded!.source_url, world.system.api.baseUrl).pathname);
  expect(image.status).toBe(200);
  expect(image.headers.get('content-type')).toMatch(/^image\//);
});

documentedExample('get-custom-emoji', async (world) => {
  const name = unique('listed_emoji_');
  expect((await uploadEmoji(world, name)).status).toBe(200);
  const { emoji } = await world.succeeds<{ emoji: Record<string, RealmEmoji> }>('get-custom-emoji');
  const listed = Object.values(emoji).find((one) => one.name === name);
  expect(listed).toMatchObject({ name, deactivated: false, author_id: world.iago.id });
  expect(emoji[listed!.id]).toBe(listed);
  // Any member may list them.
  const asMember = await world.succeeds<{ emoji: Record<string, RealmEmoji> }>('get-custom-emoji', { as: world.hamlet });
  expect(asMember.emoji[listed!.id]).toEqual(listed);
});

documentedExample('deactivate-custom-emoji', async (world) => {
  const name = unique('green_tick_');
  expect((await uploadEmoji(world, name)).status).toBe(200);
  await world.succeeds('deactivate-custom-emoji', { path: { emoji_name: name } });
  // Deactivated, it stays listed as such.
  expect(await emojiNamed(world, name)).toMatchObject({ name, deactivated: true });
  // The documented error: no emoji of the name (the documented `green_tick` is not one here).
  const missing = world.example<string>('deactivate-custom-emoji', 'emoji_name');
  expect(await emojiNamed(world, missing)).toBeUndefined();
  const error = await world.fails('deactivate-custom-emoji', { path: { emoji_name: missing } }, 404, 'BAD_REQUEST');
  expect(error.msg).toBe(`Emoji '${missing}' does not exist`);
});

/* Presence. */

documentedExample('get-presence', async (world) => {
  const update = await world.system.api.post(
    '/users/me/presence',
    { status: 'active', ping_only: false, new_user_input: true, last_update_id: -1 },
    { auth: world.othello, subdomain: world.realm.subdomain },
  );
  expect(update.status).toBe(200);
  const { presences, server_timestamp } = await world.succeeds<{
    presences: Record<string, Record<string, { status: string; timestamp: number }>>;
    server_timestamp: number;
  }>('get-presence');
  expect(presences[world.othello.email]?.aggregated).toMatchObject({ status: 'active' });
  expect(presences[world.othello.email].aggregated.timestamp).toBeLessThanOrEqual(Math.ceil(server_timestamp));
});

/* Custom profile fields. */

documentedExample('get-custom-profile-fields', async (world) => {
  const name = unique('Pronouns ');
  const id = await createProfileField(world, name);
  const fields = await profileFields(world);
  expect(fields.find((field) => field.id === id)).toMatchObject({ id, name, hint: `The ${name}`, type: 1 });
  // Members read them too.
  const { custom_fields } = await world.succeeds<{ custom_fields: ProfileField[] }>('get-custom-profile-fields', { as: world.hamlet });
  expect(custom_fields.map((field) => field.id)).toEqual(fields.map((field) => field.id));
});

documentedExample('reorder-custom-profile-fields', async (world) => {
  await createProfileField(world, unique('Desk '));
  await createProfileField(world, unique('Team '));
  // As the python example does: every field's id, in reverse order.
  const order = (await profileFields(world)).map((field) => field.id).reverse();
  await world.succeeds('reorder-custom-profile-fields', { params: { order } });
  const fields = await profileFields(world);
  expect(fields.map((field) => field.id)).toEqual(order);
  expect(fields.map((field) => field.order)).toEqual([...fields.map((field) => field.order)].sort((a, b) => a - b));
});

documentedExample('create-custom-profile-field', async (world) => {
  // Every documented value: a list-of-options field ("Favorite programming language").
  const op = 'create-custom-profile-field';
  const params = {
    name: world.example<string>(op, 'name'),
    hint: world.example<string>(op, 'hint'),
    field_type: world.example<number>(op, 'field_type'),
    field_data: world.example<Record<string, unknown>>(op, 'field_data'),
    display_in_profile_summary: world.example<boolean>(op, 'display_in_profile_summary'),
    required: world.example<boolean>(op, 'required'),
    editable_by_user: world.example<boolean>(op, 'editable_by_user'),
  };
  const { id } = await world.succeeds<{ id: number }>(op, { params });
  const created = (await profileFields(world)).find((field) => field.id === id);
  expect(created).toMatchObject({ name: params.name, hint: params.hint, type: 3, display_in_profile_summary: true, required: true, editable_by_user: true });
  expect(JSON.parse(created!.field_data)).toEqual(params.field_data);
  // The python client's example: a short-text field, name and hint only.
  const name = unique('Phone ');
  const phone = await world.succeeds<{ id: number }>(op, { params: { name, hint: 'Contact no.', field_type: 1 } });
  expect((await profileFields(world)).find((field) => field.id === phone.id)).toMatchObject({ name, hint: 'Contact no.', type: 1 });
});

/* Defaults for new users. */

documentedExample('update-realm-user-settings-defaults', async (world) => {
  const { realm_user_settings_defaults: before } = await world.initialState<{ realm_user_settings_defaults: Record<string, unknown> }>(['realm_user_settings_defaults']);
  // Every documented parameter at its example value.
  const examples = world.operation('update-realm-user-settings-defaults').examples as Record<string, string | number | boolean>;
  await world.succeeds('update-realm-user-settings-defaults', { params: examples });
  const { realm_user_settings_defaults: after } = await world.initialState<{ realm_user_settings_defaults: Record<string, unknown> }>(['realm_user_settings_defaults']);
  expect(after).toMatchObject(examples);
  // Someone who joins now starts with them.
  const { email } = await inviteByMail(world, 'defaults');
  const newcomer = await signUp(world, await keyMailedTo(world, email), 'New Defaults');
  const { user_settings } = await world.initialState<{ user_settings: Record<string, unknown> }>(['user_settings'], newcomer);
  expect(user_settings).toMatchObject(examples);
  // Only administrators change them.
  const refused = await world.call('update-realm-user-settings-defaults', { params: { emojiset: 'text' }, as: world.hamlet });
  expect(refused.status).toBe(400);
  expect(refused.body).toMatchObject({ result: 'error', code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
  // The organization's defaults back as they were, for the examples that create users.
  const restore = Object.fromEntries(Object.keys(examples).filter((key) => key in before).map((key) => [key, before[key] as string | number | boolean]));
  await world.succeeds('update-realm-user-settings-defaults', { params: restore });
});

/* Linkifiers. */

documentedExample('get-linkifiers', async (world) => {
  const prefix = unique('LISTED');
  const id = await createLinkifier(world, prefix);
  expect((await linkifiers(world)).find((one) => one.id === id)).toEqual({
    id,
    pattern: `${prefix}-(?P<id>[0-9]+)`,
    url_template: `https://tracker.example.com/${prefix}/{id}`,
  });
  // Members read them too.
  const asMember = await world.succeeds<{ linkifiers: Linkifier[] }>('get-linkifiers', { as: world.hamlet });
  expect(asMember.linkifiers.map((one) => one.id)).toContain(id);
});

documentedExample('add-linkifier', async (world) => {
  // The documented linkifier: `#<number>` to Zulip's issues.
  const params = { pattern: '#(?P<id>[0-9]+)', url_template: 'https://github.com/zulip/zulip/issues/{id}' };
  const { id } = await world.succeeds<{ id: number }>('add-linkifier', { params });
  expect((await linkifiers(world)).find((one) => one.id === id)).toEqual({ id, ...params });
  // Messages are linkified by it.
  const { rendered } = await world.succeeds<{ rendered: string }>('render-message', { params: { content: 'See #2468' } });
  expect(rendered).toContain('href="https://github.com/zulip/zulip/issues/2468"');
});

documentedExample('update-linkifier', async (world) => {
  const prefix = unique('OLD');
  const id = await createLinkifier(world, prefix);
  // The documented values, in a pattern of this example's own (patterns are one per organization).
  const renamed = unique('NEW');
  const params = { pattern: `${renamed}#(?P<id>[0-9]+)`, url_template: 'https://github.com/zulip/zulip/issues/{id}' };
  await world.succeeds('update-linkifier', { path: { filter_id: id }, params });
  expect((await linkifiers(world)).find((one) => one.id === id)).toEqual({ id, ...params });
  // Messages are linkified by the new pattern, no longer by the old one.
  const { rendered } = await world.succeeds<{ rendered: string }>('render-message', { params: { content: `${renamed}#77 and ${prefix}-78` } });
  expect(rendered).toContain('href="https://github.com/zulip/zulip/issues/77"');
  expect(rendered).not.toContain(`https://tracker.example.com/${prefix}/78`);
});

documentedExample('remove-linkifier', async (world) => {
  const prefix = unique('GONE');
  const id = await createLinkifier(world, prefix);
  await world.succeeds('remove-linkifier', { path: { filter_id: id } });
  expect((await linkifiers(world)).map((one) => one.id)).not.toContain(id);
  // Messages are no longer linkified by it.
  const { rendered } = await world.succeeds<{ rendered: string }>('render-message', { params: { content: `${prefix}-12` } });
  expect(rendered).not.toContain(`https://tracker.example.com/${prefix}/12`);
});

documentedExample('reorder-linkifiers', async (world) => {
  for (const prefix of ['FIRST', 'SECOND', 'THIRD']) await createLinkifier(world, unique(prefix));
  // As the python example does: every linkifier's id, in reverse order.
  const ordered_linkifier_ids = (await linkifiers(world)).map((one) => one.id).reverse();
  await world.succeeds('reorder-linkifiers', { params: { ordered_linkifier_ids } });
  expect((await linkifiers(world)).map((one) => one.id)).toEqual(ordered_linkifier_ids);
});

/* Code playgrounds. */

interface Playground {
  id: number;
  name: string;
  pygments_language: string;
  url_template: string;
}

const playgrounds = async (world: ExampleWorld): Promise<Playground[]> =>
  (await world.initialState<{ realm_playgrounds: Playground[] }>(['realm_playgrounds'])).realm_playgrounds;

documentedExample('add-code-playground', async (world) => {
  const op = 'add-code-playground';
  const params = {
    name: world.example<string>(op, 'name'),
    pygments_language: world.example<string>(op, 'pygments_language'),
    url_template: world.example<string>(op, 'url_template'),
  };
  const { id } = await world.succeeds<{ id: number }>(op, { params });
  expect((await playgrounds(world)).find((one) => one.id === id)).toEqual({ id, ...params });
});

documentedExample('remove-code-playground', async (world) => {
  const name = unique('Rust playground ');
  const { id } = await world.succeeds<{ id: number }>('add-code-playground', {
    params: { name, pygments_language: 'Rust', url_template: 'https://play.rust-lang.org/?code={code}' },
  });
  await world.succeeds('remove-code-playground', { path: { playground_id: id } });
  expect((await playgrounds(world)).map((one) => one.id)).not.toContain(id);
});

/* Data exports. */

interface RealmExport {
  id: number;
  acting_user_id: number;
  export_type: number;
  pending: boolean;
  export_url: string | null;
}

/** Desdemona (the owner) lets administrators see her email and private data, as a usable export needs. */
async function ownerConsents(world: ExampleWorld): Promise<void> {
  const res = await world.system.api.patch('/settings', { allow_private_data_export: true }, { auth: world.desdemona, subdomain: world.realm.subdomain });
  expect(res.status).toBe(200);
}

documentedExample('export-realm', async (world) => {
  await ownerConsents(world);
  // The documented export: of the data of those who consent (export_type 2).
  const { id } = await world.succeeds<{ id: number }>('export-realm', { params: { export_type: world.example<number>('export-realm', 'export_type') } });
  const { exports } = await world.succeeds<{ exports: RealmExport[] }>('get-realm-exports');
  expect(exports.find((one) => one.id === id)).toMatchObject({ id, acting_user_id: world.iago.id, export_type: 2 });
  // Only administrators export. (The documented 400, an export too large to be made here, needs
  // an organization beyond the server's export limits: not shaped here.)
  const refused = await world.call('export-realm', { params: {}, as: world.hamlet });
  expect(refused.status).toBe(400);
  expect(refused.body).toMatchObject({ result: 'error', code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
});

documentedExample('get-realm-exports', async (world) => {
  await ownerConsents(world);
  // The python example's export: a public one.
  const { id } = await world.succeeds<{ id: number }>('export-realm', { params: {} });
  const { exports } = await world.succeeds<{ exports: RealmExport[] }>('get-realm-exports');
  expect(exports.find((one) => one.id === id)).toMatchObject({ id, acting_user_id: world.iago.id, export_type: 1 });
  // The worker writes it: listed done, with a URL to download it from.
  let listed: RealmExport | undefined;
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 500))) {
    listed = (await world.succeeds<{ exports: RealmExport[] }>('get-realm-exports')).exports.find((one) => one.id === id);
    if (listed && !listed.pending) break;
  }
  expect(listed).toMatchObject({ pending: false, export_url: expect.stringMatching(/\.tar\.gz$/) });
  const download = await rawRequest(world, 'GET', new URL(listed!.export_url!, world.system.api.baseUrl).pathname, { as: world.iago });
  expect(download.status).toBe(200);
  expect(download.bytes.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
});

documentedExample('get-realm-export-consents', async (world) => {
  const consent = (allow: boolean, as: TestUser) =>
    world.system.api.patch('/settings', { allow_private_data_export: allow }, { auth: as, subdomain: world.realm.subdomain });
  expect((await consent(true, world.prospero)).status).toBe(200);
  expect((await consent(false, world.cordelia)).status).toBe(200);
  const { export_consents } = await world.succeeds<{ export_consents: { user_id: number; consented: boolean }[] }>('get-realm-export-consents');
  const of = (user: TestUser) => export_consents.find((one) => one.user_id === user.id)?.consented;
  expect(of(world.prospero)).toBe(true);
  expect(of(world.cordelia)).toBe(false);
});

/* The Welcome Bot's message. */

documentedExample('test-welcome-bot-custom-message', async (world) => {
  const text = world.example<string>('test-welcome-bot-custom-message', 'welcome_message_custom_text');
  const { message_id } = await world.succeeds<{ message_id: number }>('test-welcome-bot-custom-message', { params: { welcome_message_custom_text: text } });
  // The test message is in Iago's direct messages, from the Welcome Bot, with the text.
  const got = await world.system.api.get<{ message: { content: string; sender_email: string } }>(
    `/messages/${message_id}`,
    { apply_markdown: false },
    { auth: world.iago, subdomain: world.realm.subdomain },
  );
  expect(got.status).toBe(200);
  expect(got.body.message.content).toContain(text);
  expect(got.body.message.sender_email).toMatch(/^welcome-bot@/);
});

/* Server settings. */

documentedExample('get-server-settings', async (world) => {
  // No credentials, on the organization's host.
  const res = await world.system.api.get<Record<string, unknown>>('/server_settings', {}, { subdomain: world.realm.subdomain });
  world.expectDocumented('get-server-settings', res, 200);
  expect(res.body).toMatchObject({ result: 'success', realm_name: 'Zulip Dev', email_auth_enabled: true });
  expect(res.body.realm_url).toEqual(res.body.realm_uri);
  expect(new URL(res.body.realm_url as string).hostname).toBe(world.system.api.hostFor(world.realm.subdomain).split(':')[0]);
  // The python client asks it with its credentials: the same answer.
  const asClient = await world.succeeds<Record<string, unknown>>('get-server-settings');
  expect(asClient.realm_name).toBe('Zulip Dev');
});

/* Invitations. */

documentedExample('send-invites', async (world) => {
  const op = 'send-invites';
  // The documented invitation, to the first two channels (the documented ids are another organization's).
  const invitee_emails = world.example<string>(op, 'invitee_emails');
  const stream_ids = [world.channel('Verona').id, world.channel('Denmark').id];
  const welcome_message_custom_text = world.example<string>(op, 'welcome_message_custom_text');
  await world.succeeds(op, { params: { invitee_emails, stream_ids, invite_expires_in_minutes: 60 * 24 * 10, invite_as: 400, welcome_message_custom_text } });
  const sent = (await invites(world)).filter((one) => !one.is_multiuse && ['example@zulip.com', 'logan@zulip.com'].includes(one.email ?? ''));
  expect(sent.map((one) => one.email).sort()).toEqual(['example@zulip.com', 'logan@zulip.com']);
  for (const address of ['example@zulip.com', 'logan@zulip.com']) {
    const [mail] = await world.mail.waitFor(address);
    expect(mail.subject).toContain('Zulip Dev');
    expect(mail.text).toContain(world.iago.email);
  }
  // Logan accepts: a member, in the invitation's channels, greeted by the Welcome Bot with the
  // invitation's text.
  const logan = await signUp(world, await keyMailedTo(world, 'logan@zulip.com'), 'Logan');
  const welcome = world.example<string>(op, 'welcome_message_custom_text');
  const seen = await newcomerView(world, logan, (messages) => fromWelcomeBot(messages).length >= 2);
  expect(seen.role).toBe(400);
  expect(seen.channels).toEqual(['Denmark', 'Verona']);
  const greetings = fromWelcomeBot(seen.messages).map((one) => one.content);
  expect(greetings[0]).toContain('Hello, and welcome to Zulip!');
  expect(greetings[1]).toContain(welcome);
  // The documented errors: an address that already has an account (the others are invited) …
  const fresh = `${unique('invitee')}@zulip.com`;
  const taken = await world.fails(op, { params: { invitee_emails: `${world.hamlet.email}, ${fresh}`, stream_ids: [] } }, 400, 'INVITATION_FAILED');
  expect(taken).toMatchObject({ errors: [[world.hamlet.email, 'Already has an account.', false]], sent_invitations: true });
  await world.mail.waitFor(fresh);
  // … no address at all, a channel that is not there, and a guest who may not invite.
  const none = await world.fails(op, { params: { invitee_emails: '', stream_ids: [] } }, 400);
  expect(none.msg).toBe('You must specify at least one email address.');
  const missingChannel = 999_999;
  const channel = await world.fails(op, { params: { invitee_emails: `${unique('nochannel')}@zulip.com`, stream_ids: [missingChannel] } }, 400);
  expect(channel.msg).toBe(`Invalid channel ID ${missingChannel}. No invites were sent.`);
  const guest = await world.fails(op, { params: { invitee_emails: `${unique('byguest')}@zulip.com`, stream_ids: [] }, as: world.polonius }, 400);
  expect(guest.msg).toBe('Not allowed for guest users');
  // A member, where only administrators may invite: "Insufficient permission".
  const setting = (group: number) =>
    world.system.api.patch('/realm', { can_invite_users_group: { new: group } }, { auth: world.desdemona, subdomain: world.realm.subdomain });
  const { realm_can_invite_users_group: before } = await world.initialState<{ realm_can_invite_users_group: number }>(['realm']);
  expect((await setting(await world.factory.systemGroupId(world.realm, 'role:administrators'))).status).toBe(200);
  try {
    const member = await world.fails(op, { params: { invitee_emails: `${unique('bymember')}@zulip.com`, stream_ids: [] }, as: world.hamlet }, 400);
    expect(member.msg).toBe('Insufficient permission');
  } finally {
    expect((await setting(before)).status).toBe(200);
  }
});

documentedExample('create-invite-link', async (world) => {
  const op = 'create-invite-link';
  // The documented link: a guest's, for ten days, to the first two channels.
  const stream_ids = [world.channel('Verona').id, world.channel('Denmark').id];
  const { invite_link } = await world.succeeds<{ invite_link: string }>(op, {
    params: {
      // Documented in shared schemas (InviteExpirationParameter, InviteRoleParameter): 10 days, a guest.
      invite_expires_in_minutes: 14400,
      invite_as: 600,
      stream_ids,
      group_ids: world.example<number[]>(op, 'group_ids'),
      include_realm_default_subscriptions: world.example<boolean>(op, 'include_realm_default_subscriptions'),
      welcome_message_custom_text: world.example<string>(op, 'welcome_message_custom_text'),
    },
  });
  const listed = (await invites(world)).find((one) => one.is_multiuse && one.link_url === invite_link);
  expect(listed).toMatchObject({ invited_as: 600 });
  // Someone joins through it: an address confirmed by mail, then a guest in the link's channels,
  // greeted by the Welcome Bot with the link's text.
  const joinPath = new URL(invite_link).pathname;
  const address = `${unique('joiner')}@zulip.com`;
  expect((await postForm(world, joinPath, await formToken(world, joinPath), { email: address })).status).toBe(200);
  const joiner = await signUp(world, await keyMailedTo(world, address), 'Joining Guest');
  const seen = await newcomerView(world, joiner, (messages) => fromWelcomeBot(messages).length >= 2);
  expect(seen.role).toBe(600);
  expect(seen.channels).toEqual(['Denmark', 'Verona']);
  const greetings = fromWelcomeBot(seen.messages).map((one) => one.content);
  expect(greetings[0]).toContain('Hello, and welcome to Zulip!');
  expect(greetings[1]).toContain(world.example<string>(op, 'welcome_message_custom_text'));
  // The documented errors: a member may not make links, nor name a channel that is not there.
  const member = await world.fails(op, { params: { stream_ids: [] }, as: world.hamlet }, 400);
  expect(member.msg).toBe('Insufficient permission');
  const channel = await world.fails(op, { params: { stream_ids: [999_999] } }, 400);
  expect(channel.msg).toBe('Invalid channel ID 999999. No invites were sent.');
});

documentedExample('get-invites', async (world) => {
  const { email, id } = await inviteByMail(world, 'listed');
  const link = await inviteLink(world);
  const all = await invites(world);
  expect(all.find((one) => one.id === id && !one.is_multiuse)).toMatchObject({ email, invited_as: 400 });
  expect(all.find((one) => one.id === link.id && one.is_multiuse)).toMatchObject({ link_url: link.link });
});

documentedExample('revoke-email-invite', async (world) => {
  const { email, id } = await inviteByMail(world, 'delete-invite');
  const key = await keyMailedTo(world, email);
  await world.succeeds('revoke-email-invite', { path: { invite_id: id } });
  expect((await invites(world)).find((one) => !one.is_multiuse && one.id === id)).toBeUndefined();
  // The mailed link leads nowhere any more.
  const form = await world.system.api.get(`/accounts/do_confirm/${key}`, {}, { subdomain: world.realm.subdomain, headers: { Accept: 'text/html' } });
  expect(form.status).toBe(404);
  // The documented error: an invitation that is not there (any more).
  const error = await world.fails('revoke-email-invite', { path: { invite_id: id } }, 400);
  expect(error.msg).toBe('No such invitation');
});

documentedExample('revoke-invite-link', async (world) => {
  const { link, id } = await inviteLink(world);
  await world.succeeds('revoke-invite-link', { path: { invite_id: id } });
  expect((await invites(world)).find((one) => one.is_multiuse && one.id === id)).toBeUndefined();
  // The link leads nowhere any more.
  const page = await world.system.api.get(new URL(link).pathname, {}, { subdomain: world.realm.subdomain, headers: { Accept: 'text/html' } });
  expect(page.status).toBe(404);
  // The documented errors: a link already revoked, and one that is not there.
  const again = await world.fails('revoke-invite-link', { path: { invite_id: id } }, 400);
  expect(again.msg).toBe('Invitation has already been revoked');
  const missing = await world.fails('revoke-invite-link', { path: { invite_id: 999_999 } }, 400);
  expect(missing.msg).toBe('No such invitation');
});

documentedExample('resend-email-invite', async (world) => {
  const { email, id } = await inviteByMail(world, 'resend');
  await world.mail.waitFor(email, 1);
  await world.succeeds('resend-email-invite', { path: { invite_id: id } });
  const [first, second] = await world.mail.waitFor(email, 2);
  expect(second.subject).toBe(first.subject);
  // The same link again.
  expect(await keyMailedTo(world, email, 2)).toBe(await keyMailedTo(world, email, 1));
  // The documented error: an invitation that is not there.
  const error = await world.fails('resend-email-invite', { path: { invite_id: 999_999 } }, 400);
  expect(error.msg).toBe('No such invitation');
});

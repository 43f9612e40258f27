import { Factory, TestSystem, expectSuccess, type TestUser } from '@teamchat/testing';
import { Role } from '@teamchat/zulip';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, LIVE_MS, eventually, logInPage } from './browser';


/** The web app's composing helpers, moving, presence and administration, in a real browser (Debian chromium). */
describe('the web app: autocomplete, moving topics, statuses and administration', () => {
  let system: TestSystem;
  let browser: Browser;
  let base: string;
  let alice: TestUser;
  let bob: TestUser;
  let factory: Factory;
  let realm: { id: number };
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [system, browser] = await Promise.all([TestSystem.start(), launchChromium()]);
    base = `http://127.0.0.1:${system.ports.gateway}`;
    factory = new Factory(system.db);
    realm = await factory.organization({ subdomain: '', name: 'Acme' });
    alice = await factory.user(realm, { role: Role.OWNER, fullName: 'Alice Owner', email: 'alice@acme.test' });
    bob = await factory.user(realm, { role: Role.MEMBER, fullName: 'Bob Member', email: 'bob@acme.test' });
    await factory.user(realm, { role: Role.MEMBER, fullName: 'Bobby Tables', email: 'bobby@acme.test' });
    const everyone = await factory.systemGroupId(realm, 'role:everyone');
    const backend = await factory.userGroup(realm, { name: 'backend', members: [alice, bob] });
    await system.db.userGroup.update({ where: { id: backend.id }, data: { canMentionGroupId: everyone } });
    await factory.userGroup(realm, { name: 'backstage', members: [bob] });
    await factory.channel(realm, { name: 'general', subscribers: [alice, bob] });
    await factory.channel(realm, { name: 'design', subscribers: [alice, bob] });
  }, 600_000);

  afterAll(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    await browser?.close();
    await system?.stop();
  });

  const loggedIn = (user: TestUser, hash = ''): Promise<Page> => logInPage(browser, contexts, base, user, { hash, height: 800 });

  let alicePage: Promise<Page> | undefined;
  const alices = () => (alicePage ??= loggedIn(alice));

  const messages = (page: Page) => page.getByRole('region', { name: 'Messages' }).getByRole('article');
  const channelLink = (page: Page, name: string) => page.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name, exact: true });

  it('completes @people, @groups, #channels, #channel>topic and :emoji: in the compose box with the keyboard', async () => {
    expectSuccess(await system.api.post('/messages', { type: 'stream', to: 'design', topic: 'mockups', content: 'Up' }, { subdomain: '', auth: bob }));
    const page = await alices();
    await channelLink(page, 'general').click();
    await page.getByRole('textbox', { name: 'Topic' }).fill('links');
    const box = page.getByRole('textbox', { name: 'Message' });
    const suggestions = page.getByRole('listbox', { name: 'Suggestions' });

    await box.pressSequentially('Hi @bob');
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    expect(await suggestions.getByRole('option').allTextContents()).toEqual(['Bob Member bob@acme.test', 'Bobby Tables bobby@acme.test']);
    expect(await suggestions.getByRole('option', { selected: true }).textContent()).toContain('Bob Member');
    await box.press('ArrowDown');
    expect(await suggestions.getByRole('option', { selected: true }).textContent()).toContain('Bobby Tables');
    // The textbox points at the chosen option, as the combobox pattern asks.
    expect(await box.getAttribute('aria-activedescendant')).toBe(await suggestions.getByRole('option', { selected: true }).getAttribute('id'));
    await box.press('ArrowUp');
    await box.press('Enter');
    expect(await box.inputValue()).toBe('Hi @**Bob Member** ');
    await suggestions.waitFor({ state: 'detached' });

    // Only a group Alice may mention is offered (backstage's can_mention_group is nobody).
    await box.pressSequentially('and @back');
    await suggestions.getByRole('option', { name: /backend/ }).waitFor();
    expect(await suggestions.getByRole('option').allTextContents()).toEqual(['backend']);
    await box.press('Tab');
    await box.pressSequentially('see #des');
    await suggestions.getByRole('option', { name: 'design' }).waitFor();
    await box.press('Enter');
    expect(await box.inputValue()).toBe('Hi @**Bob Member** and @*backend* see #**design** ');

    // Backspacing into the channel link and typing ">" offers its topics.
    await box.press('Backspace');
    await box.press('Backspace');
    await box.press('Backspace');
    await box.pressSequentially('>mo');
    await suggestions.getByRole('option', { name: 'mockups' }).waitFor();
    await box.press('Enter');
    expect(await box.inputValue()).toBe('Hi @**Bob Member** and @*backend* see #**design>mockups** ');

    await box.pressSequentially(':tada');
    await suggestions.getByRole('option', { name: /^:tada:/ }).waitFor({ timeout: LIVE_MS });
    await box.press('Enter');
    // Escape closes the list without choosing; Enter then sends.
    await box.pressSequentially('@bo');
    await suggestions.waitFor();
    await box.press('Escape');
    await suggestions.waitFor({ state: 'detached' });
    expect(await box.inputValue()).toBe('Hi @**Bob Member** and @*backend* see #**design>mockups** :tada: @bo');
    await box.press('Enter');
    const sent = messages(page).filter({ hasText: 'see' });
    await sent.waitFor({ timeout: LIVE_MS });
    const html = await sent.innerHTML();
    expect(html).toContain('user-mention');
    expect(html).toContain('user-group-mention');
    // The server renders :tada: as Zulip's emoji markup; the app shows the emoji, named for a screen reader.
    expect(await sent.getByRole('img', { name: 'tada' }).textContent()).toBe('🎉');
    // The topic link leads to the topic, in the app.
    await sent.getByRole('link', { name: '#design > mockups' }).click();
    await page.getByRole('heading', { name: '#design › mockups' }).waitFor();
  });

  let bobPage: Promise<Page> | undefined;
  const bobs = () => (bobPage ??= loggedIn(bob));

  it('moves a whole topic to another channel and one message to another topic, live on the other side', async () => {
    for (const content of ['Plan A', 'Plan B']) {
      expectSuccess(await system.api.post('/messages', { type: 'stream', to: 'general', topic: 'plans', content }, { subdomain: '', auth: bob }));
    }
    const [a, b] = await Promise.all([alices(), bobs()]);
    const general = await system.db.stream.findFirstOrThrow({ where: { name: 'general' } });
    await a.goto(`${base}/#narrow/channel/${general.id}-general/topic/plans`);
    await messages(a).filter({ hasText: 'Plan B' }).waitFor({ timeout: LIVE_MS });
    await channelLink(b, 'design').click();

    await a.getByRole('toolbar', { name: 'Topic actions' }).getByRole('button', { name: 'Move topic' }).click();
    const dialog = a.getByRole('dialog', { name: 'Move messages' });
    await dialog.getByRole('combobox', { name: 'New channel' }).selectOption({ label: 'design' });
    await dialog.getByRole('textbox', { name: 'New topic' }).fill('roadmap');
    expect(await dialog.getByRole('combobox', { name: 'Which messages' }).inputValue()).toBe('change_all');
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();
    // Alice follows the topic to its new place; Bob, reading design, sees it arrive.
    await a.getByRole('heading', { name: '#design › roadmap' }).waitFor({ timeout: LIVE_MS });
    await messages(a).filter({ hasText: 'Plan A' }).waitFor({ timeout: LIVE_MS });
    await messages(b).filter({ hasText: 'Plan B' }).waitFor({ timeout: LIVE_MS });
    const moved = await system.db.message.findMany({ where: { content: { in: ['Plan A', 'Plan B'] } }, select: { topic: true } });
    expect(moved.map((m) => m.topic)).toEqual(['roadmap', 'roadmap']);

    // Bob moves his one message to a topic of its own.
    const planA = messages(b).filter({ hasText: 'Plan A' });
    await planA.hover();
    await planA.getByRole('button', { name: 'Move message' }).click();
    const his = b.getByRole('dialog', { name: 'Move messages' });
    expect(await his.getByRole('combobox', { name: 'Which messages' }).inputValue()).toBe('change_one');
    await his.getByRole('textbox', { name: 'New topic' }).fill('plan a');
    await his.getByRole('button', { name: 'Move', exact: true }).click();
    await a.getByRole('navigation', { name: 'Topics' }).getByRole('link', { name: 'plan a' }).waitFor({ timeout: LIVE_MS });
    await messages(a).filter({ hasText: 'Plan A' }).waitFor({ state: 'detached', timeout: LIVE_MS });
  });

  it('offers no moving to a member the organization does not let move messages', async () => {
    const admins = await factory.systemGroupId(realm, 'role:administrators');
    await system.db.realm.update({ where: { id: realm.id }, data: { canMoveMessagesBetweenTopicsGroupId: admins, canMoveMessagesBetweenChannelsGroupId: admins } });
    const general = await system.db.stream.findFirstOrThrow({ where: { name: 'general' } });
    expectSuccess(await system.api.post('/messages', { type: 'stream', to: 'general', topic: 'fixed', content: 'Stays here' }, { subdomain: '', auth: alice }));
    const page = await loggedIn(bob);
    await page.goto(`${base}/#narrow/channel/${general.id}-general/topic/fixed`);
    const message = messages(page).filter({ hasText: 'Stays here' });
    await message.waitFor({ timeout: LIVE_MS });
    await page.getByRole('toolbar', { name: 'Topic actions' }).getByRole('button', { name: 'Mark as resolved' }).waitFor();
    expect(await page.getByRole('button', { name: 'Move topic' }).count()).toBe(0);
    expect(await message.getByRole('button', { name: 'Move message' }).count()).toBe(0);
    await system.db.realm.update({ where: { id: realm.id }, data: { canMoveMessagesBetweenTopicsGroupId: null, canMoveMessagesBetweenChannelsGroupId: null } });
  });

  it('shows who is active with a presence dot, and a status set in the app live on the other side', async () => {
    const [a, b] = await Promise.all([alices(), bobs()]);
    const person = (page: Page, name: string) => page.getByRole('navigation', { name: 'Direct messages' }).getByRole('listitem').filter({ hasText: name });
    // Alice's app reports her presence; Bobby Tables never opened it.
    await person(b, 'Alice Owner').getByRole('img', { name: 'Active' }).waitFor({ timeout: LIVE_MS });
    await person(b, 'Bobby Tables').getByRole('img', { name: 'Offline' }).waitFor();

    await a.getByRole('button', { name: 'Set status' }).click();
    const dialog = a.getByRole('dialog', { name: 'Set status' });
    await dialog.getByRole('combobox', { name: 'Status emoji' }).selectOption('rocket');
    await dialog.getByRole('textbox', { name: 'Status text' }).fill('Shipping');
    await dialog.getByRole('button', { name: 'Save status' }).click();
    await dialog.waitFor({ state: 'detached' });
    await person(b, 'Alice Owner').getByText('🚀 Shipping').waitFor({ timeout: LIVE_MS });
    const stored = await system.api.get(`/users/${alice.id}/status`, {}, { subdomain: '', auth: bob });
    expect(stored.body).toMatchObject({ status: { status_text: 'Shipping', emoji_name: 'rocket', emoji_code: '1f680' } });

    await a.getByRole('button', { name: 'Set status' }).click();
    await a.getByRole('dialog', { name: 'Set status' }).getByRole('button', { name: 'Clear status' }).click();
    await person(b, 'Alice Owner').getByText('Shipping').waitFor({ state: 'detached', timeout: LIVE_MS });
  });

  it('groups the channels by channel folder, live as a channel joins one, and pins a view to the sidebar', async () => {
    const b = await bobs();
    const created = await system.api.post('/channel_folders/create', { name: 'Design team', description: 'Pixels' }, { subdomain: '', auth: alice });
    expectSuccess(created);
    const design = await system.db.stream.findFirstOrThrow({ where: { name: 'design' } });
    expectSuccess(await system.api.patch(`/streams/${design.id}`, { folder_id: JSON.stringify((created.body as { channel_folder_id: number }).channel_folder_id) }, { subdomain: '', auth: alice }));
    const channels = b.getByRole('navigation', { name: 'Channels' });
    await channels.getByRole('group', { name: 'Design team' }).getByRole('link', { name: 'design' }).waitFor({ timeout: LIVE_MS });
    expect(await channels.getByRole('group', { name: 'Other channels' }).getByRole('link').allTextContents()).toEqual(['general']);

    const general = await system.db.stream.findFirstOrThrow({ where: { name: 'general' } });
    await b.goto(`${base}/#narrow/channel/${general.id}-general`);
    const views = b.getByRole('navigation', { name: 'Views' });
    await views.getByRole('button', { name: 'Pin this view' }).click();
    await views.getByRole('textbox', { name: 'View name' }).fill('Everyone');
    await views.getByRole('button', { name: 'Pin', exact: true }).click();
    await views.getByRole('link', { name: 'Everyone' }).waitFor({ timeout: LIVE_MS });
    const stored = await system.api.get('/navigation_views', {}, { subdomain: '', auth: bob });
    expect(stored.body).toMatchObject({ navigation_views: [{ fragment: `narrow/channel/${general.id}-general`, is_pinned: true, name: 'Everyone' }] });
    // It stays after a reload, leads to its narrow, and goes when unpinned.
    await b.goto(`${base}/#inbox`);
    await b.reload();
    await views.getByRole('link', { name: 'Everyone' }).click();
    await b.getByRole('heading', { name: '#general', exact: true }).waitFor();
    await views.getByRole('button', { name: 'Unpin Everyone' }).click();
    await views.getByRole('link', { name: 'Everyone' }).waitFor({ state: 'detached', timeout: LIVE_MS });
  });

  it('changes notification settings, asks to confirm a new email, and sets a channel\'s color, pin, mute and notifications', async () => {
    const page = await loggedIn(bob);
    await page.getByRole('link', { name: 'Settings' }).click();
    const notifications = page.getByRole('form', { name: 'Notifications' });
    const emails = notifications.getByRole('checkbox', { name: 'Emails for channel messages' });
    const wasOn = await emails.isChecked();
    await emails.click();
    await notifications.getByRole('status').filter({ hasText: 'Saved.' }).waitFor({ timeout: LIVE_MS });
    await page.reload();
    await page.getByRole('form', { name: 'Notifications' }).getByRole('checkbox', { name: 'Emails for channel messages', checked: !wasOn }).waitFor({ timeout: LIVE_MS });

    const email = page.getByRole('form', { name: 'Email' });
    expect(await email.getByRole('textbox', { name: 'Email address' }).inputValue()).toBe('bob@acme.test');
    await email.getByRole('textbox', { name: 'Email address' }).fill('robert@acme.test');
    await email.getByRole('button', { name: 'Change email' }).click();
    await email.getByRole('status').filter({ hasText: 'Check your email (robert@acme.test)' }).waitFor({ timeout: LIVE_MS });

    const channelSettings = page.getByRole('region', { name: 'Channel settings' });
    await channelSettings.getByRole('checkbox', { name: 'Pin to top for #general' }).click();
    const channels = page.getByRole('navigation', { name: 'Channels' });
    await channels.getByRole('group', { name: 'Pinned channels' }).getByRole('link', { name: 'general' }).waitFor({ timeout: LIVE_MS });
    await channelSettings.getByRole('checkbox', { name: 'Mute for #general' }).click();
    await channelSettings.getByRole('checkbox', { name: 'Mute for #general', checked: true }).waitFor({ timeout: LIVE_MS });
    await channelSettings.getByRole('checkbox', { name: 'Desktop notifications for #general' }).click();
    await channelSettings.getByLabel('Color of #general').fill('#aa3377');
    await eventually('the server has the channel\'s settings', async () => {
      const answer = await system.api.get('/users/me/subscriptions', {}, { subdomain: '', auth: bob });
      const general = (answer.body as { subscriptions: { name: string; pin_to_top: boolean; is_muted: boolean; color: string; desktop_notifications: boolean | null }[] }).subscriptions.find((sub) => sub.name === 'general');
      return general?.pin_to_top === true && general.is_muted && general.color === '#aa3377' && general.desktop_notifications !== null;
    });
  });

  it('lets an administrator manage user groups, channels, folders and the defaults for new users, and keeps a member out', async () => {
    const member = await loggedIn(bob);
    for (const section of ['groups', 'channels', 'defaults']) {
      await member.goto(`${base}/#organization/${section}`);
      await member.getByRole('alert').filter({ hasText: 'Only organization administrators can manage users.' }).waitFor({ timeout: LIVE_MS });
      expect(await member.getByRole('form').count()).toBe(0); // no administration form (the search is a search landmark)
    }

    const page = await alices();
    await page.goto(`${base}/#organization/users`);
    const tabs = page.getByRole('navigation', { name: 'Organization' });
    await tabs.getByRole('link', { name: 'User groups' }).click();
    const create = page.getByRole('form', { name: 'Create user group' });
    await create.getByRole('textbox', { name: 'Group name' }).fill('frontend');
    await create.getByRole('textbox', { name: 'Description' }).fill('UI folks');
    await create.getByRole('button', { name: 'Create group' }).click();
    const group = page.getByRole('region', { name: 'Group frontend' });
    await group.waitFor({ timeout: LIVE_MS });
    await group.getByRole('combobox', { name: 'Person to add to frontend' }).selectOption({ label: 'Bob Member' });
    await group.getByRole('button', { name: 'Add member' }).click();
    await group.getByRole('list', { name: 'Members of frontend' }).getByText('Bob Member').waitFor({ timeout: LIVE_MS });
    await group.getByRole('combobox', { name: 'Who can mention this group (frontend)' }).selectOption({ label: 'Members' });
    const members = await factory.systemGroupId(realm, 'role:members');
    await eventually('the group may be mentioned by members', async () => (await system.db.userGroup.findFirstOrThrow({ where: { name: 'frontend' } })).canMentionGroupId === members);
    await group.getByRole('button', { name: 'Remove Bob Member from frontend' }).click();
    await group.getByRole('list', { name: 'Members of frontend' }).getByText('Bob Member').waitFor({ state: 'detached', timeout: LIVE_MS });

    await tabs.getByRole('link', { name: 'Channels' }).click();
    const folders = page.getByRole('form', { name: 'Create folder' });
    await folders.getByRole('textbox', { name: 'Folder name' }).fill('Infra');
    await folders.getByRole('button', { name: 'Create folder' }).click();
    await folders.getByRole('list', { name: 'Channel folders' }).getByText('Infra').waitFor({ timeout: LIVE_MS });
    const newChannel = page.getByRole('form', { name: 'Create channel' });
    await newChannel.getByRole('textbox', { name: 'Channel name' }).fill('ops');
    await newChannel.getByRole('checkbox', { name: 'Private' }).check();
    await newChannel.getByRole('combobox', { name: 'Folder' }).selectOption({ label: 'Infra' });
    await newChannel.getByRole('button', { name: 'Create channel' }).click();
    const table = page.getByRole('table', { name: 'Channels' });
    const privacy = table.getByRole('combobox', { name: 'Privacy of #ops' });
    await privacy.waitFor({ timeout: LIVE_MS });
    expect(await privacy.inputValue()).toBe('private');
    const ops = await system.db.stream.findFirstOrThrow({ where: { name: 'ops' }, include: { folder: true } });
    expect([ops.inviteOnly, ops.folder?.name]).toEqual([true, 'Infra']);
    // The new channel shows in the sidebar, in its folder.
    await page.getByRole('navigation', { name: 'Channels' }).getByRole('group', { name: 'Infra' }).getByRole('link', { name: 'ops' }).waitFor({ timeout: LIVE_MS });
    await privacy.selectOption('public');
    await table.getByRole('combobox', { name: 'Who can post to #ops' }).selectOption({ label: 'Administrators' });
    const admins = await factory.systemGroupId(realm, 'role:administrators');
    await eventually('ops is public and only administrators post', async () => {
      const now = await system.db.stream.findUniqueOrThrow({ where: { id: ops.id } });
      return !now.inviteOnly && now.canSendMessageGroupId === admins;
    });
    await eventually('the table shows it', async () => (await privacy.inputValue()) === 'public');

    await tabs.getByRole('link', { name: 'Defaults for new users' }).click();
    const defaults = page.getByRole('form', { name: 'Default settings for new users' });
    const digest = defaults.getByRole('checkbox', { name: 'Digest emails while away' });
    const wasOn = await digest.isChecked();
    await digest.click();
    await defaults.getByRole('status').filter({ hasText: 'Saved.' }).waitFor({ timeout: LIVE_MS });
    await page.reload();
    await page.getByRole('form', { name: 'Default settings for new users' }).getByRole('checkbox', { name: 'Digest emails while away', checked: !wasOn }).waitFor({ timeout: LIVE_MS });
  });

  it('finds any emoji by name in the reaction picker', async () => {
    expectSuccess(await system.api.post('/messages', { type: 'stream', to: 'general', topic: 'reactions', content: 'React with a sea creature' }, { subdomain: '', auth: bob }));
    const page = await alices();
    const general = await system.db.stream.findFirstOrThrow({ where: { name: 'general' } });
    await page.goto(`${base}/#narrow/channel/${general.id}-general/topic/reactions`);
    const message = messages(page).filter({ hasText: 'React with a sea creature' });
    await message.hover();
    await message.getByRole('button', { name: 'Add reaction' }).click();
    const picker = message.getByRole('dialog', { name: 'Emoji picker' });
    await picker.getByRole('searchbox', { name: 'Search emoji' }).fill('octo');
    await picker.getByRole('group', { name: 'Matching emoji' }).getByRole('button', { name: 'octopus' }).click();
    await message.getByRole('button', { name: 'octopus: 1', pressed: true }).waitFor({ timeout: LIVE_MS });
    const reactions = await system.db.reaction.findMany({ where: { userId: alice.id }, select: { emojiName: true, emojiCode: true } });
    expect(reactions).toContainEqual({ emojiName: 'octopus', emojiCode: '1f419' });
  });

  it("shows a guest only the people the organization lets them see, and a person hidden from them since as \"Unknown user\"", async () => {
    // Last: the organization restricts its guests from here on.
    const membersOnly = await factory.systemGroupId(realm, 'role:members');
    expectSuccess(await system.api.patch('/realm', { can_access_all_users_group: JSON.stringify({ new: membersOnly }) }, { subdomain: '', auth: alice }));
    const guest = await factory.user(realm, { role: Role.GUEST, fullName: 'Gus Guest', email: 'gus@acme.test' });
    const lena = await factory.user(realm, { fullName: 'Lena Lounge', email: 'lena@acme.test' });
    await factory.user(realm, { fullName: 'Sam Secret', email: 'sam@acme.test' });
    await factory.channel(realm, { name: 'lounge', subscribers: [alice, lena, guest] });
    expectSuccess(await system.api.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'general' }]), principals: JSON.stringify([guest.id]) }, { subdomain: '', auth: alice }));
    expectSuccess(await system.api.post('/messages', { type: 'stream', to: 'lounge', topic: 'hello', content: 'Welcome to the lounge' }, { subdomain: '', auth: lena }));

    const page = await loggedIn(guest);
    const people = page.getByRole('navigation', { name: 'Direct messages' });
    await people.getByRole('link', { name: 'Lena Lounge' }).waitFor({ timeout: LIVE_MS });
    // Bobby and Sam share nothing with the guest: not in the list at all (the app asks with user_list_incomplete).
    expect(await people.getByRole('link').allTextContents()).toEqual(['Alice Owner', 'Bob Member', 'Lena Lounge']);
    const welcome = messages(page).filter({ hasText: 'Welcome to the lounge' });
    await welcome.getByRole('button', { name: 'Lena Lounge' }).waitFor();

    // Taken out of the lounge, the guest no longer sees Lena: she leaves the list, and her message is "Unknown user"'s.
    expectSuccess(await system.api.delete('/users/me/subscriptions', { subscriptions: JSON.stringify(['lounge']), principals: JSON.stringify([guest.id]) }, { subdomain: '', auth: alice }));
    await people.getByRole('link', { name: 'Lena Lounge' }).waitFor({ state: 'detached', timeout: LIVE_MS });
    expect(await people.getByRole('link').allTextContents()).toEqual(['Alice Owner', 'Bob Member']);
    await welcome.getByRole('button', { name: 'Unknown user' }).waitFor({ timeout: LIVE_MS });
  });
});

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Factory, TestSystem, expectSuccess, workspaceRoot, type TestUser } from '@teamchat/testing';
import { Role } from '@teamchat/zulip';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { launchChromium, LIVE_MS, eventually, logInPage } from './browser';

/** Where the test leaves its screenshots (dist/ is not committed). */
const SCREENSHOTS = path.join(workspaceRoot(), 'dist/screenshots');

/**
 * The web app's pages for the organization and member features (issues 27 and 28), driven end to
 * end through the real server in Debian's chromium: muting a user, alert words, saved snippets,
 * read receipts, reporting, custom emoji, avatars, linkifiers and code playgrounds, custom
 * profile fields and the API key.
 */
describe('the web app: muted users, alert words, snippets, receipts, reports, emoji, avatars, linkifiers, profile fields, API key', () => {
  let system: TestSystem;
  let browser: Browser;
  let base: string;
  let alice: TestUser;
  let bob: TestUser;
  let factory: Factory;
  let realm: { id: number };
  let general: { id: number };
  const contexts: BrowserContext[] = [];
  let png: Buffer;

  beforeAll(async () => {
    [system, browser] = await Promise.all([TestSystem.start(), launchChromium()]);
    base = `http://127.0.0.1:${system.ports.gateway}`;
    factory = new Factory(system.db);
    realm = await factory.organization({ subdomain: '', name: 'Acme' });
    alice = await factory.user(realm, { role: Role.OWNER, fullName: 'Alice Owner', email: 'alice@acme.test' });
    bob = await factory.user(realm, { role: Role.MEMBER, fullName: 'Bob Member', email: 'bob@acme.test' });
    general = await factory.channel(realm, { name: 'general', subscribers: [alice, bob] });
    png = await sharp({ create: { width: 64, height: 64, channels: 4, background: '#e0457b' } }).png().toBuffer();
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 600_000);

  afterAll(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    await browser?.close();
    await system?.stop();
  });

  const loggedIn = (user: TestUser, hash = ''): Promise<Page> => logInPage(browser, contexts, base, user, { hash });

  let alicePage: Promise<Page> | undefined;
  const alices = () => (alicePage ??= loggedIn(alice));
  let bobPage: Promise<Page> | undefined;
  const bobs = () => (bobPage ??= loggedIn(bob));

  const messages = (page: Page) => page.getByRole('region', { name: 'Messages' }).getByRole('article');
  const send = async (user: TestUser, topic: string, content: string) => {
    const sent = await system.api.post('/messages', { type: 'stream', to: 'general', topic, content }, { subdomain: '', auth: user });
    expectSuccess(sent);
    return (sent.body as { id: number }).id;
  };
  const openTopic = (page: Page, topic: string) => page.goto(`${base}/#narrow/channel/${general.id}-general/topic/${encodeURIComponent(topic)}`);
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOTS, name), fullPage: true });

  it('mutes a user from their card: their messages collapse (with "Show"), and unmutes them from the "Muted users" settings', async () => {
    await send(bob, 'muting', 'Secret plans from Bob');
    const page = await alices();
    await openTopic(page, 'muting');
    const message = messages(page).filter({ hasText: 'Secret plans from Bob' });
    await message.waitFor({ timeout: LIVE_MS });
    await message.getByRole('button', { name: 'Bob Member' }).click();
    const card = message.getByRole('dialog', { name: 'Bob Member' });
    await card.getByText('bob@acme.test').waitFor();
    await card.getByRole('button', { name: 'Mute this user' }).click();

    const hidden = messages(page).filter({ hasText: 'This message was hidden because you have muted the sender.' });
    await hidden.waitFor({ timeout: LIVE_MS });
    expect(await hidden.getAttribute('aria-labelledby')).toBeTruthy();
    await page.getByRole('article', { name: 'Muted user' }).waitFor();
    expect(await hidden.textContent()).not.toContain('Secret plans');
    await eventually('the server has the mute', async () => (await system.db.mutedUser.count({ where: { userId: alice.id, mutedUserId: bob.id } })) === 1);
    await hidden.getByRole('button', { name: 'Show' }).click();
    await messages(page).filter({ hasText: 'Secret plans from Bob' }).waitFor();

    await page.goto(`${base}/#settings/muted-users`);
    const table = page.getByRole('table', { name: 'Muted users' });
    await table.getByRole('row', { name: /Bob Member/ }).waitFor({ timeout: LIVE_MS });
    await shot(page, 'settings-muted-users.png');
    await table.getByRole('button', { name: 'Unmute Bob Member' }).click();
    await page.getByText('You have not muted any users yet.').waitFor({ timeout: LIVE_MS });
    expect(await system.db.mutedUser.count({ where: { userId: alice.id } })).toBe(0);
    // Back in the topic, the message shows as any other.
    await openTopic(page, 'muting');
    await messages(page).filter({ hasText: 'Secret plans from Bob' }).getByRole('button', { name: 'Bob Member' }).waitFor({ timeout: LIVE_MS });
  });

  it('lists, adds and deletes alert words', async () => {
    const page = await bobs();
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('navigation', { name: 'Personal settings' }).getByRole('link', { name: 'Alert words' }).click();
    const form = page.getByRole('form', { name: 'Alert words' });
    await form.getByText('You have no alert words.').waitFor();
    for (const word of ['deploy', 'Outage']) {
      await form.getByRole('textbox', { name: 'New alert word' }).fill(word);
      await form.getByRole('button', { name: 'Add alert word' }).click();
      await form.getByRole('list', { name: 'Your alert words' }).getByText(word, { exact: true }).waitFor({ timeout: LIVE_MS });
    }
    expect(await form.getByRole('textbox', { name: 'New alert word' }).inputValue()).toBe('');
    await shot(page, 'settings-alert-words.png');
    const stored = await system.api.get('/users/me/alert_words', {}, { subdomain: '', auth: bob });
    expect((stored.body as { alert_words: string[] }).alert_words.sort()).toEqual(['Outage', 'deploy']);

    await form.getByRole('button', { name: 'Delete alert word deploy' }).click();
    await form.getByRole('list', { name: 'Your alert words' }).getByText('deploy', { exact: true }).waitFor({ state: 'detached', timeout: LIVE_MS });
    const left = await system.api.get('/users/me/alert_words', {}, { subdomain: '', auth: bob });
    expect((left.body as { alert_words: string[] }).alert_words).toEqual(['Outage']);
  });

  it('creates, edits and deletes saved snippets in settings, and inserts one in the compose box', async () => {
    const page = await bobs();
    await page.goto(`${base}/#settings/saved-snippets`);
    const create = page.getByRole('form', { name: 'Add a new saved snippet' });
    await create.getByRole('textbox', { name: 'Title' }).fill('Greeting');
    await create.getByRole('textbox', { name: 'Content' }).fill('Hello there!');
    await create.getByRole('button', { name: 'Save snippet' }).click();
    const list = page.getByRole('list', { name: 'Your saved snippets' });
    await list.getByText('Hello there!').waitFor({ timeout: LIVE_MS });

    await list.getByRole('button', { name: 'Edit Greeting' }).click();
    const edit = list.getByRole('form', { name: 'Edit saved snippet Greeting' });
    await edit.getByRole('textbox', { name: 'Content' }).fill('Hello again, team!');
    await edit.getByRole('button', { name: 'Save' }).click();
    // The form closes once the change is stored (the textarea itself already shows the new text).
    await edit.waitFor({ state: 'detached', timeout: LIVE_MS });
    await list.getByText('Hello again, team!').waitFor({ timeout: LIVE_MS });
    await shot(page, 'settings-saved-snippets.png');
    const stored = await system.db.savedSnippet.findMany({ where: { userId: bob.id }, select: { title: true, content: true } });
    expect(stored).toEqual([{ title: 'Greeting', content: 'Hello again, team!' }]);

    // The compose box offers it, and inserts its text where the cursor is.
    await openTopic(page, 'snippets');
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Hi. ');
    await page.getByRole('button', { name: 'Insert saved snippet' }).click();
    await page.getByRole('menu', { name: 'Saved snippets' }).getByRole('menuitem', { name: 'Greeting' }).click();
    await eventually('the snippet is in the compose box', async () => (await box.inputValue()) === 'Hi. Hello again, team!');
    await box.fill('');

    await page.goto(`${base}/#settings/saved-snippets`);
    await list.getByRole('button', { name: 'Delete Greeting' }).click();
    await page.getByText('You have no saved snippets.').waitFor({ timeout: LIVE_MS });
    expect(await system.db.savedSnippet.count({ where: { userId: bob.id } })).toBe(0);
  });

  it('shows who read a message, and Zulip\'s text when the organization turned read receipts off', async () => {
    const id = await send(alice, 'receipts', 'Did everyone see this?');
    await system.db.realm.update({ where: { id: realm.id }, data: { enableReadReceipts: true } });
    const page = await loggedIn(alice);
    await openTopic(page, 'receipts');
    const message = messages(page).filter({ hasText: 'Did everyone see this?' });
    const receipts = async () => {
      await message.hover();
      await message.getByRole('button', { name: 'More actions' }).click();
      await message.getByRole('menu', { name: 'More actions' }).getByRole('menuitem', { name: 'View read receipts' }).click();
      return message.getByRole('dialog', { name: 'Read receipts' });
    };
    let dialog = await receipts();
    await dialog.getByText('No one has read this message yet.').waitFor({ timeout: LIVE_MS });
    await dialog.getByRole('button', { name: 'Close' }).click();

    expectSuccess(await system.api.post('/messages/flags', { messages: JSON.stringify([id]), op: 'add', flag: 'read' }, { subdomain: '', auth: bob }));
    dialog = await receipts();
    await dialog.getByText('This message has been read by 1 person:').waitFor({ timeout: LIVE_MS });
    expect(await dialog.getByRole('list', { name: 'Read by' }).getByRole('listitem').allTextContents()).toEqual(['Bob Member']);
    await shot(page, 'read-receipts.png');
    await dialog.getByRole('button', { name: 'Close' }).click();

    await system.db.realm.update({ where: { id: realm.id }, data: { enableReadReceipts: false } });
    await page.reload();
    await message.waitFor({ timeout: LIVE_MS });
    dialog = await receipts();
    await dialog.getByRole('alert').filter({ hasText: 'Read receipts are disabled for this organization.' }).waitFor({ timeout: LIVE_MS });
    expect(await dialog.getByRole('list').count()).toBe(0);
    await system.db.realm.update({ where: { id: realm.id }, data: { enableReadReceipts: true } });
  });

  it('reports a message with a type and details, which the notification bot posts to the moderators; the server\'s refusal is shown', async () => {
    await send(alice, 'reports', 'A rude remark');
    const page = await bobs();
    await openTopic(page, 'reports');
    const message = messages(page).filter({ hasText: 'A rude remark' });
    await message.waitFor({ timeout: LIVE_MS });
    const report = async () => {
      await message.hover();
      await message.getByRole('button', { name: 'More actions' }).click();
      await message.getByRole('menuitem', { name: 'Report message' }).click();
      return message.getByRole('dialog', { name: 'Report a message' });
    };
    // Without a moderation request channel, the server refuses, and the dialog says so.
    let dialog = await report();
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Message reporting is not enabled in this organization.' }).waitFor({ timeout: LIVE_MS });
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    const moderation = await factory.channel(realm, { name: 'moderation', subscribers: [alice] });
    await system.db.realm.update({ where: { id: realm.id }, data: { moderationRequestChannelId: moderation.id } });
    dialog = await report();
    await dialog.getByRole('combobox', { name: "What's the problem with this message?" }).selectOption({ label: 'Harassment' });
    await dialog.getByRole('textbox', { name: 'Can you provide more details?' }).fill('Not kind to the team');
    await shot(page, 'report-message.png');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await message.getByRole('status').filter({ hasText: 'Your report has been sent to the moderators.' }).waitFor({ timeout: LIVE_MS });
    await eventually('the report is in the moderation channel', async () => {
      const posted = await system.db.message.findMany({ where: { streamId: moderation.id }, select: { content: true } });
      return posted.some((row) => row.content.includes('Not kind to the team') && row.content.includes('Harassment'));
    });
  });

  it('uploads a custom emoji, reacts and writes with it, lets a member see but not delete it, and deletes it as an administrator', async () => {
    const page = await alices();
    await page.goto(`${base}/#organization/emoji`);
    const add = page.getByRole('form', { name: 'Add a new emoji' });
    await add.getByRole('textbox', { name: 'Emoji name' }).fill('teamparrot');
    await add.getByLabel('Emoji image').setInputFiles({ name: 'parrot.png', mimeType: 'image/png', buffer: png });
    await add.getByRole('button', { name: 'Add emoji' }).click();
    const table = page.getByRole('table', { name: 'Custom emoji' });
    const row = table.getByRole('row', { name: /teamparrot/ });
    await row.waitFor({ timeout: LIVE_MS });
    await row.getByRole('img', { name: ':teamparrot:' }).waitFor();
    expect(await row.getByRole('cell', { name: 'Alice Owner' }).count()).toBe(1);
    await shot(page, 'organization-custom-emoji.png');
    const emoji = await system.db.realmEmoji.findFirstOrThrow({ where: { realmId: realm.id, name: 'teamparrot' } });

    // The picker offers it; the reaction shows its image.
    await send(bob, 'emoji', 'React with the parrot');
    await openTopic(page, 'emoji');
    const message = messages(page).filter({ hasText: 'React with the parrot' });
    await message.hover();
    await message.getByRole('button', { name: 'Add reaction' }).click();
    await message.getByRole('dialog', { name: 'Emoji picker' }).getByRole('group', { name: 'Custom emoji' }).getByRole('button', { name: 'teamparrot' }).click();
    const reaction = message.getByRole('button', { name: 'teamparrot: 1', pressed: true });
    await reaction.waitFor({ timeout: LIVE_MS });
    expect(await reaction.locator('img').getAttribute('src')).toMatch(/^\/user_avatars\//);
    const reacted = await system.db.reaction.findMany({ where: { userId: alice.id, emojiName: 'teamparrot' }, select: { emojiCode: true, reactionType: true } });
    expect(reacted).toEqual([{ emojiCode: String(emoji.id), reactionType: 'realm_emoji' }]);
    // Searching finds it too; a message using it shows its image.
    await message.hover();
    await message.getByRole('button', { name: 'Add reaction' }).click();
    await message.getByRole('searchbox', { name: 'Search emoji' }).fill('teampar');
    await message.getByRole('group', { name: 'Matching emoji' }).getByRole('button', { name: 'teamparrot' }).waitFor();
    await message.getByRole('searchbox', { name: 'Search emoji' }).press('Escape');
    await send(bob, 'emoji', 'Look :teamparrot:');
    const used = messages(page).filter({ hasText: 'Look' });
    await used.getByRole('img', { name: ':teamparrot:' }).waitFor({ timeout: LIVE_MS });

    // Bob, a member, sees the list (his header links to it) but may not delete Alice's emoji.
    const member = await bobs();
    await member.getByRole('link', { name: 'Custom emoji' }).click();
    await member.getByRole('table', { name: 'Custom emoji' }).getByRole('row', { name: /teamparrot/ }).waitFor({ timeout: LIVE_MS });
    expect(await member.getByRole('button', { name: 'Delete teamparrot' }).count()).toBe(0);

    await page.goto(`${base}/#organization/emoji`);
    await row.getByRole('button', { name: 'Delete teamparrot' }).click();
    await page.getByText('There are no custom emoji.').waitFor({ timeout: LIVE_MS });
    await member.getByRole('table', { name: 'Custom emoji' }).waitFor({ state: 'detached', timeout: LIVE_MS });
    expect((await system.db.realmEmoji.findUniqueOrThrow({ where: { id: emoji.id } })).deactivated).toBe(true);
  });

  it('uploads and deletes the avatar in personal settings', async () => {
    const page = await bobs();
    await page.goto(`${base}/#settings`);
    const form = page.getByRole('form', { name: 'Avatar' });
    const before = await form.getByRole('img', { name: 'Your avatar' }).getAttribute('src');
    await form.getByLabel('Upload new avatar').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    await form.getByRole('status').filter({ hasText: 'Saved.' }).waitFor({ timeout: LIVE_MS });
    await eventually('the avatar shows the upload', async () => ((await form.getByRole('img', { name: 'Your avatar' }).getAttribute('src')) ?? '').startsWith('/user_avatars/'));
    expect(await form.getByRole('img', { name: 'Your avatar' }).getAttribute('src')).not.toBe(before);
    expect((await system.db.user.findUniqueOrThrow({ where: { id: bob.id } })).avatarSource).toBe('U');
    // The image itself is served.
    const src = await form.getByRole('img', { name: 'Your avatar' }).getAttribute('src');
    expect(await page.evaluate(async (url) => (await fetch(url!)).status, src)).toBe(200);

    await form.getByRole('button', { name: 'Delete avatar' }).click();
    await eventually('the avatar is the default again', async () => !((await form.getByRole('img', { name: 'Your avatar' }).getAttribute('src')) ?? '').startsWith('/user_avatars/'));
    expect((await system.db.user.findUniqueOrThrow({ where: { id: bob.id } })).avatarSource).toBe('G');
  });

  it('adds, edits, reorders and deletes linkifiers, and adds and deletes code playgrounds', async () => {
    const page = await alices();
    await page.goto(`${base}/#organization/users`);
    const tabs = page.getByRole('navigation', { name: 'Organization' });
    await tabs.getByRole('link', { name: 'Linkifiers' }).click();
    const add = page.getByRole('form', { name: 'Add a new linkifier' });
    const linkifiers = page.getByRole('table', { name: 'Linkifiers' });
    for (const [pattern, template] of [
      ['#(?P<id>[0-9]+)', 'https://github.com/acme/app/issues/{id}'],
      ['T(?P<id>[0-9]+)', 'https://tickets.acme.test/{id}'],
    ]) {
      await add.getByRole('textbox', { name: 'Pattern' }).fill(pattern);
      await add.getByRole('textbox', { name: 'URL template' }).fill(template);
      await add.getByRole('button', { name: 'Add linkifier' }).click();
      await linkifiers.getByText(template).waitFor({ timeout: LIVE_MS });
    }
    const order = async () => ((await system.api.get('/realm/linkifiers', {}, { subdomain: '', auth: alice })).body as { linkifiers: { pattern: string; url_template: string }[] }).linkifiers;
    expect((await order()).map((l) => l.pattern)).toEqual(['#(?P<id>[0-9]+)', 'T(?P<id>[0-9]+)']);

    await linkifiers.getByRole('button', { name: 'Move T(?P<id>[0-9]+) up' }).click();
    await eventually('the ticket linkifier applies first', async () => (await order())[0]?.pattern === 'T(?P<id>[0-9]+)');
    await eventually('the table shows the new order', async () => ((await linkifiers.getByRole('row').nth(1).textContent()) ?? '').includes('tickets.acme.test'));

    await linkifiers.getByRole('button', { name: 'Edit linkifier T(?P<id>[0-9]+)' }).click();
    await linkifiers.getByRole('textbox', { name: 'URL template of linkifier T(?P<id>[0-9]+)' }).fill('https://support.acme.test/ticket/{id}');
    await linkifiers.getByRole('button', { name: 'Save changes' }).click();
    await linkifiers.getByText('https://support.acme.test/ticket/{id}').waitFor({ timeout: LIVE_MS });
    // A bad pattern is refused with the server's words, and nothing changes.
    await add.getByRole('textbox', { name: 'Pattern' }).fill('(unclosed');
    await add.getByRole('textbox', { name: 'URL template' }).fill('https://x.acme.test/');
    await add.getByRole('button', { name: 'Add linkifier' }).click();
    await page.getByRole('alert').first().waitFor({ timeout: LIVE_MS });
    expect(await order()).toHaveLength(2);
    // A message's text is linked as the linkifier says.
    await send(alice, 'linkified', 'See T42 please');
    const sent = await system.db.message.findFirstOrThrow({ where: { content: 'See T42 please' }, select: { renderedContent: true } });
    expect(sent.renderedContent).toContain('https://support.acme.test/ticket/42');
    await shot(page, 'organization-linkifiers.png');
    await linkifiers.getByRole('button', { name: 'Delete linkifier #(?P<id>[0-9]+)' }).click();
    await linkifiers.getByText('https://github.com/acme/app/issues/{id}').waitFor({ state: 'detached', timeout: LIVE_MS });
    expect((await order()).map((l) => l.pattern)).toEqual(['T(?P<id>[0-9]+)']);

    await tabs.getByRole('link', { name: 'Code playgrounds' }).click();
    const playground = page.getByRole('form', { name: 'Add a new code playground' });
    // A language with characters no Pygments name has: the server's refusal is shown, and nothing is added.
    await playground.getByRole('textbox', { name: 'Language' }).fill('py$thon');
    await playground.getByRole('textbox', { name: 'Name' }).fill('Python playground');
    await playground.getByRole('textbox', { name: 'URL template' }).fill('https://play.acme.test/?code={code}');
    await playground.getByRole('button', { name: 'Add code playground' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid characters in pygments language' }).waitFor({ timeout: LIVE_MS });
    expect(await system.db.realmPlayground.count({ where: { realmId: realm.id } })).toBe(0);
    await playground.getByRole('textbox', { name: 'Language' }).fill('python');
    await playground.getByRole('button', { name: 'Add code playground' }).click();
    const playgrounds = page.getByRole('table', { name: 'Code playgrounds' });
    await playgrounds.getByRole('row', { name: /Python playground/ }).waitFor({ timeout: LIVE_MS });
    expect(await system.db.realmPlayground.count({ where: { realmId: realm.id, name: 'Python playground' } })).toBe(1);
    await shot(page, 'organization-playgrounds.png');
    await playgrounds.getByRole('button', { name: 'Delete playground Python playground' }).click();
    await playgrounds.getByRole('row', { name: /Python playground/ }).waitFor({ state: 'detached', timeout: LIVE_MS });
    expect(await system.db.realmPlayground.count({ where: { realmId: realm.id } })).toBe(0);
  });

  it('adds custom profile fields with their types, reorders and edits them; a member fills in theirs, shown on their card; a field is deleted', async () => {
    const page = await alices();
    await page.goto(`${base}/#organization/profile-fields`);
    const add = page.getByRole('form', { name: 'Add a new profile field' });
    await add.getByRole('textbox', { name: 'Label' }).fill('Team');
    await add.getByRole('textbox', { name: 'Hint' }).fill('Which team are you on?');
    await add.getByRole('button', { name: 'Add field' }).click();
    const fields = page.getByRole('table', { name: 'Custom profile fields' });
    await fields.getByRole('row', { name: /Team/ }).waitFor({ timeout: LIVE_MS });
    await add.getByRole('combobox', { name: 'Type' }).selectOption({ label: 'List of options' });
    await add.getByRole('textbox', { name: 'Label' }).fill('Office');
    await add.getByRole('textbox', { name: 'Options, one per line' }).fill('Paris\nTokyo');
    await add.getByRole('button', { name: 'Add field' }).click();
    await fields.getByRole('row', { name: /Office/ }).waitFor({ timeout: LIVE_MS });
    expect(await fields.getByRole('row', { name: /Office/ }).getByRole('cell', { name: 'List of options' }).count()).toBe(1);
    const stored = async () => system.db.customProfileField.findMany({ where: { realmId: realm.id }, orderBy: { order: 'asc' }, select: { name: true, hint: true, fieldType: true } });
    expect(await stored()).toEqual([
      { name: 'Team', hint: 'Which team are you on?', fieldType: 1 },
      { name: 'Office', hint: '', fieldType: 3 },
    ]);

    await fields.getByRole('button', { name: 'Move Office up' }).click();
    await eventually('Office comes first', async () => (await stored())[0]?.name === 'Office');
    await fields.getByRole('button', { name: 'Edit field Team' }).click();
    const edit = fields.getByRole('form', { name: 'Edit field Team' });
    await edit.getByRole('textbox', { name: 'Hint' }).fill('Your team');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await fields.getByRole('cell', { name: 'Your team' }).waitFor({ timeout: LIVE_MS });
    await shot(page, 'organization-profile-fields.png');

    // Bob fills in his fields in personal settings.
    const member = await bobs();
    await member.goto(`${base}/#settings`);
    const mine = member.getByRole('form', { name: 'Profile fields' });
    await mine.getByRole('textbox', { name: 'Team' }).fill('Backend');
    await mine.getByRole('combobox', { name: 'Office' }).selectOption({ label: 'Tokyo' });
    await mine.getByRole('button', { name: 'Save profile fields' }).click();
    await mine.getByRole('status').filter({ hasText: 'Saved.' }).waitFor({ timeout: LIVE_MS });
    expect(await mine.getByRole('textbox', { name: 'Team' }).getAttribute('aria-describedby')).toBeTruthy();
    const values = await system.db.customProfileFieldValue.findMany({ where: { userId: bob.id }, select: { value: true } });
    expect(values.map((v) => v.value).sort()).toEqual(['Backend', expect.any(String)].sort());

    // Alice sees them on Bob's card, live.
    await send(bob, 'profiles', 'My profile is filled in');
    await openTopic(page, 'profiles');
    const message = messages(page).filter({ hasText: 'My profile is filled in' });
    await message.getByRole('button', { name: 'Bob Member' }).click();
    const card = message.getByRole('dialog', { name: 'Bob Member' });
    const profile = card.getByRole('definition');
    await eventually('the card shows the fields', async () => (await profile.allTextContents()).join('|') === 'Tokyo|Backend');
    expect(await card.getByRole('term').allTextContents()).toEqual(['Office', 'Team']);
    await card.getByRole('button', { name: 'Close' }).click();

    // Clearing one deletes the value.
    await mine.getByRole('textbox', { name: 'Team' }).fill('');
    await mine.getByRole('button', { name: 'Save profile fields' }).click();
    await eventually('Bob has one value left', async () => (await system.db.customProfileFieldValue.count({ where: { userId: bob.id } })) === 1);

    await page.goto(`${base}/#organization/profile-fields`);
    await fields.getByRole('button', { name: 'Delete field Team' }).click();
    await fields.getByRole('row', { name: /Team/ }).waitFor({ state: 'detached', timeout: LIVE_MS });
    await member.getByRole('textbox', { name: 'Team' }).waitFor({ state: 'detached', timeout: LIVE_MS });
    expect((await stored()).map((f) => f.name)).toEqual(['Office']);
  });

  it('generates a new API key in personal settings: the new key works and the old one no longer does', async () => {
    const page = await bobs();
    await page.goto(`${base}/#settings`);
    const form = page.getByRole('form', { name: 'Manage your API key' });
    await form.getByRole('button', { name: 'Generate new API key' }).click();
    await form.getByRole('button', { name: 'Confirm: generate new API key' }).click();
    const box = form.getByRole('textbox', { name: 'Your API key' });
    await box.waitFor({ timeout: LIVE_MS });
    const key = await box.inputValue();
    expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(key).not.toBe(bob.apiKey);
    await shot(page, 'settings-profile.png');
    expect((await system.api.get('/users/me', {}, { subdomain: '', auth: { email: bob.email, apiKey: bob.apiKey } })).status).toBe(401);
    expectSuccess(await system.api.get('/users/me', {}, { subdomain: '', auth: { email: bob.email, apiKey: key } }));
    bob.apiKey = key;
    // The browser that generated it stays logged in (its session now holds the new key), as in Zulip.
    const status = await page.evaluate(`(async () => (await fetch('/json/users/me')).status)()`);
    expect(status).toBe(200);
  });

  it('refuses a member the linkifier, playground and profile field pages (and the server refuses the calls)', async () => {
    const page = await loggedIn(bob);
    for (const section of ['linkifiers', 'playgrounds', 'profile-fields']) {
      await page.goto(`${base}/#organization/${section}`);
      await page.getByRole('alert').filter({ hasText: 'Only organization administrators can manage users.' }).waitFor({ timeout: LIVE_MS });
      expect(await page.getByRole('form').count()).toBe(0);
      expect(await page.getByRole('table').count()).toBe(0);
    }
    const refused = (await page.evaluate(`(async () => {
      const token = document.cookie.split('; ').find((c) => c.startsWith('csrftoken=')).slice('csrftoken='.length);
      const res = await fetch('/json/realm/filters', { method: 'POST', headers: { 'X-CSRFToken': token }, body: new URLSearchParams({ pattern: 'Z(?P<id>[0-9]+)', url_template: 'https://z.acme.test/{id}' }) });
      return { status: res.status, body: await res.json() };
    })()`)) as { status: number; body: { result: string } };
    expect(refused.status).toBe(400);
    expect(refused.body.result).toBe('error');
    expect(await system.db.realmLinkifier.count({ where: { realmId: realm.id, pattern: 'Z(?P<id>[0-9]+)' } })).toBe(0);
  });
});

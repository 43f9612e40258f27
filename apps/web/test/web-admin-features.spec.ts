import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Factory, TestSystem, expectSuccess, workspaceRoot, type TestUser } from '@teamchat/testing';
import { Role } from '@teamchat/zulip';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, LIVE_MS, eventually, logInPage } from './browser';

/** Where the test leaves its screenshots (dist/ is not committed). */
const SCREENSHOTS = path.join(workspaceRoot(), 'dist/screenshots');

/**
 * The web app's pages for invitations, bots, data exports, reminders, polls and to-do lists
 * (issues 27 and 28), driven end to end through the real server in Debian's chromium, by role
 * and accessible name, each checked against the database or the API.
 */
describe('the web app: invitations, bots, data export, reminders, polls and to-do lists', () => {
  let system: TestSystem;
  let browser: Browser;
  let base: string;
  let alice: TestUser;
  let bob: TestUser;
  let gina: TestUser;
  let realm: { id: number };
  let general: { id: number };
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [system, browser] = await Promise.all([TestSystem.start(), launchChromium()]);
    base = `http://127.0.0.1:${system.ports.gateway}`;
    const factory = new Factory(system.db);
    realm = await factory.organization({ subdomain: '', name: 'Acme' });
    alice = await factory.user(realm, { role: Role.OWNER, fullName: 'Alice Owner', email: 'alice@acme.test' });
    bob = await factory.user(realm, { role: Role.MEMBER, fullName: 'Bob Member', email: 'bob@acme.test' });
    gina = await factory.user(realm, { role: Role.GUEST, fullName: 'Gina Guest', email: 'gina@acme.test' });
    general = await factory.channel(realm, { name: 'general', subscribers: [alice, bob, gina] });
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

  const as = (user: TestUser) => ({ subdomain: '', auth: user });
  const messages = (page: Page) => page.getByRole('region', { name: 'Messages' }).getByRole('article');
  const send = async (user: TestUser, topic: string, content: string) => {
    const sent = await system.api.post('/messages', { type: 'stream', to: 'general', topic, content }, as(user));
    expectSuccess(sent);
    return (sent.body as { id: number }).id;
  };
  const openTopic = (page: Page, topic: string) => page.goto(`${base}/#narrow/channel/${general.id}-general/topic/${encodeURIComponent(topic)}`);
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOTS, name), fullPage: true });
  const pending = () => system.db.preregistrationUser.findMany({ where: { realmId: realm.id, status: 0 }, orderBy: { id: 'asc' } });

  it('invites by email with a role, channels and an expiry, creates a reusable link to copy, resends and revokes; a member invites too, live on the administrator\'s page', async () => {
    const page = await alices();
    await page.getByRole('link', { name: 'Organization' }).click();
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Invitations' }).click();
    const table = page.getByRole('table', { name: 'Pending invitations' });
    await page.getByText('No pending invitations.').waitFor({ timeout: LIVE_MS });

    await page.getByRole('button', { name: 'Invite users' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite users to organization' });
    await dialog.getByRole('textbox', { name: 'Emails (one on each line or separated by commas)' }).fill('nina@acme.test, omar@acme.test');
    await dialog.getByRole('combobox', { name: 'Invitation expires after' }).selectOption({ label: '1 day' });
    // An owner may invite with any role.
    expect(await dialog.getByRole('combobox', { name: 'Users join as' }).locator('option').allTextContents()).toEqual(['Guests', 'Members', 'Moderators', 'Administrators', 'Owners']);
    await dialog.getByRole('combobox', { name: 'Users join as' }).selectOption({ label: 'Moderators' });
    await dialog.getByRole('checkbox', { name: 'Default channels for this organization' }).uncheck();
    await dialog.getByRole('checkbox', { name: '#general' }).check();
    await shot(page, 'invite-dialog.png');
    await dialog.getByRole('button', { name: 'Invite' }).click();
    await dialog.getByRole('status').filter({ hasText: 'Users invited successfully.' }).waitFor({ timeout: LIVE_MS });
    for (const email of ['nina@acme.test', 'omar@acme.test']) await table.getByRole('row', { name: new RegExp(email) }).waitFor({ timeout: LIVE_MS });
    const invited = await pending();
    expect(invited.map((i) => ({ email: i.email, invitedAs: i.invitedAs, streamIds: i.streamIds, defaults: i.includeRealmDefaultSubscriptions, by: i.referredById }))).toEqual([
      { email: 'nina@acme.test', invitedAs: Role.MODERATOR, streamIds: [general.id], defaults: false, by: alice.id },
      { email: 'omar@acme.test', invitedAs: Role.MODERATOR, streamIds: [general.id], defaults: false, by: alice.id },
    ]);
    const lifetime = invited[0].expiresAt!.getTime() - invited[0].invitedAt.getTime();
    expect(Math.abs(lifetime - 86_400_000)).toBeLessThan(60_000);
    expect(await table.getByRole('row', { name: /nina@acme\.test/ }).getByRole('cell', { name: 'Moderator', exact: true }).count()).toBe(1);

    // An address already in use is refused with the server's words.
    await dialog.getByRole('textbox', { name: 'Emails (one on each line or separated by commas)' }).fill('bob@acme.test');
    await dialog.getByRole('button', { name: 'Invite' }).click();
    await dialog.getByRole('alert').filter({ hasText: "We weren't able to invite anyone." }).waitFor({ timeout: LIVE_MS });

    // A reusable link, as guests, that never expires: shown to copy.
    await dialog.getByRole('radio', { name: 'Generate invite link' }).check();
    expect(await dialog.getByRole('textbox', { name: 'Emails (one on each line or separated by commas)' }).count()).toBe(0);
    await dialog.getByRole('combobox', { name: 'Invitation expires after' }).selectOption({ label: 'Never expires' });
    await dialog.getByRole('combobox', { name: 'Users join as' }).selectOption({ label: 'Guests' });
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const linkBox = dialog.getByRole('textbox', { name: 'Invitation link' });
    await linkBox.waitFor({ timeout: LIVE_MS });
    const link = await linkBox.inputValue();
    expect(link).toMatch(/\/join\/[a-z0-9]+\/$/);
    const multiuse = await system.db.multiuseInvite.findFirstOrThrow({ where: { realmId: realm.id } });
    expect(link).toContain(multiuse.key);
    expect(multiuse).toMatchObject({ invitedAs: Role.GUEST, expiresAt: null, referredById: alice.id });
    await table.getByRole('row', { name: new RegExp(multiuse.key) }).waitFor({ timeout: LIVE_MS });
    await shot(page, 'invite-link.png');
    await dialog.getByRole('button', { name: 'Close' }).click();

    // Resend and revoke.
    await table.getByRole('button', { name: 'Resend invitation nina@acme.test' }).click();
    await page.getByRole('status').filter({ hasText: 'Invitation sent again.' }).waitFor({ timeout: LIVE_MS });
    await table.getByRole('button', { name: 'Revoke invitation omar@acme.test' }).click();
    await table.getByRole('button', { name: 'Confirm: revoke invitation omar@acme.test' }).click();
    await table.getByRole('row', { name: /omar@acme\.test/ }).waitFor({ state: 'detached', timeout: LIVE_MS });
    expect((await pending()).map((i) => i.email)).toEqual(['nina@acme.test']);
    await table.getByRole('button', { name: `Revoke invitation ${link}` }).click();
    await table.getByRole('button', { name: `Confirm: revoke invitation ${link}` }).click();
    await table.getByRole('row', { name: new RegExp(multiuse.key) }).waitFor({ state: 'detached', timeout: LIVE_MS });
    expect((await system.db.multiuseInvite.findUniqueOrThrow({ where: { id: multiuse.id } })).status).toBe(2);
    await shot(page, 'organization-invitations.png');

    // Bob, a member, sees his own invitations, may not create links or give a higher role.
    const member = await bobs();
    await member.getByRole('link', { name: 'Custom emoji' }).click();
    await member.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Invitations' }).click();
    await member.getByText('No pending invitations.').waitFor({ timeout: LIVE_MS });
    await member.getByRole('button', { name: 'Invite users' }).click();
    const his = member.getByRole('dialog', { name: 'Invite users to organization' });
    expect(await his.getByRole('radio').count()).toBe(0);
    expect(await his.getByRole('combobox', { name: 'Users join as' }).locator('option').allTextContents()).toEqual(['Guests', 'Members']);
    await his.getByRole('textbox', { name: 'Emails (one on each line or separated by commas)' }).fill('pat@acme.test');
    await his.getByRole('button', { name: 'Invite' }).click();
    await member.getByRole('table', { name: 'Pending invitations' }).getByRole('row', { name: /pat@acme\.test/ }).waitFor({ timeout: LIVE_MS });
    expect(await member.getByRole('table', { name: 'Pending invitations' }).getByRole('row', { name: /nina@acme\.test/ }).count()).toBe(0);
    // Alice's page follows, live (invites_changed).
    await table.getByRole('row', { name: /pat@acme\.test/ }).waitFor({ timeout: LIVE_MS });
    expect(await table.getByRole('row', { name: /pat@acme\.test/ }).getByRole('cell', { name: 'Bob Member' }).count()).toBe(1);
  });

  it('refuses a member the data export page and a guest the invitations (and the server refuses them the calls)', async () => {
    const member = await bobs();
    await member.goto(`${base}/#organization/data-export`);
    await member.getByRole('alert').filter({ hasText: 'Only organization administrators can manage users.' }).waitFor({ timeout: LIVE_MS });
    expect(await member.getByRole('table').count()).toBe(0);
    expect(await member.getByRole('button', { name: 'Start export' }).count()).toBe(0);
    expect(await member.getByRole('navigation', { name: 'Organization' }).getByRole('link').allTextContents()).toEqual([
      'Organization profile',
      'Organization settings',
      'Organization permissions',
      'Custom emoji',
      'Invitations',
    ]);
    const refused = await system.api.post('/export/realm', { export_type: 1 }, as(bob));
    expect(refused.status).toBe(400);
    expect(await system.db.realmExport.count({ where: { realmId: realm.id } })).toBe(0);

    const guest = await loggedIn(gina, '#organization/invites');
    await guest.getByRole('alert').filter({ hasText: 'Only organization administrators can manage users.' }).waitFor({ timeout: LIVE_MS });
    expect(await guest.getByRole('navigation', { name: 'Organization' }).getByRole('link').allTextContents()).toEqual([
      'Organization profile',
      'Organization settings',
      'Organization permissions',
      'Custom emoji',
    ]);
    expect(await guest.getByRole('button', { name: 'Invite users' }).count()).toBe(0);
    const invite = await system.api.post('/invites', { invitee_emails: 'zed@acme.test', stream_ids: '[]' }, as(gina));
    expect(invite.status).toBe(400);
    expect(await system.db.preregistrationUser.count({ where: { email: 'zed@acme.test' } })).toBe(0);
  });

  it('creates a generic and an outgoing webhook bot, shows and regenerates the API key, renames it, hands one to another owner, deactivates and reactivates', async () => {
    const page = await bobs();
    await page.goto(`${base}/#settings`);
    await page.getByRole('navigation', { name: 'Personal settings' }).getByRole('link', { name: 'Bots' }).click();
    await page.getByText('You have no bots.').waitFor({ timeout: LIVE_MS });
    const add = page.getByRole('form', { name: 'Add a new bot' });
    expect(await add.getByRole('combobox', { name: 'Bot type' }).locator('option').allTextContents()).toEqual(['Generic', 'Incoming webhook', 'Outgoing webhook']);
    await add.getByRole('textbox', { name: 'Name' }).fill('Helper');
    await add.getByRole('textbox', { name: 'Bot email (before -bot@)' }).fill('helper');
    await add.getByRole('button', { name: 'Create bot' }).click();
    const bots = page.getByRole('region', { name: 'Your bots' });
    const helper = bots.getByRole('listitem', { name: 'Helper' });
    await helper.waitFor({ timeout: LIVE_MS });
    const stored = await system.db.user.findFirstOrThrow({ where: { realmId: realm.id, fullName: 'Helper', isBot: true } });
    expect(stored).toMatchObject({ botOwnerId: bob.id, botType: 1, isActive: true });
    await helper.getByText(stored.deliveryEmail).waitFor();

    // The key, on demand; it works; a new one replaces it.
    expect(await helper.getByRole('textbox', { name: 'API key of Helper' }).count()).toBe(0);
    await helper.getByRole('button', { name: 'Show API key of Helper' }).click();
    const keyBox = helper.getByRole('textbox', { name: 'API key of Helper' });
    const key = await keyBox.inputValue();
    expectSuccess(await system.api.get('/users/me', {}, { subdomain: '', auth: { email: stored.deliveryEmail, apiKey: key } }));
    await helper.getByRole('button', { name: 'Generate new API key for Helper' }).click();
    await eventually('the new key shows', async () => (await keyBox.inputValue()) !== key);
    const renewed = await keyBox.inputValue();
    expect((await system.api.get('/users/me', {}, { subdomain: '', auth: { email: stored.deliveryEmail, apiKey: key } })).status).toBe(401);
    expectSuccess(await system.api.get('/users/me', {}, { subdomain: '', auth: { email: stored.deliveryEmail, apiKey: renewed } }));

    // An outgoing webhook bot with its endpoint.
    await add.getByRole('combobox', { name: 'Bot type' }).selectOption({ label: 'Outgoing webhook' });
    await add.getByRole('textbox', { name: 'Name' }).fill('Hook');
    await add.getByRole('textbox', { name: 'Bot email (before -bot@)' }).fill('hook');
    await add.getByRole('textbox', { name: 'Endpoint URL' }).fill('https://hooks.acme.test/zulip');
    await add.getByRole('button', { name: 'Create bot' }).click();
    const hook = bots.getByRole('listitem', { name: 'Hook' });
    await hook.getByText('https://hooks.acme.test/zulip').waitFor({ timeout: LIVE_MS });
    const hookUser = await system.db.user.findFirstOrThrow({ where: { realmId: realm.id, fullName: 'Hook' } });
    expect(hookUser.botType).toBe(3);
    expect(await system.db.botService.findMany({ where: { userId: hookUser.id }, select: { baseUrl: true, interface: true } })).toEqual([{ baseUrl: 'https://hooks.acme.test/zulip', interface: 1 }]);
    // A name already taken is refused with the server's words.
    await add.getByRole('textbox', { name: 'Name' }).fill('Helper');
    await add.getByRole('textbox', { name: 'Bot email (before -bot@)' }).fill('helper2');
    await add.getByRole('combobox', { name: 'Bot type' }).selectOption({ label: 'Generic' });
    await add.getByRole('button', { name: 'Create bot' }).click();
    await add.getByRole('alert').waitFor({ timeout: LIVE_MS });
    expect(await system.db.user.count({ where: { realmId: realm.id, isBot: true, botOwnerId: bob.id } })).toBe(2);
    await shot(page, 'settings-bots.png');

    // Rename.
    await helper.getByRole('button', { name: 'Edit Helper' }).click();
    await helper.getByRole('form', { name: 'Edit bot Helper' }).getByRole('textbox', { name: 'Name' }).fill('Helper Two');
    await helper.getByRole('button', { name: 'Save changes' }).click();
    const helperTwo = bots.getByRole('listitem', { name: 'Helper Two' });
    await helperTwo.waitFor({ timeout: LIVE_MS });
    expect((await system.db.user.findUniqueOrThrow({ where: { id: stored.id } })).fullName).toBe('Helper Two');

    // Deactivate: a member may not reactivate.
    await helperTwo.getByRole('button', { name: 'Deactivate Helper Two' }).click();
    await helperTwo.getByText('(deactivated)').waitFor({ timeout: LIVE_MS });
    expect((await system.db.user.findUniqueOrThrow({ where: { id: stored.id } })).isActive).toBe(false);
    expect(await helperTwo.getByRole('button', { name: 'Reactivate Helper Two' }).count()).toBe(0);

    // Hook goes to Alice: it leaves Bob's list and joins hers, live.
    const admin = await alices();
    await admin.goto(`${base}/#settings/bots`);
    await admin.getByText('You have no bots.').waitFor({ timeout: LIVE_MS });
    await hook.getByRole('button', { name: 'Edit Hook' }).click();
    await hook.getByRole('combobox', { name: 'Owner' }).selectOption({ label: 'Alice Owner' });
    await hook.getByRole('button', { name: 'Save changes' }).click();
    await hook.waitFor({ state: 'detached', timeout: LIVE_MS });
    const hers = admin.getByRole('region', { name: 'Your bots' }).getByRole('listitem', { name: 'Hook' });
    await hers.waitFor({ timeout: LIVE_MS });
    expect((await system.db.user.findUniqueOrThrow({ where: { id: hookUser.id } })).botOwnerId).toBe(alice.id);
    // An administrator deactivates and reactivates.
    await hers.getByRole('button', { name: 'Deactivate Hook' }).click();
    await hers.getByRole('button', { name: 'Reactivate Hook' }).click();
    await hers.getByRole('button', { name: 'Deactivate Hook' }).waitFor({ timeout: LIVE_MS });
    expect((await system.db.user.findUniqueOrThrow({ where: { id: hookUser.id } })).isActive).toBe(true);
  });

  it('gives export consent in personal settings, starts a full export, downloads it when done and deletes it', async () => {
    const page = await alices();
    await page.goto(`${base}/#settings`);
    const privacy = page.getByRole('form', { name: 'Privacy' });
    const consent = privacy.getByRole('checkbox', { name: 'Allow my private data to be exported' });
    expect(await consent.isChecked()).toBe(false);
    await consent.check();
    await privacy.getByRole('status').filter({ hasText: 'Saved.' }).waitFor({ timeout: LIVE_MS });
    const consents = expectSuccess(await system.api.get('/export/realm/consents', {}, as(alice))) as { export_consents: { user_id: number; consented: boolean }[] };
    expect(consents.export_consents.find((c) => c.user_id === alice.id)?.consented).toBe(true);

    await page.goto(`${base}/#organization/data-export`);
    const form = page.getByRole('form', { name: 'Export organization' });
    await form.getByText('1 of 3 users allow their private data to be exported.').waitFor({ timeout: LIVE_MS });
    await form.getByRole('radio', { name: 'Standard (with private data of users who consent)' }).check();
    await form.getByRole('button', { name: 'Start export' }).click();
    await form.getByRole('status').filter({ hasText: 'Export started.' }).waitFor({ timeout: LIVE_MS });
    const table = page.getByRole('table', { name: 'Exports' });
    const row = table.getByRole('row').filter({ hasText: 'Alice Owner' });
    await row.waitFor({ timeout: LIVE_MS });
    expect(await row.getByRole('cell', { name: 'Standard', exact: true }).count()).toBe(1);
    const download = row.getByRole('link', { name: /^Download export from / });
    await download.waitFor({ timeout: 90_000 });
    const stored = await system.db.realmExport.findFirstOrThrow({ where: { realmId: realm.id } });
    expect(stored).toMatchObject({ exportType: 2, actingUserId: alice.id });
    expect(stored.dateSucceeded).not.toBeNull();
    expect(await download.getAttribute('href')).toContain(stored.exportPath!);
    await shot(page, 'organization-data-export.png');

    await row.getByRole('button', { name: /^Delete export from / }).click();
    await row.getByRole('cell', { name: 'Deleted', exact: true }).waitFor({ timeout: LIVE_MS });
    expect(await row.getByRole('link').count()).toBe(0);
    expect((await system.db.realmExport.findUniqueOrThrow({ where: { id: stored.id } })).dateDeleted).not.toBeNull();
  }, 150_000);

  it('schedules a reminder from the message actions menu, lists it under Reminders (live) and deletes it', async () => {
    const id = await send(alice, 'budget', 'Review the budget by Friday');
    const page = await bobs();
    await openTopic(page, 'budget');
    const message = messages(page).filter({ hasText: 'Review the budget by Friday' });
    await message.waitFor({ timeout: LIVE_MS });
    await message.hover();
    await message.getByRole('button', { name: 'More actions' }).click();
    await message.getByRole('menu', { name: 'More actions' }).getByRole('menuitem', { name: 'Remind me about this' }).click();
    const dialog = message.getByRole('dialog', { name: 'Remind me about this' });
    await dialog.getByRole('combobox', { name: 'When' }).selectOption({ label: 'In 3 hours' });
    await dialog.getByRole('textbox', { name: 'Note (optional)' }).fill('Before the planning meeting');
    await shot(page, 'remind-me.png');
    const asked = Date.now();
    await dialog.getByRole('button', { name: 'Schedule reminder' }).click();
    await message.getByRole('status').filter({ hasText: 'Reminder scheduled for' }).waitFor({ timeout: LIVE_MS });
    const stored = await system.db.scheduledMessage.findFirstOrThrow({ where: { senderId: bob.id, deliveryType: 2 } });
    expect(stored).toMatchObject({ reminderTargetMessageId: id, reminderNote: 'Before the planning meeting', delivered: false });
    expect(Math.abs(stored.scheduledAt.getTime() - (asked + 3 * 3600_000))).toBeLessThan(120_000);

    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Reminders' }).click();
    const list = page.getByRole('region', { name: 'Reminders' });
    await list.getByText('Before the planning meeting').waitFor({ timeout: LIVE_MS });
    // One made elsewhere (the API) shows up without a reload.
    const later = Math.floor(Date.now() / 1000) + 86_400;
    expectSuccess(await system.api.post('/reminders', { message_id: id, scheduled_delivery_timestamp: later, note: 'Second look' }, as(bob)));
    await list.getByText('Second look').waitFor({ timeout: LIVE_MS });
    expect(await list.getByRole('listitem').count()).toBe(2);
    await shot(page, 'reminders.png');

    await list.getByRole('listitem').filter({ hasText: 'Before the planning meeting' }).getByRole('button', { name: 'Delete reminder' }).click();
    await list.getByText('Before the planning meeting').waitFor({ state: 'detached', timeout: LIVE_MS });
    await list.getByRole('listitem').filter({ hasText: 'Second look' }).getByRole('button', { name: 'Delete reminder' }).click();
    await list.getByText('No reminders.').waitFor({ timeout: LIVE_MS });
    expect(await system.db.scheduledMessage.count({ where: { senderId: bob.id, deliveryType: 2, delivered: false } })).toBe(0);
  });

  it('shows a poll: votes and unvotes, adds an option, the author edits the question, each live for the other reader', async () => {
    const id = await send(alice, 'lunch', '/poll Where shall we eat?\nPizza\nSalad');
    const page = await bobs();
    const admin = await alices();
    await Promise.all([openTopic(page, 'lunch'), openTopic(admin, 'lunch')]);
    const poll = page.getByRole('group', { name: 'Poll' });
    const hers = admin.getByRole('group', { name: 'Poll' });
    await poll.getByRole('heading', { name: 'Where shall we eat?' }).waitFor({ timeout: LIVE_MS });
    expect(await poll.getByRole('list', { name: 'Options' }).getByRole('listitem').allTextContents()).toEqual(['0Pizza', '0Salad']);
    expect(await poll.getByRole('button', { name: 'Edit question' }).count()).toBe(0);

    await poll.getByRole('button', { name: 'Vote for Pizza' }).click();
    await poll.getByRole('button', { name: 'Remove your vote for Pizza', pressed: true }).waitFor({ timeout: LIVE_MS });
    await hers.getByRole('listitem').filter({ hasText: 'Pizza' }).getByText('(Bob Member)').waitFor({ timeout: LIVE_MS });
    expect(await hers.getByRole('button', { name: 'Vote for Pizza' }).textContent()).toBe('1');

    await poll.getByRole('textbox', { name: 'New option' }).fill('Tacos');
    await poll.getByRole('button', { name: 'Add option' }).click();
    await hers.getByRole('button', { name: 'Vote for Tacos' }).click();
    await poll.getByRole('listitem').filter({ hasText: 'Tacos' }).getByText('(Alice Owner)').waitFor({ timeout: LIVE_MS });
    // A duplicate option is not offered.
    await poll.getByRole('textbox', { name: 'New option' }).fill('Salad');
    expect(await poll.getByRole('button', { name: 'Add option' }).isDisabled()).toBe(true);
    await poll.getByRole('textbox', { name: 'New option' }).fill('');

    await hers.getByRole('button', { name: 'Edit question' }).click();
    await hers.getByRole('textbox', { name: 'Question' }).fill('Where shall we eat on Friday?');
    await hers.getByRole('button', { name: 'Save' }).click();
    await poll.getByRole('heading', { name: 'Where shall we eat on Friday?' }).waitFor({ timeout: LIVE_MS });
    await shot(page, 'poll.png');

    await poll.getByRole('button', { name: 'Remove your vote for Pizza' }).click();
    await hers.getByRole('listitem').filter({ hasText: 'Pizza' }).getByText('(Bob Member)').waitFor({ state: 'detached', timeout: LIVE_MS });
    const rows = await system.db.submessage.findMany({ where: { messageId: id }, orderBy: { id: 'asc' }, select: { senderId: true, content: true } });
    expect(rows.slice(1).map((r) => [r.senderId, JSON.parse(r.content)])).toEqual([
      [bob.id, { type: 'vote', key: 'canned,0', vote: 1 }],
      [bob.id, { type: 'new_option', idx: 1, option: 'Tacos' }],
      [alice.id, { type: 'vote', key: `${bob.id},1`, vote: 1 }],
      [alice.id, { type: 'question', question: 'Where shall we eat on Friday?' }],
      [bob.id, { type: 'vote', key: 'canned,0', vote: -1 }],
    ]);
    // A reload shows the same poll, from the stored submessages.
    await page.reload();
    await poll.getByRole('heading', { name: 'Where shall we eat on Friday?' }).waitFor({ timeout: LIVE_MS });
    expect(await poll.getByRole('button', { name: 'Vote for Tacos' }).textContent()).toBe('1');
  });

  it('shows a to-do list: checks a task, adds one, the author renames the list, each live for the other reader', async () => {
    const id = await send(alice, 'launch', '/todo Launch checklist\nWrite docs: the user guide\nShip it');
    const page = await bobs();
    const admin = await alices();
    await Promise.all([openTopic(page, 'launch'), openTopic(admin, 'launch')]);
    const todo = page.getByRole('group', { name: 'To-do list' });
    const hers = admin.getByRole('group', { name: 'To-do list' });
    await todo.getByRole('heading', { name: 'Launch checklist' }).waitFor({ timeout: LIVE_MS });
    await todo.getByText('the user guide').waitFor();
    expect(await todo.getByRole('button', { name: 'Edit title' }).count()).toBe(0);

    // The box follows the server: it is checked once the submessage comes back.
    await todo.getByRole('checkbox', { name: 'Ship it' }).click();
    await eventually('Alice sees the task done', () => hers.getByRole('checkbox', { name: 'Ship it' }).isChecked());
    await todo.getByRole('textbox', { name: 'New task' }).fill('Celebrate');
    await todo.getByRole('textbox', { name: 'Task description' }).fill('cake for everyone');
    await todo.getByRole('button', { name: 'Add task' }).click();
    await hers.getByRole('checkbox', { name: /Celebrate/ }).waitFor({ timeout: LIVE_MS });
    await hers.getByRole('button', { name: 'Edit title' }).click();
    await hers.getByRole('textbox', { name: 'Title' }).fill('Launch day');
    await hers.getByRole('button', { name: 'Save' }).click();
    await todo.getByRole('heading', { name: 'Launch day' }).waitFor({ timeout: LIVE_MS });
    await shot(page, 'todo.png');
    await hers.getByRole('checkbox', { name: 'Ship it' }).click();
    await eventually('Bob sees the task open again', async () => !(await todo.getByRole('checkbox', { name: 'Ship it' }).isChecked()));

    const rows = await system.db.submessage.findMany({ where: { messageId: id }, orderBy: { id: 'asc' }, select: { senderId: true, content: true } });
    expect(rows.slice(1).map((r) => [r.senderId, JSON.parse(r.content)])).toEqual([
      [bob.id, { type: 'strike', key: '1,canned' }],
      [bob.id, { type: 'new_task', key: 1, task: 'Celebrate', desc: 'cake for everyone', completed: false }],
      [alice.id, { type: 'new_task_list_title', title: 'Launch day' }],
      [alice.id, { type: 'strike', key: '1,canned' }],
    ]);
  });
});

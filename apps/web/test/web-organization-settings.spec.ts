import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Factory, TestSystem, workspaceRoot, type TestUser } from '@teamchat/testing';
import { Role } from '@teamchat/zulip';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { launchChromium, LIVE_MS, eventually, logInPage } from './browser';

/** Where the test leaves its screenshots (dist/ is not committed). */
const SCREENSHOTS = path.join(workspaceRoot(), 'dist/screenshots');

/**
 * The web app's organization settings (issue 27): #organization/organization-profile,
 * …/organization-settings and …/organization-permissions, driven end to end through the real
 * server in Debian's chromium: settings changed are stored and applied (and seen live by others),
 * the icon uploaded, allowed domains, Welcome Bot's test message, Zulip's refusals shown, and a
 * member who sees the settings read-only and whose calls are refused.
 */
describe('the web app: organization profile, settings and permissions', () => {
  let system: TestSystem;
  let browser: Browser;
  let base: string;
  let factory: Factory;
  let realm: { id: number };
  let olivia: TestUser, adam: TestUser, bob: TestUser;
  let reports: { id: number };
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [system, browser] = await Promise.all([TestSystem.start(), launchChromium()]);
    base = `http://127.0.0.1:${system.ports.gateway}`;
    factory = new Factory(system.db);
    realm = await factory.organization({ subdomain: '', name: 'Acme' });
    olivia = await factory.user(realm, { role: Role.OWNER, fullName: 'Olivia Owner', email: 'olivia@acme.test' });
    adam = await factory.user(realm, { role: Role.ADMINISTRATOR, fullName: 'Adam Admin', email: 'adam@acme.test' });
    bob = await factory.user(realm, { role: Role.MEMBER, fullName: 'Bob Member', email: 'bob@acme.test' });
    await factory.channel(realm, { name: 'general', subscribers: [olivia, adam, bob] });
    reports = await factory.channel(realm, { name: 'reports', inviteOnly: true, subscribers: [olivia] });
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 600_000);

  afterAll(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    await browser?.close();
    await system?.stop();
  });

  const loggedIn = (user: TestUser, hash = ''): Promise<Page> => logInPage(browser, contexts, base, user, { hash });

  const pages = new Map<TestUser, Promise<Page>>();
  const pageOf = (user: TestUser) => {
    if (!pages.has(user)) pages.set(user, loggedIn(user));
    return pages.get(user)!;
  };

  const row = () => system.db.realm.findUniqueOrThrow({ where: { id: realm.id } });
  const open = async (page: Page, section: string) => {
    await page.goto(`${base}/#organization/${section}`);
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: sectionNames[section] }).waitFor();
  };
  const sectionNames: Record<string, string> = {
    'organization-profile': 'Organization profile',
    'organization-settings': 'Organization settings',
    'organization-permissions': 'Organization permissions',
  };
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOTS, name), fullPage: true });
  const systemGroup = (name: string) => factory.systemGroupId(realm, name);

  it('changes the name and description: stored, and a member sees them change live', async () => {
    const member = await pageOf(bob);
    await open(member, 'organization-profile');
    const memberName = member.getByRole('textbox', { name: 'Organization name' });
    await expect(memberName.inputValue()).resolves.toBe('Acme');

    const page = await pageOf(olivia);
    await open(page, 'organization-profile');
    const form = page.getByRole('form', { name: 'Organization profile' });
    await form.getByRole('textbox', { name: 'Organization name' }).fill('Acme Rockets');
    await form.getByRole('textbox', { name: 'Organization description' }).fill('We build rockets.');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved.' }).waitFor({ timeout: LIVE_MS });
    expect(await row()).toMatchObject({ name: 'Acme Rockets', description: 'We build rockets.' });

    await eventually('the member sees the new name', async () => (await memberName.inputValue()) === 'Acme Rockets');
    expect(await member.getByRole('textbox', { name: 'Organization description' }).inputValue()).toBe('We build rockets.');
  });

  it('shows Zulip\'s refusal of a bad value and keeps the stored one', async () => {
    const page = await pageOf(olivia);
    await open(page, 'organization-profile');
    const form = page.getByRole('form', { name: 'Organization profile' });
    await form.getByRole('textbox', { name: 'Organization description' }).fill('x'.repeat(1001));
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.getByRole('alert').filter({ hasText: 'description is too long (limit: 1000 characters)' }).waitFor({ timeout: LIVE_MS });
    expect((await row()).description).toBe('We build rockets.');
    // An empty name is not offered for saving.
    await form.getByRole('textbox', { name: 'Organization description' }).fill('We build rockets.');
    await form.getByRole('textbox', { name: 'Organization name' }).fill('  ');
    expect(await form.getByRole('button', { name: 'Save changes' }).isDisabled()).toBe(true);
    expect((await row()).name).toBe('Acme Rockets');
  });

  it('uploads the icon and the logo: stored, served resized, shown, and deleted again', async () => {
    const page = await pageOf(olivia);
    await open(page, 'organization-profile');
    const images = page.getByRole('region', { name: 'Organization images' });
    const picture = await sharp({ create: { width: 300, height: 200, channels: 4, background: '#1f7a4d' } }).png().toBuffer();
    await images.getByLabel('Upload icon').setInputFiles({ name: 'icon.png', mimeType: 'image/png', buffer: picture });
    await eventually('the icon is stored', async () => (await row()).iconSource === 'U');
    const icon = images.getByRole('img', { name: 'Organization icon' });
    await eventually('the page shows the uploaded icon', async () => ((await icon.getAttribute('src')) ?? '').includes(`/user_avatars/${realm.id}/realm/icon.png?version=2`));
    await eventually('the icon has loaded, 100 pixels wide', async () => (await icon.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)) === 100);

    const wide = await sharp({ create: { width: 1600, height: 100, channels: 4, background: '#203050' } }).png().toBuffer();
    await images.getByLabel('Upload logo', { exact: true }).setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: wide });
    await eventually('the logo is stored', async () => (await row()).logoSource === 'U');
    const logo = images.getByRole('img', { name: 'Organization logo', exact: true });
    await eventually('the logo has loaded at 800x50', async () =>
      logo.evaluate((element) => {
        const img = element as unknown as { naturalWidth: number; naturalHeight: number; src: string };
        return img.naturalWidth === 800 && img.naturalHeight === 50 && img.src.includes('/realm/logo.png?version=2');
      }),
    );
    expect((await row()).nightLogoSource).toBe('D');
    await shot(page, 'organization-profile.png');

    await images.getByRole('button', { name: 'Delete icon' }).click();
    await eventually('the icon is back to the default', async () => (await row()).iconSource === 'G');
    await images.getByRole('button', { name: 'Delete icon' }).waitFor({ state: 'detached', timeout: LIVE_MS });
  });

  it('changes permissions to system groups: stored, applied (a member may no longer add emoji), and a member sees them read-only', async () => {
    const page = await pageOf(olivia);
    await open(page, 'organization-permissions');
    const permissions = page.getByRole('region', { name: 'Permissions' });
    await permissions.getByRole('combobox', { name: 'Who can add custom emoji' }).selectOption({ label: 'Administrators' });
    await permissions.getByRole('combobox', { name: 'Who can create public channels' }).selectOption({ label: 'Moderators' });
    await permissions.getByRole('combobox', { name: 'Who can delete any message' }).selectOption({ label: 'Owners' });
    const administrators = await systemGroup('role:administrators');
    await eventually('the permissions are stored', async () => {
      const r = await row();
      return r.canAddCustomEmojiGroupId === administrators && r.canCreatePublicChannelGroupId === (await systemGroup('role:moderators')) && r.canDeleteAnyMessageGroupId === (await systemGroup('role:owners'));
    });

    // Applied: the member's own custom emoji page no longer offers adding one, and the server refuses it.
    const member = await pageOf(bob);
    await open(member, 'organization-permissions');
    const select = member.getByRole('region', { name: 'Permissions' }).getByRole('combobox', { name: 'Who can add custom emoji' });
    await eventually('the member sees the new value', async () => (await select.locator('option:checked').textContent()) === 'Administrators');
    expect(await select.isDisabled()).toBe(true);
    await member.getByRole('note').filter({ hasText: 'Only organization administrators can change these settings.' }).waitFor();
    await member.goto(`${base}/#organization/emoji`);
    await member.getByRole('heading', { name: 'Custom emoji' }).waitFor();
    expect(await member.getByRole('form', { name: 'Add a new emoji' }).count()).toBe(0);
  });

  it('shows the owners-only refusal to an administrator', async () => {
    const page = await pageOf(adam);
    await open(page, 'organization-permissions');
    const permissions = page.getByRole('region', { name: 'Permissions' });
    const before = (await row()).canInviteUsersGroupId;
    await permissions.getByRole('combobox', { name: 'Who can send email invitations to new users' }).selectOption({ label: 'Administrators' });
    await permissions.getByRole('alert').filter({ hasText: 'Must be an organization owner' }).waitFor({ timeout: LIVE_MS });
    expect((await row()).canInviteUsersGroupId).toBe(before);
  });

  it('changes the message editing limits: stored, and applied to editing', async () => {
    const page = await pageOf(olivia);
    await open(page, 'organization-permissions');
    const editing = page.getByRole('region', { name: 'Message editing' });
    await editing.getByRole('combobox', { name: 'Time limit for editing messages' }).selectOption({ label: '2 minutes' });
    await editing.getByRole('combobox', { name: 'Time limit for deleting messages' }).selectOption({ label: '1 hour' });
    await eventually('the limits are stored', async () => {
      const r = await row();
      return r.messageContentEditLimitSeconds === 120 && r.messageContentDeleteLimitSeconds === 3600;
    });
    await editing.getByRole('checkbox', { name: 'Allow message editing' }).click();
    await eventually('editing is off', async () => (await row()).allowMessageEditing === false);
    // Applied: the server now refuses an edit.
    const sent = await system.api.post<{ id: number }>('/messages', { type: 'stream', to: 'general', topic: 'limits', content: 'first' }, { subdomain: '', auth: bob });
    const edit = await system.api.patch(`/messages/${sent.body.id}`, { content: 'second' }, { subdomain: '', auth: bob });
    expect(edit.body).toMatchObject({ result: 'error', msg: 'Your organization has turned off message editing' });
    await editing.getByRole('checkbox', { name: 'Allow message editing', checked: false }).click();
    await eventually('editing is on again', async () => (await row()).allowMessageEditing === true);
    await editing.getByRole('combobox', { name: 'Time limit for editing messages' }).selectOption({ label: 'Any time' });
    await eventually('no edit limit', async () => (await row()).messageContentEditLimitSeconds === null);
  });

  it('changes the language, call provider, read receipts and moderation request channel', async () => {
    const page = await pageOf(olivia);
    await open(page, 'organization-settings');
    const form = page.getByRole('form', { name: 'Organization settings' });
    await form.getByRole('combobox', { name: 'Language for automated messages and invitation emails' }).selectOption('de');
    await form.getByRole('combobox', { name: 'Call provider' }).selectOption({ label: 'None' });
    const receipts = form.getByRole('checkbox', { name: 'Enable read receipts' });
    const receiptsBefore = await receipts.isChecked();
    await receipts.click(); // saved at once; the box follows the stored value
    await form.getByRole('combobox', { name: 'Moderation request channel' }).selectOption({ label: '#reports' });
    await eventually('the settings are stored', async () => {
      const r = await row();
      return r.defaultLanguage === 'de' && r.videoChatProvider === 0 && r.enableReadReceipts === !receiptsBefore && r.moderationRequestChannelId === reports.id;
    });
    // Shown back from the events.
    await eventually('the page shows them', async () => (await form.getByRole('combobox', { name: 'Moderation request channel' }).inputValue()) === String(reports.id));
    await shot(page, 'organization-settings.png');
    await form.getByRole('combobox', { name: 'Moderation request channel' }).selectOption({ label: 'Disabled' });
    await eventually('no moderation channel', async () => (await row()).moderationRequestChannelId === null);
  });

  it("saves Welcome Bot's message, and sends a test of it to me", async () => {
    const page = await pageOf(olivia);
    await open(page, 'organization-settings');
    const form = page.getByRole('form', { name: 'Welcome message' });
    const text = 'Welcome aboard! Read #**general** first.';
    await form.getByRole('textbox', { name: 'Custom message Welcome Bot sends new users' }).fill(text);
    await form.getByRole('button', { name: 'Save welcome message' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved.' }).waitFor({ timeout: LIVE_MS });
    expect((await row()).welcomeMessageCustomText).toBe(text);

    await form.getByRole('button', { name: 'Send me a test message' }).click();
    await form.getByRole('status').filter({ hasText: 'Welcome Bot sent you a test message.' }).waitFor({ timeout: LIVE_MS });
    const bot = await system.db.user.findFirstOrThrow({ where: { realmId: realm.id, isBot: true, fullName: 'Welcome Bot' } });
    let arrived: { id: number } | null = null;
    await eventually('the test message arrives', async () => {
      arrived = await system.db.message.findFirst({ where: { realmId: realm.id, senderId: bot.id, content: { contains: 'Welcome aboard!' } } });
      return arrived !== null;
    });
    expect(await system.db.userMessage.count({ where: { messageId: arrived!.id, userId: olivia.id } })).toBe(1);
    expect(await system.db.userMessage.count({ where: { messageId: arrived!.id, userId: bob.id } })).toBe(0);
  });

  it('adds allowed domains, restricts to them, and removes them', async () => {
    const page = await pageOf(olivia);
    await open(page, 'organization-permissions');
    const domains = page.getByRole('region', { name: 'Allowed domains' });
    await domains.getByText('There are no allowed domains.').waitFor();
    const add = domains.getByRole('form', { name: 'Add a domain' });
    await add.getByRole('textbox', { name: 'Domain' }).fill('acme.test');
    await add.getByRole('checkbox', { name: 'Allow subdomains' }).check();
    await add.getByRole('button', { name: 'Add domain' }).click();
    const table = domains.getByRole('table', { name: 'Allowed domains' });
    await table.getByRole('row', { name: /acme\.test/ }).waitFor({ timeout: LIVE_MS });
    expect(await table.getByRole('checkbox', { name: 'Allow subdomains of acme.test' }).isChecked()).toBe(true);
    await domains.getByRole('checkbox', { name: 'Restrict to these domains' }).click();
    await eventually('the domain and the restriction are stored', async () => {
      const stored = await system.db.realmDomain.findMany({ where: { realmId: realm.id } });
      return stored.length === 1 && stored[0].domain === 'acme.test' && stored[0].allowSubdomains && (await row()).emailsRestrictedToDomains;
    });
    // Applied: an address outside the domains cannot join.
    const refused = await system.api.post('/users', { email: 'eve@elsewhere.test', password: 'long enough pass', full_name: 'Eve' }, { subdomain: '', auth: olivia });
    expect(refused.body).toMatchObject({ result: 'error', msg: "Email 'eve@elsewhere.test' not allowed in this organization" });
    // Zulip's own refusal shows: the domain is there already.
    await add.getByRole('textbox', { name: 'Domain' }).fill('acme.test');
    await add.getByRole('button', { name: 'Add domain' }).click();
    await domains.getByRole('alert').filter({ hasText: 'The domain acme.test is already a part of your organization.' }).waitFor({ timeout: LIVE_MS });

    await table.getByRole('button', { name: 'Remove acme.test' }).click();
    await domains.getByText('There are no allowed domains.').waitFor({ timeout: LIVE_MS });
    // Removing the last one lifts the restriction, and the page shows it.
    await eventually('the restriction is lifted', async () => !(await row()).emailsRestrictedToDomains);
    await eventually('the checkbox follows', async () => !(await domains.getByRole('checkbox', { name: 'Restrict to these domains' }).isChecked()));
  });

  it('shows a member every setting read-only, with no uploads or saving, and the server refuses their changes', async () => {
    const page = await pageOf(bob);
    await open(page, 'organization-profile');
    await page.getByRole('note').filter({ hasText: 'Only organization administrators can change these settings.' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Organization name' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
    expect(await page.getByLabel('Upload icon').count()).toBe(0);
    await open(page, 'organization-settings');
    expect(await page.getByRole('combobox', { name: 'Call provider' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Send me a test message' }).count()).toBe(0);
    await open(page, 'organization-permissions');
    expect(await page.getByRole('checkbox', { name: 'Allow message editing' }).isDisabled()).toBe(true);
    expect(await page.getByRole('form', { name: 'Add a domain' }).count()).toBe(0);
    await shot(page, 'organization-permissions-member.png');

    const before = await row();
    const answer = (await page.evaluate(`(async () => {
      const token = document.cookie.split('; ').find((c) => c.startsWith('csrftoken=')).slice('csrftoken='.length);
      const patch = await fetch('/json/realm', { method: 'PATCH', headers: { 'X-CSRFToken': token }, body: new URLSearchParams({ name: 'Bob Inc' }) });
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }), 'x.png');
      const icon = await fetch('/json/realm/icon', { method: 'POST', headers: { 'X-CSRFToken': token }, body: form });
      return { patch: { status: patch.status, body: await patch.json() }, icon: { status: icon.status, body: await icon.json() } };
    })()`)) as Record<string, { status: number; body: { result: string; msg: string } }>;
    expect(answer.patch).toEqual({ status: 400, body: { result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' } });
    expect(answer.icon).toEqual({ status: 400, body: { result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' } });
    const after = await row();
    expect({ name: after.name, iconSource: after.iconSource, iconVersion: after.iconVersion }).toEqual({ name: before.name, iconSource: before.iconSource, iconVersion: before.iconVersion });
  });
});

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Factory, TestSystem, expectSuccess, workspaceRoot, type TestUser } from '@teamchat/testing';
import { Role } from '@teamchat/zulip';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './browser';

/** Where the test leaves its screenshots (dist/ is not committed). */
const SCREENSHOTS = path.join(workspaceRoot(), 'dist/screenshots');
const LIVE_MS = 10_000;

describe('the web app in a real browser (Debian chromium)', () => {
  let system: TestSystem;
  let browser: Browser;
  let base: string;
  let alice: TestUser;
  let bob: TestUser;
  const contexts: BrowserContext[] = [];
  const violations: string[] = [];

  beforeAll(async () => {
    // Installing chromium with apt-get (a fresh CI machine) can take minutes; the rest takes seconds.
    // A short heartbeat, so a poll notices a lost queue in seconds (the test of re-registering).
    [system, browser] = await Promise.all([TestSystem.start({ env: { EVENT_HEARTBEAT_SECONDS: '2' } }), launchChromium()]);
    base = `http://127.0.0.1:${system.ports.gateway}`;
    const factory = new Factory(system.db);
    // The browser's Host is an IP address, which selects the root organization.
    const realm = await factory.organization({ subdomain: '', name: 'Acme' });
    alice = await factory.user(realm, { role: Role.OWNER, fullName: 'Alice Owner', email: 'alice@acme.test' });
    bob = await factory.user(realm, { role: Role.MEMBER, fullName: 'Bob Member', email: 'bob@acme.test' });
    await factory.channel(realm, { name: 'general', subscribers: [alice, bob] });
    await factory.channel(realm, { name: 'design', subscribers: [alice, bob] });
  }, 600_000);

  afterAll(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    await browser?.close();
    await system?.stop();
  });

  /** A new browser profile (its own cookies) at the app's page; what the page reports as a policy violation is kept. */
  async function openApp(hash = ''): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    const page = await context.newPage();
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(`${base}/${hash}`);
    return page;
  }

  async function logIn(user: TestUser, password = user.password, hash = ''): Promise<Page> {
    const page = await openApp(hash);
    await page.getByRole('textbox', { name: 'Email' }).fill(user.email);
    await page.getByRole('textbox', { name: 'Password' }).fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    return page;
  }

  async function loggedIn(user: TestUser): Promise<Page> {
    const page = await logIn(user);
    await page.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: 'general' }).waitFor();
    return page;
  }

  /** Alice's and Bob's pages, logged in once and shared by the tests that chat (each login costs seconds here). */
  let chatting: Promise<[Page, Page]> | undefined;
  const alicesAndBobs = () => (chatting ??= Promise.all([loggedIn(alice), loggedIn(bob)]));

  const messages = (page: Page) => page.getByRole('region', { name: 'Messages' }).getByRole('article');

  async function send(page: Page, text: string, topic?: string): Promise<void> {
    if (topic !== undefined) await page.getByRole('textbox', { name: 'Topic' }).fill(topic);
    await page.getByRole('textbox', { name: 'Message' }).fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
  }

  it('serves its page at / under a strict Content-Security-Policy, never cached, and its hashed files cached for a year', async () => {
    const page = await system.api.get('/', {}, { subdomain: '' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/unsafe-(inline|eval)/);
    expect(page.headers.getSetCookie().some((line) => line.startsWith('csrftoken='))).toBe(true);
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(String(page.body))?.[1];
    expect(script).toBeDefined();
    const asset = await system.api.get(script!, {}, { subdomain: '' });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('shows an error for a wrong password', async () => {
    const page = await logIn(bob, 'not the password');
    await expect(page.getByRole('alert').textContent({ timeout: LIVE_MS })).resolves.toBe('Your username or password is incorrect');
    expect(await page.getByRole('navigation', { name: 'Channels' }).count()).toBe(0);
  });

  it('logs in with email and password, shows the channels with their unread counts, and logs out', async () => {
    for (const content of ['Mockups are up', 'Second round tomorrow']) {
      expectSuccess(await system.api.post('/messages', { type: 'stream', to: 'design', topic: 'mockups', content }, { subdomain: '', auth: bob }));
    }
    // A link to #general, followed before logging in: design's messages stay unseen.
    const general = await system.db.stream.findFirstOrThrow({ where: { name: 'general' } });
    const page = await logIn(alice, alice.password, `#narrow/channel/${general.id}-general`);
    const channels = page.getByRole('navigation', { name: 'Channels' });
    await channels.getByRole('link', { name: 'general' }).waitFor();
    expect(await channels.getByRole('link').allTextContents()).toEqual(['design', 'general']);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('#general');
    await channels.getByRole('listitem').filter({ hasText: 'design' }).getByLabel('2 unread').waitFor();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    // The session is gone, not just hidden: a reload shows the login page.
    await page.reload();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Channels' }).count()).toBe(0);
  });

  it('lets two people chat in a channel, each seeing the other live', async () => {
    const [a, b] = await alicesAndBobs();
    for (const page of [a, b]) await page.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: 'general' }).click();
    await send(a, 'Lunch at noon?', 'lunch');
    await messages(b).filter({ hasText: 'Lunch at noon?' }).waitFor({ timeout: LIVE_MS });
    await b.getByRole('textbox', { name: 'Topic' }).fill('lunch');
    // Bob's typing shows on Alice's screen.
    await b.getByRole('textbox', { name: 'Message' }).pressSequentially('Sounds good', { delay: 20 });
    await a.getByRole('status').filter({ hasText: 'Bob Member is typing…' }).waitFor({ timeout: LIVE_MS });
    await b.getByRole('button', { name: 'Send' }).click();
    // Each message is an article named by its sender.
    await a.getByRole('region', { name: 'Messages' }).getByRole('article', { name: 'Bob Member' }).filter({ hasText: 'Sounds good' }).waitFor({ timeout: LIVE_MS });
    // Alice has seen Bob's message: no unread count on the channel she is looking at.
    await a.getByRole('navigation', { name: 'Channels' }).getByRole('listitem').filter({ hasText: 'general' }).getByLabel(/unread/).waitFor({ state: 'detached', timeout: LIVE_MS });
    // The channel's topics are listed, the new one included.
    await a.getByRole('navigation', { name: 'Topics' }).getByRole('link', { name: 'lunch' }).waitFor({ timeout: LIVE_MS });
    mkdirSync(SCREENSHOTS, { recursive: true });
    await a.screenshot({ path: path.join(SCREENSHOTS, 'main-view.png') });
    await a.emulateMedia({ colorScheme: 'dark' });
    await a.screenshot({ path: path.join(SCREENSHOTS, 'main-view-dark.png') });
    await a.emulateMedia({ colorScheme: 'light' });
    await a.setViewportSize({ width: 390, height: 844 });
    await a.screenshot({ path: path.join(SCREENSHOTS, 'main-view-phone.png') });
    await a.setViewportSize({ width: 1280, height: 800 });
  });

  it('delivers a direct message live, with an unread count until it is read', async () => {
    const [a, b] = await alicesAndBobs();
    // Bob looks at a channel; Alice writes to him directly.
    await b.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: 'design' }).click();
    await a.getByRole('navigation', { name: 'Direct messages' }).getByRole('link', { name: 'Bob Member' }).click();
    await send(a, 'Psst, a secret');
    const fromAlice = b.getByRole('navigation', { name: 'Direct messages' }).getByRole('listitem').filter({ hasText: 'Alice Owner' });
    await fromAlice.getByLabel('1 unread').waitFor({ timeout: LIVE_MS });
    await fromAlice.getByRole('link', { name: 'Alice Owner' }).click();
    await messages(b).filter({ hasText: 'Psst, a secret' }).waitFor();
    // Seen: the count goes.
    await fromAlice.getByLabel('1 unread').waitFor({ state: 'detached', timeout: LIVE_MS });
    // And the reply arrives live on Alice's side.
    await send(b, 'Tell me more');
    await messages(a).filter({ hasText: 'Tell me more' }).waitFor({ timeout: LIVE_MS });
  });

  it('puts the narrow in the URL, so a link opens the topic', async () => {
    const [page] = await alicesAndBobs();
    const general = await system.db.stream.findFirstOrThrow({ where: { name: 'general' } });
    await page.goto(`${base}/#narrow/channel/${general.id}-general/topic/lunch`);
    await page.getByRole('heading', { name: '#general › lunch' }).waitFor();
    await messages(page).filter({ hasText: 'Lunch at noon?' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Topic' }).inputValue()).toBe('lunch');
    expect(await page.getByRole('combobox', { name: 'Channel' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Combined feed' }).click();
    await page.getByRole('combobox', { name: 'Channel' }).waitFor();
  });

  it('registers a new event queue when the server lost its queue, and shows what it missed', async () => {
    const [a] = await alicesAndBobs();
    const general = await system.db.stream.findFirstOrThrow({ where: { name: 'general' } });
    await a.goto(`${base}/#narrow/channel/${general.id}-general/topic/lunch`);
    await messages(a).filter({ hasText: 'Lunch at noon?' }).waitFor();
    // Every queue gone, as after a Redis loss: the next poll answers BAD_EVENT_QUEUE_ID.
    await system.deleteRedisKeys('eq:');
    expectSuccess(await system.api.post('/messages', { type: 'stream', to: 'general', topic: 'lunch', content: 'While you were away' }, { subdomain: '', auth: bob }));
    await messages(a).filter({ hasText: 'While you were away' }).waitFor({ timeout: 20_000 });
    // The new queue delivers live again.
    expectSuccess(await system.api.post('/messages', { type: 'stream', to: 'general', topic: 'lunch', content: 'And now live again' }, { subdomain: '', auth: bob }));
    await messages(a).filter({ hasText: 'And now live again' }).waitFor({ timeout: LIVE_MS });
  });

  it('shows a reaction, an edit, a star and a deletion, the other side live', async () => {
    const [a, b] = await alicesAndBobs();
    for (const page of [a, b]) await page.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: 'general' }).click();
    await send(a, 'React to this', 'actions');
    const onBob = messages(b).filter({ hasText: 'React to this' });
    const onAlice = messages(a).filter({ hasText: 'React to this' });
    await onBob.waitFor({ timeout: LIVE_MS });
    // Bob reacts through the picker; Alice sees it and adds hers, which Bob sees.
    await onBob.getByRole('button', { name: 'Add reaction' }).click();
    await onBob.getByRole('dialog', { name: 'Emoji picker' }).getByRole('button', { name: 'tada' }).click();
    await onAlice.getByRole('button', { name: 'tada: 1', pressed: false }).click({ timeout: LIVE_MS });
    await onBob.getByRole('button', { name: 'tada: 2', pressed: true }).waitFor({ timeout: LIVE_MS });
    // Bob takes his back.
    await onBob.getByRole('button', { name: 'tada: 2' }).click();
    await onAlice.getByRole('button', { name: 'tada: 1', pressed: true }).waitFor({ timeout: LIVE_MS });
    // Only the sender edits (a member deletes only their own).
    expect(await onBob.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    expect(await onBob.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await onAlice.getByRole('button', { name: 'Edit' }).click();
    const editBox = onAlice.getByRole('textbox', { name: 'Edit message' });
    await expect(editBox.inputValue({ timeout: LIVE_MS })).resolves.toBe('React to this');
    await editBox.fill('React to this, **edited**');
    await onAlice.getByRole('button', { name: 'Save' }).click();
    const edited = messages(b).filter({ hasText: 'React to this, edited' });
    await edited.getByText('(edited)').waitFor({ timeout: LIVE_MS });
    expect(await edited.locator('strong', { hasText: 'edited' }).count()).toBe(1);
    // A star is one's own: Bob's shows pressed, Alice's not.
    await edited.getByRole('button', { name: 'Star', exact: true }).click();
    await edited.getByRole('button', { name: 'Star', exact: true, pressed: true }).waitFor({ timeout: LIVE_MS });
    expect(await onAlice.getByRole('button', { name: 'Star', exact: true, pressed: true }).count()).toBe(0);
    // Alice deletes it; it leaves Bob's screen.
    await onAlice.getByRole('button', { name: 'Delete' }).click();
    await onAlice.getByRole('button', { name: 'Confirm delete' }).click();
    await edited.waitFor({ state: 'detached', timeout: LIVE_MS });
  });

  it('keeps the API key out of the browser, and refuses its session without the CSRF token', async () => {
    const [, page] = await alicesAndBobs();
    const cookies = await page.context().cookies();
    expect(cookies.find((cookie) => cookie.name === 'sessionid')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    expect(JSON.stringify(cookies)).not.toContain(bob.apiKey);
    expect(await page.evaluate('document.cookie')).not.toContain('sessionid');
    expectSuccess(await system.api.get('/users/me', {}, { subdomain: '', auth: bob }));
    // The page's own session, on a request that may change something, without X-CSRFToken.
    const status = await page.evaluate(`fetch('/json/messages', { method: 'POST', body: new URLSearchParams({ type: 'stream', to: 'general', topic: 'x', content: 'forged' }) }).then((res) => res.status)`);
    expect(status).toBe(403);
  });

  it('loaded nothing the Content-Security-Policy refused', () => {
    expect(violations).toEqual([]);
  });
});

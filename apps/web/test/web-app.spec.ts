import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Factory, TestSystem, expectSuccess, workspaceRoot, type TestUser } from '@teamchat/testing';
import { Role } from '@teamchat/zulip';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
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
  let carol: TestUser;
  let factory: Factory;
  let realm: { id: number };
  const contexts: BrowserContext[] = [];
  const violations: string[] = [];

  beforeAll(async () => {
    // Installing chromium with apt-get (a fresh CI machine) can take minutes; the rest takes seconds.
    // A short heartbeat, so a poll notices a lost queue in seconds (the test of re-registering).
    [system, browser] = await Promise.all([TestSystem.start({ env: { EVENT_HEARTBEAT_SECONDS: '2' } }), launchChromium()]);
    base = `http://127.0.0.1:${system.ports.gateway}`;
    factory = new Factory(system.db);
    // The browser's Host is an IP address, which selects the root organization.
    realm = await factory.organization({ subdomain: '', name: 'Acme' });
    alice = await factory.user(realm, { role: Role.OWNER, fullName: 'Alice Owner', email: 'alice@acme.test' });
    bob = await factory.user(realm, { role: Role.MEMBER, fullName: 'Bob Member', email: 'bob@acme.test' });
    carol = await factory.user(realm, { role: Role.MEMBER, fullName: 'Carol Member', email: 'carol@acme.test' });
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
    await page.getByRole('button', { name: 'Send', exact: true }).click();
  }

  /** The sidebar's views: Inbox, Recent conversations, Mentions, … */
  const view = (page: Page, name: string) => page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name, exact: true });

  /** Whether the element has the keyboard's focus. */
  const focused = (locator: Locator) => locator.evaluate((element: { ownerDocument: { activeElement: unknown } }) => element === element.ownerDocument.activeElement);

  /** Waits until `check` holds (polled), failing with `what` after `ms`. */
  async function eventually(what: string, check: () => Promise<boolean>, ms = LIVE_MS): Promise<void> {
    const until = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > until) throw new Error(`not within ${ms} ms: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
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
    await b.getByRole('button', { name: 'Send', exact: true }).click();
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
    expect(await onBob.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0);
    expect(await onBob.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
    await onAlice.getByRole('button', { name: 'Edit', exact: true }).click();
    const editBox = onAlice.getByRole('textbox', { name: 'Edit message' });
    await expect(editBox.inputValue({ timeout: LIVE_MS })).resolves.toBe('React to this');
    await editBox.fill('React to this, **edited**');
    await onAlice.getByRole('button', { name: 'Save' }).click();
    const edited = messages(b).filter({ hasText: 'React to this, edited' });
    await edited.getByText('(edited)').waitFor({ timeout: LIVE_MS });
    expect(await edited.locator('strong', { hasText: 'edited' }).count()).toBe(1);
    // Bob reads the edit history, quotes the message and previews his reply.
    await edited.getByRole('button', { name: 'Edit history' }).click();
    const history = edited.getByRole('dialog', { name: 'Edit history' });
    await history.getByRole('listitem').nth(1).waitFor({ timeout: LIVE_MS });
    const versions = await history.getByRole('listitem').allTextContents();
    expect(versions).toHaveLength(2);
    expect(versions[0]).toMatch(/^Original.*React to this$/);
    expect(versions[1]).toMatch(/^Edited by Alice Owner.*React to this, edited$/);
    await history.getByRole('button', { name: 'Close' }).click();
    await edited.getByRole('button', { name: 'Quote and reply' }).click();
    const box = b.getByRole('textbox', { name: 'Message' });
    await eventually('the quote is in the box', async () => (await box.inputValue()).includes('```quote\nReact to this, **edited**\n```'));
    expect(await box.inputValue()).toMatch(/^@_\*\*Alice Owner\|\d+\*\* \[said\]\(#narrow\/channel\/\d+-general\/topic\/actions\/near\/\d+\):\n/);
    expect(await b.getByRole('textbox', { name: 'Topic' }).inputValue()).toBe('actions');
    await b.getByRole('button', { name: 'Preview' }).click();
    // The server renders it: the quote fence a blockquote holding the quoted Markdown, as in Zulip.
    const preview = b.getByRole('region', { name: 'Preview' });
    await preview.getByRole('link', { name: 'said' }).waitFor({ timeout: LIVE_MS });
    expect(await preview.locator('blockquote').textContent()).toContain('React to this, edited');
    expect(await preview.locator('blockquote strong', { hasText: 'edited' }).count()).toBe(1);
    await box.fill('');
    // A star is one's own: Bob's shows pressed, Alice's not.
    await edited.getByRole('button', { name: 'Star', exact: true }).click();
    await edited.getByRole('button', { name: 'Star', exact: true, pressed: true }).waitFor({ timeout: LIVE_MS });
    expect(await onAlice.getByRole('button', { name: 'Star', exact: true, pressed: true }).count()).toBe(0);
    // Alice deletes it; it leaves Bob's screen.
    await onAlice.getByRole('button', { name: 'Delete', exact: true }).click();
    await onAlice.getByRole('button', { name: 'Confirm delete' }).click();
    await edited.waitFor({ state: 'detached', timeout: LIVE_MS });
  });

  it('lists unread conversations in the Inbox, recent ones, mentions and starred messages, and searches with operators', async () => {
    const [a] = await alicesAndBobs();
    // Alice looks at her Inbox (not at #general, where she would read it at once); Bob mentions her.
    await view(a, 'Inbox').click();
    const inbox = a.getByRole('region', { name: 'Inbox' });
    await inbox.waitFor();
    expectSuccess(await system.api.post('/messages', { type: 'stream', to: 'general', topic: 'views', content: '@**Alice Owner** see the views' }, { subdomain: '', auth: bob }));
    await inbox.getByRole('link', { name: '#general › views' }).click({ timeout: LIVE_MS });
    await a.getByRole('heading', { name: '#general › views' }).waitFor();
    await messages(a).filter({ hasText: 'see the views' }).waitFor();
    // Read now: it leaves the Inbox.
    await view(a, 'Inbox').click();
    await inbox.getByRole('link', { name: '#general › views' }).waitFor({ state: 'detached', timeout: LIVE_MS });
    await view(a, 'Recent conversations').click();
    const recent = a.getByRole('region', { name: 'Recent conversations' }).getByRole('link');
    await recent.first().waitFor();
    expect(await recent.first().textContent()).toBe('#general › views');
    await view(a, 'Mentions').click();
    await a.getByRole('heading', { name: 'Mentions' }).waitFor();
    const mention = messages(a).filter({ hasText: 'see the views' });
    await mention.getByRole('button', { name: 'Star', exact: true }).click();
    await mention.getByRole('button', { name: 'Star', exact: true, pressed: true }).waitFor({ timeout: LIVE_MS });
    await view(a, 'Starred messages').click();
    await a.getByRole('heading', { name: 'Starred messages' }).waitFor();
    await messages(a).filter({ hasText: 'see the views' }).waitFor({ timeout: LIVE_MS });
    // `/` goes to the search box; operators and words narrow; a channel and topic alone is that topic.
    await a.getByRole('region', { name: 'Messages' }).click();
    await a.keyboard.press('/');
    const search = a.getByRole('searchbox', { name: 'Search' });
    expect(await focused(search)).toBe(true);
    await search.fill('sender:bob@acme.test views');
    await search.press('Enter');
    await a.getByRole('heading', { name: 'Search: sender:bob@acme.test views' }).waitFor();
    await messages(a).filter({ hasText: 'see the views' }).waitFor({ timeout: LIVE_MS });
    expect(await messages(a).count()).toBe(1);
    await search.fill('channel:general topic:lunch');
    await search.press('Enter');
    await a.getByRole('heading', { name: '#general › lunch' }).waitFor();
    // j/k select messages, r replies to the selected one, Esc lets go, c starts a new topic.
    await a.getByRole('link', { name: 'Combined feed' }).click();
    await messages(a).first().waitFor();
    await a.getByRole('region', { name: 'Messages' }).focus();
    await a.keyboard.press('k');
    await a.keyboard.press('k');
    const selected = a.getByRole('region', { name: 'Messages' }).locator('article[aria-current="true"]');
    expect(await selected.count()).toBe(1);
    const selectedTopic = await selected.getByRole('link').first().textContent();
    await a.keyboard.press('r');
    await eventually('the reply goes to the Message box', () => focused(a.getByRole('textbox', { name: 'Message' })));
    expect(selectedTopic).toContain(await a.getByRole('textbox', { name: 'Topic' }).inputValue());
    await a.keyboard.press('Escape');
    await a.keyboard.press('c');
    await eventually('c goes to the Topic box', () => focused(a.getByRole('textbox', { name: 'Topic' })));
    expect(await a.getByRole('textbox', { name: 'Topic' }).inputValue()).toBe('');
  });

  it('keeps what is typed as a server draft, restores it from Drafts, and drops it once sent', async () => {
    const [a] = await alicesAndBobs();
    await a.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: 'general' }).click();
    await a.getByRole('textbox', { name: 'Topic' }).fill('drafty');
    await a.getByRole('textbox', { name: 'Message' }).fill('half a thought');
    const draft = a.getByRole('region', { name: 'Drafts' }).getByRole('listitem', { name: 'Draft to #general › drafty' });
    // Saved after the compose box's pause, through the services and back as an event: slower on a loaded CI machine.
    await eventually(
      'the draft is saved',
      async () => {
        await view(a, 'Drafts').click();
        return (await draft.count()) === 1;
      },
      30_000,
    );
    expect(await draft.textContent()).toContain('half a thought');
    expectSuccess(await system.api.get('/drafts', {}, { subdomain: '', auth: alice }));
    await draft.getByRole('button', { name: 'Restore draft' }).click();
    await a.getByRole('heading', { name: '#general › drafty' }).waitFor();
    await eventually('the draft is back in the box', async () => (await a.getByRole('textbox', { name: 'Message' }).inputValue()) === 'half a thought');
    await a.getByRole('textbox', { name: 'Message' }).press('End');
    await a.getByRole('textbox', { name: 'Message' }).pressSequentially(', finished');
    await a.getByRole('button', { name: 'Send', exact: true }).click();
    await messages(a).filter({ hasText: 'half a thought, finished' }).waitFor({ timeout: LIVE_MS });
    await eventually('the sent draft is gone', async () => {
      const answer = expectSuccess(await system.api.get('/drafts', {}, { subdomain: '', auth: alice }));
      return (answer.drafts as unknown[]).length === 0;
    });
    await view(a, 'Drafts').click();
    await a.getByText('No drafts.').waitFor({ timeout: LIVE_MS });
  });

  it('uploads a dropped file through tus with its link in the message, which opens for the recipient', async () => {
    const [a, b] = await alicesAndBobs();
    await a.getByRole('navigation', { name: 'Direct messages' }).getByRole('link', { name: 'Bob Member' }).click();
    await b.getByRole('navigation', { name: 'Direct messages' }).getByRole('link', { name: 'Alice Owner' }).click();
    const dropped = await a.evaluateHandle(`(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['hello from a file'], 'notes.txt', { type: 'text/plain' }));
      return transfer;
    })()`);
    await a.getByRole('form', { name: 'Compose' }).dispatchEvent('drop', { dataTransfer: dropped });
    const box = a.getByRole('textbox', { name: 'Message' });
    await eventually('the link is in the box', async () => /^\[notes\.txt\]\(\/user_uploads\/[^)]+\/notes\.txt\)$/.test(await box.inputValue()), 20_000);
    await box.press('End');
    await box.pressSequentially(' is attached');
    await a.getByRole('button', { name: 'Send', exact: true }).click();
    const link = messages(b).filter({ hasText: 'is attached' }).getByRole('link', { name: 'notes.txt' });
    await link.waitFor({ timeout: LIVE_MS });
    const href = (await link.getAttribute('href')) ?? '';
    expect(href).toMatch(/^\/user_uploads\//);
    // Bob's browser opens it with his session (the link is recorded moments after the send).
    await eventually('Bob can open the file', async () => {
      const opened = await b.evaluate(async (url) => {
        const res = await fetch(url);
        return { status: res.status, text: await res.text() };
      }, href);
      return opened.status === 200 && opened.text === 'hello from a file';
    });
    // A file picked from the picker goes the same way.
    await a.locator('input[type="file"]').setInputFiles({ name: 'picked.txt', mimeType: 'text/plain', buffer: Buffer.from('picked') });
    await eventually('the picked file is linked', async () => (await box.inputValue()).includes('[picked.txt](/user_uploads/'), 20_000);
    await box.fill('');
  });

  it('schedules a message (listed until then, to edit or cancel), which arrives at its time', async () => {
    const [a, b] = await alicesAndBobs();
    for (const page of [a, b]) await page.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: 'general' }).click();
    await a.getByRole('textbox', { name: 'Topic' }).fill('later');
    const scheduleIn = async (text: string, seconds: number) => {
      await a.getByRole('textbox', { name: 'Message' }).fill(text);
      await a.getByRole('button', { name: 'Send later' }).click();
      const at = await a.evaluate((ms) => {
        const date = new Date(Date.now() + ms);
        const pad = (n: number) => String(n).padStart(2, '0');
        return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
      }, seconds * 1000);
      await a.getByLabel('Send at').fill(at);
      await a.getByRole('button', { name: 'Schedule' }).click();
      await eventually('the box is emptied', async () => (await a.getByRole('textbox', { name: 'Message' }).inputValue()) === '');
    };
    await scheduleIn('Cancel me', 3600);
    await scheduleIn('Arrives later', 12);
    await view(a, 'Scheduled messages').click();
    const list = a.getByRole('region', { name: 'Scheduled messages' });
    const cancelled = list.getByRole('listitem').filter({ hasText: 'Cancel me' });
    await cancelled.getByRole('button', { name: 'Cancel scheduled message' }).click();
    await cancelled.waitFor({ state: 'detached', timeout: LIVE_MS });
    const later = list.getByRole('listitem', { name: 'Scheduled message to #general › later' });
    await later.getByRole('button', { name: 'Edit', exact: true }).click();
    await later.getByRole('textbox', { name: 'Message' }).fill('Arrives later, edited');
    await later.getByRole('button', { name: 'Save' }).click();
    await list.getByRole('listitem').filter({ hasText: 'Arrives later, edited' }).getByRole('button', { name: 'Edit', exact: true }).waitFor({ timeout: LIVE_MS });
    expect(await messages(b).filter({ hasText: 'Arrives later' }).count()).toBe(0);
    await messages(b).filter({ hasText: 'Arrives later, edited' }).waitFor({ timeout: 30_000 });
    await a.getByText('No scheduled messages.').waitFor({ timeout: LIVE_MS });
  });

  it('changes one\'s name (seen live by others), password and theme in the settings', async () => {
    const [a, b] = await alicesAndBobs();
    await b.getByRole('link', { name: 'Settings' }).click();
    await b.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    const profile = b.getByRole('form', { name: 'Profile' });
    await profile.getByRole('textbox', { name: 'Full name' }).fill('Bob Renamed');
    await profile.getByRole('button', { name: 'Save name' }).click();
    await profile.getByRole('status').filter({ hasText: 'Saved.' }).waitFor({ timeout: LIVE_MS });
    await a.getByRole('navigation', { name: 'Direct messages' }).getByRole('link', { name: 'Bob Renamed' }).waitFor({ timeout: LIVE_MS });
    await b.getByRole('banner').getByText('Bob Renamed').waitFor({ timeout: LIVE_MS });
    await profile.getByRole('textbox', { name: 'Full name' }).fill('Bob Member');
    await profile.getByRole('button', { name: 'Save name' }).click();
    await a.getByRole('navigation', { name: 'Direct messages' }).getByRole('link', { name: 'Bob Member' }).waitFor({ timeout: LIVE_MS });
    // A wrong current password is refused; the right one changes it (and this session stays).
    const password = b.getByRole('form', { name: 'Password' });
    await password.getByLabel('Current password').fill('not the password');
    await password.getByLabel('New password').fill('a-new-secret-4-bob');
    await password.getByRole('button', { name: 'Change password' }).click();
    await password.getByRole('alert').waitFor({ timeout: LIVE_MS });
    await password.getByLabel('Current password').fill(bob.password);
    await password.getByLabel('New password').fill('a-new-secret-4-bob');
    await password.getByRole('button', { name: 'Change password' }).click();
    await password.getByRole('status').filter({ hasText: 'Your password was changed.' }).waitFor({ timeout: LIVE_MS });
    bob.password = 'a-new-secret-4-bob';
    // The theme is a setting: dark whatever the system says, then automatic again.
    const theme = b.getByRole('group', { name: 'Theme' });
    await theme.getByRole('radio', { name: 'Dark' }).check();
    await eventually('the page turns dark', async () => (await b.evaluate('document.documentElement.dataset.theme')) === 'dark');
    await b.screenshot({ path: path.join(SCREENSHOTS, 'settings-dark.png') });
    await theme.getByRole('radio', { name: /Automatic/ }).check();
    await eventually('the page follows the system again', async () => (await b.evaluate('document.documentElement.dataset.theme')) === undefined);
  });

  it('gives administrators the users page (role, deactivation), which a member cannot reach and whose calls the server refuses them', async () => {
    const [a, b] = await alicesAndBobs();
    // Bob, a member: no link, an explanation at the address, and the API's refusal.
    expect(await b.getByRole('link', { name: 'Organization' }).count()).toBe(0);
    await b.goto(`${base}/#organization/users`);
    await b.getByRole('alert').filter({ hasText: 'Only organization administrators can manage users.' }).waitFor({ timeout: LIVE_MS });
    expect(await b.getByRole('table', { name: 'Users' }).count()).toBe(0);
    const refused = (await b.evaluate(`(async () => {
      const token = document.cookie.split('; ').find((c) => c.startsWith('csrftoken=')).slice('csrftoken='.length);
      const res = await fetch('/json/users/${carol.id}', { method: 'PATCH', headers: { 'X-CSRFToken': token }, body: new URLSearchParams({ role: '200' }) });
      return { status: res.status, body: await res.json() };
    })()`)) as { status: number; body: { result: string } };
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.body.result).toBe('error');
    expect((await system.db.user.findUniqueOrThrow({ where: { id: carol.id } })).role).toBe(Role.MEMBER);
    // Alice, the owner: Carol becomes an administrator, then is deactivated.
    await a.getByRole('link', { name: 'Organization' }).click();
    const users = a.getByRole('table', { name: 'Users' });
    await users.getByRole('combobox', { name: 'Role of Carol Member' }).selectOption({ label: 'Administrator' });
    await eventually('Carol is an administrator', async () => (await system.db.user.findUniqueOrThrow({ where: { id: carol.id } })).role === Role.ADMINISTRATOR);
    await users.getByRole('button', { name: 'Deactivate Carol Member' }).click();
    await users.getByRole('button', { name: 'Confirm deactivation of Carol Member' }).click();
    await users.getByRole('row', { name: /Carol Member/ }).waitFor({ state: 'detached', timeout: LIVE_MS });
    expect((await system.db.user.findUniqueOrThrow({ where: { id: carol.id } })).isActive).toBe(false);
  });

  it('mutes and follows a topic, and marks it resolved, which the other side sees live', async () => {
    const [a, b] = await alicesAndBobs();
    const general = await system.db.stream.findFirstOrThrow({ where: { name: 'general' } });
    await a.goto(`${base}/#narrow/channel/${general.id}-general/topic/lunch`);
    const actions = a.getByRole('toolbar', { name: 'Topic actions' });
    // (Alice began the topic: the server may follow it for her already.) Each policy replaces the other.
    await actions.getByRole('button', { name: 'Mute topic' }).click();
    await actions.getByRole('button', { name: 'Mute topic', pressed: true }).waitFor({ timeout: LIVE_MS });
    expect(await actions.getByRole('button', { name: 'Follow topic', pressed: true }).count()).toBe(0);
    await actions.getByRole('button', { name: 'Follow topic' }).click();
    await actions.getByRole('button', { name: 'Follow topic', pressed: true }).waitFor({ timeout: LIVE_MS });
    expect(await actions.getByRole('button', { name: 'Mute topic', pressed: true }).count()).toBe(0);
    await actions.getByRole('button', { name: 'Mute topic' }).click();
    await actions.getByRole('button', { name: 'Mute topic', pressed: true }).waitFor({ timeout: LIVE_MS });
    // A message to the muted topic does not count for its channel; unmuted, it does.
    await a.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: 'design' }).click();
    expectSuccess(await system.api.post('/messages', { type: 'stream', to: 'general', topic: 'lunch', content: 'Muted chatter' }, { subdomain: '', auth: bob }));
    const generalCount = a.getByRole('navigation', { name: 'Channels' }).getByRole('listitem').filter({ hasText: 'general' }).getByLabel(/unread/);
    await eventually('the message reached Alice', async () => (await a.getByRole('navigation', { name: 'Views' }).getByRole('listitem').filter({ hasText: 'Inbox' }).getByLabel(/unread/).count()) === 1);
    expect(await generalCount.count()).toBe(0);
    expectSuccess(await system.api.post('/user_topics', { stream_id: general.id, topic: 'lunch', visibility_policy: 0 }, { subdomain: '', auth: alice }));
    await generalCount.waitFor({ timeout: LIVE_MS });
    // Resolved: Alice's view follows the topic, and Bob's topic list shows it renamed.
    await b.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: 'general' }).click();
    await a.goto(`${base}/#narrow/channel/${general.id}-general/topic/lunch`);
    await a.getByRole('toolbar', { name: 'Topic actions' }).getByRole('button', { name: 'Mark as resolved' }).click();
    await a.getByRole('heading', { name: '#general › ✔ lunch' }).waitFor({ timeout: LIVE_MS });
    await messages(a).filter({ hasText: 'Lunch at noon?' }).waitFor({ timeout: LIVE_MS });
    await b.getByRole('navigation', { name: 'Topics' }).getByRole('link', { name: '✔ lunch' }).waitFor({ timeout: LIVE_MS });
    await a.getByRole('toolbar', { name: 'Topic actions' }).getByRole('button', { name: 'Mark as unresolved' }).click();
    await a.getByRole('heading', { name: '#general › lunch' }).waitFor({ timeout: LIVE_MS });
  });

  it('keeps a channel of 10,000 messages fast: only those in view are in the page, older ones load as it scrolls up', async () => {
    const [a] = await alicesAndBobs();
    // 10,000 messages written straight to the store (read, so no count moves elsewhere).
    const archive = await factory.channel(realm, { name: 'archive', subscribers: [alice, bob] });
    const TOTAL = 10_000;
    const rows = Array.from({ length: TOTAL }, (_, i) => ({
      realmId: realm.id,
      senderId: bob.id,
      streamId: archive.id,
      topic: `old ${Math.floor(i / 500)}`,
      content: `archived ${i}`,
      renderedContent: `<p>archived ${i}</p>`,
    }));
    const made = await system.db.message.createManyAndReturn({ data: rows, select: { id: true } });
    await system.db.userMessage.createMany({ data: made.flatMap(({ id }) => [alice, bob].map((user) => ({ userId: user.id, messageId: id, flags: 1 }))) });
    await system.db.stream.update({ where: { id: archive.id }, data: { firstMessageId: made[0].id } });
    await a.goto(`${base}/#narrow/channel/${archive.id}-archive`);
    await messages(a).filter({ hasText: `archived ${TOTAL - 1}` }).waitFor({ timeout: LIVE_MS });
    const list = a.getByRole('region', { name: 'Messages' });
    // Scrolled to the top (again and again): older pages come, the page holding only a screenful.
    let oldest = TOTAL;
    await eventually('three older pages', async () => {
      await list.evaluate((element: { scrollTop: number }) => {
        element.scrollTop = 0;
      });
      await a.waitForTimeout(100);
      for (const text of await list.getByRole('article').allTextContents()) oldest = Math.min(oldest, Number(/archived (\d+)$/.exec(text)?.[1] ?? TOTAL));
      return oldest <= TOTAL - 400;
    }, 30_000);
    expect(await list.getByRole('article').count()).toBeLessThan(60);
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

import http from 'node:http';
import { Factory, TestSystem, expectError, expectSuccess, type ApiResponse, type FormValue, type TestUser } from '@teamchat/testing';
import { Role } from '@teamchat/zulip';

/** A browser's cookie jar for one organization, speaking to /json and /accounts as the web app does. */
class Browser {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly system: TestSystem,
    private readonly subdomain: string,
  ) {}

  get csrfToken(): string {
    return this.cookies.get('csrftoken') ?? '';
  }

  /** Sends a request with the jar's cookies (and the CSRF token unless `csrf` says otherwise), and keeps what it sets. */
  async send(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    form: Record<string, FormValue> = {},
    options: { csrf?: string | null; auth?: string } = {},
  ): Promise<ApiResponse<Record<string, unknown>>> {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers.Cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const csrf = options.csrf === undefined ? this.csrfToken : options.csrf;
    if (csrf !== null && method !== 'GET') headers['X-CSRFToken'] = csrf;
    const res =
      method === 'GET'
        ? await this.system.api.get(path, form, { subdomain: this.subdomain, headers, auth: options.auth })
        : await this.system.api.request<Record<string, unknown>>(method, path, form, { subdomain: this.subdomain, headers, auth: options.auth });
    this.keep(res);
    return res;
  }

  keep(res: ApiResponse<unknown>): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      const [name, value] = [pair.slice(0, eq), pair.slice(eq + 1)];
      if (/Max-Age=0/.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** What the app's page does first: a `csrftoken` cookie for the login form. */
  primeCsrf(): void {
    this.cookies.set('csrftoken', 'prelogin-token-0123456789abcdef');
  }

  async logIn(user: TestUser, password = user.password) {
    if (!this.cookies.has('csrftoken')) this.primeCsrf();
    return this.send('POST', '/accounts/login', { username: user.email, password });
  }
}

describe('browser sessions: POST /accounts/login, /json with the session cookie and CSRF token', () => {
  let system: TestSystem;
  let factory: Factory;
  let realm: { id: number };
  let owner: TestUser;
  let member: TestUser;
  let channel: { id: number; name: string };
  const subdomain = 'acme';

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    realm = await factory.organization({ subdomain });
    owner = await factory.user(realm, { role: Role.OWNER });
    member = await factory.user(realm, { role: Role.MEMBER });
    channel = await factory.channel(realm, { name: 'general', subscribers: [owner, member] });
  });
  afterAll(() => system.stop());

  it('logs in with email and password: an HttpOnly SameSite=Lax session cookie and a CSRF cookie, never the API key', async () => {
    const browser = new Browser(system, subdomain);
    const res = await browser.logIn(member);
    const body = expectSuccess(res);
    expect(body).toEqual({ result: 'success', msg: '', user_id: member.id, email: member.email, full_name: member.fullName });
    expect(JSON.stringify(body)).not.toContain(member.apiKey);
    const setCookies = res.headers.getSetCookie();
    const session = setCookies.find((line) => line.startsWith('sessionid='));
    expect(session).toMatch(/; HttpOnly/);
    expect(session).toMatch(/; SameSite=Lax/);
    expect(session).toMatch(/; Path=\//);
    expect(session).not.toContain(member.apiKey);
    const csrf = setCookies.find((line) => line.startsWith('csrftoken='));
    expect(csrf).not.toMatch(/HttpOnly/);
    expect(browser.csrfToken).not.toBe('prelogin-token-0123456789abcdef');

    const me = expectSuccess(await browser.send('GET', '/json/users/me'));
    expect(me).toMatchObject({ user_id: member.id, email: member.email });
  });

  it('refuses a wrong password with Zulip\'s answer and sets no session', async () => {
    const browser = new Browser(system, subdomain);
    const res = await browser.logIn(member, 'not the password');
    expectError(res, 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
    expect(browser.cookies.has('sessionid')).toBe(false);
  });

  it('refuses a login without the CSRF token (login CSRF)', async () => {
    const browser = new Browser(system, subdomain);
    expectError(await browser.send('POST', '/accounts/login', { username: member.email, password: member.password }, { csrf: null }), 403, 'CSRF_FAILED', 'CSRF error: CSRF token missing.');
    browser.primeCsrf();
    expectError(await browser.send('POST', '/accounts/login', { username: member.email, password: member.password }, { csrf: 'another' }), 403, 'CSRF_FAILED', 'CSRF error: CSRF token incorrect.');
    expect(browser.cookies.has('sessionid')).toBe(false);
  });

  it('refuses an unsafe /json request without the session\'s CSRF token, and serves it with the token', async () => {
    const browser = new Browser(system, subdomain);
    expectSuccess(await browser.logIn(member));
    const message = { type: 'stream', to: channel.name, topic: 'csrf', content: 'hello' };
    expectError(await browser.send('POST', '/json/messages', message, { csrf: null }), 403, 'CSRF_FAILED', 'CSRF error: CSRF token missing.');
    expectError(await browser.send('POST', '/json/messages', message, { csrf: 'x'.repeat(43) }), 403, 'CSRF_FAILED', 'CSRF error: CSRF token incorrect.');
    const sent = expectSuccess(await browser.send('POST', '/json/messages', message));
    expect(sent.id).toEqual(expect.any(Number));
  });

  it('answers /json without a session with 401 and a Session challenge, and never takes Basic credentials there', async () => {
    const res = await system.api.get('/json/users/me', {}, { subdomain });
    expectError(res, 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
    expect(res.headers.get('www-authenticate')).toBe('Session realm="zulip"');
    expectError(await system.api.get('/json/users/me', {}, { subdomain, auth: member }), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
    expectError(await system.api.post('/json/messages', { type: 'stream', to: channel.name, topic: 't', content: 'x' }, { subdomain, auth: member }), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
    // An API key in the query string either.
    expectError(await system.api.get(`/json/user_uploads/${realm.id}/ab/file.txt`, { api_key: member.apiKey }, { subdomain }), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
  });

  it('does not take the session cookie under /api/v1, nor serve fetch_api_key under /json, nor /JSON at all', async () => {
    const browser = new Browser(system, subdomain);
    expectSuccess(await browser.logIn(member));
    const cookie = `sessionid=${browser.cookies.get('sessionid')}`;
    expectError(await system.api.get('/users/me', {}, { subdomain, headers: { Cookie: cookie } }), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
    expectError(await browser.send('POST', '/json/fetch_api_key', { username: member.email, password: member.password }), 404, 'NOT_FOUND', 'Not Found');
    const upper = await system.api.raw('GET', '/JSON/users/me', undefined, { subdomain, headers: { Cookie: cookie } });
    expect(upper.status).toBe(404);
  });

  it('registers an event queue and long-polls it under /json', async () => {
    const browser = new Browser(system, subdomain);
    expectSuccess(await browser.logIn(owner));
    const queue = expectSuccess(await browser.send('POST', '/json/register', { event_types: ['message'], fetch_event_types: [], apply_markdown: true }));
    const other = new Browser(system, subdomain);
    expectSuccess(await other.logIn(member));
    expectSuccess(await other.send('POST', '/json/messages', { type: 'stream', to: channel.name, topic: 'live', content: 'over the queue' }));
    const polled = expectSuccess(await browser.send('GET', '/json/events', { queue_id: queue.queue_id as string, last_event_id: -1 }));
    expect(polled.events).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'message', message: expect.objectContaining({ content: '<p>over the queue</p>' }) })]));
  });

  it('serves a file under /user_uploads/ to a browser by its session cookie alone', async () => {
    const boundary = 'teamchatboundary';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\nhello file\r\n--${boundary}--\r\n`;
    const uploaded = expectSuccess(
      await system.api.raw('POST', '/user_uploads', body, { subdomain, auth: owner, contentType: `multipart/form-data; boundary=${boundary}` }),
    );
    const url = String(uploaded.url);
    expect(url).toMatch(/^\/user_uploads\//);
    // The uploader's own browser (a file no message links yet is theirs alone).
    const browser = new Browser(system, subdomain);
    expectSuccess(await browser.logIn(owner));
    /** A GET as an <img> or a link makes it: the cookie, no Authorization, no CSRF header. */
    const fetchFile = (cookie?: string) =>
      new Promise<{ status: number; text: string; challenge?: string }>((resolve, reject) => {
        const headers: Record<string, string> = { Host: system.api.hostFor(subdomain) };
        if (cookie) headers.Cookie = cookie;
        http
          .get(`${system.api.baseUrl}${url}`, { headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString(), challenge: res.headers['www-authenticate'] }));
          })
          .on('error', reject);
      });
    expect(await fetchFile(`sessionid=${browser.cookies.get('sessionid')}`)).toMatchObject({ status: 200, text: 'hello file' });
    expect(await fetchFile()).toMatchObject({ status: 401, challenge: 'Basic realm="zulip"' });
    expect(await fetchFile(`sessionid=${'x'.repeat(43)}`)).toMatchObject({ status: 401, challenge: 'Session realm="zulip"' });
  });

  it('takes a tus upload under /json by the session and its CSRF token, and keeps it under /json', async () => {
    const browser = new Browser(system, subdomain);
    expectSuccess(await browser.logIn(member));
    const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const tus = { Cookie: cookie, 'Tus-Resumable': '1.0.0' };
    const metadata = `filename ${Buffer.from('hi.txt').toString('base64')}`;
    const created = await system.api.raw('POST', '/json/tus', undefined, { subdomain, headers: { ...tus, 'X-CSRFToken': browser.csrfToken, 'Upload-Length': '5', 'Upload-Metadata': metadata } });
    expect(created.status).toBe(201);
    // Where the upload goes on: under /json, where the session admits it (not /api/v1).
    const location = created.headers.get('location') ?? '';
    expect(location).toMatch(/^\/json\/tus\/[0-9a-f]{32}$/);
    const done = await system.api.raw('PATCH', location, 'hello', {
      subdomain,
      contentType: 'application/offset+octet-stream',
      headers: { ...tus, 'X-CSRFToken': browser.csrfToken, 'Upload-Offset': '0' },
    });
    expect(done.status).toBe(200);
    expect(done.headers.get('upload-offset')).toBe('5');
    expect(done.body).toMatchObject({ url: expect.stringMatching(/^\/user_uploads\/.*\/hi\.txt$/), filename: 'hi.txt' });
    // The session without its CSRF token makes no upload.
    const forged = await system.api.raw('POST', '/json/tus', undefined, { subdomain, headers: { ...tus, 'Upload-Length': '5', 'Upload-Metadata': metadata } });
    expect(forged.status).toBe(401);
    expect(forged.body).toEqual({ message: 'Unauthenticated upload' });
  });

  it('ends the session at logout (which needs the CSRF token)', async () => {
    const browser = new Browser(system, subdomain);
    expectSuccess(await browser.logIn(member));
    const cookie = browser.cookies.get('sessionid');
    expectError(await browser.send('POST', '/accounts/logout', {}, { csrf: null }), 403, 'CSRF_FAILED', 'CSRF error: CSRF token missing.');
    const out = await browser.send('POST', '/accounts/logout');
    expectSuccess(out);
    expect(out.headers.getSetCookie().find((line) => line.startsWith('sessionid='))).toMatch(/Max-Age=0/);
    // The old cookie, replayed, names nothing any more.
    const replay = await system.api.get('/json/users/me', {}, { subdomain, headers: { Cookie: `sessionid=${cookie}` } });
    expectError(replay, 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
  });

  it("ends a user's other sessions when the password changes, keeping the one that changed it", async () => {
    const user = await factory.user(realm, { password: 'old password 1' });
    const [here, elsewhere] = [new Browser(system, subdomain), new Browser(system, subdomain)];
    expectSuccess(await here.logIn(user));
    expectSuccess(await elsewhere.logIn(user));
    expectSuccess(await here.send('PATCH', '/json/settings', { old_password: 'old password 1', new_password: 'a much better passphrase' }));
    expectSuccess(await here.send('GET', '/json/users/me'));
    expectError(await elsewhere.send('GET', '/json/users/me'), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
  });

  it('ends the sessions of a deactivated user', async () => {
    const user = await factory.user(realm);
    const browser = new Browser(system, subdomain);
    expectSuccess(await browser.logIn(user));
    expectSuccess(await system.api.delete(`/users/${user.id}`, {}, { subdomain, auth: owner }));
    expectError(await browser.send('GET', '/json/users/me'), 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
  });
});

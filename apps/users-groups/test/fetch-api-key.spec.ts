import type { RealmModel } from '@teamchat/db';
import { Factory, TestSystem, expectError, expectMatchesOpenApi, expectSuccess, type ApiResponse, type TestUser } from '@teamchat/testing';
import { Role } from '@teamchat/zulip';

describe('POST /fetch_api_key', () => {
  let system: TestSystem;
  let factory: Factory;
  let realm: RealmModel;
  let user: TestUser;
  const on = { subdomain: 'keys' };
  const fetchKey = (form: Record<string, string>, subdomain = on.subdomain) => system.api.post('/fetch_api_key', form, { subdomain });

  /** A failure of this endpoint: exact body, and never a WWW-Authenticate challenge. */
  const expectFailure = (res: ApiResponse<unknown>, status: number, code: string, msg: string, extra?: Record<string, unknown>) => {
    expectError(res, status, code, msg, extra);
    expect(res.headers.get('www-authenticate')).toBeNull();
  };
  const wrongCredentials = (res: ApiResponse<unknown>) =>
    expectFailure(res, 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    realm = await factory.organization({ subdomain: on.subdomain });
    user = await factory.user(realm, { email: 'Kim.Keys@Example.Test', password: 'correct horse battery' });
  });
  afterAll(() => system.stop());

  it('exchanges the right username and password for the API key, email and user id', async () => {
    const res = await fetchKey({ username: user.email, password: 'correct horse battery' });
    const body = expectSuccess(res);
    expect(body).toEqual({ result: 'success', msg: '', api_key: user.apiKey, email: 'Kim.Keys@Example.Test', user_id: user.id });
    expectMatchesOpenApi('post', '/fetch_api_key', body);
  });

  it('returns a key that authenticates GET /users', async () => {
    const { api_key, email } = expectSuccess(await fetchKey({ username: user.email, password: user.password })) as {
      api_key: string;
      email: string;
    };
    const res = await system.api.get('/users', {}, { ...on, auth: { email, apiKey: api_key } });
    expect(expectSuccess(res).members).toEqual(expect.arrayContaining([expect.objectContaining({ user_id: user.id })]));
  });

  it('matches the username case-insensitively and answers with the stored address', async () => {
    const res = await fetchKey({ username: '  kim.keys@EXAMPLE.test ', password: user.password });
    expect(expectSuccess(res)).toMatchObject({ api_key: user.apiKey, email: 'Kim.Keys@Example.Test', user_id: user.id });
  });

  it('compares the username exactly: `_` and `%` are not wildcards', async () => {
    wrongCredentials(await fetchKey({ username: 'kim_keys@example.test', password: user.password }));
    wrongCredentials(await fetchKey({ username: 'kim.keys@%', password: user.password }));
  });

  it('issues a key to an account that has none yet, and the same key on the next call', async () => {
    const keyless = await factory.user(realm);
    await system.db.apiKey.delete({ where: { userId: keyless.id } });
    const first = expectSuccess(await fetchKey({ username: keyless.email, password: keyless.password })) as { api_key: string };
    expect(first.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    const second = expectSuccess(await fetchKey({ username: keyless.email, password: keyless.password })) as { api_key: string };
    expect(second.api_key).toBe(first.api_key);
  });

  it('answers a wrong password and an unknown user identically', async () => {
    const wrong = await fetchKey({ username: user.email, password: 'not it' });
    const unknown = await fetchKey({ username: 'nobody@example.test', password: 'not it' });
    wrongCredentials(wrong);
    wrongCredentials(unknown);
    expect(unknown.body).toEqual(wrong.body);
  });

  it('refuses an account without a password', async () => {
    const passwordless = await factory.user(realm);
    await system.db.passwordCredential.delete({ where: { userId: passwordless.id } });
    wrongCredentials(await fetchKey({ username: passwordless.email, password: passwordless.password }));
  });

  it('tells a deactivated user so only when the password is right', async () => {
    const gone = await factory.user(realm, { isActive: false });
    expectFailure(await fetchKey({ username: gone.email, password: gone.password }), 401, 'USER_DEACTIVATED', 'Account is deactivated');
    wrongCredentials(await fetchKey({ username: gone.email, password: 'guess' }));
  });

  it('refuses every login to a deactivated organization', async () => {
    const closed = await factory.organization({ deactivated: true });
    const former = await factory.user(closed, { role: Role.OWNER });
    const res = await fetchKey({ username: former.email, password: former.password }, closed.subdomain);
    expectFailure(res, 401, 'REALM_DEACTIVATED', 'This organization has been deactivated');
  });

  it('refuses password logins where password authentication is disabled', async () => {
    const sso = await factory.organization({ passwordAuthEnabled: false });
    const ssoUser = await factory.user(sso);
    const res = await fetchKey({ username: ssoUser.email, password: ssoUser.password }, sso.subdomain);
    expectFailure(res, 401, 'PASSWORD_AUTH_DISABLED', 'Password authentication is disabled in this organization');
  });

  it('refuses a username that is not an email address with 400', async () => {
    expectFailure(await fetchKey({ username: 'kim', password: user.password }), 400, 'BAD_REQUEST', 'Enter a valid email address.');
    expectFailure(await fetchKey({ username: '', password: user.password }), 400, 'BAD_REQUEST', 'Enter a valid email address.');
  });

  it('requires both username and password', async () => {
    expectFailure(await fetchKey({ password: user.password }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'username' argument", {
      var_name: 'username',
    });
    expectFailure(await fetchKey({ username: user.email }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'password' argument", {
      var_name: 'password',
    });
    expectFailure(await fetchKey({}), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'username' argument", { var_name: 'username' });
  });

  it("does not let a user of one organization log in through another organization's host", async () => {
    const other = await factory.organization({ subdomain: 'elsewhere' });
    const outsider = await factory.user(other);
    wrongCredentials(await fetchKey({ username: outsider.email, password: outsider.password }));
    expect(expectSuccess(await fetchKey({ username: outsider.email, password: outsider.password }, 'elsewhere')).user_id).toBe(outsider.id);
  });

  it('answers a host naming no organization with 404 NONEXISTENT_SUBDOMAIN', async () => {
    expectFailure(await fetchKey({ username: user.email, password: user.password }, 'nowhere'), 404, 'NONEXISTENT_SUBDOMAIN', 'Invalid subdomain');
  });

  it('ignores an Authorization header of any kind', async () => {
    const res = await system.api.post('/fetch_api_key', { username: user.email, password: user.password }, { ...on, auth: 'Bearer junk' });
    expect(expectSuccess(res).api_key).toBe(user.apiKey);
  });
});

import {
  Factory,
  PushRelayStandIn,
  TestSystem,
  expectError,
  expectMatchesOpenApi,
  expectSuccess,
  type FormValue,
  type TestUser,
} from '@teamchat/testing';

const APNS = '/users/me/apns_device_token';
const FCM = '/users/me/android_gcm_reg_id';

describe('push tokens registered the older way, and their test notification', () => {
  let relay: PushRelayStandIn;
  let system: TestSystem;
  let subdomain: string;
  let realmId: number;
  let member: TestUser, other: TestUser, bot: TestUser, phone: TestUser;

  const as = (user: TestUser) => ({ auth: user, subdomain });
  const post = (path: string, form: Record<string, FormValue>, user = member) => system.api.post(path, form, as(user));
  const del = (path: string, form: Record<string, FormValue>, user = member) => system.api.delete(path, form, as(user));

  beforeAll(async () => {
    relay = await PushRelayStandIn.start();
    system = await TestSystem.start({ env: { ...relay.env(), PUSH_RELAY_TIMEOUT_MS: '700' } });
    const factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'tokens' });
    member = org.member;
    subdomain = org.realm.subdomain;
    realmId = org.realm.id;
    other = await factory.user(org.realm, { fullName: 'Other Member' });
    bot = await factory.user(org.realm, { fullName: 'Token Bot', isBot: true, botOwnerId: member.id });
    phone = await factory.user(org.realm, { fullName: 'Phone Owner' });
  });
  afterAll(async () => {
    await system?.stop();
    await relay?.stop();
  });
  beforeEach(() => relay.reset());

  it('answers Zulip’s APNs examples: adds c0ffee for org.zulip.Zulip, forwarded to the relay, then removes it', async () => {
    const added = expectSuccess(await post(APNS, { token: 'c0ffee', appid: 'org.zulip.Zulip' }));
    expectMatchesOpenApi('post', APNS, added);
    const [register] = relay.of('push/register');
    expect(register.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(register.body).toEqual({ realm_id: String(realmId), user_id: String(member.id), token: 'c0ffee', token_kind: '1', ios_app_id: 'org.zulip.Zulip' });
    expect(register.headers.authorization).toBe(`Basic ${Buffer.from('test-server-uuid:test-server-key').toString('base64')}`);
    expect(await system.db.pushDeviceToken.count({ where: { userId: member.id, kind: 1, token: 'c0ffee' } })).toBe(1);

    const removed = expectSuccess(await del(APNS, { token: 'c0ffee' }));
    expectMatchesOpenApi('delete', APNS, removed);
    expect(relay.of('push/unregister')[0].body).toEqual({ realm_id: String(realmId), user_id: String(member.id), token: 'c0ffee', token_kind: '1' });
    expect(await system.db.pushDeviceToken.count({ where: { userId: member.id, token: 'c0ffee' } })).toBe(0);
  });

  it('answers Zulip’s FCM examples: adds android-token, then removes it', async () => {
    expectMatchesOpenApi('post', FCM, expectSuccess(await post(FCM, { token: 'android-token' })));
    expect(relay.of('push/register')[0].body).toEqual({ realm_id: String(realmId), user_id: String(member.id), token: 'android-token', token_kind: '2' });
    expectMatchesOpenApi('delete', FCM, expectSuccess(await del(FCM, { token: 'android-token' })));
    expect(relay.of('push/unregister')).toHaveLength(1);
  });

  it('refuses bad tokens with Zulip’s texts, and a token nobody registered', async () => {
    for (const [path, form, msg] of [
      [FCM, { token: '' }, 'Empty or invalid length token'],
      [FCM, { token: 'x'.repeat(4097) }, 'Empty or invalid length token'],
      [APNS, { token: '', appid: 'org.zulip.Zulip' }, 'Empty or invalid length token'],
      [APNS, { token: 'not-hex', appid: 'org.zulip.Zulip' }, 'Invalid APNS token'],
    ] as const) {
      const res = await post(path, form);
      expectError(res, 400, 'BAD_REQUEST', msg);
      expectMatchesOpenApi('post', path, res.body, 400);
    }
    expectError(await post(APNS, { token: 'c0ffee' }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'appid' argument", { var_name: 'appid' });
    expectError(await post(FCM, {}), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'token' argument", { var_name: 'token' });
    const unknown = await del(FCM, { token: 'never-registered' });
    expectError(unknown, 400, 'BAD_REQUEST', 'Token does not exist');
    expectMatchesOpenApi('delete', FCM, unknown.body, 400);
    expect(relay.of('push/register')).toHaveLength(0);
  });

  it('refuses bots, as Zulip’s human_users_only does', async () => {
    expectError(await post(FCM, { token: 'bot-token' }, bot), 400, 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
  });

  it('reports the relay’s failures with Zulip’s codes', async () => {
    relay.setMode('fail');
    expectError(await post(FCM, { token: 'tok-5xx' }), 502, 'INTERNAL_SERVER_ERROR_ON_BOUNCER', 'Internal server error on Zulip push notification service, retry later.');
    relay.setMode('refuse');
    expectError(await post(FCM, { token: 'tok-403' }), 403, 'ADMIN_ACTION_REQUIRED', 'Push notification configuration issue on server, contact the server administrator or retry later.');
    relay.setMode('hang');
    expectError(await post(FCM, { token: 'tok-hang' }), 502, 'FAILED_TO_CONNECT_BOUNCER', 'Network error while connecting to Zulip push notification service.');
  });

  describe('POST /mobile_push/test_notification', () => {
    it('sends Zulip’s test payload for the named token through the relay', async () => {
      expectSuccess(await post(FCM, { token: '111222' }, phone));
      expectSuccess(await post(APNS, { token: 'abcdef01', appid: 'org.zulip.Zulip' }, phone));
      relay.reset();
      const res = await post('/mobile_push/test_notification', { token: '111222' }, phone);
      expectMatchesOpenApi('post', '/mobile_push/test_notification', expectSuccess(res));
      const [sent] = relay.of('push/test_notification');
      expect(relay.of('push/test_notification')).toHaveLength(1);
      expect(sent.contentType).toMatch(/^application\/json/);
      expect(sent.body).toMatchObject({ realm_id: realmId, user_id: phone.id, token: '111222', token_kind: 2 });
      expect(sent.body.base_payload).toEqual({
        realm_name: expect.any(String),
        realm_id: realmId,
        realm_url: 'http://tokens.testserver.local',
        realm_uri: 'http://tokens.testserver.local',
        user_id: phone.id,
        server: 'tokens.testserver.local',
      });

      relay.reset();
      expectSuccess(await post('/mobile_push/test_notification', {}, phone));
      expect(relay.of('push/test_notification').map((request) => request.body.token).sort()).toEqual(['111222', 'abcdef01']);
    });

    it('answers INVALID_PUSH_DEVICE_TOKEN for a token that is not the caller’s', async () => {
      expectSuccess(await post(FCM, { token: 'others-token' }, other));
      const res = await post('/mobile_push/test_notification', { token: 'others-token' });
      expectError(res, 400, 'INVALID_PUSH_DEVICE_TOKEN', 'Device not recognized');
      expectMatchesOpenApi('post', '/mobile_push/test_notification', res.body, 400);
    });

    it('passes on the relay’s INVALID_REMOTE_PUSH_DEVICE_TOKEN when it no longer knows the token', async () => {
      expectSuccess(await post(FCM, { token: 'forgotten' }));
      relay.tokens.clear();
      const res = await post('/mobile_push/test_notification', { token: 'forgotten' });
      expectError(res, 400, 'INVALID_REMOTE_PUSH_DEVICE_TOKEN', 'Device not recognized by the push bouncer');
      expectMatchesOpenApi('post', '/mobile_push/test_notification', res.body, 400);
    });
  });

  it('says push notifications are enabled when a relay is configured (server_settings and /register)', async () => {
    const settings = expectSuccess(await system.api.get('/server_settings', {}, { subdomain }));
    expect(settings.push_notifications_enabled).toBe(true);
    const state = expectSuccess(await system.api.post('/register', { fetch_event_types: ['realm'] }, as(member)));
    expect(state.realm_push_notifications_enabled).toBe(true);
  });
});

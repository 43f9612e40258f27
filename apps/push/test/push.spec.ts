import sodium from 'libsodium-wrappers';
import type { ClientEvent } from '@teamchat/contracts';
import {
  EventQueueClient,
  Factory,
  PushRelayStandIn,
  TestSystem,
  expectCallersRefused,
  expectError,
  expectMatchesOpenApi,
  expectSuccess,
  type EventRecorder,
  type FormValue,
  type TestUser,
} from '@teamchat/testing';

const DEVICE_CHANGED = 'event.push.push_device_changed.v1';
const REGISTER = 'push/e2ee/register';
const NOTIFY = 'push/e2ee/notify';

type Form = Record<string, FormValue>;
interface Device {
  publicKey: string;
  keyPair: { publicKey: Uint8Array; privateKey: Uint8Array };
}

const TEXTS = {
  notConfigured: 'Server is not configured to use push notification service.',
  noDevice: 'No active registered push device',
  admin: 'Push notification configuration issue on server, contact the server administrator or retry later.',
  connect: 'Network error while connecting to Zulip push notification service.',
  server: 'Internal server error on Zulip push notification service, retry later.',
};

describe('mobile push (E2EE)', () => {
  let relay: PushRelayStandIn;
  let system: TestSystem;
  let factory: Factory;
  let events: EventRecorder;
  let subdomain: string;
  let realmId: number;
  let realmUrl: string;
  let member: TestUser, guest: TestUser, other: TestUser, bot: TestUser, deactivated: TestUser, outsider: TestUser;
  let nextAccountId = 5000;

  const as = (user: TestUser, sub = subdomain) => ({ auth: user, subdomain: sub });
  const newDevice = (): Device => {
    const keyPair = sodium.crypto_box_keypair();
    return { keyPair, publicKey: Buffer.from(keyPair.publicKey).toString('base64') };
  };
  const registration = (device: Device, pushAccountId: number, overrides: Form = {}): Form => ({
    token_kind: 'fcm',
    push_account_id: pushAccountId,
    push_public_key: device.publicKey,
    bouncer_public_key: 'bouncer-key-1',
    encrypted_push_registration: Buffer.from(`sealed-for-the-relay-${pushAccountId}-${Math.random()}`).toString('base64'),
    ...overrides,
  });
  const register = (user: TestUser, form: Form, sub = subdomain) => system.api.post('/mobile_push/register', form, as(user, sub));
  const testNotify = (user: TestUser, form: Form = {}, sub = subdomain) => system.api.post('/mobile_push/e2ee/test_notification', form, as(user, sub));
  const rowOf = (user: TestUser, pushAccountId: number) =>
    system.db.pushDevice.findUnique({ where: { userId_pushAccountId: { userId: user.id, pushAccountId: BigInt(pushAccountId) } } });
  const deviceEvents = (user: TestUser, pushAccountId: number) =>
    events
      .of<ClientEvent>(DEVICE_CHANGED)
      .filter((event) => event.users.includes(user.id) && event.event.push_account_id === String(pushAccountId))
      .map((event) => event.event);
  const waitForStatus = async (user: TestUser, pushAccountId: number, status: string) => {
    const deadline = Date.now() + 10000;
    while (!deviceEvents(user, pushAccountId).some((event) => event.status === status)) {
      if (Date.now() > deadline) throw new Error(`no ${status} event for ${pushAccountId}: ${JSON.stringify(events.of(DEVICE_CHANGED))}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  /** Registers a device and waits until the relay took it. */
  const activeDevice = async (user: TestUser): Promise<{ device: Device; pushAccountId: number }> => {
    const device = newDevice();
    const pushAccountId = nextAccountId++;
    expectSuccess(await register(user, registration(device, pushAccountId)));
    await waitForStatus(user, pushAccountId, 'active');
    return { device, pushAccountId };
  };
  const open = (device: Device, encrypted: string) =>
    JSON.parse(Buffer.from(sodium.crypto_box_seal_open(Buffer.from(encrypted, 'base64'), device.keyPair.publicKey, device.keyPair.privateKey)).toString('utf8')) as Record<string, unknown>;
  const expectEventMatchesOpenApi = (event: Record<string, unknown>) =>
    expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: 'q', events: [{ id: 0, ...event }] });

  beforeAll(async () => {
    await sodium.ready;
    relay = await PushRelayStandIn.start();
    system = await TestSystem.start({
      env: { ...relay.env(), PUSH_RELAY_TIMEOUT_MS: '700', PUSH_REGISTRATION_RETRY_MS: '150', PUSH_REGISTRATION_ATTEMPTS: '3' },
    });
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'push' });
    ({ member, guest } = org);
    subdomain = org.realm.subdomain;
    realmId = org.realm.id;
    realmUrl = `http://push.${new URL(system.env.EXTERNAL_URL).host}`;
    other = await factory.user(org.realm, { fullName: 'Other Member' });
    bot = await factory.user(org.realm, { fullName: 'Push Bot', isBot: true, botOwnerId: member.id });
    deactivated = await factory.user(org.realm, { fullName: 'Gone', isActive: false });
    const elsewhere = await factory.organization({ subdomain: 'elsewhere' });
    outsider = await factory.user(elsewhere);
    events = await system.recordEvents();
  });
  afterAll(async () => {
    await system?.stop();
    await relay?.stop();
  });
  beforeEach(() => {
    events.clear();
    relay.reset();
  });

  describe('POST /mobile_push/register', () => {
    it('stores the device as pending, forwards it to the relay, then reports it active', async () => {
      const device = newDevice();
      const pushAccountId = nextAccountId++;
      const form = registration(device, pushAccountId, { token_kind: 'apns' });
      const body = expectSuccess(await register(member, form));
      expectMatchesOpenApi('post', '/mobile_push/register', body);
      expect(body).toEqual({ result: 'success', msg: '' });

      await waitForStatus(member, pushAccountId, 'active');
      const [pending, active] = events.of<ClientEvent>(DEVICE_CHANGED);
      expect(pending).toEqual({ realmId, users: [member.id], event: { type: 'push_device', push_account_id: String(pushAccountId), status: 'pending' } });
      expect(active).toEqual({ realmId, users: [member.id], event: { type: 'push_device', push_account_id: String(pushAccountId), status: 'active' } });
      expectEventMatchesOpenApi(pending.event);
      expectEventMatchesOpenApi(active.event);

      const [sent] = relay.of(REGISTER);
      expect(sent.method).toBe('POST');
      expect(sent.contentType).toMatch(/^application\/x-www-form-urlencoded/);
      expect(sent.headers.authorization).toBe(`Basic ${Buffer.from('test-server-uuid:test-server-key').toString('base64')}`);
      expect(sent.headers['user-agent']).toMatch(/^ZulipServer\//);
      expect(sent.body).toEqual({
        realm_id: String(realmId),
        push_account_id: String(pushAccountId),
        encrypted_push_registration: form.encrypted_push_registration,
        bouncer_public_key: 'bouncer-key-1',
      });

      const row = await rowOf(member, pushAccountId);
      expect(row).toMatchObject({ realmId, tokenKind: 'apns', errorCode: null, bouncerPublicKey: 'bouncer-key-1' });
      expect(row!.bouncerDeviceId).not.toBeNull();
      expect(Buffer.from(row!.pushPublicKey).equals(Buffer.from(device.keyPair.publicKey))).toBe(true);
    });

    it('is a no-op success to register the same device again', async () => {
      const { device, pushAccountId } = await activeDevice(member);
      const before = await rowOf(member, pushAccountId);
      events.clear();
      relay.reset();

      expectSuccess(await register(member, registration(device, pushAccountId)));
      expect(await events.settle(DEVICE_CHANGED, 300)).toEqual([]);
      expect(relay.received).toEqual([]);
      expect(await rowOf(member, pushAccountId)).toEqual(before);
    });

    it('registers anew a device that comes back with a new key', async () => {
      const { pushAccountId } = await activeDevice(member);
      events.clear();
      const renewed = newDevice();
      expectSuccess(await register(member, registration(renewed, pushAccountId)));
      await waitForStatus(member, pushAccountId, 'active');
      expect(deviceEvents(member, pushAccountId).map((event) => event.status)).toEqual(['pending', 'active']);
      const row = await rowOf(member, pushAccountId);
      expect(Buffer.from(row!.pushPublicKey).equals(Buffer.from(renewed.keyPair.publicKey))).toBe(true);
    });

    it('reports a registration the relay refuses as failed, with its code, and retries it when registered again', async () => {
      relay.setMode({ status: 400, code: 'INVALID_BOUNCER_PUBLIC_KEY', msg: 'Invalid bouncer_public_key' }, REGISTER);
      const device = newDevice();
      const pushAccountId = nextAccountId++;
      expectSuccess(await register(member, registration(device, pushAccountId)));
      await waitForStatus(member, pushAccountId, 'failed');
      const failed = deviceEvents(member, pushAccountId).find((event) => event.status === 'failed')!;
      expect(failed).toEqual({ type: 'push_device', push_account_id: String(pushAccountId), status: 'failed', error_code: 'INVALID_BOUNCER_PUBLIC_KEY' });
      expectEventMatchesOpenApi(failed);
      expect(await rowOf(member, pushAccountId)).toMatchObject({ errorCode: 'INVALID_BOUNCER_PUBLIC_KEY', bouncerDeviceId: null });
      expectError(await testNotify(member, { push_account_id: pushAccountId }), 400, 'NO_ACTIVE_PUSH_DEVICE', TEXTS.noDevice);

      relay.reset();
      events.clear();
      expectSuccess(await register(member, registration(device, pushAccountId)));
      await waitForStatus(member, pushAccountId, 'active');
      expect(await rowOf(member, pushAccountId)).toMatchObject({ errorCode: null });
    });

    it('keeps a device pending while the relay fails or refuses this server, and retries', async () => {
      for (const mode of ['fail', 'refuse'] as const) {
        relay.reset();
        relay.setMode(mode, REGISTER);
        const pushAccountId = nextAccountId++;
        expectSuccess(await register(member, registration(newDevice(), pushAccountId)));
        await relay.waitFor(REGISTER, 2);
        expect(await rowOf(member, pushAccountId)).toMatchObject({ errorCode: null, bouncerDeviceId: null });
        relay.setMode('ok', REGISTER);
        await waitForStatus(member, pushAccountId, 'active');
        expect(deviceEvents(member, pushAccountId).map((event) => event.status)).toEqual(['pending', 'active']);
      }
    });

    it('retries a registration while the relay is down', async () => {
      await relay.down();
      const pushAccountId = nextAccountId++;
      try {
        expectSuccess(await register(member, registration(newDevice(), pushAccountId)));
        await waitForStatus(member, pushAccountId, 'pending');
        await new Promise((resolve) => setTimeout(resolve, 200));
      } finally {
        await relay.up();
      }
      await waitForStatus(member, pushAccountId, 'active');
    });

    it('lets a guest register a device', async () => {
      const pushAccountId = nextAccountId++;
      expectSuccess(await register(guest, registration(newDevice(), pushAccountId)));
      await waitForStatus(guest, pushAccountId, 'active');
    });

    it('keeps devices apart per user: the same push account ID is another device for another user', async () => {
      const { pushAccountId } = await activeDevice(member);
      expectSuccess(await register(other, registration(newDevice(), pushAccountId)));
      await waitForStatus(other, pushAccountId, 'active');
      expect(await rowOf(other, pushAccountId)).not.toBeNull();
      expect((await rowOf(member, pushAccountId))!.id).not.toBe((await rowOf(other, pushAccountId))!.id);
    });

    it('refuses bad input', async () => {
      const device = newDevice();
      const good = registration(device, nextAccountId++);
      const refused = async (form: Form, msg: string) => expectError(await register(member, form), 400, 'BAD_REQUEST', msg);
      await refused({ ...good, token_kind: 'gcm' }, 'Invalid token_kind');
      await refused({ ...good, push_account_id: 'abc' }, 'push_account_id is not valid JSON');
      await refused({ ...good, push_account_id: 1.5 }, 'push_account_id is not an integer');
      await refused({ ...good, push_public_key: 'not base64!' }, 'Invalid `push_public_key`');
      await refused({ ...good, push_public_key: Buffer.alloc(31).toString('base64') }, 'Invalid `push_public_key`');
      await refused({ ...good, push_public_key: Buffer.from(device.keyPair.publicKey).toString('base64url') + 'x' }, 'Invalid `push_public_key`');
      await refused({ ...good, bouncer_public_key: ' ' }, 'bouncer_public_key cannot be blank');
      await refused({ ...good, encrypted_push_registration: '' }, 'encrypted_push_registration cannot be blank');
      for (const name of ['token_kind', 'push_account_id', 'push_public_key', 'bouncer_public_key', 'encrypted_push_registration']) {
        const { [name]: _left, ...rest } = good;
        const res = await register(member, rest);
        expectError(res, 400, 'REQUEST_VARIABLE_MISSING', `Missing '${name}' argument`, { var_name: name });
      }
      expect(relay.received).toEqual([]);
      expect(await system.db.pushDevice.count({ where: { pushAccountId: BigInt(good.push_account_id as number) } })).toBe(0);
    });

    it('refuses bots, other organizations and callers without valid credentials', async () => {
      const form = registration(newDevice(), nextAccountId++);
      expectError(await register(bot, form), 400, 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
      await expectCallersRefused((options) => system.api.post('/mobile_push/register', form, options), {
        subdomain,
        member,
        outsider,
        deactivated,
      });
      expect(relay.received).toEqual([]);
    });
  });

  describe('POST /mobile_push/e2ee/test_notification', () => {
    it("seals the test payload to each of the caller's active devices and hands it to the relay", async () => {
      await system.db.pushDevice.deleteMany({ where: { userId: other.id } });
      const first = await activeDevice(other);
      const second = await activeDevice(other);
      // Neither a pending device nor a failed one is notified.
      relay.setMode('hang', REGISTER);
      expectSuccess(await register(other, registration(newDevice(), nextAccountId++)));
      // Registration keeps hanging (the device stays pending) while the notification goes through.
      relay.received.length = 0;

      const before = Math.floor(Date.now() / 1000);
      const body = expectSuccess(await testNotify(other));
      expectMatchesOpenApi('post', '/mobile_push/e2ee/test_notification', body);
      expect(body).toEqual({ result: 'success', msg: '' });

      const [sent] = relay.of(NOTIFY);
      expect(relay.of(NOTIFY)).toHaveLength(1);
      expect(sent.contentType).toMatch(/^application\/json/);
      expect(sent.headers.authorization).toBe(`Basic ${Buffer.from('test-server-uuid:test-server-key').toString('base64')}`);
      const pushRequests = sent.body.push_requests as { device_id: number; payload: { push_account_id: string; encrypted_data: string } }[];
      expect(sent.body.realm_id).toBe(realmId);
      expect(pushRequests.map((request) => request.payload.push_account_id)).toEqual([String(first.pushAccountId), String(second.pushAccountId)]);
      const rows = [await rowOf(other, first.pushAccountId), await rowOf(other, second.pushAccountId)];
      expect(pushRequests.map((request) => request.device_id)).toEqual(rows.map((row) => Number(row!.bouncerDeviceId)));

      for (const [index, { device }] of [first, second].entries()) {
        const payload = open(device, pushRequests[index].payload.encrypted_data);
        expect(payload).toEqual({ type: 'test', realm_name: expect.any(String), realm_url: realmUrl, time: expect.any(Number), user_id: other.id });
        expect(payload.time).toBeGreaterThanOrEqual(before);
        expect(payload.time).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
      }
      // Sealed to one device's key, it opens with no other.
      expect(() => open(second.device, pushRequests[0].payload.encrypted_data)).toThrow();
    });

    it('notifies only the device named by push_account_id', async () => {
      const first = await activeDevice(member);
      const second = await activeDevice(member);
      relay.reset();
      expectSuccess(await testNotify(member, { push_account_id: second.pushAccountId }));
      const [sent] = relay.of(NOTIFY);
      const pushRequests = sent.body.push_requests as { payload: { push_account_id: string; encrypted_data: string } }[];
      expect(pushRequests.map((request) => request.payload.push_account_id)).toEqual([String(second.pushAccountId)]);
      expect(open(second.device, pushRequests[0].payload.encrypted_data).user_id).toBe(member.id);
      expect(first.pushAccountId).not.toBe(second.pushAccountId);
    });

    it('answers NO_ACTIVE_PUSH_DEVICE without an active device, for the caller or the push account ID', async () => {
      const lonely = await factory.user({ id: realmId }, { fullName: 'No Devices' });
      const res = await testNotify(lonely);
      expectError(res, 400, 'NO_ACTIVE_PUSH_DEVICE', TEXTS.noDevice);
      expectMatchesOpenApi('post', '/mobile_push/e2ee/test_notification', res.body, 400);

      // A push account ID of another user's device is not the caller's.
      const { pushAccountId } = await activeDevice(other);
      expectError(await testNotify(lonely, { push_account_id: pushAccountId }), 400, 'NO_ACTIVE_PUSH_DEVICE', TEXTS.noDevice);
      expectError(await testNotify(member, { push_account_id: 999999999 }), 400, 'NO_ACTIVE_PUSH_DEVICE', TEXTS.noDevice);
      // A device still pending is not active.
      relay.setMode('hang', REGISTER);
      const pending = nextAccountId++;
      expectSuccess(await register(lonely, registration(newDevice(), pending)));
      expectError(await testNotify(lonely, { push_account_id: pending }), 400, 'NO_ACTIVE_PUSH_DEVICE', TEXTS.noDevice);
      expect(relay.of(NOTIFY)).toEqual([]);
    });

    it('maps the relay refusing this server to ADMIN_ACTION_REQUIRED', async () => {
      await activeDevice(member);
      for (const mode of ['refuse', { status: 401, code: 'UNAUTHORIZED', msg: 'No such server' }, { status: 400, code: 'PUSH_NOTIFICATIONS_DISALLOWED', msg: 'Your plan does not allow it' }] as const) {
        relay.setMode(mode, NOTIFY);
        const res = await testNotify(member);
        expectError(res, 403, 'ADMIN_ACTION_REQUIRED', TEXTS.admin);
        expectMatchesOpenApi('post', '/mobile_push/e2ee/test_notification', res.body, 403);
      }
    });

    it('maps a relay 5xx to INTERNAL_SERVER_ERROR_ON_BOUNCER', async () => {
      await activeDevice(member);
      relay.setMode('fail', NOTIFY);
      const res = await testNotify(member);
      expectError(res, 502, 'INTERNAL_SERVER_ERROR_ON_BOUNCER', TEXTS.server);
      expectMatchesOpenApi('post', '/mobile_push/e2ee/test_notification', res.body, 502);
    });

    it('maps a relay that does not answer in time to FAILED_TO_CONNECT_BOUNCER', async () => {
      await activeDevice(member);
      relay.setMode('hang', NOTIFY);
      const started = Date.now();
      const res = await testNotify(member);
      expectError(res, 502, 'FAILED_TO_CONNECT_BOUNCER', TEXTS.connect);
      expectMatchesOpenApi('post', '/mobile_push/e2ee/test_notification', res.body, 502);
      expect(Date.now() - started).toBeLessThan(5000);
    });

    it('maps a relay that is down to FAILED_TO_CONNECT_BOUNCER', async () => {
      await activeDevice(member);
      await relay.down();
      try {
        expectError(await testNotify(member), 502, 'FAILED_TO_CONNECT_BOUNCER', TEXTS.connect);
      } finally {
        await relay.up();
      }
    });

    it('refuses bad input, bots, other organizations and callers without valid credentials', async () => {
      expectError(await testNotify(member, { push_account_id: 'x' }), 400, 'BAD_REQUEST', 'push_account_id is not valid JSON');
      expectError(await testNotify(bot), 400, 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
      await expectCallersRefused((options) => system.api.post('/mobile_push/e2ee/test_notification', {}, options), {
        subdomain,
        member,
        outsider,
        deactivated,
      });
      expect(relay.of(NOTIFY)).toEqual([]);
    });
  });

  describe('POST /register', () => {
    it("shows the caller's push devices and their status under push_devices, and delivers push_device events", async () => {
      const caller = await factory.user({ id: realmId }, { fullName: 'Registering Member' });
      const { pushAccountId: active } = await activeDevice(caller);
      relay.setMode({ status: 400, code: 'REQUEST_EXPIRED', msg: 'Request expired' }, REGISTER);
      const failed = nextAccountId++;
      expectSuccess(await register(caller, registration(newDevice(), failed)));
      await waitForStatus(caller, failed, 'failed');
      relay.setMode('hang', REGISTER);
      const pending = nextAccountId++;
      expectSuccess(await register(caller, registration(newDevice(), pending)));

      const queue = await EventQueueClient.register(system.api, as(caller), { event_types: JSON.stringify(['push_device']) });
      expect(queue.state.push_devices).toEqual({
        [String(active)]: { status: 'active', error_code: null },
        [String(failed)]: { status: 'failed', error_code: 'REQUEST_EXPIRED' },
        [String(pending)]: { status: 'pending', error_code: null },
      });
      expectMatchesOpenApi('post', '/register', queue.state);

      relay.setMode('ok', REGISTER);
      const next = nextAccountId++;
      expectSuccess(await register(caller, registration(newDevice(), next)));
      // The device left pending may turn active now the relay answers again: only the new device's events count here.
      const ofNext = () => queue.received.filter((event) => event.type === 'push_device' && event.push_account_id === String(next));
      for (const deadline = Date.now() + 10000; ofNext().length < 2 && Date.now() < deadline; ) {
        await queue.poll({ dontBlock: true });
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const delivered = ofNext();
      expect(delivered.map(({ id: _id, ...event }) => event)).toEqual([
        { type: 'push_device', push_account_id: String(next), status: 'pending' },
        { type: 'push_device', push_account_id: String(next), status: 'active' },
      ]);
      const without = await EventQueueClient.register(system.api, as(caller), { fetch_event_types: JSON.stringify(['message']) });
      expect(without.state.push_devices).toBeUndefined();
    });
  });

  describe('a registration the relay never took', () => {
    it('stays pending after its attempts and is taken up again when the push service starts', async () => {
      relay.setMode('fail', REGISTER);
      const pushAccountId = nextAccountId++;
      expectSuccess(await register(member, registration(newDevice(), pushAccountId)));
      // Other tests' devices may still be retrying: count this one's requests.
      const attemptsOf = () => relay.of(REGISTER).filter((request) => request.body.push_account_id === String(pushAccountId));
      const deadline = Date.now() + 5000;
      while (attemptsOf().length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      relay.setMode('ok', REGISTER);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(attemptsOf()).toHaveLength(3);
      expect(await rowOf(member, pushAccountId)).toMatchObject({ errorCode: null, bouncerDeviceId: null });

      await system.stopService('push');
      await system.startService('push');
      await waitForStatus(member, pushAccountId, 'active');
      expect((await rowOf(member, pushAccountId))!.bouncerDeviceId).not.toBeNull();
    });
  });

  describe('without a relay configured', () => {
    beforeAll(async () => {
      await system.stopService('push');
      system.env.PUSH_RELAY_URL = '';
      await system.startService('push');
    });

    it('answers PUSH_SERVICE_NOT_CONFIGURED to a registration and stores nothing', async () => {
      const pushAccountId = nextAccountId++;
      const res = await register(member, registration(newDevice(), pushAccountId));
      expectError(res, 400, 'PUSH_SERVICE_NOT_CONFIGURED', TEXTS.notConfigured);
      expectMatchesOpenApi('post', '/mobile_push/register', res.body, 400);
      expect(await rowOf(member, pushAccountId)).toBeNull();
      expect(relay.received).toEqual([]);
    });
  });
});

import sodium from 'libsodium-wrappers';
import { Queue } from 'bullmq';
import { Push } from '@teamchat/contracts';
import { bullmqConnection } from '@teamchat/platform';
import { Role } from '@teamchat/zulip';
import { Factory, MailSink, PushRelayStandIn, TestSystem, expectSuccess, type TestUser } from '@teamchat/testing';

interface Device {
  userId: number;
  pushAccountId: number;
  bouncerDeviceId: number;
  keyPair: { publicKey: Uint8Array; privateKey: Uint8Array };
}

const E2EE = 'push/e2ee/notify';
const TOKENS = 'push/notify';

describe('notifications of messages: mobile push and missed-message email', () => {
  let relay: PushRelayStandIn;
  let sink: MailSink;
  let system: TestSystem;
  let factory: Factory;
  let realm: { id: number; subdomain: string };
  let decisions: Queue;
  let pushes: Queue;
  let nextDevice = 1;

  const as = (user: TestUser) => ({ auth: user, subdomain: realm.subdomain });
  const user = (fullName: string, settings: Record<string, unknown> = {}) => factory.user(realm, { fullName, settings, email: `${fullName.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}@example.test` });

  /** An active E2EE device of the user (as the relay would have made it). */
  const device = async (owner: TestUser): Promise<Device> => {
    const keyPair = sodium.crypto_box_keypair();
    const pushAccountId = 9000 + nextDevice;
    const bouncerDeviceId = 70000 + nextDevice++;
    await system.db.pushDevice.create({
      data: {
        realmId: realm.id,
        userId: owner.id,
        pushAccountId: BigInt(pushAccountId),
        tokenKind: 'fcm',
        pushPublicKey: Buffer.from(keyPair.publicKey),
        bouncerPublicKey: 'bouncer-key-1',
        encryptedPushRegistration: `sealed-${pushAccountId}`,
        bouncerDeviceId: BigInt(bouncerDeviceId),
      },
    });
    return { userId: owner.id, pushAccountId, bouncerDeviceId, keyPair };
  };
  const open = (d: Device, encrypted: string) =>
    JSON.parse(Buffer.from(sodium.crypto_box_seal_open(Buffer.from(encrypted, 'base64'), d.keyPair.publicKey, d.keyPair.privateKey)).toString('utf8')) as Record<string, unknown>;

  /** What the relay was asked to show on this device (opened with its key), in order. */
  const shownOn = (d: Device) =>
    relay
      .of(E2EE)
      .flatMap((request) => request.body.push_requests as { device_id: number; payload: { push_account_id: string; encrypted_data: string } }[])
      .filter((request) => request.device_id === d.bouncerDeviceId)
      .map((request) => {
        expect(request.payload.push_account_id).toBe(String(d.pushAccountId));
        return open(d, request.payload.encrypted_data);
      });

  const waitUntil = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  /** The push service's decision for a message: how many it notified by push and by email. */
  const decision = async (messageId: number): Promise<{ push: number; email: number }> => {
    let value: { push: number; email: number } | undefined;
    await waitUntil(`the decision on message ${messageId}`, async () => {
      // Decisions are made in batches: the job whose answer names the message.
      for (const job of await decisions.getJobs(['completed'], 0, 500)) {
        const answer = (job.returnvalue as Record<string, { push: number; email: number }> | null)?.[messageId];
        if (answer) value = answer;
      }
      return value !== undefined;
    });
    return value!;
  };
  /** Waits until the message's push job is finished (or failed for good). */
  const pushed = async (messageId: number) =>
    waitUntil(`the push of message ${messageId}`, async () => {
      const job = await pushes.getJob(Push.pushMessageJobId(messageId));
      return !!job?.finishedOn;
    });

  const dm = async (from: TestUser, to: TestUser[], content: string) =>
    expectSuccess(await system.api.post('/messages', { type: 'direct', to: to.map((u) => u.id), content }, as(from))).id as number;
  const post = async (from: TestUser, channel: { id: number }, topic: string, content: string) =>
    expectSuccess(await system.api.post('/messages', { type: 'stream', to: channel.id, topic, content }, as(from))).id as number;
  /** An open client: an event queue that takes messages. */
  const openQueue = async (owner: TestUser) => expectSuccess(await system.api.post('/register', { event_types: ['message'] }, as(owner)));
  /** A user using the app: an open client, and active by presence (as stored in Postgres). */
  const openClient = async (owner: TestUser) => {
    await openQueue(owner);
    expectSuccess(await system.api.post('/users/me/presence', { status: 'active' }, as(owner)));
    await waitUntil('the presence flush', async () => {
      const row = await system.db.userPresence.findUnique({ where: { userId: owner.id } });
      return !!row?.lastActiveTime && Date.now() - row.lastActiveTime.getTime() < 60_000;
    });
  };

  beforeAll(async () => {
    await sodium.ready;
    relay = await PushRelayStandIn.start();
    sink = await MailSink.start();
    system = await TestSystem.start({
      env: { ...relay.env(), ...sink.env(), PUSH_RELAY_TIMEOUT_MS: '700', PUSH_NOTIFY_ATTEMPTS: '3', PUSH_NOTIFY_BACKOFF_MS: '100', PRESENCE_FLUSH_INTERVAL_MS: '100' },
    });
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'notify' });
    realm = org.realm;
    const { connection, prefix } = bullmqConnection({ REDIS_URL: system.env.REDIS_URL, REDIS_KEY_PREFIX: system.env.REDIS_KEY_PREFIX });
    decisions = new Queue(Push.MESSAGE_NOTIFICATIONS_QUEUE, { connection, prefix });
    pushes = new Queue(Push.MOBILE_PUSH_QUEUE, { connection, prefix });
  });
  afterAll(async () => {
    await decisions?.close();
    await pushes?.close();
    await system?.stop();
    await relay?.stop();
    await sink?.stop();
  });
  beforeEach(() => {
    relay.reset();
    sink.clear();
  });

  describe('mobile push', () => {
    it('a direct message to an idle user reaches the relay once per device, each sealed to its key, with Zulip’s payload', async () => {
      const [sender, idle] = [await user('Dm Sender'), await user('Idle Reader')];
      const [phone, tablet] = [await device(idle), await device(idle)];
      const senderPhone = await device(sender);
      expectSuccess(await system.api.post('/users/me/android_gcm_reg_id', { token: 'fcm-token-idle' }, as(idle)));
      relay.reset();

      const id = await dm(sender, [idle], 'Are you **there**?');
      expect(await decision(id)).toEqual({ push: 1, email: 1 });
      await pushed(id);
      expect(relay.of(E2EE)).toHaveLength(1);
      expect(relay.of(E2EE)[0].body.realm_id).toBe(realm.id);
      for (const d of [phone, tablet]) {
        const [shown] = shownOn(d);
        expect(shownOn(d)).toHaveLength(1);
        expect(shown).toMatchObject({
          type: 'message',
          message_id: id,
          recipient_type: 'direct',
          sender_id: sender.id,
          sender_full_name: 'Dm Sender',
          user_id: idle.id,
          realm_name: expect.any(String),
          realm_url: 'http://notify.testserver.local',
          content: 'Are you there?',
          time: expect.any(Number),
        });
        expect(shown).not.toHaveProperty('pm_users');
      }
      expect(shownOn(senderPhone)).toEqual([]); // never your own message

      const [legacy] = relay.of(TOKENS);
      expect(relay.of(TOKENS)).toHaveLength(1);
      expect(legacy.body).toMatchObject({ realm_id: realm.id, user_id: idle.id, gcm_options: { priority: 'high' } });
      expect(legacy.body.gcm_payload).toMatchObject({ event: 'message', zulip_message_id: id, recipient_type: 'private', sender_id: sender.id, content: 'Are you there?' });
      expect(legacy.body.apns_payload).toMatchObject({ alert: { title: 'Dm Sender', body: 'Are you there?' }, custom: { zulip: { message_ids: [id] } } });
    });

    it('a mention in a channel notifies the mentioned idle user only; a group DM names its members', async () => {
      const [sender, mentioned, bystander] = [await user('Channel Sender'), await user('Mentioned Person'), await user('Bystander')];
      const [mPhone, bPhone] = [await device(mentioned), await device(bystander)];
      const channel = await factory.channel(realm, { name: `mentions-${Date.now()}`, subscribers: [sender, mentioned, bystander] });
      const id = await post(sender, channel, 'plans', `Hello @**Mentioned Person**, look`);
      expect((await decision(id)).push).toBe(1);
      await pushed(id);
      expect(shownOn(mPhone)).toEqual([
        expect.objectContaining({ type: 'message', message_id: id, recipient_type: 'channel', channel_id: channel.id, channel_name: channel.name, topic: 'plans' }),
      ]);
      expect(shownOn(bPhone)).toEqual([]);

      const group = await dm(sender, [mentioned, bystander], 'group hello');
      await decision(group);
      await pushed(group);
      const members = [sender.id, mentioned.id, bystander.id].sort((a, b) => a - b).join(',');
      expect(shownOn(mPhone).at(-1)).toMatchObject({ message_id: group, recipient_type: 'direct', pm_users: members });
    });

    it('a wildcard mention and a followed topic notify; a group mention too', async () => {
      const [sender, follower, member] = [await user('Wild Sender'), await user('Topic Follower'), await user('Group Member')];
      const [fPhone, mPhone] = [await device(follower), await device(member)];
      const channel = await factory.channel(realm, { name: `wild-${Date.now()}`, subscribers: [sender, follower, member] });
      expectSuccess(await system.api.post('/user_topics', { stream_id: channel.id, topic: 'followed', visibility_policy: 3 }, as(follower)));
      const followed = await post(sender, channel, 'followed', 'no mention here');
      expect((await decision(followed)).push).toBe(1);
      await pushed(followed);
      expect(shownOn(fPhone)).toHaveLength(1);
      expect(shownOn(mPhone)).toEqual([]);

      const wildcard = await post(sender, channel, 'other', '@**all** hear this');
      expect((await decision(wildcard)).push).toBe(2);
      await pushed(wildcard);
      expect(shownOn(mPhone).map((p) => p.message_id)).toEqual([wildcard]);
    });

    it('sends nothing to an active user who turned online push off; an active user with it on (the default) is notified', async () => {
      const sender = await user('Active Sender');
      const quiet = await user('Active Quiet', { enable_online_push_notifications: false });
      const loud = await user('Active Loud');
      const [qPhone, lPhone] = [await device(quiet), await device(loud)];
      await openClient(quiet);
      await openClient(loud);
      const toQuiet = await dm(sender, [quiet], 'you are here');
      expect(await decision(toQuiet)).toEqual({ push: 0, email: 0 }); // no email either: a client is open
      const toLoud = await dm(sender, [loud], 'you are here too');
      expect(await decision(toLoud)).toEqual({ push: 1, email: 0 });
      await pushed(toLoud);
      expect(shownOn(lPhone)).toHaveLength(1);
      expect(shownOn(qPhone)).toEqual([]);
    });

    it('a client left open without activity for 140 s counts as off the app (Zulip’s presence-idle users)', async () => {
      const sender = await user('Idle Tab Sender');
      const away = await user('Idle Tab Owner', { enable_online_push_notifications: false });
      const phone = await device(away);
      await openQueue(away);
      await system.db.userPresence.create({
        data: { userId: away.id, realmId: realm.id, lastActiveTime: new Date(Date.now() - 600_000), lastConnectedTime: new Date(), lastUpdateId: 1n },
      });
      const id = await dm(sender, [away], 'are you at your desk?');
      expect(await decision(id)).toEqual({ push: 1, email: 1 });
      await pushed(id);
      expect(shownOn(phone)).toHaveLength(1);
    });

    it('sends nothing for a muted topic or channel (channel notifications on), nor to a deactivated user', async () => {
      const sender = await user('Mute Sender');
      const muter = await user('Topic Muter', { enable_stream_push_notifications: true });
      const gone = await factory.user(realm, { fullName: 'Gone User', isActive: false, settings: { enable_stream_push_notifications: true } });
      const [phone, gonePhone] = [await device(muter), await device(gone)];
      const channel = await factory.channel(realm, { name: `muted-${Date.now()}`, subscribers: [sender, muter, gone] });
      expectSuccess(await system.api.post('/user_topics', { stream_id: channel.id, topic: 'muted one', visibility_policy: 1 }, as(muter)));

      const inMuted = await post(sender, channel, 'muted one', 'quiet please @**all**');
      expect((await decision(inMuted)).push).toBe(0);
      const elsewhere = await post(sender, channel, 'open topic', 'channel notifications apply here');
      expect((await decision(elsewhere)).push).toBe(1);
      await pushed(elsewhere);
      expect(shownOn(phone).map((p) => p.message_id)).toEqual([elsewhere]);
      expect(shownOn(gonePhone)).toEqual([]);

      expectSuccess(await system.api.post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: channel.id, property: 'is_muted', value: true }] }, as(muter)));
      const mutedChannel = await post(sender, channel, 'open topic', 'now the channel is muted');
      expect((await decision(mutedChannel)).push).toBe(0);
    });

    it("notifies through a channel's notifications turned on in the subscription or by the organization's default, and not whoever turned them off", async () => {
      const sender = await user('Default Sender');
      const subscribed = await user('Subscription Pusher', { enable_stream_push_notifications: false });
      // Nothing stored for the setting: the organization's default decides.
      const defaulted = await user('Default Follower');
      const optedOut = await user('Default Opt Out', { enable_stream_push_notifications: false });
      const [sPhone, dPhone, oPhone] = [await device(subscribed), await device(defaulted), await device(optedOut)];
      const channel = await factory.channel(realm, { name: `defaults-${Date.now()}`, subscribers: [sender, subscribed, defaulted, optedOut] });
      const property = { subscription_data: [{ stream_id: channel.id, property: 'push_notifications', value: true }] };
      expectSuccess(await system.api.post('/users/me/subscriptions/properties', property, as(subscribed)));

      const bySubscription = await post(sender, channel, 'news', 'the subscription asks for this one');
      expect((await decision(bySubscription)).push).toBe(1);
      await pushed(bySubscription);
      expect(shownOn(sPhone).map((p) => p.message_id)).toEqual([bySubscription]);
      expect(shownOn(dPhone)).toEqual([]);

      const { userSettingsDefaults } = await system.db.realm.findUniqueOrThrow({ where: { id: realm.id }, select: { userSettingsDefaults: true } });
      const defaults = userSettingsDefaults as Record<string, unknown>;
      await system.db.realm.update({ where: { id: realm.id }, data: { userSettingsDefaults: { ...defaults, enable_stream_push_notifications: true } } });
      try {
        const byDefault = await post(sender, channel, 'news', 'the default asks for this one');
        expect((await decision(byDefault)).push).toBe(2);
        await pushed(byDefault);
        expect(shownOn(dPhone).map((p) => p.message_id)).toEqual([byDefault]);
        expect(shownOn(oPhone)).toEqual([]);
      } finally {
        await system.db.realm.update({ where: { id: realm.id }, data: { userSettingsDefaults: defaults as object } });
      }
    });

    it('reading the message sends the removal to every device', async () => {
      const [sender, reader] = [await user('Removal Sender'), await user('Removal Reader')];
      const phone = await device(reader);
      const id = await dm(sender, [reader], 'read me later');
      await decision(id);
      await pushed(id);
      expect(shownOn(phone)).toHaveLength(1);

      expectSuccess(await system.api.post('/messages/flags', { messages: [id], op: 'add', flag: 'read' }, as(reader)));
      await waitUntil('the removal', () => shownOn(phone).length === 2);
      expect(shownOn(phone)[1]).toEqual({ type: 'remove', message_ids: [id], realm_name: expect.any(String), realm_url: 'http://notify.testserver.local', user_id: reader.id });
    });

    it('deleting the message sends the removal too', async () => {
      const admin = await factory.user(realm, { fullName: 'Deleting Admin', role: Role.ADMINISTRATOR });
      const reader = await user('Deleted Reader');
      const phone = await device(reader);
      const id = await dm(admin, [reader], 'oops, wrong person');
      await decision(id);
      await pushed(id);
      expectSuccess(await system.api.delete(`/messages/${id}`, {}, as(admin)));
      await waitUntil('the removal', () => shownOn(phone).length === 2);
      expect(shownOn(phone)[1]).toMatchObject({ type: 'remove', message_ids: [id], user_id: reader.id });
    });

    it('a relay that fails is retried with backoff; after the last attempt the job stays in the failed set, and a later success delivers once', async () => {
      const [sender, reader] = [await user('Retry Sender'), await user('Retry Reader')];
      const phone = await device(reader);
      relay.setMode('fail', E2EE);
      const lost = await dm(sender, [reader], 'the relay is down');
      await waitUntil('three attempts', () => relay.of(E2EE).length >= 3);
      await waitUntil('the failed job', async () => (await pushes.getJob(Push.pushMessageJobId(lost)))?.failedReason !== undefined && (await pushes.getJob(Push.pushMessageJobId(lost)))?.finishedOn !== undefined);
      const job = await pushes.getJob(Push.pushMessageJobId(lost));
      expect(await job!.getState()).toBe('failed');
      expect(job!.attemptsMade).toBe(3);
      expect(job!.data).toMatchObject({ messageId: lost, userIds: [reader.id] });
      expect(relay.of(E2EE)).toHaveLength(3);
      await waitUntil('the logged failure', () => system.logOf('push').includes('mobile push failed; kept in the failed set'));

      relay.reset();
      relay.setMode('fail', E2EE);
      const retried = await dm(sender, [reader], 'the relay comes back');
      await waitUntil('a first failure', () => relay.of(E2EE).length >= 1);
      relay.reset(); // accepting again; what it received so far was refused
      await pushed(retried);
      expect(await (await pushes.getJob(Push.pushMessageJobId(retried)))!.getState()).toBe('completed');
      expect(shownOn(phone).map((p) => p.message_id)).toEqual([retried]);
    });
  });

  describe('missed-message email', () => {
    const batching = { email_notifications_batching_period_seconds: 2 };
    const mailOf = (u: TestUser) => sink.to(u.email);

    it('mails a missed direct message once after the batching period, with the message in both parts and a link to the conversation', async () => {
      const [sender, away] = [await user('Mail Sender'), await user('Away Reader', batching)];
      const started = Date.now();
      const id = await dm(sender, [away], 'Lunch at *noon*?');
      expect((await decision(id)).email).toBe(1);
      const [mail] = await sink.waitFor(away.email, 1, 8000);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
      expect(mail.subject).toBe('DMs with Mail Sender');
      expect(mail.text).toContain('Lunch at noon?');
      expect(mail.html).toContain('Lunch at <em>noon</em>?');
      expect(mail.text).toContain(`http://notify.testserver.local/#narrow/dm/${sender.id}/near/${id}`);
      expect(mail.html).toContain(`href="http://notify.testserver.local/#narrow/dm/${sender.id}/near/${id}"`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(mailOf(away)).toHaveLength(1);
    });

    it('mails two messages of the period in one email, and nothing for a message read in time', async () => {
      const [sender, away, reader] = [await user('Batch Sender'), await user('Batch Reader', batching), await user('Prompt Reader', batching)];
      await dm(sender, [away], 'first of two');
      await dm(sender, [away], 'second of two');
      const [mail] = await sink.waitFor(away.email, 1, 8000);
      expect(mail.text).toContain('first of two');
      expect(mail.text).toContain('second of two');

      const read = await dm(sender, [reader], 'read before the batch');
      expect((await decision(read)).email).toBe(1);
      expectSuccess(await system.api.post('/messages/flags', { messages: [read], op: 'add', flag: 'read' }, as(reader)));
      await new Promise((resolve) => setTimeout(resolve, 3500));
      expect(mailOf(reader)).toEqual([]);
      expect(mailOf(away)).toHaveLength(1);
    });

    it('mails a mention in a channel under its channel and topic, linked to the topic; without content when the user asks so', async () => {
      const [sender, away, discreet] = [await user('Topic Sender'), await user('Topic Reader', batching), await user('Discreet Reader', { ...batching, message_content_in_email_notifications: false })];
      const channel = await factory.channel(realm, { name: `mail ${Date.now()}`, subscribers: [sender, away, discreet] });
      const id = await post(sender, channel, 'release plan', '@**Topic Reader** @**Discreet Reader** secret launch date');
      const [mail] = await sink.waitFor(away.email, 1, 8000);
      expect(mail.subject).toBe(`#${channel.name} > release plan`);
      expect(mail.text).toContain('secret launch date');
      expect(mail.text).toContain(`/#narrow/channel/${channel.id}-`);
      expect(mail.text).toContain(`/topic/release.20plan/near/${id}`);
      const [quiet] = await sink.waitFor(discreet.email, 1, 8000);
      expect(quiet.text).not.toContain('secret launch date');
      expect(quiet.html).not.toContain('secret launch date');
      expect(quiet.text).toContain('does not include message content');
    });

    it('the unsubscribe link works without logging in and turns missed-message emails off', async () => {
      const [sender, away] = [await user('Unsub Sender'), await user('Unsub Reader', batching)];
      await dm(sender, [away], 'please unsubscribe');
      const [mail] = await sink.waitFor(away.email, 1, 8000);
      const link = /http:\/\/notify\.testserver\.local(\/accounts\/unsubscribe\/missed_messages\/[0-9a-f]+)/.exec(mail.text);
      expect(link).not.toBeNull();
      expect(mail.html).toContain(link![0]);

      const page = await system.api.get<string>(link![1], {}, { subdomain: realm.subdomain });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.body).toContain('no longer receive emails about missed messages');
      const state = expectSuccess(await system.api.post('/register', { fetch_event_types: ['user_settings'] }, as(away)));
      expect((state.user_settings as Record<string, unknown>).enable_offline_email_notifications).toBe(false);
      expect((await decision(await dm(sender, [away], 'after unsubscribing'))).email).toBe(0);

      expect((await system.api.get(link![1], {}, { subdomain: '' })).status).toBe(404); // another organization's host
      expect((await system.api.get('/accounts/unsubscribe/missed_messages/' + '0'.repeat(40), {}, { subdomain: realm.subdomain })).status).toBe(404);
    });
  });
});

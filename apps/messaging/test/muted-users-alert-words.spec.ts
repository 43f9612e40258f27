import type { ClientEvent } from '@teamchat/contracts';
import { Role } from '@teamchat/zulip';
import {
  EventQueueClient,
  Factory,
  TestSystem,
  expectCallersRefused,
  expectError,
  expectMatchesOpenApi,
  expectSuccess,
  type EventRecorder,
  type TestUser,
} from '@teamchat/testing';

const MUTED_USERS_CHANGED = 'event.messaging.muted_users_changed.v1';
const ALERT_WORDS_CHANGED = 'event.messaging.alert_words_changed.v1';
const FLAGS_CHANGED = 'event.messaging.message_flags_changed.v1';
const MESSAGE_SENT = 'event.messaging.message_sent.v1';

interface MessageSent {
  realmId: number;
  message: { id: number };
  recipients: { id: number; flags: string[] }[];
}

const READ = 1;
const HAS_ALERT_WORD = 64;

describe('muted users and alert words', () => {
  let system: TestSystem;
  let factory: Factory;
  let events: EventRecorder;
  let subdomain: string;
  let realmId: number;
  let member: TestUser, other: TestUser, third: TestUser, admin: TestUser, guest: TestUser, bot: TestUser, gone: TestUser;
  let outsider: TestUser;
  let outsiderSubdomain: string;
  let general: { id: number };

  const as = (user: TestUser, sub = subdomain) => ({ auth: user, subdomain: sub });
  const mute = (user: TestUser, id: number | string, sub = subdomain) => system.api.post(`/users/me/muted_users/${id}`, {}, as(user, sub));
  const unmute = (user: TestUser, id: number | string, sub = subdomain) => system.api.delete(`/users/me/muted_users/${id}`, {}, as(user, sub));
  const listWords = (user: TestUser, sub = subdomain) => system.api.get<{ alert_words: string[] }>('/users/me/alert_words', {}, as(user, sub));
  const addWords = (user: TestUser, words: unknown, sub = subdomain) =>
    system.api.post<{ alert_words: string[] }>('/users/me/alert_words', { alert_words: words as never }, as(user, sub));
  const removeWords = (user: TestUser, words: unknown, sub = subdomain) =>
    system.api.delete<{ alert_words: string[] }>('/users/me/alert_words', { alert_words: words as never }, as(user, sub));
  const post = async (from: TestUser, content: string, topic = 'plans') =>
    expectSuccess(await system.api.post('/messages', { type: 'stream', to: general.id, topic, content }, as(from))).id as number;
  const dm = async (from: TestUser, to: TestUser[], content: string) =>
    expectSuccess(await system.api.post('/messages', { type: 'direct', to: to.map((u) => u.id), content }, as(from))).id as number;
  const flagsOf = async (userId: number, messageId: number) =>
    (await system.db.userMessage.findUniqueOrThrow({ where: { userId_messageId: { userId, messageId } } })).flags;
  const mutesOf = (userId: number) => system.db.mutedUser.findMany({ where: { userId }, orderBy: { id: 'asc' } });
  const allMutes = () => system.db.mutedUser.findMany({ orderBy: { id: 'asc' } });
  const allWords = () => system.db.alertWord.findMany({ orderBy: { id: 'asc' } });
  /** The message_sent event of one message. */
  const sentEvent = async (messageId: number): Promise<MessageSent> => {
    const sent = await events.waitFor<MessageSent>(MESSAGE_SENT);
    const event = sent.find((e) => e.message.id === messageId);
    if (!event) throw new Error(`no message_sent event for ${messageId}`);
    return event;
  };
  const flagsIn = (event: MessageSent, userId: number) => event.recipients.find((r) => r.id === userId)!.flags;
  const expectClientEventMatchesOpenApi = (event: Record<string, unknown>) =>
    expectMatchesOpenApi('get', '/events', { result: 'success', msg: '', queue_id: 'q', events: [event] });
  const waitUntil = async (what: string, check: () => Promise<boolean>, timeoutMs = 10000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  beforeAll(async () => {
    system = await TestSystem.start();
    factory = new Factory(system.db);
    const org = await factory.organizationWithStaff({ subdomain: 'muting' });
    ({ member, admin, guest } = org);
    subdomain = org.realm.subdomain;
    realmId = org.realm.id;
    other = await factory.user(org.realm, { fullName: 'Other Member' });
    third = await factory.user(org.realm, { fullName: 'Third Member' });
    bot = await factory.user(org.realm, { fullName: 'Some Bot', isBot: true, botOwnerId: member.id });
    gone = await factory.user(org.realm, { fullName: 'Gone Member', isActive: false });
    general = await factory.channel(org.realm, { name: 'general', subscribers: [member, other, third, admin] });
    const elsewhere = await factory.organization({ subdomain: 'elsewhere' });
    outsiderSubdomain = elsewhere.subdomain;
    outsider = await factory.user(elsewhere, { role: Role.OWNER });
    events = await system.recordEvents();
  });
  afterAll(() => system.stop());
  beforeEach(() => events.clear());

  describe('POST /users/me/muted_users/{muted_user_id}', () => {
    it('mutes a user: stored, their unread messages read for the muter only, and the muter’s clients told', async () => {
      const earlierDm = await dm(other, [member], 'hello before muting');
      const earlierPost = await post(other, 'a channel message before muting');
      const byThird = await post(third, 'not from the muted user');
      const queue = await EventQueueClient.register(system.api, as(member), { event_types: ['muted_users', 'update_message_flags'] });
      const otherQueue = await EventQueueClient.register(system.api, as(third), { event_types: ['muted_users'] });
      events.clear();

      const before = Math.floor(Date.now() / 1000);
      const body = expectSuccess(await mute(member, other.id));
      expectMatchesOpenApi('post', '/users/me/muted_users/{muted_user_id}', body);
      expect(body).toEqual({ result: 'success', msg: '' });

      const [row] = await mutesOf(member.id);
      expect(row).toMatchObject({ userId: member.id, mutedUserId: other.id });
      const timestamp = Math.floor(row.dateMuted.getTime() / 1000);
      expect(timestamp).toBeGreaterThanOrEqual(before - 1);
      expect((await flagsOf(member.id, earlierDm)) & READ).toBe(READ);
      expect((await flagsOf(member.id, earlierPost)) & READ).toBe(READ);
      expect((await flagsOf(member.id, byThird)) & READ).toBe(0);
      expect((await flagsOf(third.id, earlierPost)) & READ).toBe(0);

      const [flags] = await events.waitFor<ClientEvent>(FLAGS_CHANGED);
      expect(flags).toEqual({
        realmId,
        users: [member.id],
        event: { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [earlierDm, earlierPost].sort((a, b) => a - b), all: false },
      });
      const [muted] = await events.waitFor<ClientEvent>(MUTED_USERS_CHANGED);
      expect(muted).toEqual({ realmId, users: [member.id], event: { type: 'muted_users', muted_users: [{ id: other.id, timestamp }] } });

      const [clientEvent] = await queue.waitFor('muted_users');
      expect(clientEvent).toMatchObject({ type: 'muted_users', muted_users: [{ id: other.id, timestamp }] });
      expectClientEventMatchesOpenApi(clientEvent);
      expect(queue.received.find((e) => e.type === 'update_message_flags')).toMatchObject({ flag: 'read', messages: [earlierDm, earlierPost].sort((a, b) => a - b) });
      expect(await otherQueue.settle()).toEqual([]);

      const registered = expectSuccess(await system.api.post('/register', { fetch_event_types: ['muted_users'] }, as(member)));
      expect(registered.muted_users).toEqual([{ id: other.id, timestamp }]);
      const thirdState = expectSuccess(await system.api.post('/register', { fetch_event_types: ['muted_users'] }, as(third)));
      expect(thirdState.muted_users).toEqual([]);
    });

    it('mutes bots and deactivated users too, each muted list listing every mute in order', async () => {
      expectSuccess(await mute(member, bot.id));
      expectSuccess(await mute(member, gone.id));
      expect((await mutesOf(member.id)).map((row) => row.mutedUserId)).toEqual([other.id, bot.id, gone.id]);
      const published = await events.waitFor<ClientEvent>(MUTED_USERS_CHANGED, 2);
      expect((published[1].event as unknown as { muted_users: { id: number }[] }).muted_users.map((m) => m.id)).toEqual([other.id, bot.id, gone.id]);
    });

    it.each([
      ['oneself', () => member.id, 'Cannot mute self'],
      ['an unknown id', () => 999_999_999, 'No such user'],
      ['an id past any row', () => 2 ** 40, 'No such user'],
      ['a user of another organization', () => outsider.id, 'No such user'],
      ['a user already muted', () => other.id, 'User already muted'],
    ])('refuses %s and changes nothing', async (_what, id, msg) => {
      const before = await allMutes();
      expectError(await mute(member, id()), 400, 'BAD_REQUEST', msg);
      expect(await allMutes()).toEqual(before);
      expect(await events.publishedByNow(MUTED_USERS_CHANGED)).toEqual([]);
    });

    it('answers a muted_user_id that is not a number as no such route (as Zulip’s <int:…> pattern)', async () => {
      const before = await allMutes();
      const res = await mute(member, 'abc');
      expect(res.status).toBe(404);
      expect(await allMutes()).toEqual(before);
    });

    it('refuses callers without valid credentials, of another organization, or deactivated', async () => {
      const deactivated = await factory.user({ id: realmId }, { isActive: false });
      await expectCallersRefused((options) => system.api.post(`/users/me/muted_users/${third.id}`, {}, options), { subdomain, member, outsider, deactivated });
      expect(await system.db.mutedUser.count({ where: { mutedUserId: third.id } })).toBe(0);
    });

    it('is open to every role, guests included', async () => {
      expectSuccess(await mute(guest, third.id));
      expectSuccess(await mute(admin, third.id));
      expect((await system.db.mutedUser.findMany({ where: { mutedUserId: third.id } })).map((row) => row.userId).sort()).toEqual([guest.id, admin.id].sort());
      expectSuccess(await unmute(guest, third.id));
      expectSuccess(await unmute(admin, third.id));
    });
  });

  describe('messages from a muted user', () => {
    it('arrive read for the muter only, in the database, the message event and GET /messages', async () => {
      const queue = await EventQueueClient.register(system.api, as(member), { event_types: ['message'] });
      const id = await post(other, 'from someone muted');
      const event = await sentEvent(id);
      expect(flagsIn(event, member.id)).toContain('read');
      expect(flagsIn(event, third.id)).not.toContain('read');
      expect((await flagsOf(member.id, id)) & READ).toBe(READ);
      expect((await flagsOf(third.id, id)) & READ).toBe(0);
      const [delivered] = await queue.waitFor('message');
      expect(delivered.flags).toContain('read');
      const fetched = expectSuccess(
        await system.api.get<{ messages: { id: number; flags: string[] }[] }>(
          '/messages',
          { anchor: id, num_before: 0, num_after: 0, narrow: [] },
          as(member),
        ),
      );
      expect(fetched.messages.find((m) => m.id === id)?.flags).toContain('read');

      const direct = await dm(other, [member, third], 'a group message from someone muted');
      expect((await flagsOf(member.id, direct)) & READ).toBe(READ);
      expect((await flagsOf(third.id, direct)) & READ).toBe(0);
    });

    it('never notify the muter, while the others are notified as usual', async () => {
      const direct = await dm(other, [member, third], 'notify the others only');
      await waitUntil('the notification decision', async () => (await system.db.missedMessageEmail.count({ where: { messageId: direct, userId: third.id } })) === 1);
      expect(await system.db.missedMessageEmail.count({ where: { messageId: direct, userId: member.id } })).toBe(0);
    });

    it('are unread again for new messages once unmuted, and the muted list shrinks', async () => {
      const queue = await EventQueueClient.register(system.api, as(member), { event_types: ['muted_users'] });
      events.clear();
      const body = expectSuccess(await unmute(member, other.id));
      expectMatchesOpenApi('delete', '/users/me/muted_users/{muted_user_id}', body);
      expect((await mutesOf(member.id)).map((row) => row.mutedUserId)).toEqual([bot.id, gone.id]);
      const [published] = await events.waitFor<ClientEvent>(MUTED_USERS_CHANGED);
      expect(published.users).toEqual([member.id]);
      expect((published.event as unknown as { muted_users: { id: number }[] }).muted_users.map((m) => m.id)).toEqual([bot.id, gone.id]);
      const [clientEvent] = await queue.waitFor('muted_users');
      expectClientEventMatchesOpenApi(clientEvent);

      const id = await post(other, 'after unmuting');
      expect((await flagsOf(member.id, id)) & READ).toBe(0);
      expect(flagsIn(await sentEvent(id), member.id)).not.toContain('read');
    });
  });

  describe('DELETE /users/me/muted_users/{muted_user_id}', () => {
    it.each([
      ['a user not muted', () => third.id, 'User is not muted'],
      ['oneself', () => member.id, 'User is not muted'],
      ['an unknown id', () => 999_999_999, 'No such user'],
      ['a user of another organization', () => outsider.id, 'No such user'],
    ])('refuses %s and changes nothing', async (_what, id, msg) => {
      const before = await allMutes();
      expectError(await unmute(member, id()), 400, 'BAD_REQUEST', msg);
      expect(await allMutes()).toEqual(before);
      expect(await events.publishedByNow(MUTED_USERS_CHANGED)).toEqual([]);
    });

    it('refuses callers without valid credentials, of another organization, or deactivated', async () => {
      const deactivated = await factory.user({ id: realmId }, { isActive: false });
      await expectCallersRefused((options) => system.api.delete(`/users/me/muted_users/${bot.id}`, {}, options), { subdomain, member, outsider, deactivated });
      expect((await mutesOf(member.id)).map((row) => row.mutedUserId)).toEqual([bot.id, gone.id]);
    });
  });

  describe('alert words: GET, POST and DELETE /users/me/alert_words', () => {
    it('starts empty', async () => {
      const body = expectSuccess(await listWords(member));
      expectMatchesOpenApi('get', '/users/me/alert_words', body);
      expect(body.alert_words).toEqual([]);
    });

    it('adds words stripped, ignoring blanks and words already there in any case, and answers and announces them all', async () => {
      const queue = await EventQueueClient.register(system.api, as(member), { event_types: ['alert_words'] });
      const thirdQueue = await EventQueueClient.register(system.api, as(third), { event_types: ['alert_words'] });
      const body = expectSuccess(await addWords(member, ['  Deploy ', 'outage', '', '   ', 'DEPLOY', 'on call']));
      expectMatchesOpenApi('post', '/users/me/alert_words', body);
      // Of two spellings sent together the last is kept, in the first one's place (as Zulip's dict does).
      expect(body.alert_words).toEqual(['DEPLOY', 'outage', 'on call']);
      expect((await allWords()).map((w) => [w.userId, w.realmId, w.word])).toEqual([
        [member.id, realmId, 'DEPLOY'],
        [member.id, realmId, 'outage'],
        [member.id, realmId, 'on call'],
      ]);
      const [published] = await events.waitFor<ClientEvent>(ALERT_WORDS_CHANGED);
      expect(published).toEqual({ realmId, users: [member.id], event: { type: 'alert_words', alert_words: ['DEPLOY', 'outage', 'on call'] } });
      const [clientEvent] = await queue.waitFor('alert_words');
      expect(clientEvent).toMatchObject({ type: 'alert_words', alert_words: ['DEPLOY', 'outage', 'on call'] });
      expectClientEventMatchesOpenApi(clientEvent);
      expect(await thirdQueue.settle()).toEqual([]);

      const again = expectSuccess(await addWords(member, ['OUTAGE', 'release']));
      expect(again.alert_words).toEqual(['DEPLOY', 'outage', 'on call', 'release']);
      expect(expectSuccess(await listWords(member)).alert_words).toEqual(['DEPLOY', 'outage', 'on call', 'release']);
      expect(expectSuccess(await listWords(third)).alert_words).toEqual([]);
      const registered = expectSuccess(await system.api.post('/register', { fetch_event_types: ['alert_words'] }, as(member)));
      expect(registered.alert_words).toEqual(['DEPLOY', 'outage', 'on call', 'release']);
    });

    it('removes words whatever their case, ignores unknown ones, and answers and announces those left', async () => {
      events.clear();
      const body = expectSuccess(await removeWords(member, ['release', 'ON CALL', 'never added']));
      expectMatchesOpenApi('delete', '/users/me/alert_words', body);
      expect(body.alert_words).toEqual(['DEPLOY', 'outage']);
      const [published] = await events.waitFor<ClientEvent>(ALERT_WORDS_CHANGED);
      expect(published).toEqual({ realmId, users: [member.id], event: { type: 'alert_words', alert_words: ['DEPLOY', 'outage'] } });
    });

    it.each([
      ['a word over 100 characters', () => addWords(member, ['ok', 'x'.repeat(101)]), 'alert_words[1] is too long (limit: 100 characters)'],
      ['a list that is not a list', () => addWords(member, '"deploy"'), 'alert_words is not a list'],
      ['a list that is not JSON', () => addWords(member, 'deploy'), 'alert_words is not valid JSON'],
      ['a list of non-strings', () => addWords(member, [1]), 'alert_words[0] is not a string'],
      ['no list', () => system.api.post('/users/me/alert_words', {}, as(member)), "Missing 'alert_words' argument"],
      ['no list to remove', () => system.api.delete('/users/me/alert_words', {}, as(member)), "Missing 'alert_words' argument"],
    ])('refuses %s and changes nothing', async (_what, send, msg) => {
      const before = await allWords();
      const missing = msg.startsWith('Missing');
      expectError(await send(), 400, missing ? 'REQUEST_VARIABLE_MISSING' : 'BAD_REQUEST', msg, missing ? { var_name: 'alert_words' } : {});
      expect(await allWords()).toEqual(before);
      expect(await events.publishedByNow(ALERT_WORDS_CHANGED)).toEqual([]);
    });

    it('keeps each organization’s words apart', async () => {
      expect(expectSuccess(await addWords(outsider, ['deploy'], outsiderSubdomain)).alert_words).toEqual(['deploy']);
      expect(expectSuccess(await listWords(member)).alert_words).toEqual(['DEPLOY', 'outage']);
      expect((await system.db.alertWord.findFirstOrThrow({ where: { userId: outsider.id } })).realmId).not.toBe(realmId);
    });

    it('refuses callers without valid credentials, of another organization, or deactivated', async () => {
      const deactivated = await factory.user({ id: realmId }, { isActive: false });
      const who = { subdomain, member, outsider, deactivated };
      await expectCallersRefused((options) => system.api.get('/users/me/alert_words', {}, options), who);
      await expectCallersRefused((options) => system.api.post('/users/me/alert_words', { alert_words: ['intruder'] }, options), who);
      await expectCallersRefused((options) => system.api.delete('/users/me/alert_words', { alert_words: ['deploy'] }, options), who);
      expect((await allWords()).some((w) => w.word === 'intruder')).toBe(false);
      expect(expectSuccess(await listWords(member)).alert_words).toEqual(['DEPLOY', 'outage']);
    });
  });

  describe('alert words in sent messages', () => {
    it('flag recipients whose word the message contains, in any case, never the sender', async () => {
      expectSuccess(await addWords(other, ['deploy']));
      const queue = await EventQueueClient.register(system.api, as(member), { event_types: ['message'] });
      events.clear();
      const id = await post(other, 'Time to DEPLOY, folks.');
      const event = await sentEvent(id);
      expect(flagsIn(event, member.id)).toContain('has_alert_word');
      expect(flagsIn(event, other.id)).not.toContain('has_alert_word');
      expect(flagsIn(event, third.id)).not.toContain('has_alert_word');
      expect((await flagsOf(member.id, id)) & HAS_ALERT_WORD).toBe(HAS_ALERT_WORD);
      expect((await flagsOf(other.id, id)) & HAS_ALERT_WORD).toBe(0);
      expect((await flagsOf(third.id, id)) & HAS_ALERT_WORD).toBe(0);
      const [delivered] = await queue.waitFor('message');
      expect(delivered.flags).toContain('has_alert_word');

      // The sender's own word alerts them when someone else writes it.
      const fromThird = await post(third, 'deploy (again)');
      expect((await flagsOf(other.id, fromThird)) & HAS_ALERT_WORD).toBe(HAS_ALERT_WORD);
      expect((await flagsOf(member.id, fromThird)) & HAS_ALERT_WORD).toBe(HAS_ALERT_WORD);

      const direct = await dm(third, [member], 'is there an outage?');
      expect((await flagsOf(member.id, direct)) & HAS_ALERT_WORD).toBe(HAS_ALERT_WORD);
    });

    it.each([
      ['a longer word', 'the deployment went fine'],
      ['a word inside another', 'redeploy now'],
      ['a fenced code block', '```\ndeploy\n```'],
    ])('leave out %s', async (_what, content) => {
      const id = await post(third, content);
      expect((await flagsOf(member.id, id)) & HAS_ALERT_WORD).toBe(0);
      expect(flagsIn(await sentEvent(id), member.id)).not.toContain('has_alert_word');
    });

    it('follow each change at once (the words cached per organization are dropped on every change)', async () => {
      const before = await post(third, 'a new word: kubernetes');
      expect((await flagsOf(member.id, before)) & HAS_ALERT_WORD).toBe(0);
      expectSuccess(await addWords(member, ['Kubernetes']));
      const during = await post(third, 'a new word: kubernetes');
      expect((await flagsOf(member.id, during)) & HAS_ALERT_WORD).toBe(HAS_ALERT_WORD);
      expectSuccess(await removeWords(member, ['kubernetes']));
      const after = await post(third, 'a new word: kubernetes');
      expect((await flagsOf(member.id, after)) & HAS_ALERT_WORD).toBe(0);
    });

    it('are never another organization’s', async () => {
      // The outsider has "deploy" too, in their own organization.
      const id = await post(third, 'deploy!');
      const event = await sentEvent(id);
      expect(event.recipients.map((r) => r.id)).not.toContain(outsider.id);
      expect(await system.db.userMessage.count({ where: { userId: outsider.id } })).toBe(0);
    });
  });
});
